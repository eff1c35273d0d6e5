// Reading checkpoints: the direct decoder (delta_checkpoint_read.cpp) against
// a plain Value-per-row reference decoder on Spark's and our checkpoints, and
// loading the latest snapshot from _last_checkpoint without a listing, with
// the listing taking over when the pointer is missing, stale or corrupt.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "storage/delta/delta_log.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "temp_dir_util.hpp"

namespace lakestream::delta {
namespace {

using testing::CopySharedDeltaTable;
using testing::ScopedTempDir;
using testing::SharedDeltaTable;

// simple_table_with_checkpoint came without _last_checkpoint: point it at
// its checkpoint so that the unlisted path is the one taken.
void PointAtCheckpoint10(const std::string& dir) {
  ASSERT_TRUE(FileSystem::Default()->WriteFile(dir + "/_delta_log/_last_checkpoint", R"({"version":10,"size":13})").ok());
}

// ---- reference: whole rows as engine Values, fields looked up by name ----

const Value* Get(const Value& s, const std::string& name) {
  if (s.IsNull() || s.type().id() != TypeId::STRUCT) return nullptr;
  for (size_t i = 0; i < s.type().children().size(); i++)
    if (s.type().children()[i].first == name) return s.Children()[i].IsNull() ? nullptr : &s.Children()[i];
  return nullptr;
}
std::optional<std::string> S(const Value& s, const std::string& n) {
  auto* f = Get(s, n);
  return f && f->type().id() == TypeId::VARCHAR ? std::optional<std::string>(f->GetString()) : std::nullopt;
}
std::optional<int64_t> L(const Value& s, const std::string& n) {
  auto* f = Get(s, n);
  if (!f || (f->type().id() != TypeId::BIGINT && f->type().id() != TypeId::INTEGER)) return std::nullopt;
  return f->AsBigint();
}
std::optional<bool> B(const Value& s, const std::string& n) {
  auto* f = Get(s, n);
  return f && f->type().id() == TypeId::BOOLEAN ? std::optional<bool>(f->GetBoolean()) : std::nullopt;
}
std::optional<PartitionValues> M(const Value& s, const std::string& n) {
  auto* f = Get(s, n);
  if (!f || f->type().id() != TypeId::MAP) return std::nullopt;
  PartitionValues out;
  for (const auto& kv : f->Children())
    if (kv.Children().size() == 2 && !kv.Children()[0].IsNull())
      out[kv.Children()[0].ToString()] =
          kv.Children()[1].IsNull() ? std::nullopt : std::optional<std::string>(kv.Children()[1].ToString());
  return out;
}
std::optional<StringMap> SM(const Value& s, const std::string& n) {
  auto pv = M(s, n);
  if (!pv) return std::nullopt;
  StringMap out;
  for (auto& [k, v] : *pv)
    if (v) out[k] = *v;
  return out;
}
std::optional<std::vector<std::string>> SL(const Value& s, const std::string& n) {
  auto* f = Get(s, n);
  if (!f || f->type().id() != TypeId::LIST) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& e : f->Children())
    if (!e.IsNull()) out.push_back(e.ToString());
  return out;
}

std::vector<Action> ReferenceDecode(const std::string& path) {
  auto reader = ParquetReader::Open(path).take();
  std::vector<idx_t> ids;
  std::vector<std::string> names;
  for (const char* want : {"protocol", "metaData", "txn", "add", "remove"})
    for (idx_t i = 0; i < reader->ColumnNames().size(); i++)
      if (reader->ColumnNames()[i] == want) ids.push_back(i), names.push_back(want);
  EXPECT_TRUE(reader->Scan(ids).ok());
  std::vector<Action> out;
  DataChunk chunk;
  chunk.Initialize(reader->ProjectedTypes());
  while (reader->ReadChunk(chunk).ok() && chunk.size() > 0) {
    for (idx_t row = 0; row < chunk.size(); row++) {
      for (idx_t c = 0; c < ids.size(); c++) {
        Value v = chunk.GetValue(c, row);
        if (v.IsNull()) continue;
        if (names[c] == "add") {
          AddFile a;
          a.path = DecodePath(*S(v, "path")).take();
          a.partition_values = M(v, "partitionValues").value_or(PartitionValues{});
          a.size = L(v, "size").value_or(0);
          a.modification_time = L(v, "modificationTime").value_or(0);
          a.data_change = B(v, "dataChange").value_or(false);
          a.stats = S(v, "stats");
          a.tags = SM(v, "tags");
          if (Get(v, "deletionVector")) a.deletion_vector = Get(v, "deletionVector")->ToString();
          a.base_row_id = L(v, "baseRowId");
          a.default_row_commit_version = L(v, "defaultRowCommitVersion");
          out.push_back(a);
        } else if (names[c] == "remove") {
          RemoveFile r;
          r.path = DecodePath(*S(v, "path")).take();
          r.deletion_timestamp = L(v, "deletionTimestamp");
          r.data_change = B(v, "dataChange").value_or(false);
          r.extended_file_metadata = B(v, "extendedFileMetadata");
          r.partition_values = M(v, "partitionValues");
          r.size = L(v, "size");
          r.tags = SM(v, "tags");
          out.push_back(r);
        } else if (names[c] == "metaData") {
          Metadata m;
          m.id = *S(v, "id");
          m.name = S(v, "name");
          m.description = S(v, "description");
          if (const Value* f = Get(v, "format")) {
            m.format.provider = S(*f, "provider").value_or("parquet");
            m.format.options = SM(*f, "options").value_or(StringMap{});
          }
          m.schema_string = S(v, "schemaString").value_or("");
          m.partition_columns = SL(v, "partitionColumns").value_or(std::vector<std::string>{});
          m.configuration = SM(v, "configuration").value_or(StringMap{});
          m.created_time = L(v, "createdTime");
          out.push_back(m);
        } else if (names[c] == "protocol") {
          Protocol p;
          p.min_reader_version = static_cast<int32_t>(*L(v, "minReaderVersion"));
          p.min_writer_version = static_cast<int32_t>(*L(v, "minWriterVersion"));
          p.reader_features = SL(v, "readerFeatures");
          p.writer_features = SL(v, "writerFeatures");
          out.push_back(p);
        } else if (names[c] == "txn") {
          out.push_back(Txn{*S(v, "appId"), *L(v, "version"), L(v, "lastUpdated")});
        }
      }
    }
  }
  return out;
}

void ExpectDecodersAgree(const std::string& checkpoint) {
  SCOPED_TRACE(checkpoint);
  auto bytes = FileSystem::Default()->ReadFile(checkpoint);
  ASSERT_TRUE(bytes.ok());
  std::vector<Action> direct;
  Status s = DecodeCheckpointPart(checkpoint, bytes.take(), direct);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<Action> reference = ReferenceDecode(checkpoint);
  ASSERT_EQ(direct.size(), reference.size());
  for (size_t i = 0; i < direct.size(); i++) EXPECT_TRUE(direct[i] == reference[i]) << "action " << i;
}

TEST(DeltaCheckpointRead, DirectDecoderMatchesValueDecoderOnSparkCheckpoints) {
  ExpectDecodersAgree(SharedDeltaTable("checkpoint-cdf-table") + "/_delta_log/00000000000000000003.checkpoint.parquet");
  ExpectDecodersAgree(SharedDeltaTable("simple_table_with_checkpoint") + "/_delta_log/00000000000000000010.checkpoint.parquet");
}

TEST(DeltaCheckpointRead, DirectDecoderMatchesValueDecoderOnOurCheckpoint) {
  // Our own checkpoint of the partitioned cdf-table (maps with values, a
  // remove with partition values, tags) read back both ways.
  std::string dir = CopySharedDeltaTable("cdf-table");
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  Snapshot s = snap.take();
  s.files.begin()->second.tags = StringMap{{"k", "v"}};
  s.txns["app"] = Txn{"app", 3, 1700000000000};
  ASSERT_TRUE(log->WriteCheckpoint(s).ok());
  ExpectDecodersAgree(dir + "/_delta_log/" + CheckpointFileName(s.version));
}

// Loads `dir` latest and checks it against a full JSON replay.
void ExpectSameAsJsonReplay(DeltaLog& log, const Snapshot& snap) {
  LoadOptions json_only;
  json_only.use_checkpoint = false;
  auto ref = log.LoadSnapshot(std::nullopt, json_only);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(snap.version, ref.value().version);
  EXPECT_EQ(snap.metadata, ref.value().metadata);
  EXPECT_EQ(snap.protocol, ref.value().protocol);
  ASSERT_EQ(snap.files.size(), ref.value().files.size());
  for (const auto& [path, add] : ref.value().files) {
    auto it = snap.files.find(path);
    ASSERT_NE(it, snap.files.end()) << path;
    EXPECT_EQ(it->second.size, add.size);
    EXPECT_EQ(it->second.stats, add.stats);
  }
}

TEST(DeltaCheckpointRead, CommitsAfterTheCheckpointAreProbed) {
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  PointAtCheckpoint10(dir);
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto base = log->LoadSnapshot();
  ASSERT_TRUE(base.ok());
  // Two more commits after checkpoint 10, each re-adding a file as a new path.
  for (int64_t v = 11; v <= 12; v++) {
    AddFile a = base.value().files.begin()->second;
    a.path = "copy-" + std::to_string(v) + ".parquet";
    ASSERT_TRUE(log->Commit(v, {CommitInfo::Make(1700000000000 + v, "WRITE", {}), a}).ok());
  }
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 12);
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  EXPECT_TRUE(snap.value().warnings.empty());
  EXPECT_EQ(snap.value().files.size(), 13u);
  EXPECT_EQ(snap.value().commit_timestamps.at(12), 1700000000012);
  ExpectSameAsJsonReplay(*log, snap.value());
}

