// UTF-8 validation for text that enters the engine from outside (SQL text,
// CSV and JSON files, the wire protocol's parameters and COPY data): VARCHAR
// holds UTF-8, and bytes that are not would reach Parquet STRING columns,
// JSON output and clients that decode UTF-8 (psycopg, Spark), which fail on
// them. Public so that the server (a tool on the public API) and the engine
// share one check. (Python `bytes` parameters are the one deliberate way to
// put other bytes in a VARCHAR: docs/python.md.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lakestream {

// The offset of the first byte of `text` that does not begin a well-formed
// UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF, no truncated sequence), or std::string_view::npos when all of it
// is well formed.
size_t FindInvalidUtf8(std::string_view text);

inline bool IsValidUtf8(std::string_view text) { return FindInvalidUtf8(text) == std::string_view::npos; }

// `text` with each byte that does not begin a well-formed sequence replaced
// by U+FFFD, for text kept as evidence (a rescued record, a message).
std::string ReplaceInvalidUtf8(std::string_view text);

// "byte 0xFF at offset 12" for messages about the text's first bad byte.
std::string DescribeInvalidUtf8(std::string_view text, size_t offset);

}  // namespace lakestream
