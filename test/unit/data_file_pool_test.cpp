// Pre-created data file names (storage/table/data_file_pool.hpp): after the
// warm-up a commit's data file needs its own fsync only, never its folder's;
// a pooled name that vanished, a failed batch and a crash on either side of
// a batch's fsync never leave a commit naming a file whose name may be lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "delta_table_util.hpp"
#include "recording_file_system.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/table/data_file_pool.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;
using Kind = testing::RecordingFileSystem::Kind;
using Op = FaultInjectionFileSystem::Op;

// Empty files in `folder` (pooled names nobody filled). The checkpoint
// thread's temp files may come and go meanwhile.
std::vector<std::string> EmptyFiles(const std::string& folder) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(folder)) {
    std::error_code ec;
    if (e.is_regular_file(ec) && fs::file_size(e.path(), ec) == 0 && !ec) out.push_back(e.path().filename().string());
  }
  return out;
}

// Commits single-row INSERTs into a table made by MakeTable (whose insert
// was the first commit into its folder) until the next commit makes a batch.
void WarmUp(DeltaTable& table, int64_t& next_key) {
  for (int i = 1; i < DataFilePool::kWarmTakes; i++) {
    TableCommit insert = testing::InsertRows(next_key++, 1);
    table.Commit(insert);
  }
}

std::shared_ptr<FileSystem> Unowned(FileSystem* fs) { return {fs, [](FileSystem*) {}}; }

TEST(DataFilePool, CommitsAfterTheWarmUpFsyncTheirDataFileButNotItsFolder) {
  testing::ScopedTempDir dir("lakestream_pool");
  testing::RecordingFileSystem rec;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&rec, path);
  int64_t key = 100;
  WarmUp(*table, key);
  EXPECT_TRUE(EmptyFiles(path).empty()) << "no names are pooled during the warm-up";
  auto before = DataFilePool::Totals();
  rec.Clear();
  TableCommit first = testing::InsertRows(key++, 1);
  table->Commit(first);
  // Two batches: the data file names and the log entry temps.
  EXPECT_EQ(DataFilePool::Totals().batches, before.batches + 2);
  EXPECT_EQ(EmptyFiles(path).size(), static_cast<size_t>(DataFilePool::kBatch - 1));
  // The next commit takes a name of that batch: the data file, the temp
  // log entry, the link and _delta_log/; no fsync of the table's folder.
  rec.Clear();
  TableCommit second = testing::InsertRows(key++, 1);
  table->Commit(second);
  std::vector<std::string> fsynced, dir_fsynced;
  for (auto& e : rec.events()) {
    // The background checkpoint of version 10 may land in this window.
    if (e.path.find(".checkpoint.") != std::string::npos || e.path.find("_last_checkpoint") != std::string::npos) continue;
    if (e.kind == Kind::kFsync) fsynced.push_back(e.path);
    if (e.kind == Kind::kFsyncDir) dir_fsynced.push_back(e.path);
  }
  ASSERT_EQ(fsynced.size(), 2u) << ::testing::PrintToString(fsynced);
  EXPECT_EQ(dir_fsynced, std::vector<std::string>{path + "/_delta_log"});
  auto data_file = std::find_if(fsynced.begin(), fsynced.end(), [&](const std::string& p) { return p.find("/_delta_log/") == std::string::npos; });
  ASSERT_NE(data_file, fsynced.end());
  std::string name = fs::path(*data_file).filename().string();
  EXPECT_TRUE(name.ends_with(".c000.parquet") && !name.ends_with(".zstd.parquet")) << name;
  EXPECT_TRUE(IsWrittenDataFileName(name)) << name;
  EXPECT_GT(fs::file_size(*data_file), 0u);
  EXPECT_EQ(EmptyFiles(path).size(), static_cast<size_t>(DataFilePool::kBatch - 2));
  // Every row is there, read back from the log on a fresh open.
  auto log = delta::DeltaLog::Open(&rec, path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(10 + DataFilePool::kWarmTakes + 1));
  // The last table object of the path deletes the names nobody filled.
  table.reset();
  EXPECT_TRUE(EmptyFiles(path).empty());
}