TEST(DeltaCheckpointRead, MissingLastCheckpointUsesTheListing) {
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  std::filesystem::remove(dir + "/_delta_log/_last_checkpoint");
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  EXPECT_TRUE(snap.value().warnings.empty());
  ExpectSameAsJsonReplay(*log, snap.value());
}

TEST(DeltaCheckpointRead, StaleLastCheckpointStillReachesTheLatestVersion) {
  // _last_checkpoint names an older checkpoint that exists: the commits after
  // it are replayed up to the latest one; a newer checkpoint is not needed.
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto v5 = log->LoadSnapshot(5);
  ASSERT_TRUE(v5.ok());
  auto lc = WriteCheckpointFile(FileSystem::Default(), log->log_path(), v5.value(), 1700000000000);
  ASSERT_TRUE(lc.ok());
  ASSERT_TRUE(FileSystem::Default()->WriteFile(log->log_path() + "/_last_checkpoint", SerializeLastCheckpoint(lc.value())).ok());
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 10);
  EXPECT_EQ(snap.value().checkpoint_version, 5);
  ExpectSameAsJsonReplay(*log, snap.value());
}

TEST(DeltaCheckpointRead, LogBeforeTheCheckpointCleanedUp) {
  // Commits 0..9 gone (log cleanup): only the checkpoint and later commits.
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  PointAtCheckpoint10(dir);
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto before = log->LoadSnapshot();
  ASSERT_TRUE(before.ok());
  for (int v = 0; v < 10; v++) std::filesystem::remove(log->log_path() + "/" + CommitFileName(v));
  AddFile a = before.value().files.begin()->second;
  a.path = "after-cleanup.parquet";
  ASSERT_TRUE(log->Commit(11, {CommitInfo::Make(1700000000011, "WRITE", {}), a}).ok());
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 11);
  EXPECT_EQ(snap.value().files.size(), before.value().files.size() + 1);
  auto old = log->LoadSnapshot(9);
  EXPECT_EQ(old.status().code(), Status::Code::kInvalidArgument);
}

