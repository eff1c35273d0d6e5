#include "lakestream/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace lakestream {

size_t FindInvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    // ASCII runs eight bytes at a time: most text is ASCII.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t length;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;   // overlong
      if (c == 0xED) high = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;   // overlong
      if (c == 0xF4) high = 0x8F;  // past U+10FFFF
    } else {
      return i;  // a continuation byte, C0/C1 (overlong) or F5..FF
    }
    if (i + length > n || s[i + 1] < low || s[i + 1] > high) return i;
    for (size_t k = 2; k < length; k++) {
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

std::string ReplaceInvalidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    size_t bad = FindInvalidUtf8(text);
    if (bad == std::string_view::npos) {
      out.append(text);
      break;
    }
    out.append(text.substr(0, bad));
    out.append("\xEF\xBF\xBD");
    text.remove_prefix(bad + 1);
  }
  return out;
}

std::string DescribeInvalidUtf8(std::string_view text, size_t offset) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "byte 0x";
  auto byte = offset < text.size() ? static_cast<unsigned char>(text[offset]) : 0;
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
  return out + " at offset " + std::to_string(offset);
}

}  // namespace lakestream