TEST(DataFilePool, APooledNameThatVanishedIsNotCreatedAgain) {
  testing::ScopedTempDir dir("lakestream_pool");
  testing::RecordingFileSystem rec;
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&rec, path);
  int64_t key = 100;
  WarmUp(*table, key);
  TableCommit fill = testing::InsertRows(key++, 1);
  table->Commit(fill);  // makes the batch
  std::vector<std::string> pooled = EmptyFiles(path);
  ASSERT_FALSE(pooled.empty());
  for (auto& name : pooled) fs::remove(path + "/" + name);  // a VACUUM with a short retention, say
  rec.Clear();
  TableCommit insert = testing::InsertRows(key++, 1);
  table->Commit(insert);
  // The writer made a name of its own and fsynced its folder before the link.
  bool root_synced_before_link = false, linked = false;
  std::string data_file;
  for (auto& e : rec.events()) {
    if (e.kind == Kind::kFsyncDir && e.path == path && !linked) root_synced_before_link = true;
    if (e.kind == Kind::kLink) linked = true;
    if (e.kind == Kind::kFsync && e.path.find("/_delta_log/") == std::string::npos) data_file = e.path;
  }
  EXPECT_TRUE(root_synced_before_link);
  ASSERT_FALSE(data_file.empty());
  std::string name = fs::path(data_file).filename().string();
  EXPECT_EQ(std::count(pooled.begin(), pooled.end(), name), 0) << name;
  EXPECT_EQ(table->Version(), DataFilePool::kWarmTakes + 2);
  auto log = delta::DeltaLog::Open(&rec, path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  for (auto& [p, add] : snap.value().files) EXPECT_TRUE(fs::exists(path + "/" + p)) << p;
  EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(10 + DataFilePool::kWarmTakes + 1));
}

TEST(DataFilePool, AFailedBatchPoolsNothingAndTheCommitMakesItsFolderDurable) {
  testing::ScopedTempDir dir("lakestream_pool");
  FaultInjectionFileSystem fault(FileSystem::Default());
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(&fault, path);
  int64_t key = 100;
  WarmUp(*table, key);
  auto before = DataFilePool::Totals();
  fault.FailAfter(Op::kFsync, 1);  // the batch's folder fsync
  TableCommit insert = testing::InsertRows(key++, 1);
  table->Commit(insert);
  EXPECT_EQ(DataFilePool::Totals().failed_batches, before.failed_batches + 1);
  // Only the log entry temps' batch (no fsync: their names need none).
  EXPECT_EQ(DataFilePool::Totals().batches, before.batches + 1);
  EXPECT_TRUE(EmptyFiles(path).empty()) << "a failed batch deletes its names";
  // Today's path was durable: a crash now keeps the commit and its file.
  ASSERT_TRUE(fault.SimulateCrash().ok());
  auto log = delta::DeltaLog::Open(&fault, path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, DataFilePool::kWarmTakes + 1);
  for (auto& [p, add] : snap.value().files) EXPECT_TRUE(fs::exists(path + "/" + p)) << p;
}

// A FaultInjectionFileSystem whose next directory fsync is a power cut:
// the crash model is applied (names not yet fsynced are lost) and the call
// fails.
class CrashAtDirectoryFsync : public FaultInjectionFileSystem {
 public:
  using FaultInjectionFileSystem::FaultInjectionFileSystem;
  bool armed = false;
  Status FsyncDirectory(const std::string& d) override {
    if (!armed) return FaultInjectionFileSystem::FsyncDirectory(d);
    armed = false;
    Status crashed = SimulateCrash();
    return crashed.ok() ? Status::IOError("power cut before fsync of " + d) : crashed;
  }
};

TEST(DataFilePool, ACrashBeforeTheBatchFsyncLeavesNoNames) {
  testing::ScopedTempDir dir("lakestream_pool");
  CrashAtDirectoryFsync fault(FileSystem::Default());
  std::string folder = dir.path + "/t";
  auto pool = DataFilePool::ForTable(folder);
  for (int i = 0; i < DataFilePool::kWarmTakes; i++) EXPECT_FALSE(pool->Take(Unowned(&fault), folder, "part"));
  fault.armed = true;
  EXPECT_FALSE(pool->Take(Unowned(&fault), folder, "part"));
  EXPECT_TRUE(EmptyFiles(folder).empty());
}