TEST(DeltaCheckpointRead, MultiPartCheckpointNamedByLastCheckpoint) {
  // The classic checkpoint renamed as part 1 of 1, as _last_checkpoint says.
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  std::string log_dir = dir + "/_delta_log";
  std::filesystem::rename(log_dir + "/" + CheckpointFileName(10), log_dir + "/" + CheckpointPartFileName(10, 1, 1));
  ASSERT_TRUE(FileSystem::Default()->WriteFile(log_dir + "/_last_checkpoint", R"({"version":10,"size":13,"parts":1})").ok());
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  EXPECT_TRUE(snap.value().warnings.empty());
  EXPECT_EQ(snap.value().files.size(), 11u);
  // A part count that does not match the files: the listing finds the real one.
  ASSERT_TRUE(FileSystem::Default()->WriteFile(log_dir + "/_last_checkpoint", R"({"version":10,"size":13,"parts":2})").ok());
  snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  EXPECT_EQ(snap.value().files.size(), 11u);
}

TEST(DeltaCheckpointRead, CorruptCheckpointWithoutJsonToReplayNamesTheFile) {
  std::string dir = CopySharedDeltaTable("checkpoint-cdf-table");
  std::string cp = dir + "/_delta_log/" + CheckpointFileName(3);
  auto bytes = FileSystem::Default()->ReadFile(cp).take();
  // Keep the footer, break the data: the decoder must fail cleanly.
  for (size_t i = 4; i < bytes.size() / 2; i++) bytes[i] = static_cast<char>(0xA5);
  ASSERT_TRUE(FileSystem::Default()->WriteFile(cp, bytes).ok());
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_FALSE(snap.ok());
  EXPECT_TRUE(snap.status().IsCorruption()) << snap.status().ToString();
  EXPECT_NE(snap.status().message().find("00000000000000000003.checkpoint.parquet"), std::string::npos)
      << snap.status().message();
}

