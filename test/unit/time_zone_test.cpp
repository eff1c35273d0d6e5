// The TZif reader (common/time_zone.hpp): offsets against the C library's
// localtime_r on the same tz database, DST gaps and overlaps the way
// java.time resolves them, fixed offsets, bad names, and corrupt or truncated
// files that must give a clear error rather than a crash or a wrong zone.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>

#include "common/date.hpp"
#include "common/time_zone.hpp"

namespace lakestream {
namespace {

std::string ZoneFileBytes(const std::string& name) {
  std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int64_t Utc(int y, int mo, int d, int h, int mi) {
  return (static_cast<int64_t>(Date::FromCivil(y, mo, d)) * 86400 + h * 3600 + mi * 60);
}

// Every 5 days and a few hours from 1901 to 2099, the offset agrees with
// glibc's reading of the same file (it implements the footer rule too).
TEST(TimeZone, OffsetsAgreeWithTheCLibrary) {
  for (const char* name : {"America/New_York", "Europe/Berlin", "Australia/Adelaide", "Asia/Kolkata",
                           "America/Sao_Paulo", "Pacific/Chatham", "Africa/Casablanca", "America/Nuuk"}) {
    if (ZoneFileBytes(name).empty()) continue;  // not every tzdata has every zone
    auto zone = TimeZone::Get(name);
    const char* old = std::getenv("TZ");
    std::string saved = old ? old : "";
    setenv("TZ", name, 1);
    tzset();
    int mismatches = 0;
    for (int64_t t = Utc(1901, 12, 20, 0, 0); t < Utc(2099, 1, 1, 0, 0); t += 5 * 86400 + 3 * 3600 + 17) {
      time_t tt = static_cast<time_t>(t);
      struct tm tm;
      localtime_r(&tt, &tm);
      if (tm.tm_gmtoff != zone->OffsetAt(t) && mismatches++ < 5) {
        ADD_FAILURE() << name << " at " << t << ": libc " << tm.tm_gmtoff << ", ours " << zone->OffsetAt(t);
      }
    }
    if (old) setenv("TZ", saved.c_str(), 1); else unsetenv("TZ");
    tzset();
    EXPECT_EQ(mismatches, 0) << name;
  }
}

TEST(TimeZone, GapsMoveForwardAndOverlapsTakeTheEarlierInstant) {
  auto ny = TimeZone::Get("America/New_York");
  auto micros = [](int64_t s) { return s * MICROS_PER_SECOND; };
  // 2024-03-10 02:30 does not exist: 03:30 EDT = 07:30 UTC.
  EXPECT_EQ(ny->LocalToUtc(micros(Utc(2024, 3, 10, 2, 30))), micros(Utc(2024, 3, 10, 7, 30)));
  // 2024-11-03 01:30 happens twice: EDT (05:30 UTC) first.
  EXPECT_EQ(ny->LocalToUtc(micros(Utc(2024, 11, 3, 1, 30))), micros(Utc(2024, 11, 3, 5, 30)));
  // Ordinary times round-trip.
  for (int64_t t = Utc(2023, 1, 1, 0, 0); t < Utc(2025, 1, 1, 0, 0); t += 7919) {
    EXPECT_EQ(ny->LocalToUtc(ny->UtcToLocal(micros(t))) == micros(t) ||
                  ny->OffsetAt(t) != ny->OffsetAt(t - 3600),  // the second pass through an overlap maps to the first
              true)
        << t;
  }
  auto berlin = TimeZone::Get("Europe/Berlin");
  EXPECT_EQ(berlin->LocalToUtc(micros(Utc(2024, 3, 31, 2, 30))), micros(Utc(2024, 3, 31, 1, 30)));
  EXPECT_EQ(berlin->LocalToUtc(micros(Utc(2024, 10, 27, 2, 30))), micros(Utc(2024, 10, 27, 0, 30)));
}

TEST(TimeZone, FixedOffsetsAndUtcNames) {
  EXPECT_EQ(TimeZone::Get("+05:30")->OffsetAt(0), 5 * 3600 + 30 * 60);
  EXPECT_EQ(TimeZone::Get("-08")->OffsetAt(0), -8 * 3600);
  EXPECT_EQ(TimeZone::Get("UTC+5")->OffsetAt(0), 5 * 3600);
  EXPECT_EQ(TimeZone::Get("GMT-03:30")->OffsetAt(0), -(3 * 3600 + 30 * 60));
  EXPECT_EQ(TimeZone::Get("+0545")->OffsetAt(0), 5 * 3600 + 45 * 60);
  EXPECT_TRUE(TimeZone::Get("UTC")->IsUtc());
  EXPECT_TRUE(TimeZone::Get("Z")->IsUtc());
  EXPECT_EQ(TimeZone::Get("Asia/Kolkata")->OffsetAt(Utc(2024, 1, 1, 0, 0)), 5 * 3600 + 30 * 60);
  // The cache hands back the same zone.
  EXPECT_EQ(TimeZone::Get("Europe/Berlin").get(), TimeZone::Get("Europe/Berlin").get());
}

TEST(TimeZone, BadNamesNameTheZoneAndAValidForm) {
  for (const char* bad : {"America/NewYork", "Mars/Base", "../../etc/passwd", "/etc/localtime", "", "+19:00",
                          "+05:3", "UTC+", "Europe//Berlin", "Europe/Berlin/"}) {
    std::shared_ptr<const TimeZone> zone;
    Status s = TimeZone::Load(bad, &zone);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("'" + std::string(bad) + "'"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("America/New_York"), std::string::npos) << s.message();
  }
  EXPECT_THROW(TimeZone::Get("Nowhere/Land"), InvalidInputError);
}

TEST(TimeZone, CorruptAndTruncatedFilesAreClearErrors) {
  std::string good = ZoneFileBytes("America/New_York");
  ASSERT_GT(good.size(), 100u);
  std::shared_ptr<const TimeZone> zone;
  ASSERT_TRUE(TimeZone::FromTzif("America/New_York", good, &zone).ok());

  Status empty = TimeZone::FromTzif("Test/Empty", "", &zone);
  EXPECT_TRUE(empty.IsCorruption());
  EXPECT_NE(empty.message().find("'Test/Empty' is not a valid TZif file: truncated header"), std::string::npos)
      << empty.message();

  std::string magic = good;
  magic[0] = 'X';
  Status bad_magic = TimeZone::FromTzif("Test/Magic", magic, &zone);
  EXPECT_NE(bad_magic.message().find("no 'TZif' magic"), std::string::npos) << bad_magic.message();

  // Every truncation of the real file fails cleanly or (once the data blocks
  // are whole and only the footer is cut) still gives the zone's offsets.
  for (size_t n = 0; n < good.size(); n++) {
    Status s = TimeZone::FromTzif("Test/Cut", good.substr(0, n), &zone);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << n;
      EXPECT_NE(s.message().find("not a valid TZif file"), std::string::npos) << n << ": " << s.message();
    }
  }

  // A transition that points past the local time types.
  std::string bad_index = good;
  // Version 2 header at the end of the v1 block; find the second "TZif".
  size_t v2 = bad_index.find("TZif", 4);
  ASSERT_NE(v2, std::string::npos);
  auto count = [&](size_t at) {
    return (static_cast<uint8_t>(bad_index[at]) << 24) | (static_cast<uint8_t>(bad_index[at + 1]) << 16) |
           (static_cast<uint8_t>(bad_index[at + 2]) << 8) | static_cast<uint8_t>(bad_index[at + 3]);
  };
  uint32_t timecnt = count(v2 + 32);
  ASSERT_GT(timecnt, 0u);
  bad_index[v2 + 44 + timecnt * 8] = static_cast<char>(200);
  Status s = TimeZone::FromTzif("Test/Index", bad_index, &zone);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("refers to local time type 200"), std::string::npos) << s.message();

