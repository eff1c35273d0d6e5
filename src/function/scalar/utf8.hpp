// UTF-8 helpers for the string functions and LIKE. Strings are taken as
// valid UTF-8 (the readers validate); a stray continuation byte counts as one
// character of its own, so malformed input degrades instead of crashing.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lakestream::utf8 {

// Bytes of the character starting with `lead` (1 for invalid lead bytes).
inline size_t CharLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

// Byte offset of the character after `pos` (clamped to the string end).
inline size_t Next(std::string_view s, size_t pos) {
  size_t n = pos + CharLength(static_cast<unsigned char>(s[pos]));
  return n > s.size() ? s.size() : n;
}

inline bool IsAscii(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

// Number of characters. ASCII prefixes are counted 8 bytes at a time (each
// byte is a character there); the rest character by character.
inline int64_t Length(std::string_view s) {
  size_t i = 0;
  while (i + 8 <= s.size()) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ULL) break;
    i += 8;
  }
  int64_t n = static_cast<int64_t>(i);
  for (; i < s.size(); i = Next(s, i)) n++;
  return n;
}

// Byte offset of character index `chars` (0-based), or s.size() past the end.
inline size_t ByteOffset(std::string_view s, int64_t chars) {
  size_t pos = 0;
  for (int64_t k = 0; k < chars && pos < s.size(); k++) pos = Next(s, pos);
  return pos;
}

// Decodes the character at `pos` (malformed bytes decode to themselves).
inline uint32_t Decode(std::string_view s, size_t pos, size_t& len) {
  auto c = static_cast<unsigned char>(s[pos]);
  len = CharLength(c);
  if (len == 1 || pos + len > s.size()) {
    len = 1;
    return c;
  }
  uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < len; k++) cp = (cp << 6) | (static_cast<unsigned char>(s[pos + k]) & 0x3F);
  return cp;
}

inline void Encode(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Simple case mapping for ASCII, Latin-1, Latin Extended-A, Greek and
// Cyrillic: the scripts our users' data is in. Other code points map to
// themselves (no locale-dependent or multi-character mappings).
inline uint32_t ToLower(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
    return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x17F) {
    bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (odd_upper) return (c % 2 == 1) ? c + 1 : c;
    return (c % 2 == 0) ? c + 1 : c;
  }
  return c;
}

inline uint32_t ToUpper(uint32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) || (c >= 0x430 && c <= 0x44F))
    return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  if (c >= 0x100 && c <= 0x17F && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
    bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (odd_upper) return (c % 2 == 0) ? c - 1 : c;
    return (c % 2 == 1) ? c - 1 : c;
  }
  return c;
}

// Case-maps `s` into `out` (cleared first).
template <bool UPPER>
inline void MapCase(std::string_view s, std::string& out) {
  out.clear();
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(UPPER ? ToUpper(c) : ToLower(c)));
      i++;
      continue;
    }
    size_t len;
    uint32_t cp = Decode(s, i, len);
    Encode(UPPER ? ToUpper(cp) : ToLower(cp), out);
    i += len;
  }
}

}  // namespace lakestream::utf8
