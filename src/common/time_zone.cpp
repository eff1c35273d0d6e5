#include "common/time_zone.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "common/date.hpp"
#include "common/exception.hpp"

namespace lakestream {

namespace {

constexpr int32_t kMaxOffset = 18 * 3600;  // java.time's bound on a zone offset

std::string ZoneInfoDir() {
  const char* dir = std::getenv("TZDIR");
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

// Fixed offsets as Spark accepts them: '+05:30', '-8', '+0530', optionally
// after 'UTC' or 'GMT'. False when `text` is not of that form.
bool ParseFixedOffset(std::string_view text, int32_t& seconds) {
  std::string_view s = text;
  if (s.size() >= 3 && (s.substr(0, 3) == "UTC" || s.substr(0, 3) == "GMT")) s.remove_prefix(3);
  if (s.empty() || (s[0] != '+' && s[0] != '-')) return false;
  int sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  auto digits = [](std::string_view d, int32_t& v) {
    if (d.empty() || d.size() > 2) return false;
    v = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    return true;
  };
  int32_t h = 0, m = 0, sec = 0;
  size_t colon = s.find(':');
  if (colon != std::string_view::npos) {
    if (!digits(s.substr(0, colon), h)) return false;
    std::string_view rest = s.substr(colon + 1);
    size_t colon2 = rest.find(':');
    if (colon2 != std::string_view::npos) {
      if (!digits(rest.substr(0, colon2), m) || rest.substr(0, colon2).size() != 2) return false;
      if (!digits(rest.substr(colon2 + 1), sec) || rest.substr(colon2 + 1).size() != 2) return false;
    } else if (!digits(rest, m) || rest.size() != 2) {
      return false;
    }
  } else if (s.size() == 4) {
    if (!digits(s.substr(0, 2), h) || !digits(s.substr(2), m)) return false;
  } else if (!digits(s, h)) {
    return false;
  }
  if (m > 59 || sec > 59) return false;
  seconds = sign * (h * 3600 + m * 60 + sec);
  return seconds >= -kMaxOffset && seconds <= kMaxOffset;
}

// A region name is letters, digits and _+-/ with no empty or '..' part, so it
// cannot leave the zoneinfo directory.
bool IsRegionName(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.back() == '/') return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '-' || c == '/')) return false;
  }
  return name.find("..") == std::string::npos && name.find("//") == std::string::npos;
}

std::string ValidForms() {
  return "use a region name from the time zone database such as 'America/New_York' or 'Europe/Berlin', "
         "'UTC', or an offset such as '+05:30'";
}

