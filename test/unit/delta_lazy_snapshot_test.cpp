// Issue 30: a snapshot loaded from a checkpoint decodes the checkpoint's add
// actions only when its files are used (storage/delta/file_map.hpp), and
// the checkpoints we write carry add.stats_parsed, from which COUNT(*) takes
// its counts without parsing JSON.
#include <gtest/gtest.h>

#include <cstring>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"
#include "delta_table_util.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using testing::CopySharedDeltaTable;
using testing::ScopedTempDir;

// The same active files: a checkpoint's adds differ from the commits' only
// in dataChange.
void ExpectSameFiles(const delta::Snapshot& got, const delta::Snapshot& want) {
  ASSERT_EQ(got.files.Get().size(), want.files.Get().size());
  for (const auto& [path, add] : want.files) {
    auto it = got.files.find(path);
    ASSERT_NE(it, got.files.end()) << path;
    EXPECT_EQ(it->second.size, add.size) << path;
    EXPECT_EQ(it->second.stats, add.stats) << path;
    EXPECT_EQ(it->second.partition_values, add.partition_values) << path;
    EXPECT_EQ(it->second.deletion_vector, add.deletion_vector) << path;
  }
}

// A table of (k, v) with 12 data files of 10 rows and a checkpoint at
// version 10 (versions 0 to 12: CREATE, then 12 single-file INSERTs).
std::string MakeCheckpointedTable(const std::string& dir) {
  std::string path = dir + "/t";
  auto table = testing::MakeTable(FileSystem::Default(), path);
  for (int64_t v = 2; v <= 12; v++) {
    TableCommit insert = testing::InsertRows(v * 100, 10);
    table->Commit(insert);
  }
  delta::WaitForCheckpoints(path);
  return path;
}

TEST(DeltaLazySnapshot, LogOnlyUseNeverDecodesTheAdds) {
  ScopedTempDir dir("lakestream_lazy_snapshot");
  std::string path = MakeCheckpointedTable(dir.path);
  int64_t decodes = delta::FileSourceDecodes();
  int64_t size_decodes = delta::FileSourceSizeDecodes();
  auto table = DeltaTable::Open(FileSystem::Default(), "t", path);
  const delta::Snapshot& snap = table->Snapshot();
  EXPECT_EQ(snap.checkpoint_version, 10);
  EXPECT_EQ(snap.version, 12);
  // What DESCRIBE DETAIL reads: metadata, and the files' count and bytes,
  // from the checkpoint's footer and the two commits after it (or, should
  // the footer's path filter think one of their files may be in the
  // checkpoint, from a decode of paths and sizes only).
  EXPECT_FALSE(snap.metadata.id.empty());
  EXPECT_FALSE(snap.files.Decoded());
  EXPECT_EQ(snap.files.size(), 12u);
  int64_t bytes = snap.TotalBytes();
  EXPECT_GT(bytes, 0);
  EXPECT_EQ(delta::FileSourceDecodes(), decodes);
  EXPECT_LE(delta::FileSourceSizeDecodes(), size_decodes + 1);  // at most one, for both numbers
  // A commit that only appends needs no files either.
  TableCommit insert = testing::InsertRows(5000, 2);
  table->Commit(insert);
  EXPECT_EQ(delta::FileSourceDecodes(), decodes);
  EXPECT_EQ(table->Snapshot().files.size(), 13u);
  // Nor does counting rows (the footer's record count, delta_count_test.cpp);
  // the files agree with a full JSON replay.
  EXPECT_EQ(table->RowCount(), 10u + 11 * 10 + 2);
  EXPECT_EQ(delta::FileSourceDecodes(), decodes);
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  delta::LoadOptions json_only;
  json_only.use_checkpoint = false;
  auto ref = log->LoadSnapshot(std::nullopt, json_only).take();
  ExpectSameFiles(table->Snapshot(), ref);
  EXPECT_EQ(table->Snapshot().TotalBytes(), ref.TotalBytes());
}

// The adds and removes replayed after the checkpoint apply on top of its
// files in order, both in the light decode and in the full one.
TEST(DeltaLazySnapshot, ChangesAfterTheCheckpointApplyInOrder) {
  ScopedTempDir dir("lakestream_lazy_snapshot");
  std::string path = MakeCheckpointedTable(dir.path);
  auto table = DeltaTable::Open(FileSystem::Default(), "t", path);
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  // Data file paths are random, so the first file in path order may be one
  // of the two added after the checkpoint: rewrite the first one it holds.
  auto at_checkpoint = log->LoadSnapshot(10).take();
  uint64_t file_index = 0;
  for (const auto& [path_in_table, add] : table->Snapshot().files) {
    if (at_checkpoint.files.find(path_in_table) != at_checkpoint.files.end()) break;
    file_index++;
  }
  ASSERT_LT(file_index, 12u);
  TableCommit update = testing::UpdateOneRow(file_index);
  table->Commit(update);
  auto lazy = log->LoadSnapshot().take();
  EXPECT_EQ(lazy.checkpoint_version, 10);
  delta::LoadOptions json_only;
  json_only.use_checkpoint = false;
  auto ref = log->LoadSnapshot(std::nullopt, json_only).take();
  // The update removes a file of the checkpoint: the footer's numbers no
  // longer do, and the paths and sizes are decoded.
  int64_t size_decodes = delta::FileSourceSizeDecodes();
  EXPECT_EQ(lazy.files.size(), ref.files.size());
  EXPECT_EQ(lazy.TotalBytes(), ref.TotalBytes());
  EXPECT_EQ(delta::FileSourceSizeDecodes(), size_decodes + 1);
  EXPECT_FALSE(lazy.files.Decoded());
  delta::Snapshot copy = lazy;  // copies share the source and decode on their own
  ExpectSameFiles(lazy, ref);
  ExpectSameFiles(copy, ref);
}

