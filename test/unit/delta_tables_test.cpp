// The Spark/Databricks-written tables under shared/delta-tables load at every
// version with the file counts and record counts derived independently from
// their JSON logs (a small script replaying add/remove by hand).
#include <gtest/gtest.h>

#include <filesystem>

#include "storage/delta/delta_log.hpp"
#include "storage/parquet/parquet_reader.hpp"

#ifndef LAKESTREAM_SHARED_DIR
#define LAKESTREAM_SHARED_DIR "/work/shared"
#endif

namespace lakestream::delta {
namespace {

std::string Table(const std::string& name) { return std::string(LAKESTREAM_SHARED_DIR) + "/delta-tables/" + name; }

std::unique_ptr<DeltaLog> OpenLog(const std::string& name) {
  auto log = DeltaLog::Open(FileSystem::Default(), Table(name));
  EXPECT_TRUE(log.ok());
  return log.take();
}

// Rows in the active data files, read from the Parquet footers.
int64_t RowsInFiles(const Snapshot& snap) {
  int64_t rows = 0;
  for (const auto& [path, add] : snap.files) {
    auto r = ParquetReader::Open(snap.FilePath(path));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) rows += r.value()->RowCount();
  }
  return rows;
}

struct Expect {
  int64_t version;
  size_t files;
  int64_t records;    // numRecords from stats, or -1 when the table has no stats
  int64_t rows = -1;  // without stats: rows in the data files (Parquet footers)
};

// `has_data`: false for tables copied as log only (no data files).
void CheckTable(const std::string& name, const std::vector<Expect>& expected, int64_t latest, bool has_data = true) {
  SCOPED_TRACE(name);
  auto log = OpenLog(name);
  auto lv = log->LatestVersion();
  ASSERT_TRUE(lv.ok());
  EXPECT_EQ(lv.value(), latest);
  for (const auto& e : expected) {
    SCOPED_TRACE("version " + std::to_string(e.version));
    auto snap = log->LoadSnapshot(e.version);
    ASSERT_TRUE(snap.ok()) << snap.status().ToString();
    EXPECT_EQ(snap.value().version, e.version);
    EXPECT_EQ(snap.value().files.size(), e.files);
    if (e.records >= 0) {
      ASSERT_TRUE(snap.value().NumRecords().has_value());
      EXPECT_EQ(*snap.value().NumRecords(), e.records);
      if (has_data) EXPECT_EQ(RowsInFiles(snap.value()), e.records);  // stats agree with the data files
    } else {
      EXPECT_FALSE(snap.value().NumRecords().has_value());
      if (has_data && e.rows >= 0) EXPECT_EQ(RowsInFiles(snap.value()), e.rows);
    }
    if (has_data)
      for (const auto& [path, add] : snap.value().files)
      EXPECT_TRUE(std::filesystem::exists(snap.value().FilePath(path))) << path;
  }
  auto latest_snap = log->LoadSnapshot();
  ASSERT_TRUE(latest_snap.ok());
  EXPECT_EQ(latest_snap.value().version, latest);
}

TEST(DeltaTables, CdfTable) {
  CheckTable("cdf-table", {{0, 10, 10}, {1, 10, 10}, {2, 10, 10}, {3, 9, 9}}, 3);
  auto snap = OpenLog("cdf-table")->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().partition_columns(), std::vector<std::string>{"birthday"});
  EXPECT_TRUE(snap.value().ChangeDataFeedEnabled());
  for (const auto& [path, add] : snap.value().files) {
    ASSERT_TRUE(add.partition_values.count("birthday"));
    EXPECT_EQ(path.substr(0, 9), "birthday=");
  }
}

TEST(DeltaTables, CdfTableNonPartitioned) {
  CheckTable("cdf-table-non-partitioned", {{0, 10, 10}, {1, 10, 10}, {2, 10, 10}, {3, 9, 9}, {4, 11, 11}}, 4);
}