struct Reader {
  std::string_view data;
  size_t pos = 0;
  bool Has(size_t n) const { return data.size() - pos >= n; }
  int64_t Be(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v = (v << 8) | static_cast<uint8_t>(data[pos + i]);
    pos += n;
    if (n == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
  }
};

std::mutex cache_mutex;
std::unordered_map<std::string, std::shared_ptr<const TimeZone>>& Cache() {
  static auto* cache = new std::unordered_map<std::string, std::shared_ptr<const TimeZone>>();
  return *cache;
}

thread_local std::shared_ptr<const TimeZone> session_zone;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::shared_ptr<const TimeZone> TimeZone::Utc() {
  static const std::shared_ptr<const TimeZone> utc = [] {
    auto z = std::make_shared<TimeZone>();
    z->name_ = "UTC";
    z->fixed_ = true;
    return std::shared_ptr<const TimeZone>(z);
  }();
  return utc;
}

Status TimeZone::FromTzif(const std::string& name, std::string_view data, std::shared_ptr<const TimeZone>* out) {
  auto corrupt = [&](const std::string& why) {
    return Status::Corruption("time zone file for '" + name + "' is not a valid TZif file: " + why +
                              " (reinstall the tzdata package, or " + ValidForms() + ")");
  };
  Reader r{data};
  auto header = [&](int64_t counts[6], char& version) -> Status {
    if (!r.Has(44)) return corrupt("truncated header (" + std::to_string(r.data.size() - r.pos) + " bytes left, 44 needed)");
    if (r.data.substr(r.pos, 4) != "TZif") return corrupt("no 'TZif' magic");
    version = r.data[r.pos + 4];
    r.pos += 20;
    for (int i = 0; i < 6; i++) counts[i] = static_cast<uint32_t>(r.Be(4));
    return Status::OK();
  };
  int64_t c[6];
  char version;
  Status s = header(c, version);
  if (!s.ok()) return s;
  // counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  auto block_size = [&](int64_t* k, int time_size) {
    return k[3] * time_size + k[3] + k[4] * 6 + k[5] + k[2] * (time_size + 4) + k[1] + k[0];
  };
  int time_size = 4;
  if (version >= '2') {
    int64_t v1 = block_size(c, 4);
    if (!r.Has(static_cast<size_t>(v1))) return corrupt("truncated version 1 data block");
    r.pos += static_cast<size_t>(v1);
    s = header(c, version);
    if (!s.ok()) return s;
    time_size = 8;
  }
  if (c[4] == 0) return corrupt("no local time types");
  if (c[3] > 100000 || c[4] > 256 || c[5] > 100000 || c[2] > 100000) return corrupt("implausible counts in the header");
  int64_t need = block_size(c, time_size);
  if (!r.Has(static_cast<size_t>(need))) {
    return corrupt("truncated data block (" + std::to_string(need) + " bytes needed, " +
                   std::to_string(r.data.size() - r.pos) + " left)");
  }
  auto zone = std::make_shared<TimeZone>();
  zone->name_ = name;
  for (int64_t i = 0; i < c[3]; i++) {
    int64_t t = r.Be(time_size);
    if (!zone->transitions_.empty() && t <= zone->transitions_.back()) return corrupt("transition times out of order");
    zone->transitions_.push_back(t);
  }
  for (int64_t i = 0; i < c[3]; i++) {
    uint8_t idx = static_cast<uint8_t>(r.data[r.pos++]);
    if (idx >= c[4]) return corrupt("a transition refers to local time type " + std::to_string(idx) + " of " + std::to_string(c[4]));
    zone->transition_type_.push_back(idx);
  }
  for (int64_t i = 0; i < c[4]; i++) {
    int32_t off = static_cast<int32_t>(r.Be(4));
    bool dst = r.data[r.pos++] != 0;
    uint8_t abbr = static_cast<uint8_t>(r.data[r.pos++]);
    if (off < -kMaxOffset - 3600 || off > kMaxOffset + 3600) return corrupt("UTC offset " + std::to_string(off) + "s out of range");
    if (abbr >= c[5] && c[5] > 0) return corrupt("abbreviation index out of range");
    zone->types_.push_back({off, dst});
  }
  r.pos += static_cast<size_t>(c[5] + c[2] * (time_size + 4) + c[1] + c[0]);
  if (time_size == 8 && r.Has(1)) {
    if (r.data[r.pos] != '\n') return corrupt("footer does not start with a newline");
    size_t end = r.data.find('\n', r.pos + 1);
    if (end == std::string_view::npos) return corrupt("footer does not end with a newline");
    std::string_view footer = r.data.substr(r.pos + 1, end - r.pos - 1);
    if (!footer.empty() && !ParsePosixRule(footer, zone->rule_)) {
      return corrupt("footer rule '" + std::string(footer) + "' is not a POSIX TZ rule this reader understands");
    }
  }
  if (zone->transitions_.empty() && !zone->rule_.valid) {
    zone->fixed_ = true;
    zone->fixed_offset_ = zone->types_[0].offset;
  }
  *out = std::move(zone);
  return Status::OK();
}

