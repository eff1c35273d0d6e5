#include "common/display_width.hpp"

#include <string>

namespace lakestream {

uint32_t DecodeUtf8(std::string_view s, size_t& i) {
  auto c = static_cast<unsigned char>(s[i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (i + len > s.size()) len = 1;
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < len; k++) {
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) {  // not a continuation byte: treat the lead byte alone
      len = 1;
      cp = c;
      break;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  i += len;
  return cp;
}

int CodePointWidth(uint32_t cp) {
  if (cp == 0) return 0;
  // Combining marks and zero-width joiners/selectors take no cell.
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xFE00 && cp <= 0xFE0F)) return 0;
  // East Asian wide/fullwidth ranges and the common emoji blocks take two.
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
      (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF) ||
      (cp >= 0x20000 && cp <= 0x3FFFD)) {
    return 2;
  }
  return 1;
}

uint64_t DisplayWidth(std::string_view text) {
  uint64_t width = 0;
  for (size_t i = 0; i < text.size();) width += CodePointWidth(DecodeUtf8(text, i));
  return width;
}

std::string TruncateToWidth(std::string_view text, uint64_t width) {
  if (DisplayWidth(text) <= width) return std::string(text);
  if (width == 0) return "";
  // Keep whole code points up to width-1 cells, then the ellipsis (1 cell).
  uint64_t used = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t next = i;
    int w = CodePointWidth(DecodeUtf8(text, next));
    if (used + w > width - 1) break;
    used += w;
    i = next;
  }
  return std::string(text.substr(0, i)) + "…";
}

}  // namespace lakestream
