// Small string helpers shared across the engine.
#pragma once

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
};

}  // namespace lakestream