// std offset [dst [offset] [,start[/time],end[/time]]], names either
// alphabetic or <quoted>. Offsets are hours west of UTC (POSIX sign).
bool TimeZone::ParsePosixRule(std::string_view text, PosixRule& rule) {
  size_t p = 0;
  auto name = [&]() {
    if (p < text.size() && text[p] == '<') {
      size_t e = text.find('>', p);
      if (e == std::string_view::npos) return false;
      p = e + 1;
      return true;
    }
    size_t b = p;
    while (p < text.size() && std::isalpha(static_cast<unsigned char>(text[p]))) p++;
    return p - b >= 3;
  };
  auto number = [&](int32_t& v) {
    if (p >= text.size() || !std::isdigit(static_cast<unsigned char>(text[p]))) return false;
    v = 0;
    while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) v = v * 10 + (text[p++] - '0');
    return true;
  };
  // [+-]hh[:mm[:ss]] in seconds.
  auto hms = [&](int32_t& secs) {
    int sign = 1;
    if (p < text.size() && (text[p] == '+' || text[p] == '-')) sign = text[p++] == '-' ? -1 : 1;
    int32_t h = 0, m = 0, s = 0;
    if (!number(h) || h > 167) return false;
    if (p < text.size() && text[p] == ':') {
      p++;
      if (!number(m)) return false;
      if (p < text.size() && text[p] == ':') {
        p++;
        if (!number(s)) return false;
      }
    }
    secs = sign * (h * 3600 + m * 60 + s);
    return true;
  };
  auto date = [&](RuleDate& d) {
    if (p >= text.size()) return false;
    if (text[p] == 'M') {
      p++;
      d.kind = 'M';
      if (!number(d.month) || p >= text.size() || text[p++] != '.') return false;
      if (!number(d.week) || p >= text.size() || text[p++] != '.') return false;
      if (!number(d.weekday)) return false;
      if (d.month < 1 || d.month > 12 || d.week < 1 || d.week > 5 || d.weekday > 6) return false;
    } else if (text[p] == 'J') {
      p++;
      d.kind = 'J';
      if (!number(d.day) || d.day < 1 || d.day > 365) return false;
    } else {
      d.kind = 'N';
      if (!number(d.day) || d.day > 365) return false;
    }
    if (p < text.size() && text[p] == '/') {
      p++;
      if (!hms(d.time)) return false;
    }
    return true;
  };
  int32_t west = 0;
  if (!name() || !hms(west)) return false;
  rule.std_offset = -west;
  if (p < text.size()) {
    if (!name()) return false;
    rule.has_dst = true;
    rule.dst_offset = rule.std_offset + 3600;
    if (p < text.size() && text[p] != ',') {
      if (!hms(west)) return false;
      rule.dst_offset = -west;
    }
    if (p >= text.size() || text[p++] != ',' || !date(rule.start)) return false;
    if (p >= text.size() || text[p++] != ',' || !date(rule.end)) return false;
  }
  rule.valid = p == text.size();
  return rule.valid;
}

// Local seconds since the epoch at which a rule date falls in `year`.
int64_t TimeZone::RuleLocalSeconds(const RuleDate& d, int32_t year) {
  date_t day;
  if (d.kind == 'M') {
    date_t first = Date::FromCivil(year, d.month, 1);
    int32_t dow = Date::DayOfWeek(first);
    int32_t delta = (d.weekday - dow + 7) % 7;
    day = first + delta + (d.week - 1) * 7;
    int32_t dim = Date::DaysInMonth(year, d.month);
    while (day >= first + dim) day -= 7;  // week 5 means the last such weekday
  } else if (d.kind == 'J') {
    bool leap = Date::DaysInMonth(year, 2) == 29;
    day = Date::FromCivil(year, 1, 1) + d.day - 1 + (leap && d.day >= 60 ? 1 : 0);
  } else {
    day = Date::FromCivil(year, 1, 1) + d.day;
  }
  return static_cast<int64_t>(day) * 86400 + d.time;
}

int64_t TimeZone::RuleOffsetAt(int64_t utc_seconds) const {
  if (!rule_.has_dst) return rule_.std_offset;
  int32_t y, m, d;
  Date::ToCivil(static_cast<date_t>(FloorDiv(utc_seconds + rule_.std_offset, 86400)), y, m, d);
  int64_t start = RuleLocalSeconds(rule_.start, y) - rule_.std_offset;  // DST begins on standard time
  int64_t end = RuleLocalSeconds(rule_.end, y) - rule_.dst_offset;      // and ends on daylight time
  bool dst = start < end ? (utc_seconds >= start && utc_seconds < end) : (utc_seconds < end || utc_seconds >= start);
  return dst ? rule_.dst_offset : rule_.std_offset;
}

int64_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  if (fixed_) return fixed_offset_;
  if (transitions_.empty() || utc_seconds < transitions_.front()) {
    if (transitions_.empty() && rule_.valid) return RuleOffsetAt(utc_seconds);
    // RFC 8536: type 0 applies before the first transition.
    return types_[0].offset;
  }
  if (utc_seconds >= transitions_.back() && rule_.valid) return RuleOffsetAt(utc_seconds);
  size_t lo = 0, hi = transitions_.size();  // last transition <= utc_seconds
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (transitions_[mid] <= utc_seconds) lo = mid; else hi = mid;
  }
  return types_[transition_type_[lo]].offset;
}