TEST(DeltaTables, CheckpointCdfTable) {
  // Log starts at the checkpoint of version 3; 0..2 cannot be reconstructed.
  CheckTable("checkpoint-cdf-table", {{3, 9, 9}, {4, 13, 13}, {5, 13, 13}}, 5);
  auto log = OpenLog("checkpoint-cdf-table");
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().checkpoint_version, 3);
  EXPECT_TRUE(snap.value().warnings.empty());
  auto old = log->LoadSnapshot(2);
  EXPECT_EQ(old.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(old.status().message().find("available versions are 3 to 5"), std::string::npos)
      << old.status().message();
  // The same state as cdf-table at version 3, reached through the checkpoint.
  auto v3 = log->LoadSnapshot(3);
  auto ref = OpenLog("cdf-table")->LoadSnapshot(3);
  ASSERT_TRUE(v3.ok() && ref.ok());
  ASSERT_EQ(v3.value().files.size(), ref.value().files.size());
  for (const auto& [path, add] : ref.value().files) {
    auto it = v3.value().files.find(path);
    ASSERT_NE(it, v3.value().files.end()) << path;
    EXPECT_EQ(it->second.partition_values, add.partition_values);
    EXPECT_EQ(it->second.size, add.size);
    EXPECT_EQ(it->second.NumRecords(), add.NumRecords());
  }
  EXPECT_EQ(v3.value().metadata.id, ref.value().metadata.id);
}

TEST(DeltaTables, Checkpoints) {
  std::vector<Expect> e;
  for (int v = 0; v <= 12; v++) e.push_back({v, static_cast<size_t>(v), v});
  CheckTable("checkpoints", e, 12, /*has_data=*/false);
}

TEST(DeltaTables, Delta080) {
  CheckTable("delta-0.8.0", {{0, 2, 5}, {1, 2, 4}}, 1);
}

TEST(DeltaTables, Delta080Partitioned) {
  CheckTable("delta-0.8.0-partitioned", {{0, 6, -1, 7}}, 0);
  auto snap = OpenLog("delta-0.8.0-partitioned")->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().partition_columns(), (std::vector<std::string>{"year", "month", "day"}));
  EXPECT_EQ(RowsInFiles(snap.value()), 7);  // commitInfo.operationMetrics.numOutputRows
}

TEST(DeltaTables, SimpleTable) {
  // Final state: ids 5, 7, 9 (as delta-rs' own tests expect).
  CheckTable("simple_table", {{0, 6, -1, 5}, {1, 22, -1, 20}, {2, 6, -1, 5}, {3, 6, -1, 5}, {4, 5, -1, 3}}, 4);
}

TEST(DeltaTables, SimpleTableWithCdc) {
  CheckTable("simple_table_with_cdc", {{0, 0, 0}, {1, 1, 1}, {2, 1, 1}}, 2);
}

TEST(DeltaTables, SimpleTableWithCheckpoint) {
  std::vector<Expect> e;
  for (int v = 0; v <= 10; v++) e.push_back({v, static_cast<size_t>(v + 1), -1, v + 1});  // one row per append
  CheckTable("simple_table_with_checkpoint", e, 10);
  auto snap = OpenLog("simple_table_with_checkpoint")->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().checkpoint_version, 10);
}

TEST(DeltaTables, CheckpointAndJsonReplayAgree) {
  for (const char* name : {"simple_table_with_checkpoint"}) {
    auto log = OpenLog(name);
    auto with = log->LoadSnapshot();
    LoadOptions no_cp;
    no_cp.use_checkpoint = false;
    auto without = log->LoadSnapshot(std::nullopt, no_cp);
    ASSERT_TRUE(with.ok() && without.ok());
    EXPECT_EQ(with.value().checkpoint_version, 10);
    EXPECT_EQ(without.value().checkpoint_version, -1);
    EXPECT_EQ(with.value().version, without.value().version);
    EXPECT_EQ(with.value().protocol, without.value().protocol);
    EXPECT_EQ(with.value().metadata, without.value().metadata);
    ASSERT_EQ(with.value().files.size(), without.value().files.size());
    for (const auto& [path, add] : without.value().files) {
      auto it = with.value().files.find(path);
      ASSERT_NE(it, with.value().files.end());
      EXPECT_EQ(it->second.size, add.size);
      EXPECT_EQ(it->second.partition_values, add.partition_values);
      EXPECT_EQ(it->second.modification_time, add.modification_time);
      EXPECT_EQ(it->second.stats, add.stats);
    }
  }
}

