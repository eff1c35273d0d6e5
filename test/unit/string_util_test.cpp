#include <gtest/gtest.h>

#include "common/string_util.hpp"

namespace lakestream {
namespace {

TEST(StringUtil, ParseDurationMsReadsEveryUnitSpelling) {
  EXPECT_EQ(StringUtil::ParseDurationMs("500ms"), 500);
  EXPECT_EQ(StringUtil::ParseDurationMs("2s"), 2000);
  EXPECT_EQ(StringUtil::ParseDurationMs("3"), 3000);  // a bare number is seconds
  EXPECT_EQ(StringUtil::ParseDurationMs("10 minutes"), 600000);
  EXPECT_EQ(StringUtil::ParseDurationMs("1m"), 60000);
  EXPECT_EQ(StringUtil::ParseDurationMs("36 HOURS"), 36 * 3600000LL);
  EXPECT_EQ(StringUtil::ParseDurationMs("interval 1 week"), 7 * 86400000LL);  // Delta's retention form
  EXPECT_EQ(StringUtil::ParseDurationMs("  interval 2 days "), 2 * 86400000LL);
}

TEST(StringUtil, ParseDurationMsRefusesWhatIsNotADuration) {
  for (const char* bad : {"", "often", "-1s", "1 fortnight", "1.5h", "s", "interval", "9999999999999 w"})
    EXPECT_FALSE(StringUtil::ParseDurationMs(bad).has_value()) << bad;
}

}  // namespace
}  // namespace lakestream
