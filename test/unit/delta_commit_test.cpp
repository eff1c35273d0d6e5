// Commits (put-if-absent, races, fault injection), corrupt logs, protocol
// checks and checkpoints written by us.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "common/file_system.hpp"
#include "storage/delta/delta_log.hpp"
#include "temp_dir_util.hpp"

namespace lakestream::delta {
namespace {

std::string TempTable(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_delta_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

using testing::CopySharedDeltaTable;

std::vector<Action> CreateActions() {
  Protocol p;
  Metadata m;
  m.id = "11111111-2222-3333-4444-555555555555";
  m.schema_string = SchemaToString({{"id", TypeId::BIGINT}, {"p", TypeId::VARCHAR}}).value();
  m.partition_columns = {"p"};
  m.created_time = 1700000000000;
  return {CommitInfo::Make(1700000000000, "CREATE TABLE", {}), p, m};
}

std::vector<Action> AppendActions(const std::string& file, int64_t ts) {
  AddFile a;
  a.path = "p=x y/" + file;
  a.partition_values = {{"p", "x y"}};
  a.size = 10;
  a.modification_time = ts;
  a.stats = R"({"numRecords":1})";
  return {CommitInfo::Make(ts, "WRITE", {{"mode", "Append"}}, true), a};
}

TEST(DeltaCommit, CreateAppendAndLoad) {
  auto log = DeltaLog::Open(FileSystem::Default(), TempTable("create")).take();
  EXPECT_EQ(log->LatestVersion().value(), -1);
  EXPECT_FALSE(log->Exists());
  EXPECT_TRUE(log->LoadSnapshot().status().IsNotFound());
  ASSERT_TRUE(log->Commit(0, CreateActions()).ok());
  EXPECT_TRUE(log->Commit(2, AppendActions("a.parquet", 1)).code() == Status::Code::kInvalidArgument);  // gap
  ASSERT_TRUE(log->Commit(1, AppendActions("a.parquet", 1700000001000)).ok());
  EXPECT_TRUE(log->Commit(1, AppendActions("b.parquet", 1700000002000)).IsAlreadyExists());
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, 1);
  ASSERT_EQ(snap.value().files.size(), 1u);
  EXPECT_EQ(snap.value().files.begin()->first, "p=x y/a.parquet");
  EXPECT_EQ(snap.value().schema.size(), 2u);
  EXPECT_EQ(snap.value().commit_timestamps.at(1), 1700000001000);
  // The log holds the encoded path.
  auto raw = FileSystem::Default()->ReadFile(log->log_path() + "/00000000000000000001.json").value();
  EXPECT_NE(raw.find("p=x%20y/a.parquet"), std::string::npos);
  EXPECT_TRUE(CheckWritable(log->table_path(), snap.value()).ok());
}

TEST(DeltaCommit, UpdateSnapshotAppliesNewCommits) {
  auto log = DeltaLog::Open(FileSystem::Default(), TempTable("update")).take();
  ASSERT_TRUE(log->Commit(0, CreateActions()).ok());
  auto snap = log->LoadSnapshot().take();
  for (int v = 1; v <= 3; v++) ASSERT_TRUE(log->Commit(v, AppendActions(std::to_string(v), 1700000000000 + v)).ok());
  auto updated = log->UpdateSnapshot(snap);
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(updated.value().version, 3);
  EXPECT_EQ(updated.value().files.size(), 3u);
  EXPECT_EQ(updated.value().NumRecords(), 3);
}

// Counts the listings of _delta_log/ (UpdateSnapshot probes a few new
// commits by name instead of listing the whole log).
class ListCountingFileSystem : public FaultInjectionFileSystem {
 public:
  using FaultInjectionFileSystem::FaultInjectionFileSystem;
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override {
    lists++;
    return FaultInjectionFileSystem::ListDirectory(dir);
  }
  int lists = 0;
};

TEST(DeltaCommit, UpdateSnapshotProbesAFewNewCommitsAndListsForMore) {
  ListCountingFileSystem fs(FileSystem::Default());
  auto log = DeltaLog::Open(&fs, TempTable("probe")).take();
  ASSERT_TRUE(log->Commit(0, CreateActions()).ok());
  auto snap = log->LoadSnapshot().take();
  int64_t version = 0;
  // 1, then 15 new commits: found by name, no listing.
  for (int burst : {1, 15, 16, 40}) {
    for (int i = 0; i < burst; i++) {
      version++;
      ASSERT_TRUE(log->Commit(version, AppendActions("f" + std::to_string(version), 1700000000000 + version)).ok());
    }
    if (burst == 40) ASSERT_TRUE(log->WriteCheckpoint(log->LoadSnapshot().take()).ok());
    fs.lists = 0;
    auto updated = log->UpdateSnapshot(snap);
    ASSERT_TRUE(updated.ok()) << updated.status().ToString();
    EXPECT_EQ(updated.value().version, version) << burst;
    EXPECT_EQ(static_cast<int64_t>(updated.value().files.size()), version) << burst;
    EXPECT_EQ(updated.value().NumRecords(), version) << burst;
    // 16 or more: the listing (which may offer a checkpoint) decides.
    EXPECT_EQ(fs.lists, burst < 16 ? 0 : 1) << burst;
    snap = updated.take();
  }
  // Nothing new: neither.
  fs.lists = 0;
  EXPECT_EQ(log->UpdateSnapshot(snap).value().version, version);
  EXPECT_EQ(fs.lists, 0);
}

TEST(DeltaCommit, TwoWritersRacingAppends) {
  auto log = DeltaLog::Open(FileSystem::Default(), TempTable("race")).take();
  ASSERT_TRUE(log->Commit(0, CreateActions()).ok());
  std::atomic<int> conflicts{0};
  auto writer = [&](int id) {
    auto my_log = DeltaLog::Open(FileSystem::Default(), log->table_path()).take();
    auto snap = my_log->LoadSnapshot().take();
    for (int i = 0; i < 200; i++) {
      auto actions = AppendActions("w" + std::to_string(id) + "-" + std::to_string(i), 1700000000000 + i);
      while (true) {
        Status s = my_log->Commit(snap.version + 1, actions);
        if (s.ok()) {
          snap.Apply(snap.version + 1, actions, std::nullopt);
          break;
        }
        ASSERT_TRUE(s.IsAlreadyExists()) << s.ToString();
        conflicts++;
        snap = my_log->UpdateSnapshot(snap).take();  // blind appends never conflict: just retry
      }
    }
  };
  std::thread a(writer, 0), b(writer, 1);
  a.join();
  b.join();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().version, 400);
  EXPECT_EQ(snap.value().files.size(), 400u);
  EXPECT_EQ(log->History().value().size(), 401u);
}

// Fails the n-th write / fsync / link of a series of commits: every commit
// either returns OK and is complete, or fails and leaves nothing; after a
// simulated crash the log is exactly the prefix of commits that returned OK.
TEST(DeltaCommit, FaultInjectionLeavesCommittedPrefix) {
  using Op = FaultInjectionFileSystem::Op;
  for (Op op : {Op::kWrite, Op::kFsync, Op::kLink}) {
    for (int n = 1; n <= 12; n++) {
      std::string dir = TempTable("fault");
      FaultInjectionFileSystem fs(FileSystem::Default());
      auto log = DeltaLog::Open(&fs, dir).take();
      fs.FailAfter(op, n);
      int64_t committed = -1;  // last version whose Commit returned OK
      int64_t next = 0;
      for (int attempt = 0; attempt < 8; attempt++) {
        auto actions = next == 0 ? CreateActions() : AppendActions(std::to_string(next), 1700000000000 + next);
        Status s = log->Commit(next, actions);
        if (s.ok()) committed = next++;
        else ASSERT_TRUE(s.IsIOError()) << s.ToString();
        if (!s.ok() && fs.FileExists(log->log_path() + "/" + CommitFileName(next))) next++;  // visible, not durable
      }
      ASSERT_TRUE(fs.SimulateCrash().ok());
      auto reopened = DeltaLog::Open(FileSystem::Default(), dir).take();
      auto latest = reopened->LatestVersion();
      ASSERT_TRUE(latest.ok());
      EXPECT_EQ(latest.value(), committed) << "op " << static_cast<int>(op) << " n " << n;
      if (committed >= 0) {
        auto snap = reopened->LoadSnapshot();
        ASSERT_TRUE(snap.ok()) << snap.status().ToString();
        EXPECT_EQ(static_cast<int64_t>(snap.value().files.size()), committed);
      }
      auto names = FileSystem::Default()->ListDirectory(reopened->log_path());
      ASSERT_TRUE(names.ok());
      for (const auto& name : names.value()) EXPECT_FALSE(FileSystem::IsTempFileName(name)) << name;
    }
  }
}

TEST(DeltaCommit, CorruptLogsGiveClearErrors) {
  std::string dir = CopySharedDeltaTable("cdf-table-non-partitioned");
  std::string log_dir = dir + "/_delta_log";
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  // Truncated last commit: a torn line.
  std::string v4 = FileSystem::Default()->ReadFile(log_dir + "/00000000000000000004.json").value();
  ASSERT_TRUE(FileSystem::Default()->WriteFile(log_dir + "/00000000000000000004.json", v4.substr(0, v4.size() / 2)).ok());
  auto s = log->LoadSnapshot();
  ASSERT_TRUE(s.status().IsCorruption());
  EXPECT_NE(s.status().message().find("00000000000000000004.json line"), std::string::npos) << s.status().message();
  EXPECT_TRUE(log->LoadSnapshot(3).ok());  // older versions still readable
  // A garbage line in the middle.
  ASSERT_TRUE(FileSystem::Default()->WriteFile(log_dir + "/00000000000000000004.json", "{\"commitInfo\":{}}\nnot json\n").ok());
  s = log->LoadSnapshot();
  ASSERT_TRUE(s.status().IsCorruption());
  EXPECT_NE(s.status().message().find("00000000000000000004.json line 2"), std::string::npos) << s.status().message();
}

TEST(DeltaCommit, BadLastCheckpointFallsBackToListing) {
  std::string dir = CopySharedDeltaTable("simple_table_with_checkpoint");
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  ASSERT_TRUE(FileSystem::Default()->WriteFile(dir + "/_delta_log/_last_checkpoint", "{garbage").ok());
  auto lc = log->ReadLastCheckpoint();
  ASSERT_TRUE(lc.status().IsCorruption());
  EXPECT_NE(lc.status().message().find("_last_checkpoint"), std::string::npos);
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().files.size(), 11u);
  EXPECT_EQ(snap.value().checkpoint_version, 10);
  ASSERT_EQ(snap.value().warnings.size(), 1u);
  EXPECT_NE(snap.value().warnings[0].find("_last_checkpoint"), std::string::npos);
  // Stale pointer (a checkpoint that is gone): same result, another warning.
  ASSERT_TRUE(FileSystem::Default()->WriteFile(dir + "/_delta_log/_last_checkpoint", "{\"version\":20,\"size\":3}").ok());
  snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().files.size(), 11u);
  EXPECT_NE(snap.value().warnings.at(0).find("stale"), std::string::npos);
  // A corrupt checkpoint file: JSON replay from version 0 takes over.
  ASSERT_TRUE(FileSystem::Default()->WriteFile(dir + "/_delta_log/00000000000000000010.checkpoint.parquet", "PAR1junk").ok());
  snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, -1);
  EXPECT_EQ(snap.value().files.size(), 11u);
}