TEST(DataFilePool, ACommitIntoAPooledNameSurvivesACrashAndVacuumRemovesEmptyLeftovers) {
  testing::ScopedTempDir dir("lakestream_pool");
  FaultInjectionFileSystem fault(FileSystem::Default());
  {
    std::string path = dir.path + "/pooled";
    auto table = testing::MakeTable(&fault, path);
    int64_t key = 100;
    WarmUp(*table, key);
    for (int i = 0; i < 3; i++) {  // the first makes the batch, all three fill pooled names
      TableCommit insert = testing::InsertRows(key++, 1);
      table->Commit(insert);
    }
    // The crash model loses every name whose folder was not fsynced after
    // it and every file not fsynced after its last write: the pooled names
    // were made durable by their batch, their contents by the commits.
    ASSERT_TRUE(fault.SimulateCrash().ok());
    auto log = delta::DeltaLog::Open(&fault, path).take();
    auto snap = log->LoadSnapshot();
    ASSERT_TRUE(snap.ok()) << snap.status().ToString();
    EXPECT_EQ(snap.value().version, DataFilePool::kWarmTakes + 3);
    EXPECT_EQ(snap.value().NumRecords(), std::optional<int64_t>(10 + DataFilePool::kWarmTakes + 2));
    for (auto& [p, add] : snap.value().files) {
      EXPECT_TRUE(fs::exists(path + "/" + p)) << p;
      EXPECT_EQ(static_cast<int64_t>(fs::file_size(path + "/" + p)), add.size) << p;
    }
  }
  // Such leftovers are data files no commit names: VACUUM of a table whose
  // folder holds one removes it once older than the retention.
  std::string path = dir.path + "/t";
  auto table = testing::MakeTable(FileSystem::Default(), path);
  std::string leftover = path + "/" + NewDataFileName("part", 0);
  std::ofstream(leftover).close();
  fs::last_write_time(leftover, fs::file_time_type::clock::now() - std::chrono::hours(2));
  auto doomed = table->Vacuum(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::hours(1)).count(), false);
  EXPECT_EQ(doomed, std::vector<std::string>{leftover});
  EXPECT_FALSE(fs::exists(leftover));
}

int64_t clock_ms = 0;
int64_t TestClock() { return clock_ms; }

TEST(DataFilePool, NamesOlderThanTheBoundAreDeletedUnused) {
  testing::ScopedTempDir dir("lakestream_pool");
  std::string folder = dir.path + "/t";
  auto pool = DataFilePool::ForTable(folder);
  clock_ms = 1'000'000'000;
  DataFilePool::SetClockForTest(&TestClock);
  for (int i = 0; i < DataFilePool::kWarmTakes; i++) EXPECT_FALSE(pool->Take(Unowned(FileSystem::Default()), folder, "part"));
  auto first = pool->Take(Unowned(FileSystem::Default()), folder, "part");
  ASSERT_TRUE(first);
  std::vector<std::string> old_batch = EmptyFiles(folder);
  ASSERT_EQ(old_batch.size(), static_cast<size_t>(DataFilePool::kBatch));
  clock_ms += DataFilePool::kMaxAgeMs + 1;
  auto second = pool->Take(Unowned(FileSystem::Default()), folder, "part");
  DataFilePool::SetClockForTest(nullptr);
  ASSERT_TRUE(second);
  EXPECT_EQ(std::count(old_batch.begin(), old_batch.end(), *second), 0);
  // The old batch is gone but for the name taken before (not the pool's any more).
  for (auto& name : old_batch) EXPECT_EQ(fs::exists(folder + "/" + name), name == *first) << name;
  EXPECT_EQ(EmptyFiles(folder).size(), static_cast<size_t>(DataFilePool::kBatch) + 1);
}