TEST(DeltaCheckpointRead, ProjectionKeepsOnlyTheNamedFields) {
  auto reader = ParquetReader::Open(SharedDeltaTable("checkpoint-cdf-table") + "/_delta_log/00000000000000000003.checkpoint.parquet").take();
  idx_t add = 0;
  while (reader->ColumnNames()[add] != "add") add++;
  ASSERT_TRUE(reader->ScanProjected({{add, {"size", "path", "no-such-field"}}}).ok());
  auto types = reader->ProjectedTypes();
  ASSERT_EQ(types[0].children().size(), 2u);
  EXPECT_EQ(types[0].children()[0].first, "path");  // the file's order
  EXPECT_EQ(types[0].children()[1].first, "size");
  DataChunk chunk;
  chunk.Initialize(types);
  int64_t adds = 0;
  while (reader->ReadChunk(chunk).ok() && chunk.size() > 0)
    for (idx_t r = 0; r < chunk.size(); r++) {
      Value v = chunk.GetValue(0, r);
      if (v.IsNull()) continue;
      adds++;
      EXPECT_FALSE(v.Children()[0].IsNull());
    }
  EXPECT_EQ(adds, 9);
  EXPECT_EQ(reader->ScanProjected({{add, {"no-such-field"}}}).code(), Status::Code::kInvalidArgument);
}

// ---- tombstones, read from a checkpoint only when needed ----

AddFile Add(const std::string& path) {
  AddFile a;
  a.path = path;
  a.size = 10;
  a.stats = R"({"numRecords":1})";
  return a;
}

RemoveFile Remove(const std::string& path, int64_t deleted_ms) {
  RemoveFile r;
  r.path = path;
  r.deletion_timestamp = deleted_ms;
  return r;
}

// Deletion times within the retention period (7 days), so checkpoints keep them.
const int64_t kNowMs =
    std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
const int64_t kDeletedA = kNowMs - 1000, kDeletedC = kNowMs - 500;

// Versions: 0 creates files a, b, c; 1 removes a and b; (checkpoint of 1);
// 2 adds b again; 3 removes c.
std::unique_ptr<DeltaLog> TableWithCheckpointedTombstones(const std::string& dir) {
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  Metadata m;
  m.id = "tombstone-test";
  m.schema_string = SchemaToString({{"id", TypeId::BIGINT}}).value();
  EXPECT_TRUE(log->Commit(0, {CommitInfo::Make(1000, "CREATE TABLE", {}), Protocol(), m, Add("a"), Add("b"), Add("c")}).ok());
  EXPECT_TRUE(log->Commit(1, {CommitInfo::Make(1001, "DELETE", {}), Remove("a", kDeletedA), Remove("b", kDeletedA)}).ok());
  auto v1 = log->LoadSnapshot();
  EXPECT_TRUE(v1.ok() && v1.value().unread_tombstone_parts.empty());  // replayed from JSON
  EXPECT_TRUE(log->WriteCheckpoint(v1.value()).ok());
  EXPECT_TRUE(log->Commit(2, {CommitInfo::Make(1002, "WRITE", {}), Add("b")}).ok());
  EXPECT_TRUE(log->Commit(3, {CommitInfo::Make(1003, "DELETE", {}), Remove("c", kDeletedC)}).ok());
  return log;
}

std::map<std::string, int64_t> DeletedAt(const std::map<std::string, RemoveFile>& tombstones) {
  std::map<std::string, int64_t> out;
  for (const auto& [path, r] : tombstones) out[path] = r.deletion_timestamp.value_or(-1);
  return out;
}

