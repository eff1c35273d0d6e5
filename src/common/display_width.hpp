// Terminal display width of UTF-8 text: how many cells a terminal gives it.
// Used wherever text is lined up for people: the shell's tables and the
// caret under a parser error. Also declared in the public
// lakestream/tools.hpp for the shell.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lakestream {

// Decodes one code point at s[i] and advances i past it. An invalid byte
// decodes as itself (and counts as one cell), so broken input still lines up.
uint32_t DecodeUtf8(std::string_view s, size_t& i);

// Cells of one code point: 0 for combining marks and zero-width characters,
// 2 for East Asian wide/fullwidth characters and the common emoji blocks, 1
// otherwise.
int CodePointWidth(uint32_t cp);

// Sum of CodePointWidth over the text.
uint64_t DisplayWidth(std::string_view text);

// The longest prefix of whole code points that fits `width` cells together
// with a trailing "…"; the text itself when it fits.
std::string TruncateToWidth(std::string_view text, uint64_t width);

}  // namespace lakestream