TEST(DeltaCommit, UnknownReaderFeatureIsRefused) {
  auto log = DeltaLog::Open(FileSystem::Default(), TempTable("features")).take();
  auto actions = CreateActions();
  Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  // deletionVectors is read; a feature no reader knows is refused by name,
  // even beside a reader version beyond 3.
  p.reader_features = std::vector<std::string>{"deletionVectors", "futureFeature"};
  p.writer_features = std::vector<std::string>{"deletionVectors"};
  actions[1] = p;
  ASSERT_TRUE(log->Commit(0, actions).ok());
  auto s = log->LoadSnapshot();
  EXPECT_EQ(s.status().code(), Status::Code::kNotSupported);
  EXPECT_NE(s.status().message().find("'futureFeature'"), std::string::npos) << s.status().ToString();
  EXPECT_NE(s.status().message().find(log->table_path()), std::string::npos);
  Protocol v5 = p;
  v5.min_reader_version = 5;
  EXPECT_NE(CheckReadable("t", v5, Metadata{}).message().find("'futureFeature'"), std::string::npos);
  Protocol v4;
  v4.min_reader_version = 4;
  EXPECT_EQ(CheckReadable("t", v4, Metadata{}).code(), Status::Code::kNotSupported);
  // Column mapping (name, id) is readable and writable, another mode is not;
  // a mode without the protocol's column mapping (reader 1) is not written.
  Metadata cm;
  cm.configuration["delta.columnMapping.mode"] = "name";
  Protocol r2;
  r2.min_reader_version = 2;
  r2.min_writer_version = 5;
  EXPECT_TRUE(CheckReadable("t", r2, cm).ok());
  Snapshot mapped;
  mapped.protocol = r2;
  mapped.metadata = cm;
  EXPECT_TRUE(CheckWritable("t", mapped).ok()) << CheckWritable("t", mapped).ToString();
  mapped.protocol.min_reader_version = 1;
  EXPECT_NE(CheckWritable("t", mapped).message().find("columnMapping"), std::string::npos);
  mapped.protocol = Protocol{3, 7, std::vector<std::string>{"columnMapping"}, std::vector<std::string>{"columnMapping"}};
  EXPECT_TRUE(CheckWritable("t", mapped).ok()) << CheckWritable("t", mapped).ToString();
  mapped.protocol.reader_features = std::vector<std::string>{};
  EXPECT_NE(CheckWritable("t", mapped).message().find("columnMapping"), std::string::npos);
  cm.configuration["delta.columnMapping.mode"] = "path";
  EXPECT_NE(CheckReadable("t", r2, cm).message().find("'path'"), std::string::npos);
  // A nested struct field with a physical name of its own is readable (the
  // scan reads it by that name: test/shell/delta_features.sh).
  cm.configuration["delta.columnMapping.mode"] = "name";
  cm.schema_string =
      R"({"type":"struct","fields":[{"name":"s","type":{"type":"struct","fields":[{"name":"a","type":"integer",)"
      R"("nullable":true,"metadata":{"delta.columnMapping.physicalName":"col-1"}}]},"nullable":true,)"
      R"("metadata":{"delta.columnMapping.physicalName":"col-0"}}]})";
  Status nested = CheckReadable("t", r2, cm);
  EXPECT_TRUE(nested.ok()) << nested.ToString();
  // Unknown writer features refuse writes only.
  Snapshot snap;
  snap.protocol.min_reader_version = 1;
  snap.protocol.min_writer_version = 7;
  snap.protocol.writer_features = std::vector<std::string>{"appendOnly", "icebergCompatV1"};
  EXPECT_TRUE(CheckReadable("t", snap.protocol, snap.metadata).ok());
  Status w = CheckWritable("t", snap);
  EXPECT_EQ(w.code(), Status::Code::kNotSupported);
  EXPECT_NE(w.message().find("icebergCompatV1"), std::string::npos);
}