TEST(DeltaCheckpointRead, TombstonesOfTheCheckpointAreReadOnlyWhenNeeded) {
  ScopedTempDir dir;
  auto log = TableWithCheckpointedTombstones(dir.path);
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 1);
  EXPECT_EQ(snap.value().unread_tombstone_parts.size(), 1u);
  // Loading read only the tombstones after the checkpoint.
  EXPECT_EQ(DeletedAt(snap.value().tombstones), (std::map<std::string, int64_t>{{"c", kDeletedC}}));
  // All of them: a from the checkpoint, c after it; b was added again.
  auto all = AllTombstones(FileSystem::Default(), snap.value());
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  std::map<std::string, int64_t> expected = {{"a", kDeletedA}, {"c", kDeletedC}};
  EXPECT_EQ(DeletedAt(all.value()), expected);
  // The same as replaying every JSON commit.
  LoadOptions json_only;
  json_only.use_checkpoint = false;
  EXPECT_EQ(DeletedAt(log->LoadSnapshot(std::nullopt, json_only).value().tombstones), expected);
  Snapshot s = snap.value();
  ASSERT_TRUE(LoadCheckpointTombstones(FileSystem::Default(), s).ok());
  EXPECT_TRUE(s.unread_tombstone_parts.empty());
  EXPECT_EQ(DeletedAt(s.tombstones), expected);
  // The next checkpoint carries them on, whether they were loaded (s) or not
  // (snap: the checkpoint writer reads them itself).
  for (const Snapshot* from : {&s, &snap.value()}) {
    ASSERT_TRUE(log->WriteCheckpoint(*from).ok());
    auto again = log->LoadSnapshot();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again.value().checkpoint_version, 3);
    EXPECT_TRUE(again.value().tombstones.empty());
    EXPECT_EQ(DeletedAt(AllTombstones(FileSystem::Default(), again.value()).value()), expected);
    EXPECT_EQ(again.value().files.size(), 1u);  // b
  }
}

// Rows the reader's current scan returns; -1 on a read error.
int64_t RowsOfScan(ParquetReader& reader) {
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  int64_t rows = 0;
  while (true) {
    if (!reader.ReadChunk(chunk).ok()) return -1;
    if (chunk.size() == 0) return rows;
    rows += static_cast<int64_t>(chunk.size());
  }
}

TEST(DeltaCheckpointRead, TombstonesLiveInRowGroupsOfTheirOwn) {
  // So that loading a table skips them (and the files, decoded when used),
  // and reading them skips the files.
  ScopedTempDir dir;
  auto log = TableWithCheckpointedTombstones(dir.path);
  auto reader = ParquetReader::Open(log->log_path() + "/" + CheckpointFileName(1)).take();
  idx_t add = 0, remove = 0;
  for (idx_t i = 0; i < reader->ColumnNames().size(); i++) {
    if (reader->ColumnNames()[i] == "add") add = i;
    if (reader->ColumnNames()[i] == "remove") remove = i;
  }
  ParquetFilter adds{0, CompareOp::kAnyNotNull, Value(), {{add, "path"}}};
  ASSERT_TRUE(reader->ScanProjected({{add, {"path"}}}, {adds}).ok());
  EXPECT_EQ(RowsOfScan(*reader), 1);           // c
  EXPECT_EQ(reader->RowGroupsSkipped(), 2u);  // the log actions' and the tombstones' row groups
  ParquetFilter removes{0, CompareOp::kAnyNotNull, Value(), {{remove, "path"}}};
  ASSERT_TRUE(reader->ScanProjected({{remove, {"path"}}}, {removes}).ok());
  EXPECT_EQ(RowsOfScan(*reader), 2);           // a, b
  EXPECT_EQ(reader->RowGroupsSkipped(), 2u);  // the log actions' and the files' row groups
  // Either action or the other: only the log actions' row group is provably empty.
  ParquetFilter either{0, CompareOp::kAnyNotNull, Value(), {{add, "path"}, {remove, "path"}}};
  ASSERT_TRUE(reader->ScanProjected({{add, {"path"}}, {remove, {"path"}}}, {either}).ok());
  EXPECT_EQ(RowsOfScan(*reader), 3);
  EXPECT_EQ(reader->RowGroupsSkipped(), 1u);
}

TEST(DeltaCheckpointRead, CheckpointedTombstonesAfterReopenAndAMissingPart) {
  // A fresh load (as in a new process) still dates a file removed before the
  // checkpoint, for VACUUM.
  ScopedTempDir dir;
  auto log = TableWithCheckpointedTombstones(dir.path);
  auto snap = log->LoadSnapshot().take();
  auto all = AllTombstones(FileSystem::Default(), snap);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().count("a"), 1u);
  // A checkpoint part that vanished (log cleanup) is an error naming it, not silence.
  std::filesystem::remove(log->log_path() + "/" + CheckpointFileName(1));
  auto gone = AllTombstones(FileSystem::Default(), snap);
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find(CheckpointFileName(1)), std::string::npos) << gone.status().ToString();
}

}  // namespace
}  // namespace lakestream::delta