// Our checkpoint's add.stats_parsed says what its add.stats says.
TEST(DeltaLazySnapshot, StatsParsedReadsBackAsTheJsonStats) {
  ScopedTempDir dir("lakestream_lazy_snapshot");
  std::string path = dir.path + "/typed";
  DeltaTableDefinition definition;
  definition.columns = {{"i", TypeId::INTEGER, false, Value(LogicalType(TypeId::INTEGER))},
                        {"b", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"d", TypeId::DOUBLE, false, Value(LogicalType(TypeId::DOUBLE))},
                        {"s", TypeId::VARCHAR, false, Value(LogicalType(TypeId::VARCHAR))},
                        {"day", TypeId::DATE, false, Value(LogicalType(TypeId::DATE))},
                        {"ts", TypeId::TIMESTAMP, false, Value(LogicalType(TypeId::TIMESTAMP))},
                        {"p", TypeId::VARCHAR, false, Value(LogicalType(TypeId::VARCHAR))}};
  definition.partition_columns = {"p"};
  auto table = DeltaTable::Create(FileSystem::Default(), "typed", path, definition);
  for (int file = 0; file < 3; file++) {
    std::vector<LogicalType> types;
    for (auto& c : definition.columns) types.push_back(c.type);
    ChunkCollection rows(types);
    DataChunk chunk;
    chunk.Initialize(types, 4);
    for (idx_t r = 0; r < 4; r++) {
      int64_t n = file * 10 + static_cast<int64_t>(r);
      chunk.data[0].SetValue(r, Value::INTEGER(static_cast<int32_t>(-n)));
      chunk.data[1].SetValue(r, Value::BIGINT(n * 1000000007LL));
      chunk.data[2].SetValue(r, r == 3 ? Value(LogicalType(TypeId::DOUBLE)) : Value::DOUBLE(n + 0.25));
      chunk.data[3].SetValue(r, Value::VARCHAR("name " + std::to_string(n)));
      chunk.data[4].SetValue(r, Value::DATE(date_t(static_cast<int32_t>(19000 + n))));
      chunk.data[5].SetValue(r, Value::TIMESTAMP(timestamp_t(1700000000123456LL + n * 1000000)));
      chunk.data[6].SetValue(r, Value::VARCHAR(file % 2 ? "odd" : "even"));
    }
    chunk.SetCardinality(4);
    rows.Append(chunk);
    TableCommit insert;
    insert.operation = "WRITE";
    insert.inserted = std::move(rows);
    table->Commit(insert);
  }
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  auto snap = log->LoadSnapshot().take();
  ASSERT_TRUE(log->WriteCheckpoint(snap).ok());
  auto reader = ParquetReader::Open(path + "/_delta_log/" + delta::CheckpointFileName(snap.version)).take();
  idx_t add = 0;
  while (reader->ColumnNames()[add] != "add") add++;
  ASSERT_TRUE(reader->Scan({add}).ok());
  DataChunk chunk;
  chunk.Initialize(reader->ProjectedTypes());
  int checked = 0;
  while (reader->ReadChunk(chunk).ok() && chunk.size() > 0) {
    for (idx_t row = 0; row < chunk.size(); row++) {
      Value v = chunk.GetValue(0, row);
      if (v.IsNull()) continue;
      std::optional<std::string> stats;
      Value parsed;
      for (size_t i = 0; i < v.type().children().size(); i++) {
        if (v.type().children()[i].first == "stats") stats = v.Children()[i].GetString();
        if (v.type().children()[i].first == "stats_parsed") parsed = v.Children()[i];
      }
      ASSERT_TRUE(stats.has_value());
      ASSERT_FALSE(parsed.IsNull());
      // Every bound and count of the JSON is in the struct, and no other.
      nlohmann::json from_json = ParseJson(*stats), from_struct = ParseJson(delta::StatsJsonFromStruct(parsed));
      EXPECT_EQ(from_struct, from_json) << *stats;
      EXPECT_EQ(from_json["minValues"].size(), 6u);  // the partition column has none
      checked++;
    }
  }
  EXPECT_EQ(checked, 3);
  // Loading reads the counts from the struct.
  auto loaded = log->LoadSnapshot().take();
  ASSERT_EQ(loaded.checkpoint_version, snap.version);
  for (const auto& [p, a] : loaded.files) {
    EXPECT_EQ(a.counts.num_records, std::optional<int64_t>(4)) << p;
    EXPECT_EQ(a.counts.max_null_count, 1) << p;  // d is NULL in one row
  }
  EXPECT_EQ(loaded.NumRecords(), std::optional<int64_t>(12));
}

