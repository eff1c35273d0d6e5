#include "function/scalar/date_format.hpp"

#include <cstdio>

#include "common/date.hpp"
#include "common/exception.hpp"

namespace lakestream {

static const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                "July",    "August",   "September", "October", "November", "December"};
static const char* kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

DateFormat::DateFormat(std::string_view pattern) : pattern_(pattern) {
  for (size_t i = 0; i < pattern.size();) {
    char c = pattern[i];
    if (c == '\'') {
      // Quoted literal; '' inside or alone is a single quote.
      std::string lit;
      size_t j = i + 1;
      if (j < pattern.size() && pattern[j] == '\'') {
        tokens_.push_back({0, 0, "'"});
        i = j + 1;
        continue;
      }
      while (j < pattern.size()) {
        if (pattern[j] == '\'') {
          if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
            lit.push_back('\'');
            j += 2;
            continue;
          }
          break;
        }
        lit.push_back(pattern[j++]);
      }
      tokens_.push_back({0, 0, lit});
      i = j + 1;
      continue;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      if (std::string_view("yMdHhmsSaE").find(c) == std::string_view::npos) {
        throw InvalidInputError("Unknown letter '" + std::string(1, c) + "' in datetime pattern '" + pattern_ +
                                "'; use y M d H h m s S a E, and quote literal text as 'text'");
      }
      int n = 0;
      while (i < pattern.size() && pattern[i] == c) {
        n++;
        i++;
      }
      tokens_.push_back({c, n, ""});
      continue;
    }
    tokens_.push_back({0, 0, std::string(1, c)});
    i++;
  }
}

static void AppendNumber(std::string& out, int64_t v, int width) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(v));
  out += buf;
}

void DateFormat::Format(timestamp_t ts, std::string& out) const {
  date_t date = Timestamp::GetDate(ts);
  int64_t micros = Timestamp::MicrosOfDay(ts);
  int32_t y, m, d;
  Date::ToCivil(date, y, m, d);
  int64_t hour = micros / (3600 * MICROS_PER_SECOND);
  int64_t minute = micros / (60 * MICROS_PER_SECOND) % 60;
  int64_t second = micros / MICROS_PER_SECOND % 60;
  int64_t fraction = micros % MICROS_PER_SECOND;
  for (auto& t : tokens_) {
    switch (t.letter) {
      case 0: out += t.literal; break;
      case 'y': t.count == 2 ? AppendNumber(out, ((y % 100) + 100) % 100, 2) : AppendNumber(out, y, t.count); break;
      case 'M':
        if (t.count >= 4) out += kMonths[m - 1];
        else if (t.count == 3) out += std::string(kMonths[m - 1], 3);
        else AppendNumber(out, m, t.count);
        break;
      case 'd': AppendNumber(out, d, t.count); break;
      case 'H': AppendNumber(out, hour, t.count); break;
      case 'h': AppendNumber(out, hour % 12 == 0 ? 12 : hour % 12, t.count); break;
      case 'a': out += hour < 12 ? "AM" : "PM"; break;
      case 'm': AppendNumber(out, minute, t.count); break;
      case 's': AppendNumber(out, second, t.count); break;
      case 'S': {
        std::string digits;
        AppendNumber(digits, fraction, 6);
        for (int k = 0; k < t.count; k++) out.push_back(k < 6 ? digits[k] : '0');
        break;
      }
      case 'E': {
        const char* name = kDays[Date::DayOfWeek(date)];
        out += t.count >= 4 ? std::string(name) : std::string(name, 3);
        break;
      }
    }
  }
}

// Reads up to `max` digits (at least one).
static bool ReadDigits(std::string_view s, size_t& pos, int max, int64_t& out) {
  size_t start = pos;
  out = 0;
  while (pos < s.size() && pos - start < static_cast<size_t>(max) && s[pos] >= '0' && s[pos] <= '9') out = out * 10 + (s[pos++] - '0');
  return pos > start;
}

static bool ReadName(std::string_view s, size_t& pos, const char* const* names, int n, bool full, int& index) {
  for (int k = 0; k < n; k++) {
    std::string name = full ? names[k] : std::string(names[k], 3);
    if (s.size() - pos >= name.size()) {
      bool eq = true;
      for (size_t c = 0; c < name.size() && eq; c++) eq = std::tolower(static_cast<unsigned char>(s[pos + c])) == std::tolower(static_cast<unsigned char>(name[c]));
      if (eq) {
        pos += name.size();
        index = k;
        return true;
      }
    }
  }
  return false;
}

bool DateFormat::Parse(std::string_view s, timestamp_t& result) const {
  int64_t y = 1970, m = 1, d = 1, hour = 0, minute = 0, second = 0, fraction = 0;
  bool pm = false, has_ampm = false;
  size_t pos = 0;
  for (size_t k = 0; k < tokens_.size(); k++) {
    const Token& t = tokens_[k];
    // A numeric field directly followed by another numeric field takes exactly
    // its width ("yyyyMMdd"); otherwise it reads as many digits as present.
    bool next_numeric = k + 1 < tokens_.size() && tokens_[k + 1].letter != 0 && tokens_[k + 1].letter != 'a' &&
                        tokens_[k + 1].letter != 'E' && !(tokens_[k + 1].letter == 'M' && tokens_[k + 1].count >= 3);
    int width = next_numeric ? t.count : 9;
    int index;
    switch (t.letter) {
      case 0:
        if (s.substr(pos, t.literal.size()) != t.literal) return false;
        pos += t.literal.size();
        break;
      case 'y': {
        if (!ReadDigits(s, pos, t.count == 2 ? 2 : std::max(width, 4), y)) return false;
        if (t.count == 2) y += 2000;
        break;
      }
      case 'M':
        if (t.count >= 3) {
          if (!ReadName(s, pos, kMonths, 12, t.count >= 4, index)) return false;
          m = index + 1;
        } else if (!ReadDigits(s, pos, std::max(width, 2), m)) {
          return false;
        }
        break;
      case 'd': if (!ReadDigits(s, pos, std::max(width, 2), d)) return false; break;
      case 'H':
      case 'h': if (!ReadDigits(s, pos, std::max(width, 2), hour)) return false; break;
      case 'm': if (!ReadDigits(s, pos, std::max(width, 2), minute)) return false; break;
      case 's': if (!ReadDigits(s, pos, std::max(width, 2), second)) return false; break;
      case 'S': {
        size_t start = pos;
        if (!ReadDigits(s, pos, std::max(width, 6), fraction)) return false;
        for (size_t n = pos - start; n < 6; n++) fraction *= 10;
        break;
      }
      case 'a':
        if (s.size() - pos < 2) return false;
        has_ampm = true;
        pm = std::toupper(static_cast<unsigned char>(s[pos])) == 'P';
        pos += 2;
        break;
      case 'E':
        if (!ReadName(s, pos, kDays, 7, t.count >= 4, index)) return false;
        break;
    }
  }
  if (pos != s.size()) return false;
  if (has_ampm) {
    if (hour < 1 || hour > 12) return false;
    hour = hour % 12 + (pm ? 12 : 0);
  }
  if (!Date::IsValidCivil(static_cast<int32_t>(y), static_cast<int32_t>(m), static_cast<int32_t>(d)) || hour > 23 ||
      minute > 59 || second > 59) {
    return false;
  }
  result = Timestamp::FromDate(Date::FromCivil(static_cast<int32_t>(y), static_cast<int32_t>(m), static_cast<int32_t>(d))) +
           ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + fraction;
  return true;
}

}  // namespace lakestream
