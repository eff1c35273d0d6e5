// Write rules of Delta table features (in-commit timestamps, features asked
// for by table properties); the end-to-end checks on Spark-written tables are
// in test/shell/delta_feature_writes.sh.
#include <gtest/gtest.h>

#include "common/delta_table_properties.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/in_commit_timestamp.hpp"

namespace lakestream::delta {
namespace {

Metadata WithIct(bool on) {
  Metadata m;
  m.id = "id";
  if (on) m.configuration["delta.enableInCommitTimestamps"] = "true";
  return m;
}

TEST(InCommitTimestamp, OffLeavesTheCommitAlone) {
  std::vector<Action> actions = {AddFile{}, CommitInfo::Make(50, "WRITE", {})};
  auto out = StampInCommitTimestamp(actions, WithIct(false), 3, 100, 99);
  EXPECT_EQ(out, actions);
}

TEST(InCommitTimestamp, CommitInfoFirstAndStrictlyIncreasing) {
  std::vector<Action> actions = {AddFile{}, CommitInfo::Make(50, "WRITE", {})};
  auto ahead = StampInCommitTimestamp(actions, WithIct(true), 3, 100, 40);
  ASSERT_TRUE(std::holds_alternative<CommitInfo>(ahead[0]));
  EXPECT_TRUE(std::holds_alternative<AddFile>(ahead[1]));
  EXPECT_EQ(std::get<CommitInfo>(ahead[0]).in_commit_timestamp, 100);  // the clock
  auto behind = StampInCommitTimestamp(actions, WithIct(true), 3, 100, 500);
  EXPECT_EQ(std::get<CommitInfo>(behind[0]).in_commit_timestamp, 501);  // previous + 1
  auto first = StampInCommitTimestamp(actions, WithIct(true), 0, 100, std::nullopt);
  EXPECT_EQ(std::get<CommitInfo>(first[0]).in_commit_timestamp, 100);
}

TEST(InCommitTimestamp, EnablementIsRecordedOnlyWhenTurnedOnLater) {
  Metadata on = WithIct(true);
  std::vector<Action> enabling = {CommitInfo::Make(1, "SET TBLPROPERTIES", {}), on};
  auto later = StampInCommitTimestamp(enabling, WithIct(false), 7, 1000, 900);
  const auto& config = std::get<Metadata>(later[1]).configuration;
  EXPECT_EQ(config.at("delta.inCommitTimestampEnablementVersion"), "7");
  EXPECT_EQ(config.at("delta.inCommitTimestampEnablementTimestamp"), "1000");
  // At creation, and once on, no enablement properties.
  auto created = StampInCommitTimestamp(enabling, on, 0, 1000, std::nullopt);
  EXPECT_FALSE(std::get<Metadata>(created[1]).configuration.count("delta.inCommitTimestampEnablementVersion"));
  auto again = StampInCommitTimestamp(enabling, on, 8, 1000, 900);
  EXPECT_FALSE(std::get<Metadata>(again[1]).configuration.count("delta.inCommitTimestampEnablementVersion"));
  // Turned off by this commit: nothing stamped.
  std::vector<Action> disabling = {CommitInfo::Make(1, "SET TBLPROPERTIES", {}), WithIct(false)};
  auto off = StampInCommitTimestamp(disabling, on, 9, 1000, 900);
  EXPECT_FALSE(std::get<CommitInfo>(off[0]).in_commit_timestamp.has_value());
}

Protocol Legacy(int32_t reader, int32_t writer) {
  Protocol p;
  p.min_reader_version = reader;
  p.min_writer_version = writer;
  return p;
}

TEST(FeatureProperties, WriterFeatureKeepsTheReaderVersion) {
  StringMap config = {{"delta.enableInCommitTimestamps", "true"}};
  Protocol p = Legacy(1, 4);
  EXPECT_TRUE(AddRequiredFeatures({}, config, p));
  EXPECT_EQ(p.min_reader_version, 1);
  EXPECT_FALSE(p.reader_features.has_value());
  EXPECT_EQ(p.min_writer_version, 7);
  EXPECT_EQ(*p.writer_features, (std::vector<std::string>{"appendOnly", "invariants", "checkConstraints",
                                                          "changeDataFeed", "generatedColumns", "inCommitTimestamp"}));
  EXPECT_FALSE(AddRequiredFeatures({}, config, p));  // already there
}

TEST(FeatureProperties, ReaderWriterFeatureKeepsColumnMappingListed) {
  StringMap config = {{"delta.feature.deletionVectors", "supported"}, {"delta.checkpointPolicy", "v2"}};
  Protocol p = Legacy(2, 5);
  EXPECT_TRUE(AddRequiredFeatures({}, config, p));
  EXPECT_EQ(p.min_reader_version, 3);
  EXPECT_EQ(*p.reader_features, (std::vector<std::string>{"columnMapping", "v2Checkpoint", "deletionVectors"}));
  EXPECT_EQ(std::count(p.writer_features->begin(), p.writer_features->end(), "columnMapping"), 1);
  EXPECT_FALSE(config.count("delta.feature.deletionVectors"));  // a protocol request, not a property
  EXPECT_TRUE(config.count("delta.checkpointPolicy"));
}

TEST(FeatureProperties, ClusteringBringsDomainMetadata) {
  StringMap config = {{"delta.feature.clustering", "supported"}};
  Protocol p = Legacy(1, 2);
  EXPECT_TRUE(AddRequiredFeatures({}, config, p));
  EXPECT_EQ(*p.writer_features, (std::vector<std::string>{"appendOnly", "invariants", "clustering", "domainMetadata"}));
}

TEST(FeatureProperties, UnwritableAndUnknownFeaturesAreRefusedByName) {
  EXPECT_EQ(CheckDeltaTableProperty("delta.feature.domainMetadata", "supported"), "");
  EXPECT_NE(CheckDeltaTableProperty("delta.feature.icebergCompatV1", "supported").find("icebergCompatV1"), std::string::npos);
  EXPECT_NE(CheckDeltaTableProperty("delta.feature.icebergCompatV2", "supported").find("not support writing yet"),
            std::string::npos);
  EXPECT_EQ(CheckDeltaTableProperty("delta.enableRowTracking", "false"), "");
  std::string typo = CheckDeltaTableProperty("delta.feature.deletionVector", "supported");
  EXPECT_NE(typo.find("did you mean delta.feature.deletionVectors"), std::string::npos) << typo;
  EXPECT_NE(CheckDeltaTableProperty("delta.feature.appendOnly", "yes").find("'supported'"), std::string::npos);
  EXPECT_NE(CheckDeltaTableProperty("delta.checkpointPolicy", "v3").find("'classic' or 'v2'"), std::string::npos);
}

}  // namespace
}  // namespace lakestream::delta