// The log entry's temp file is one made ahead in _delta_log/ (kind "log"):
// after the warm-up a commit creates no file on its way; the temp name is
// gone once linked, and the last table object deletes the unused ones.
TEST(DataFilePool, ALogEntryIsWrittenToATempFileMadeAhead) {
  testing::ScopedTempDir dir("lakestream_pool");
  testing::RecordingFileSystem rec;
  std::string path = dir.path + "/t";
  std::string log = path + "/_delta_log";
  auto table = testing::MakeTable(&rec, path);
  int64_t key = 100;
  WarmUp(*table, key);
  EXPECT_TRUE(EmptyFiles(log).empty()) << "no temps are made during the warm-up";
  TableCommit first = testing::InsertRows(key++, 1);
  table->Commit(first);  // makes the batch
  std::vector<std::string> spares = EmptyFiles(log);
  ASSERT_EQ(spares.size(), static_cast<size_t>(DataFilePool::kBatch - 1));
  for (auto& name : spares) EXPECT_TRUE(FileSystem::IsTempFileName(name)) << name;
  rec.Clear();
  TableCommit second = testing::InsertRows(key++, 1);
  table->Commit(second);
  std::string linked_from;
  for (auto& e : rec.events())
    if (e.kind == Kind::kLink) linked_from = fs::path(e.from).filename().string();
  EXPECT_EQ(std::count(spares.begin(), spares.end(), linked_from), 1) << linked_from;
  EXPECT_FALSE(fs::exists(log + "/" + linked_from));
  EXPECT_EQ(EmptyFiles(log).size(), static_cast<size_t>(DataFilePool::kBatch - 2));
  auto reopened = delta::DeltaLog::Open(&rec, path).take();
  auto snap = reopened->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().version, DataFilePool::kWarmTakes + 2);
  // A temp made ahead that vanished is simply created again: its name never
  // needs to be durable.
  for (auto& name : EmptyFiles(log)) fs::remove(log + "/" + name);
  TableCommit third = testing::InsertRows(key++, 1);
  table->Commit(third);
  EXPECT_EQ(table->Version(), DataFilePool::kWarmTakes + 3);
  table.reset();
  EXPECT_TRUE(EmptyFiles(log).empty());
}

// Takes a fresh pool of `folder` through its warm-up and its first batch
// down to kLowWater names, which asks the background thread for the next
// batch; returns the names taken.
std::set<std::string> TakeDownToLowWater(DataFilePool& pool, const std::shared_ptr<FileSystem>& fs,
                                         const std::string& folder) {
  for (int i = 0; i < DataFilePool::kWarmTakes; i++) EXPECT_FALSE(pool.Take(fs, folder, "part"));
  std::set<std::string> taken;
  for (int i = 0; i < DataFilePool::kBatch - DataFilePool::kLowWater; i++) {
    auto name = pool.Take(fs, folder, "part");
    EXPECT_TRUE(name);
    if (name) taken.insert(*name);
  }
  return taken;
}

// A pool down to kLowWater names gets its next batch from the background
// thread, so the takes after it never make a batch on their own thread.
TEST(DataFilePool, APoolRunningLowRefillsInTheBackground) {
  testing::ScopedTempDir dir("lakestream_pool");
  // A relative table path (a database opened as `lakestream db`): the
  // background batch resolves it as the table's confinement does.
  struct Cwd {
    fs::path saved = fs::current_path();
    ~Cwd() { fs::current_path(saved); }
  } cwd;
  fs::current_path(dir.path);
  std::string folder = "t";
  fs::create_directories(folder);
  auto pool = DataFilePool::ForTable(folder);
  auto fs = Unowned(FileSystem::Default());
  auto before = DataFilePool::Totals();  // the warm-up makes no batch
  std::set<std::string> taken = TakeDownToLowWater(*pool, fs, folder);
  ASSERT_EQ(taken.size(), static_cast<size_t>(DataFilePool::kBatch - DataFilePool::kLowWater));
  DataFilePool::WaitForBackgroundBatches();
  auto after = DataFilePool::Totals();
  EXPECT_EQ(after.failed_batches, before.failed_batches);
  EXPECT_EQ(after.batches, before.batches + 2);
  EXPECT_EQ(after.background_batches, before.background_batches + 1);
  for (int i = 0; i < DataFilePool::kBatch; i++) {
    auto name = pool->Take(fs, folder, "part");
    ASSERT_TRUE(name);
    EXPECT_TRUE(taken.insert(*name).second) << "handed out twice: " << *name;
  }
  DataFilePool::WaitForBackgroundBatches();
  EXPECT_EQ(DataFilePool::Totals().batches - DataFilePool::Totals().background_batches,
            after.batches - after.background_batches)
      << "no batch was made on the taking thread";
  // Every name handed out exists, empty.
  for (auto& name : taken) EXPECT_EQ(fs::file_size(folder + "/" + name), 0u) << name;
}

// Discard (VACUUM, DROP) while a background batch is on its way: that
// batch's names are deleted, never handed out.
TEST(DataFilePool, ABatchMadeAcrossADiscardIsDropped) {
  testing::ScopedTempDir dir("lakestream_pool");
  std::string folder = dir.path + "/t";
  auto pool = DataFilePool::ForTable(folder);
  std::set<std::string> taken = TakeDownToLowWater(*pool, Unowned(FileSystem::Default()), folder);
  pool->Discard();  // before, during or after the background batch: either way
  DataFilePool::WaitForBackgroundBatches();
  for (auto& name : EmptyFiles(folder)) EXPECT_EQ(taken.count(name), 1u) << "a pooled name survived the discard: " << name;
}

