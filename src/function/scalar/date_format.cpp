#include "function/scalar/date_format.hpp"

#include <cstdio>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/time_zone.hpp"

namespace lakestream {

static const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                "July",    "August",   "September", "October", "November", "December"};
static const char* kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

DateFormat::DateFormat(std::string_view pattern, DateSyntax syntax, const std::string& function) : pattern_(pattern) {
  if (syntax == DateSyntax::STRFTIME) {
    ParseStrftime(pattern, function);
    return;
  }
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

// Specifiers become the Java letters (or, for what Java has no letter for,
// private ones: D day of year, U W u w V G weeks and weekdays, g n millis and
// nanos, z Z zone) with the zero-padded width as the count.
void DateFormat::ParseStrftime(std::string_view fmt, const std::string& function) {
  auto literal = [&](std::string text) {
    if (!tokens_.empty() && tokens_.back().letter == 0) tokens_.back().literal += text;
    else tokens_.push_back({0, 0, std::move(text)});
  };
  for (size_t i = 0; i < fmt.size(); i++) {
    if (fmt[i] != '%') {
      literal(std::string(1, fmt[i]));
      continue;
    }
    bool unpadded = i + 1 < fmt.size() && fmt[i + 1] == '-';
    if (unpadded) i++;
    if (++i >= fmt.size()) {
      throw InvalidInputError(function + "(): the format '" + pattern_ + "' ends with a lone %; write %% for a percent sign");
    }
    char c = fmt[i];
    auto add = [&](char letter, int width) { tokens_.push_back({letter, unpadded ? 1 : width, ""}); };
    switch (c) {
      case 'Y': add('y', 4); break;
      case 'y': tokens_.push_back({'y', 2, ""}); break;  // two digits, padded or not
      case 'm': add('M', 2); break;
      case 'd': add('d', 2); break;
      case 'H': add('H', 2); break;
      case 'I': add('h', 2); break;
      case 'M': add('m', 2); break;
      case 'S': add('s', 2); break;
      case 'f': tokens_.push_back({'S', 6, ""}); break;
      case 'g': tokens_.push_back({'g', 3, ""}); break;
      case 'n': tokens_.push_back({'n', 9, ""}); break;
      case 'p': tokens_.push_back({'a', 1, ""}); break;
      case 'b':
      case 'h': tokens_.push_back({'M', 3, ""}); break;
      case 'B': tokens_.push_back({'M', 4, ""}); break;
      case 'a': tokens_.push_back({'E', 3, ""}); break;
      case 'A': tokens_.push_back({'E', 4, ""}); break;
      case 'j': add('D', 3); break;
      case 'U': add('U', 2); break;
      case 'W': add('W', 2); break;
      case 'u': tokens_.push_back({'u', 1, ""}); break;
      case 'w': tokens_.push_back({'w', 1, ""}); break;
      case 'V': add('V', 2); break;
      case 'G': add('G', 4); break;
      case 'z': tokens_.push_back({'z', 1, ""}); break;
      case 'Z': tokens_.push_back({'Z', 1, ""}); break;
      case 'T':
      case 'X': ParseStrftime("%H:%M:%S", function); break;
      case 'x': ParseStrftime("%Y-%m-%d", function); break;
      case 'c': ParseStrftime("%Y-%m-%d %H:%M:%S", function); break;
      case '%': literal("%"); break;
      default:
        throw NotImplementedError("the specifier %" + std::string(1, c) + " in " + function +
                                  "() (supported: %Y %y %m %d %H %I %M %S %f %g %n %p %b %h %B %a %A %j %U %W %u %w "
                                  "%V %G %z %Z %T %X %x %c %%)");
    }
    if (function == "strptime" && std::string_view("UWVGzZ").find(c) != std::string_view::npos) {
      throw NotImplementedError("reading %" + std::string(1, c) +
                                " with strptime() (it can print it with strftime); parse the other fields, e.g. "
                                "strptime(s, '%Y-%m-%d'), and adjust the result");
    }
  }
}

static void AppendNumber(std::string& out, int64_t v, int width) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(v));
  out += buf;
}

