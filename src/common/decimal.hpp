// DECIMAL(p,s) helpers. Values are unscaled hugeint_t: 12.34 in DECIMAL(10,2) is 1234.
#pragma once

#include <string>
#include <string_view>

#include "common/types.hpp"

namespace lakestream {

struct Decimal {
  static constexpr uint8_t MAX_WIDTH = 38;
  // 10^e for e in [0, 38].
  static hugeint_t PowerOfTen(int e);
  // True when |value| fits in `width` digits.
  static bool FitsWidth(hugeint_t value, uint8_t width);
  // 1234 with scale 2 -> "12.34"; always prints `scale` fraction digits.
  static std::string ToString(hugeint_t value, uint8_t scale);
  // The same text written to `out` (at least kMaxTextSize bytes), without
  // allocating; returns its length.
  static constexpr size_t kMaxTextSize = 48;
  static size_t Format(hugeint_t value, uint8_t scale, char* out);
  // Parses "12.3", "-0.5", "1e3" into DECIMAL(width, scale), rounding half away
  // from zero past `scale`. False on bad input or overflow.
  static bool TryParse(std::string_view text, uint8_t width, uint8_t scale, hugeint_t& result);
  // Rescales from one scale to another (rounding half away from zero when reducing).
  static hugeint_t Rescale(hugeint_t value, uint8_t from_scale, uint8_t to_scale);
  static std::string HugeintToString(hugeint_t value);
};

}  // namespace lakestream
