#include "common/string_util.hpp"

#include <algorithm>
#include <cctype>

namespace lakestream {

std::string StringUtil::Lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string StringUtil::Upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

bool StringUtil::CIEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string StringUtil::Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string r;
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) r += sep;
    r += parts[i];
  }
  return r;
}

bool StringUtil::StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

size_t StringUtil::EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++) {
      size_t cost = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1])) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string StringUtil::ClosestMatch(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
  for (auto& c : candidates) {
    size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::optional<int64_t> StringUtil::ParseDurationMs(std::string_view text) {
  std::string s = Lower(text);
  size_t i = s.find_first_not_of(' ');
  if (i != std::string::npos && s.compare(i, 8, "interval") == 0) i += 8;
  i = s.find_first_not_of(' ', i == std::string::npos ? s.size() : i);
  if (i == std::string::npos) return std::nullopt;
  size_t digits = i;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') digits++;
  if (digits == i || digits - i > 12) return std::nullopt;
  int64_t n = std::stoll(s.substr(i, digits - i));
  std::string unit = s.substr(digits);
  unit.erase(0, std::min(unit.find_first_not_of(' '), unit.size()));
  while (!unit.empty() && unit.back() == ' ') unit.pop_back();
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"", 1000}, {"ms", 1}, {"millisecond", 1}, {"milliseconds", 1}, {"s", 1000}, {"sec", 1000},
      {"second", 1000}, {"seconds", 1000}, {"m", 60000}, {"min", 60000}, {"minute", 60000},
      {"minutes", 60000}, {"h", 3600000}, {"hour", 3600000}, {"hours", 3600000}, {"d", 86400000},
      {"day", 86400000}, {"days", 86400000}, {"w", 604800000}, {"week", 604800000}, {"weeks", 604800000}};
  for (auto& [name, ms] : kUnits) {
    if (unit == name) return n * ms;  // at most 12 digits times a week fits int64
  }
  return std::nullopt;
}

}  // namespace lakestream
