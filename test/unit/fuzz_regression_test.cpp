// Inputs the fuzzers found, replayed under the normal (and sanitizer) test run.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_schema.hpp"

namespace lakestream {
namespace {

std::string ReadRepoFile(const std::string& relative) {
  std::ifstream in(std::string(LAKESTREAM_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// fuzz/delta_log: a commitInfo timestamp far outside int64 (a float in JSON)
// was converted to int64 (undefined behaviour). It must simply be ignored.
TEST(FuzzRegression, DeltaCommitInfoTimestampOutOfRange) {
  std::string contents = ReadRepoFile("test/fuzz/regressions/delta_log_float_timestamp.json");
  ASSERT_FALSE(contents.empty());
  auto actions = delta::ParseCommit(contents, "regression.json");
  if (!actions.ok()) {
    EXPECT_TRUE(actions.status().IsCorruption()) << actions.status().ToString();
    return;
  }
  for (auto& a : actions.value()) {
    if (auto* info = std::get_if<delta::CommitInfo>(&a)) EXPECT_FALSE(info->timestamp.has_value());
  }
  auto direct = delta::ParseAction(R"({"commitInfo":{"timestamp":1.5e58,"operation":"WRITE"}})");
  ASSERT_TRUE(direct.ok());
  ASSERT_TRUE(direct.value().has_value());
  EXPECT_FALSE(std::get<delta::CommitInfo>(*direct.value()).timestamp.has_value());
}

// fuzz/delta_checkpoint: a checkpoint whose statistics say every action
// column is NULL decodes to no actions (its row groups skipped); the target
// then committed nothing and failed to parse the empty commit back. Decoding
// must give no actions or a Corruption, never a crash.
TEST(FuzzRegression, DeltaCheckpointWithoutActions) {
  std::string contents = ReadRepoFile("test/fuzz/regressions/delta_checkpoint_no_actions.parquet");
  ASSERT_FALSE(contents.empty());
  std::vector<delta::Action> actions;
  Status s = delta::DecodeCheckpointPart("regression.checkpoint.parquet", contents, actions);
  if (!s.ok()) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    return;
  }
  if (!actions.empty()) {
    auto again = delta::ParseCommit(delta::SerializeCommit(actions), "again.json");
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_EQ(again.value().size(), actions.size());
  }
}

// fuzz/parquet (found by CI): a LIST whose repeated child is a group with no
// children was read as the usual three-level list and its first grandchild
// taken from an empty vector. It must be refused with an error naming the
// column.
TEST(FuzzRegression, ParquetListOfEmptyRepeatedGroup) {
  using parquet::SchemaElement;
  SchemaElement root, list, repeated;
  root.name = "schema";
  root.num_children = 1;
  list.name = "tags";
  list.repetition = parquet::Repetition::OPTIONAL;
  list.converted_type = parquet::ConvertedType::LIST;
  list.num_children = 1;
  repeated.name = "list";
  repeated.repetition = parquet::Repetition::REPEATED;
  repeated.num_children = 0;
  parquet::ParquetSchema schema;
  Status s = parquet::BuildSchema("regression.parquet", {root, list, repeated}, schema);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("tags"), std::string::npos) << s.ToString();
}

// fuzz/parquet: a TIMESTAMP_MILLIS statistic of 70087269200953344 ms was
// multiplied to microseconds in signed arithmetic (undefined behaviour). It
// wraps, as the column's values do.
TEST(FuzzRegression, ParquetMillisStatisticPastTheMicrosecondRange) {
  std::string contents = ReadRepoFile("test/fuzz/regressions/parquet_stats_millis_overflow.parquet");
  ASSERT_FALSE(contents.empty());
  auto reader = ParquetReader::OpenBuffer("regression.parquet", contents);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const int64_t wrapped = static_cast<int64_t>(static_cast<uint64_t>(70087269200953344LL) * 1000);
  bool seen = false;
  for (idx_t rg = 0; rg < reader.value()->RowGroupCount(); rg++) {
    for (idx_t c = 0; c < reader.value()->ColumnNames().size(); c++) {
      ParquetColumnStats stats = reader.value()->ColumnStatistics(rg, c);
      for (const Value* v : {&stats.min, &stats.max}) {
        // The file says isAdjustedToUTC=false: TIMESTAMP_NTZ since that type exists.
        if (!v->IsNull() && v->type().IsTimestamp() && v->GetTimestamp() == wrapped) seen = true;
      }
    }
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace lakestream
