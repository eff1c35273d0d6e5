// Checkpoints written with a CheckpointCache (delta_checkpoint.hpp): each is
// byte for byte the checkpoint written without one, whatever changed since
// the cached one (files added, removed, re-added with another deletion
// vector or other statistics, a schema change that changes stats_parsed),
// and reading it back gives every file as the snapshot has it: partition
// values, tags, stats and stats_parsed counts, deletion vectors, row
// tracking fields, column mapping's physical names.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "temp_dir_util.hpp"

namespace lakestream::delta {
namespace {

// A column-mapped table (id BIGINT, note VARCHAR, p VARCHAR) partitioned by p.
std::string SchemaString(bool with_score) {
  auto field = [](const std::string& name, const std::string& type, int id) {
    return R"({"name":")" + name + R"(","type":")" + type + R"(","nullable":true,"metadata":{"delta.columnMapping.id":)" +
           std::to_string(id) + R"(,"delta.columnMapping.physicalName":"col-)" + name + R"("}})";
  };
  std::string fields = field("id", "long", 1) + "," + field("note", "string", 2) + "," + field("p", "string", 3);
  if (with_score) fields += "," + field("score", "double", 4);
  return R"({"type":"struct","fields":[)" + fields + "]}";
}

std::shared_ptr<Snapshot> MakeSnapshot(const std::string& table) {
  auto snap = std::make_shared<Snapshot>();
  snap->table_path = table;
  snap->version = 10;
  snap->protocol.min_reader_version = 3;
  snap->protocol.min_writer_version = 7;
  snap->protocol.reader_features = std::vector<std::string>{"columnMapping", "deletionVectors"};
  snap->protocol.writer_features = std::vector<std::string>{"columnMapping", "deletionVectors", "rowTracking"};
  snap->metadata.id = "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  snap->metadata.schema_string = SchemaString(false);
  snap->metadata.partition_columns = {"p"};
  snap->metadata.configuration = {{"delta.columnMapping.mode", "name"}, {"delta.columnMapping.maxColumnId", "3"}};
  EXPECT_TRUE(snap->ParseSchema().ok());
  return snap;
}

std::string Stats(int i) {
  return R"({"numRecords":)" + std::to_string(i + 2) + R"(,"minValues":{"col-id":)" + std::to_string(i) +
         R"(,"col-note":"a)" + std::to_string(i) + R"("},"maxValues":{"col-id":)" + std::to_string(i + 1) +
         R"(,"col-note":"z"},"nullCount":{"col-id":0,"col-note":1}})";
}

AddFile File(int i) {
  AddFile a;
  a.path = "p=v " + std::to_string(i % 3) + "/part-" + std::to_string(1000 + i) + ".parquet";  // encoded: %20
  a.partition_values = {{"p", i % 5 == 0 ? std::nullopt : std::optional<std::string>("v " + std::to_string(i % 3))}};
  a.size = 1000 + i;
  a.modification_time = 1700000000000 + i;
  a.stats = Stats(i);
  if (i % 4 == 0) a.tags = StringMap{{"INSERTION_TIME", std::to_string(i)}};
  if (i % 7 == 0) {
    a.deletion_vector = R"({"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":1,"sizeInBytes":36,"cardinality":1})";
  }
  a.base_row_id = i * 100;
  a.default_row_commit_version = 3;
  return a;
}

// `table`/_delta_log, created.
std::string MakeLogDir(const std::string& table) {
  std::string log_dir = table + "/_delta_log";
  EXPECT_TRUE(FileSystem::Default()->CreateDirectories(log_dir).ok());
  return log_dir;
}

std::string ReadCheckpoint(const std::string& log_dir, int64_t version) {
  return FileSystem::Default()->ReadFile(log_dir + "/" + CheckpointFileName(version)).take();
}

// Writes `snap`'s checkpoint without and then with `cache`; both must be the
// same bytes, and re-reading them must give the snapshot's files.
void ExpectSameCheckpoint(const std::string& log_dir, const std::shared_ptr<const Snapshot>& snap,
                          CheckpointCache& cache) {
  auto plain = WriteCheckpointFile(FileSystem::Default(), log_dir, *snap, 0);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  std::string expected = ReadCheckpoint(log_dir, snap->version);
  auto cached = WriteCheckpointFile(FileSystem::Default(), log_dir, snap, 0, cache);
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  std::string got = ReadCheckpoint(log_dir, snap->version);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
  EXPECT_EQ(cached.value().num_of_add_files, plain.value().num_of_add_files);
  ASSERT_TRUE(cache.files.has_value());
  EXPECT_TRUE(*cache.files == snap->files.Get());

  std::vector<Action> actions;
  ASSERT_TRUE(DecodeCheckpointPart(CheckpointFileName(snap->version), got, actions).ok());
  size_t adds = 0;
  for (const auto& action : actions) {
    const auto* add = std::get_if<AddFile>(&action);
    if (!add) continue;
    adds++;
    ASSERT_TRUE(snap->files.count(add->path)) << add->path;
    AddFile want = snap->files.at(add->path);
    want.data_change = false;  // checkpoints describe state
    // The deletion vector comes back as the same JSON object, its keys in
    // the checkpoint struct's order.
    ASSERT_EQ(add->deletion_vector.has_value(), want.deletion_vector.has_value()) << add->path;
    if (want.deletion_vector) {
      EXPECT_EQ(ParseJson(*add->deletion_vector), ParseJson(*want.deletion_vector)) << add->path;
      want.deletion_vector = add->deletion_vector;
    }
    EXPECT_EQ(*add, want) << SerializeAction(*add) << "\n" << SerializeAction(want);
    // stats_parsed was written and read: its counts agree with the JSON.
    EXPECT_EQ(add->counts.num_records, want.NumRecords()) << add->path;
    EXPECT_EQ(add->counts.max_null_count, 1) << add->path;
  }
  EXPECT_EQ(adds, snap->files.size());
}

TEST(DeltaCheckpointCache, EveryCheckpointIsTheOneWrittenWithoutTheCache) {
  testing::ScopedTempDir dir("lakestream_cp_cache");
  std::string table = dir.path + "/t";
  std::string log_dir = MakeLogDir(table);
  CheckpointCache cache;

  auto snap = MakeSnapshot(table);
  for (int i = 0; i < 3000; i++) snap->files.Add(File(i));  // more than one vector of rows
  ExpectSameCheckpoint(log_dir, snap, cache);             // fills the cache
  ASSERT_EQ(cache.records.size(), 3000u);

  // Files added (new paths among the old ones), removed, and re-added on
  // their path with another deletion vector, other stats or other tags.
  auto next = std::make_shared<Snapshot>(*snap);
  next->version = 20;
  for (int i = 3000; i < 3100; i++) next->files.Add(File(i));
  for (int i = 0; i < 3000; i += 13) next->files.erase(File(i).path);
  AddFile changed_dv = File(1);
  changed_dv.deletion_vector = R"({"storageType":"u","pathOrInlineDv":"zz^-aqEH.-t@S}K{vb[*k^","offset":1,"sizeInBytes":40,"cardinality":2})";
  next->files.Add(changed_dv);
  AddFile changed_stats = File(2);
  changed_stats.stats = Stats(77);
  next->files.Add(changed_stats);
  AddFile changed_tags = File(3);
  changed_tags.tags = StringMap{{"k", "v"}};
  next->files.Add(changed_tags);
  ExpectSameCheckpoint(log_dir, next, cache);

  // A new column changes stats_parsed's type: no cached row may be used.
  auto widened = std::make_shared<Snapshot>(*next);
  widened->version = 30;
  widened->metadata.schema_string = SchemaString(true);
  ASSERT_TRUE(widened->ParseSchema().ok());
  ExpectSameCheckpoint(log_dir, widened, cache);

  // And the cache filled with the widened rows serves the next checkpoint.
  auto last = std::make_shared<Snapshot>(*widened);
  last->version = 40;
  last->files.Add(File(5000));
  ExpectSameCheckpoint(log_dir, last, cache);
}

TEST(DeltaCheckpointCache, AFailedWriteEmptiesTheCache) {
  testing::ScopedTempDir dir("lakestream_cp_cache");
  std::string table = dir.path + "/t";
  std::string log_dir = MakeLogDir(table);
  CheckpointCache cache;
  auto snap = MakeSnapshot(table);
  for (int i = 0; i < 10; i++) snap->files.Add(File(i));
  ASSERT_TRUE(WriteCheckpointFile(FileSystem::Default(), log_dir, snap, 0, cache).ok());
  ASSERT_EQ(cache.records.size(), 10u);

  FaultInjectionFileSystem faulty(FileSystem::Default());
  faulty.FailAfter(FaultInjectionFileSystem::Op::kFsync, 1);
  auto next = std::make_shared<Snapshot>(*snap);
  next->version = 11;
  EXPECT_FALSE(WriteCheckpointFile(&faulty, log_dir, next, 0, cache).ok());
  EXPECT_FALSE(cache.files.has_value());
  EXPECT_TRUE(cache.rows.empty());
  // The next write encodes every file again, and gives the same checkpoint.
  ExpectSameCheckpoint(log_dir, next, cache);
}

}  // namespace
}  // namespace lakestream::delta