TEST(DeltaTables, DeltaLiveTable) {
  auto log = OpenLog("delta-live-table");
  auto v0 = log->LoadSnapshot(0);
  ASSERT_TRUE(v0.ok()) << v0.status().ToString();
  EXPECT_TRUE(v0.value().schema.empty());  // the pipeline's first commit has no schemaString
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  const auto& s = snap.value();
  EXPECT_EQ(s.protocol.min_reader_version, 2);
  EXPECT_EQ(s.protocol.min_writer_version, 5);
  EXPECT_EQ(s.metadata.id, "ac0a0120-970e-4d8c-ae92-b5244b055d6e");
  EXPECT_EQ(s.metadata.name.value_or(""), "SnowflakeTest_Snowflake_DTL_SHERPA_USER_TABLE");
  EXPECT_EQ(s.Property("pipelines.pipelineId"), "5c7b47e9-12d6-4986-a601-6716734281ce");
  ASSERT_EQ(s.schema.size(), 10u);
  EXPECT_EQ(s.schema[0].name, "sherpa_user_id");
  EXPECT_EQ(s.schema[0].type, LogicalType::Decimal(38, 0));
  EXPECT_EQ(s.schema[2].type, LogicalType(TypeId::TIMESTAMP));
  EXPECT_EQ(s.schema[8].type, LogicalType(TypeId::DATE));
  EXPECT_EQ(s.schema[9].type, LogicalType(TypeId::BIGINT));
  EXPECT_TRUE(s.files.empty());
  EXPECT_TRUE(CheckWritable("delta-live-table", s).ok());
}

// Versions whose commits carry cdc actions, and how many.
TEST(DeltaTables, ChangeDataFeedCommits) {
  struct Case {
    const char* table;
    std::vector<std::pair<int64_t, size_t>> cdc_per_version;
  };
  std::vector<Case> cases = {
      {"cdf-table", {{0, 0}, {1, 6}, {2, 6}, {3, 1}}},
      {"cdf-table-non-partitioned", {{0, 0}, {1, 3}, {2, 3}, {3, 1}, {4, 0}}},
      {"checkpoint-cdf-table", {{3, 1}, {4, 0}, {5, 4}}},
      {"simple_table_with_cdc", {{0, 0}, {1, 0}, {2, 1}}},
  };
  for (const auto& c : cases) {
    auto log = OpenLog(c.table);
    for (const auto& [version, count] : c.cdc_per_version) {
      auto actions = log->ReadCommit(version);
      ASSERT_TRUE(actions.ok()) << actions.status().ToString();
      size_t cdc = 0;
      for (const auto& a : actions.value())
        if (auto* f = std::get_if<CdcFile>(&a)) {
          cdc++;
          EXPECT_FALSE(f->data_change);
          EXPECT_EQ(f->path.substr(0, 13), "_change_data/");
          EXPECT_TRUE(std::filesystem::exists(Table(c.table) + "/" + f->path)) << f->path;
        }
      EXPECT_EQ(cdc, count) << c.table << " version " << version;
    }
  }
}

TEST(DeltaTables, HistoryAndTimeTravel) {
  auto log = OpenLog("cdf-table");
  auto history = log->History();
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history.value().size(), 4u);
  EXPECT_EQ(history.value()[0].version, 3);
  EXPECT_EQ(history.value()[0].operation, "DELETE");
  EXPECT_EQ(history.value()[0].timestamp_ms, 1704559499570);
  EXPECT_EQ(history.value()[2].operation, "UPDATE");
  EXPECT_EQ(history.value()[2].engine_info.value_or(""), "Apache-Spark/3.5.0 Delta-Lake/3.0.0");
  EXPECT_EQ(history.value()[3].operation, "WRITE");

  EXPECT_EQ(log->VersionAtOrBefore(1703265018828).value(), 0);
  EXPECT_EQ(log->VersionAtOrBefore(1703265021674).value(), 0);
  EXPECT_EQ(log->VersionAtOrBefore(1703265021675).value(), 1);
  EXPECT_EQ(log->VersionAtOrBefore(1704559499570).value(), 3);
  auto before = log->VersionAtOrBefore(1703265018827);
  EXPECT_EQ(before.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(before.status().message().find("2023-12-22T17:10:18.828Z"), std::string::npos)
      << before.status().message();
  auto after = log->VersionAtOrBefore(1704559499571);
  EXPECT_EQ(after.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(after.status().message().find("version 3"), std::string::npos);

  auto cp = OpenLog("checkpoint-cdf-table");
  EXPECT_EQ(cp->VersionAtOrBefore(1736181198167).value(), 4);
  EXPECT_FALSE(cp->VersionAtOrBefore(1704559499569).ok());  // before the checkpoint version 3
}

}  // namespace
}  // namespace lakestream::delta