  // A footer rule that is not POSIX.
  std::string bad_footer = good;
  size_t nl = bad_footer.rfind('\n', bad_footer.size() - 2);
  ASSERT_NE(nl, std::string::npos);
  bad_footer = bad_footer.substr(0, nl + 1) + "EST5EDT,M13.9.9,M11.1.0\n";
  s = TimeZone::FromTzif("Test/Footer", bad_footer, &zone);
  EXPECT_NE(s.message().find("footer rule 'EST5EDT,M13.9.9,M11.1.0'"), std::string::npos) << s.message();
}

TEST(TimeZone, SessionZoneDefaultsToUtc) {
  SetSessionTimeZone(nullptr);
  EXPECT_TRUE(SessionTimeZone().IsUtc());
  SetSessionTimeZone(TimeZone::Get("Asia/Tokyo"));
  EXPECT_EQ(SessionTimeZone().Name(), "Asia/Tokyo");
  EXPECT_EQ(Timestamp::ToStringInZone(0, SessionTimeZone()), "1970-01-01 09:00:00");
  timestamp_t ts;
  ASSERT_TRUE(Timestamp::TryParseInZone("1970-01-01 09:00:00", SessionTimeZone(), ts));
  EXPECT_EQ(ts, 0);
  ASSERT_TRUE(Timestamp::TryParseInZone("1970-01-01 09:00:00+09:00", *TimeZone::Utc(), ts));
  EXPECT_EQ(ts, 0);
  SetSessionTimeZone(nullptr);
}

}  // namespace
}  // namespace lakestream