// The last holder of a pool lets go (the database closes) while a
// background batch is on its way: when that returns, no pooled name is left
// in the folder and none is created after it (a `rm -rf` of the database
// right after closing it must not race with the batch thread).
TEST(DataFilePool, ABatchInFlightIsDoneAndDeletedWhenThePoolGoes) {
  for (int round = 0; round < 20; round++) {
    testing::ScopedTempDir dir("lakestream_pool");
    std::string folder = dir.path + "/t";
    auto pool = DataFilePool::ForTable(folder);
    std::set<std::string> taken = TakeDownToLowWater(*pool, Unowned(FileSystem::Default()), folder);
    pool.reset();  // mid-batch, before it, or after it
    for (auto& name : EmptyFiles(folder)) EXPECT_EQ(taken.count(name), 1u) << "left behind: " << name;
    DataFilePool::WaitForBackgroundBatches();
    for (auto& name : EmptyFiles(folder)) EXPECT_EQ(taken.count(name), 1u) << "created after the pool went: " << name;
  }
}

TableCommit DeleteRow(uint64_t row) {
  TableCommit del;
  del.operation = "DELETE";
  del.deleted_rows = {static_cast<row_t>(row)};  // file 0
  return del;
}

// Deletion vector files (kind "dv"): after the warm-up a DELETE writes its
// vector into a name made ahead, fsyncing the file but not the table's
// folder; a name that vanished is created anew with the folder's fsync.
TEST(DataFilePool, ADeletionVectorIsWrittenToANameMadeAhead) {
  testing::ScopedTempDir dir("lakestream_pool");
  testing::RecordingFileSystem rec;
  std::string path = dir.path + "/t";
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.enableDeletionVectors"] = "true";
  auto table = DeltaTable::Create(&rec, "t", path, definition);
  TableCommit insert = testing::InsertRows(0, 100);
  table->Commit(insert);
  uint64_t row = 0;
  for (int i = 0; i <= DataFilePool::kWarmTakes; i++) {  // the last makes the batch
    TableCommit del = DeleteRow(row++);
    table->Commit(del);
  }
  std::vector<std::string> pooled;
  for (auto& name : EmptyFiles(path))
    if (name.starts_with("deletion_vector_")) pooled.push_back(name);
  ASSERT_EQ(pooled.size(), static_cast<size_t>(DataFilePool::kBatch - 1));
  auto vector_file = [&] {
    std::string written;
    bool root_synced = false;
    for (auto& e : rec.events()) {
      if (e.kind == Kind::kFsync && e.path.find("deletion_vector_") != std::string::npos) written = e.path;
      if (e.kind == Kind::kFsyncDir && e.path == path) root_synced = true;
    }
    return std::make_pair(fs::path(written).filename().string(), root_synced);
  };
  rec.Clear();
  TableCommit del = DeleteRow(row++);
  table->Commit(del);
  auto [name, root_synced] = vector_file();
  EXPECT_EQ(std::count(pooled.begin(), pooled.end(), name), 1) << name;
  EXPECT_FALSE(root_synced);
  EXPECT_GT(fs::file_size(path + "/" + name), 0u);
  // Vanished: written under its own name, the folder fsynced before the link.
  for (auto& n : EmptyFiles(path))
    if (n.starts_with("deletion_vector_")) fs::remove(path + "/" + n);
  rec.Clear();
  TableCommit again = DeleteRow(row++);
  table->Commit(again);
  auto [name2, root_synced2] = vector_file();
  EXPECT_TRUE(root_synced2);
  EXPECT_GT(fs::file_size(path + "/" + name2), 0u);
  // Every row deleted so far is gone on a fresh read of the log.
  auto log = delta::DeltaLog::Open(&rec, path).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  ASSERT_EQ(snap.value().files.size(), 1u);
  const delta::AddFile& add = snap.value().files.begin()->second;
  ASSERT_TRUE(add.deletion_vector);
  auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
  ASSERT_TRUE(dv.ok());
  EXPECT_EQ(dv.value().cardinality, static_cast<int64_t>(row));
}

}  // namespace
}  // namespace lakestream
