#include "common/decimal.hpp"

#include <algorithm>
#include <array>

namespace lakestream {

hugeint_t Decimal::PowerOfTen(int e) {
  static const auto kTable = [] {
    std::array<hugeint_t, 39> t{};
    t[0] = 1;
    for (int i = 1; i <= 38; i++) t[i] = t[i - 1] * 10;
    return t;
  }();
  return kTable[std::clamp(e, 0, 38)];
}

bool Decimal::FitsWidth(hugeint_t value, uint8_t width) {
  hugeint_t limit = PowerOfTen(width);
  return value < limit && value > -limit;
}

std::string Decimal::HugeintToString(hugeint_t value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  // Work with unsigned to handle the minimum value.
  unsigned __int128 v = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
  std::string digits;
  while (v > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

size_t Decimal::Format(hugeint_t value, uint8_t scale, char* out) {
  bool negative = value < 0;
  // Unsigned magnitude, so the minimum value does not overflow.
  unsigned __int128 v = negative ? ~static_cast<unsigned __int128>(value) + 1 : static_cast<unsigned __int128>(value);
  char digits[48];
  size_t n = 0;
  while (v > 0xFFFFFFFFFFFFFFFFull) {
    digits[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  auto small = static_cast<uint64_t>(v);
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(small % 10));
    small /= 10;
  } while (small > 0);
  // Leading zeros so that one digit stands before the point: 5 with scale 2 -> "0.05".
  while (n <= scale) digits[n++] = '0';
  size_t len = 0;
  if (negative) out[len++] = '-';
  for (size_t i = n; i-- > 0;) {
    out[len++] = digits[i];
    if (i == scale && scale > 0) out[len++] = '.';
  }
  return len;
}

std::string Decimal::ToString(hugeint_t value, uint8_t scale) {
  char buf[kMaxTextSize];
  return std::string(buf, Format(value, scale, buf));
}

hugeint_t Decimal::Rescale(hugeint_t value, uint8_t from_scale, uint8_t to_scale) {
  if (to_scale >= from_scale) return value * PowerOfTen(to_scale - from_scale);
  hugeint_t div = PowerOfTen(from_scale - to_scale);
  hugeint_t q = value / div;
  hugeint_t r = value % div;
  if (r < 0) r = -r;
  if (r * 2 >= div) q += value < 0 ? -1 : 1;
  return q;
}

bool Decimal::TryParse(std::string_view text, uint8_t width, uint8_t scale, hugeint_t& result) {
  size_t pos = 0;
  while (pos < text.size() && text[pos] == ' ') pos++;
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    pos++;
  }
  hugeint_t mantissa = 0;
  int frac_digits = 0;
  int digits = 0;
  bool seen_dot = false;
  bool round_up = false;
  bool truncated = false;
  bool any_digit = false;
  for (; pos < text.size(); pos++) {
    char c = text[pos];
    if (c == '.') {
      if (seen_dot) return false;
      seen_dot = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any_digit = true;
    if (digits >= 38) {
      if (!seen_dot) return false;  // too many integer digits
      if (!truncated) round_up = c >= '5';
      truncated = true;
      continue;
    }
    mantissa = mantissa * 10 + (c - '0');
    if (mantissa != 0 || seen_dot) digits++;
    if (seen_dot) frac_digits++;
  }
  int exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    pos++;
    bool exp_negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
      exp_negative = text[pos] == '-';
      pos++;
    }
    size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && exponent < 1000) {
      exponent = exponent * 10 + (text[pos] - '0');
      pos++;
    }
    if (pos == start) return false;
    if (exp_negative) exponent = -exponent;
  }
  if (pos != text.size() || !any_digit) return false;
  int current_scale = frac_digits - exponent;
  if (round_up) mantissa += 1;
  hugeint_t value;
  if (current_scale > scale) {
    int drop = current_scale - scale;
    if (drop > 38) {
      value = 0;
    } else {
      value = Rescale(mantissa, static_cast<uint8_t>(drop), 0);
    }
  } else {
    int grow = scale - current_scale;
    if (grow > 38) return mantissa == 0 ? (result = 0, true) : false;
    hugeint_t factor = PowerOfTen(grow);
    if (mantissa != 0 && mantissa > Decimal::PowerOfTen(38) / factor) return false;
    value = mantissa * factor;
  }
  if (!FitsWidth(value, width)) return false;
  result = negative ? -value : value;
  return true;
}

}  // namespace lakestream
