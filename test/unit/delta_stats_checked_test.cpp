// CheckedNumRecords (COUNT(*) from the log): the one-pass SAX reading of the
// plain case and the tree reading of everything else give the same answers,
// and stats that lie are refused by name.
#include <gtest/gtest.h>

#include "storage/delta/delta_stats.hpp"

namespace lakestream::delta {
namespace {

// "n" for a count n, "none" for no count, else the error message.
std::string Checked(const std::string& stats) {
  auto r = CheckedNumRecords(stats, "part-0.parquet");
  if (!r.ok()) return r.status().message();
  return r.value() ? std::to_string(*r.value()) : "none";
}

TEST(DeltaStatsChecked, PlainStats) {
  EXPECT_EQ(Checked(R"({"numRecords":5,"minValues":{"a":1,"s":"x\"}"},"maxValues":{"a":[1,{"b":2}]},)"
                    R"("nullCount":{"a":0,"s":{"e":5}},"tightBounds":true})"),
            "5");
  EXPECT_EQ(Checked(R"({"nullCount":{"a":0},"numRecords":0})"), "0");  // numRecords after nullCount
  EXPECT_EQ(Checked(R"({"numRecords":5,"nullCount":null})"), "5");
  EXPECT_EQ(Checked(R"({"numRecords":9223372036854775807})"), "9223372036854775807");
  // A column named numRecords is not the count.
  EXPECT_EQ(Checked(R"({"minValues":{"numRecords":7},"numRecords":2,"nullCount":{"numRecords":1}})"), "2");
  EXPECT_EQ(Checked(R"({"numRecords":null,"nullCount":{"a":99}})"), "none");
  EXPECT_EQ(Checked(R"({"minValues":{"a":1}})"), "none");
}

TEST(DeltaStatsChecked, StatsThatLieAreRefused) {
  auto refused = [](const std::string& stats, const std::string& why) {
    std::string got = Checked(stats);
    EXPECT_NE(got.find("part-0.parquet"), std::string::npos) << stats << " -> " << got;
    EXPECT_NE(got.find(why), std::string::npos) << stats << " -> " << got;
  };
  refused(R"({"numRecords":5,"nullCount":{"a":6}})", "nullCount of column a is 6, but the file has 5 rows");
  refused(R"({"numRecords":5,"nullCount":{"s":{"e":-1}}})", "nullCount of column s.e is -1");
  refused(R"({"numRecords":5,"nullCount":{"a":1.5}})", "nullCount of column a is 1.5");
  refused(R"({"numRecords":5,"nullCount":{"a":[1]}})", "nullCount of column a");
  refused(R"({"numRecords":5,"nullCount":[1]})", "nullCount is not an object");
  refused(R"({"numRecords":5,"nullCount":3})", "nullCount is not an object");
  refused(R"({"numRecords":-1})", "numRecords is not a non-negative integer");
  refused(R"({"numRecords":2.0})", "numRecords is not a non-negative integer");
  refused(R"({"numRecords":"2"})", "numRecords is not a non-negative integer");
  refused(R"({"numRecords":18446744073709551615})", "numRecords is not a non-negative integer");
  refused(R"([1])", "not a JSON object");
  refused(R"({"numRecords":3,)", "not a JSON object");
  refused(R"({"numRecords":3} x)", "not a JSON object");
  // A duplicate key: the last one counts, as in the tree.
  refused(R"({"numRecords":9,"numRecords":3,"nullCount":{"a":5}})", "nullCount of column a is 5, but the file has 3 rows");
}

}  // namespace
}  // namespace lakestream::delta
