// Small string helpers shared across the engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream {

struct StringUtil {
  static std::string Lower(std::string_view s);
  static std::string Upper(std::string_view s);
  static bool CIEquals(std::string_view a, std::string_view b);
  static std::string Join(const std::vector<std::string>& parts, const std::string& sep);
  static bool StartsWith(std::string_view s, std::string_view prefix);
  // Levenshtein distance, for "did you mean" hints.
  static size_t EditDistance(std::string_view a, std::string_view b);
  // The candidate closest to `name` (case-insensitive) when it is close enough, else "".
  static std::string ClosestMatch(const std::string& name, const std::vector<std::string>& candidates);
  // A duration in milliseconds: a whole number and a unit, space optional,
  // an optional leading "interval" (Delta's "interval 1 week"): ms,
  // millisecond(s); s, sec, second(s); m, min, minute(s); h, hour(s); d,
  // day(s); w, week(s). A bare number is seconds. Case-insensitive.
  // std::nullopt for anything else or an overflow.
  static std::optional<int64_t> ParseDurationMs(std::string_view text);
};

}  // namespace lakestream