timestamp_t TimeZone::UtcToLocal(timestamp_t utc_micros) const {
  if (fixed_) return utc_micros + fixed_offset_ * MICROS_PER_SECOND;
  return utc_micros + OffsetAt(FloorDiv(utc_micros, MICROS_PER_SECOND)) * MICROS_PER_SECOND;
}

timestamp_t TimeZone::LocalToUtc(timestamp_t local_micros) const {
  if (fixed_) return local_micros - fixed_offset_ * MICROS_PER_SECOND;
  // Offsets a day either side bracket the at most one transition that can
  // make this wall clock ambiguous or missing.
  int64_t local = FloorDiv(local_micros, MICROS_PER_SECOND);
  int64_t early = OffsetAt(local - 86400);
  int64_t late = OffsetAt(local + 86400);
  if (early == late) return local_micros - early * MICROS_PER_SECOND;
  bool early_ok = OffsetAt(local - early) == early;
  bool late_ok = OffsetAt(local - late) == late;
  // Overlap: both valid, the earlier instant wins. Gap: neither; the
  // pre-transition offset moves the wall clock forward by the gap.
  if (early_ok || !late_ok) return local_micros - early * MICROS_PER_SECOND;
  return local_micros - late * MICROS_PER_SECOND;
}

Status TimeZone::Load(const std::string& name, std::shared_ptr<const TimeZone>* out) {
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = Cache().find(name);
    if (it != Cache().end()) {
      *out = it->second;
      return Status::OK();
    }
  }
  std::shared_ptr<const TimeZone> zone;
  int32_t offset = 0;
  if (name == "UTC" || name == "Z" || name == "GMT" || name == "UCT" || name == "Etc/UTC") {
    auto z = std::make_shared<TimeZone>();
    z->name_ = name;
    z->fixed_ = true;
    zone = z;
  } else if (ParseFixedOffset(name, offset)) {
    auto z = std::make_shared<TimeZone>();
    z->name_ = name;
    z->fixed_ = true;
    z->fixed_offset_ = offset;
    zone = z;
  } else {
    if (!IsRegionName(name)) {
      return Status::InvalidArgument("unknown time zone '" + name + "': not a region name or an offset; " + ValidForms());
    }
    std::string path = ZoneInfoDir() + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      return Status::NotFound("unknown time zone '" + name + "': the time zone database (" + ZoneInfoDir() +
                              ") has no such region (names are case-sensitive); " + ValidForms());
    }
    std::stringstream buf;
    buf << in.rdbuf();
    if (in.bad()) return Status::IOError("cannot read time zone file " + path);
    std::string data = buf.str();
    Status s = FromTzif(name, data, &zone);
    if (!s.ok()) return s;
  }
  std::lock_guard<std::mutex> lock(cache_mutex);
  Cache().emplace(name, zone);
  *out = zone;
  return Status::OK();
}

std::shared_ptr<const TimeZone> TimeZone::Get(const std::string& name) {
  std::shared_ptr<const TimeZone> zone;
  Status s = Load(name, &zone);
  if (!s.ok()) throw InvalidInputError(s.message());
  return zone;
}

std::shared_ptr<const TimeZone> TimeZone::Local() {
  std::shared_ptr<const TimeZone> zone;
  const char* tz = std::getenv("TZ");
  if (tz && *tz) {
    std::string name = tz[0] == ':' ? tz + 1 : tz;
    if (Load(name, &zone).ok()) return zone;
  }
  char link[4096];
  ssize_t n = readlink("/etc/localtime", link, sizeof(link) - 1);
  if (n > 0) {
    std::string target(link, static_cast<size_t>(n));
    size_t at = target.find("zoneinfo/");
    if (at != std::string::npos && Load(target.substr(at + 9), &zone).ok()) return zone;
  }
  return Utc();
}

const TimeZone& SessionTimeZone() {
  if (!session_zone) return *TimeZone::Utc();
  return *session_zone;
}

void SetSessionTimeZone(std::shared_ptr<const TimeZone> zone) { session_zone = std::move(zone); }

}  // namespace lakestream