// Spark's checkpoints: one with JSON stats only (no counts from a struct:
// they come from parsing stats), one with struct stats only.
TEST(DeltaLazySnapshot, SparkCheckpointsWithAndWithoutStatsParsedRead) {
  for (const char* name : {"simple_table_with_checkpoint", "delta-1.2.1-only-struct-stats", "table_with_deletion_logs"}) {
    SCOPED_TRACE(name);
    std::string dir = CopySharedDeltaTable(name);
    auto log = delta::DeltaLog::Open(FileSystem::Default(), dir).take();
    auto lazy = log->LoadSnapshot();
    ASSERT_TRUE(lazy.ok()) << lazy.status().ToString();
    ASSERT_GE(lazy.value().checkpoint_version, 0);
    delta::LoadOptions json_only;
    json_only.use_checkpoint = false;
    auto ref = log->LoadSnapshot(std::nullopt, json_only);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    EXPECT_EQ(lazy.value().files.size(), ref.value().files.size());
    ASSERT_EQ(lazy.value().files.Get().size(), ref.value().files.Get().size());
    for (const auto& [path, add] : ref.value().files) {
      const delta::AddFile& got = lazy.value().files.at(path);
      bool struct_stats = std::string(name) != "simple_table_with_checkpoint";
      // Files added after the checkpoint come from JSON commits: no struct.
      if (lazy.value().checkpoint_version >= 0 && !struct_stats) EXPECT_FALSE(got.counts.num_records.has_value());
      EXPECT_EQ(got.NumRecords(), add.NumRecords()) << path;
      auto checked = delta::CheckedNumRecords(got, path);
      ASSERT_TRUE(checked.ok()) << checked.status().ToString();
      EXPECT_EQ(checked.value(), add.NumRecords());
    }
  }
}

// A checkpoint whose adds do not decode fails when the files are used, and
// names the checkpoint, while what needs only the log still works.
TEST(DeltaLazySnapshot, CorruptAddsFailOnlyWhenUsed) {
  ScopedTempDir dir("lakestream_lazy_snapshot");
  std::string path = MakeCheckpointedTable(dir.path);
  std::string cp = path + "/_delta_log/" + delta::CheckpointFileName(10);
  ASSERT_EQ(ParquetReader::Open(cp).take()->RowGroupCount(), 2u);  // the log actions, then the adds
  // Break the pages of add.path, the only column whose values name data
  // files (their statistics in the footer, after the row groups, stay).
  auto bytes = FileSystem::Default()->ReadFile(cp).take();
  uint32_t footer = 0;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  std::string_view data(bytes.data(), bytes.size() - 8 - footer);
  size_t first = data.find(".parquet"), last = data.rfind(".parquet");
  ASSERT_NE(first, std::string_view::npos);
  for (size_t i = first > 80 ? first - 80 : 0; i < last; i++) bytes[i] = static_cast<char>(0xA5);
  ASSERT_TRUE(FileSystem::Default()->WriteFile(cp, bytes).ok());
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  EXPECT_FALSE(snap.value().metadata.schema_string.empty());
  Status s = snap.value().files.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find(delta::CheckpointFileName(10)), std::string::npos) << s.message();
  EXPECT_THROW(snap.value().files.begin(), CorruptionError);
}

TEST(DeltaLazySnapshot, PathFilterKeepsEveryPathAndRefusesMostOthers) {
  std::vector<std::string> paths;
  for (int i = 0; i < 2000; i++) paths.push_back("p=" + std::to_string(i % 7) + "/part-" + std::to_string(i) + ".parquet");
  auto filter = delta::PathFilter::Parse(delta::PathFilter({paths.begin(), paths.end()}).Serialize());
  ASSERT_TRUE(filter.has_value());
  for (const auto& p : paths) EXPECT_TRUE(filter->MayContain(p)) << p;
  int maybe = 0;
  for (int i = 0; i < 10000; i++) maybe += filter->MayContain("other-" + std::to_string(i) + ".parquet");
  EXPECT_LT(maybe, 50);  // about 0.05% expected
  for (const char* bad : {"", "7", ":ab", "0:ab", "7:abc", "7:zz", "99:ab", "7:"})
    EXPECT_FALSE(delta::PathFilter::Parse(bad).has_value()) << bad;
}

}  // namespace
}  // namespace lakestream