// Week of the year as C's %U (weeks start on Sunday) or %W (on Monday): days
// before the year's first such day are in week 0.
static int64_t WeekOfYear(int64_t day_of_year0, int32_t weekday, bool monday_first) {
  int64_t days_into_week = monday_first ? (weekday + 6) % 7 : weekday;
  return (day_of_year0 + 7 - days_into_week) / 7;
}

// ISO 8601 week and its year: the week holding the date's Thursday.
static void IsoWeek(date_t date, int32_t weekday, int64_t& week, int32_t& iso_year) {
  auto thursday = static_cast<date_t>(date + (3 - (weekday + 6) % 7));
  int32_t m, d;
  Date::ToCivil(thursday, iso_year, m, d);
  week = (thursday - Date::FromCivil(iso_year, 1, 1)) / 7 + 1;
}

static void AppendOffset(std::string& out, int64_t seconds) {
  out += seconds < 0 ? '-' : '+';
  int64_t magnitude = seconds < 0 ? -seconds : seconds;
  AppendNumber(out, magnitude / 3600, 2);
  if (magnitude % 3600 != 0) {
    out += ':';
    AppendNumber(out, magnitude / 60 % 60, 2);
  }
}

void DateFormat::Format(timestamp_t ts, std::string& out, const TimeZone* zone) const {
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
      case 'D': AppendNumber(out, date - Date::FromCivil(y, 1, 1) + 1, t.count); break;
      case 'U':
      case 'W':
        AppendNumber(out, WeekOfYear(date - Date::FromCivil(y, 1, 1), Date::DayOfWeek(date), t.letter == 'W'), t.count);
        break;
      case 'u': AppendNumber(out, Date::DayOfWeek(date) == 0 ? 7 : Date::DayOfWeek(date), 1); break;
      case 'w': AppendNumber(out, Date::DayOfWeek(date), 1); break;
      case 'V':
      case 'G': {
        int64_t week;
        int32_t iso_year;
        IsoWeek(date, Date::DayOfWeek(date), week, iso_year);
        AppendNumber(out, t.letter == 'V' ? week : iso_year, t.count);
        break;
      }
      case 'g': AppendNumber(out, fraction / 1000, 3); break;
      case 'n': AppendNumber(out, fraction * 1000, 9); break;
      case 'z': AppendOffset(out, zone ? (ts - zone->LocalToUtc(ts)) / MICROS_PER_SECOND : 0); break;
      case 'Z':
        if (zone) out += zone->Name();
        break;
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
  int64_t y = 1970, m = 1, d = 1, hour = 0, minute = 0, second = 0, fraction = 0, day_of_year = 0;
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
      case 'D': if (!ReadDigits(s, pos, std::max(width, 3), day_of_year)) return false; break;
      case 'u':
      case 'w': {
        int64_t ignored;  // the weekday follows from the date
        if (!ReadDigits(s, pos, 1, ignored)) return false;
        break;
      }
      case 'g':
      case 'n': {
        size_t start = pos;
        int digits = t.letter == 'g' ? 3 : 9;
        int64_t value;
        if (!ReadDigits(s, pos, digits, value)) return false;
        for (size_t n = pos - start; n < static_cast<size_t>(digits); n++) value *= 10;
        fraction = t.letter == 'g' ? value * 1000 : value / 1000;
        break;
      }
      default: return false;
    }
  }
  if (pos != s.size()) return false;
  if (day_of_year > 0) {
    if (day_of_year > (Date::IsValidCivil(static_cast<int32_t>(y), 2, 29) ? 366 : 365)) return false;
    int32_t yy, mm, dd;
    Date::ToCivil(static_cast<date_t>(Date::FromCivil(static_cast<int32_t>(y), 1, 1) + day_of_year - 1), yy, mm, dd);
    m = mm;
    d = dd;
  }
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