TEST(DeltaCheckpoint, WrittenCheckpointReloadsIdentically) {
  for (const char* table : {"cdf-table", "simple_table_with_checkpoint", "checkpoint-cdf-table"}) {
    SCOPED_TRACE(table);
    std::string dir = CopySharedDeltaTable(table);
    auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
    LoadOptions no_cp;
    no_cp.use_checkpoint = std::string(table) == "checkpoint-cdf-table";  // its JSON starts at 3
    auto ref = log->LoadSnapshot(std::nullopt, no_cp);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    auto lc = log->WriteCheckpoint(ref.value());
    ASSERT_TRUE(lc.ok()) << lc.status().ToString();
    EXPECT_EQ(lc.value().version, ref.value().version);
    EXPECT_EQ(lc.value().num_of_add_files, static_cast<int64_t>(ref.value().files.size()));
    EXPECT_EQ(log->ReadLastCheckpoint().value().version, ref.value().version);
    auto snap = log->LoadSnapshot();
    ASSERT_TRUE(snap.ok()) << snap.status().ToString();
    EXPECT_EQ(snap.value().checkpoint_version, ref.value().version);
    EXPECT_TRUE(snap.value().warnings.empty());
    EXPECT_EQ(snap.value().protocol, ref.value().protocol);
    EXPECT_EQ(snap.value().metadata, ref.value().metadata);
    EXPECT_EQ(snap.value().txns, ref.value().txns);
    ASSERT_EQ(snap.value().files.size(), ref.value().files.size());
    for (const auto& [path, add] : ref.value().files) {
      auto it = snap.value().files.find(path);
      ASSERT_NE(it, snap.value().files.end()) << path;
      EXPECT_EQ(it->second.partition_values, add.partition_values);
      EXPECT_EQ(it->second.size, add.size);
      EXPECT_EQ(it->second.modification_time, add.modification_time);
      EXPECT_EQ(it->second.stats, add.stats);
      EXPECT_EQ(it->second.tags, add.tags);
    }
  }
}

TEST(DeltaCheckpoint, CommitsAfterOurCheckpoint) {
  auto log = DeltaLog::Open(FileSystem::Default(), TempTable("ourcp")).take();
  ASSERT_TRUE(log->Commit(0, CreateActions()).ok());
  auto txn_actions = AppendActions("1", 1700000000001);
  txn_actions.push_back(Txn{"sink-1", 7, 1700000000001});
  ASSERT_TRUE(log->Commit(1, txn_actions).ok());
  ASSERT_TRUE(log->WriteCheckpoint(log->LoadSnapshot().take()).ok());
  for (int v = 2; v <= 4; v++) ASSERT_TRUE(log->Commit(v, AppendActions(std::to_string(v), 1700000000000 + v)).ok());
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap.value().checkpoint_version, 1);
  EXPECT_EQ(snap.value().files.size(), 4u);
  EXPECT_EQ(snap.value().TxnVersion("sink-1"), 7);
  EXPECT_EQ(snap.value().files.begin()->second.partition_values.at("p"), "x y");
}

}  // namespace
}  // namespace lakestream::delta
