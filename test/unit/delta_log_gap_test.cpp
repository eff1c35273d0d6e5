// A hole in _delta_log is corruption that names the missing commit, on both
// ways a snapshot loads (listing the log, or _last_checkpoint then probing
// commit by commit); commits removed only before a checkpoint are history
// cleaned up, not corruption.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/exception.hpp"
#include "delta_table_util.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::string CommitPath(const std::string& table, int64_t version) {
  return table + "/_delta_log/" + delta::CommitFileName(version);
}

// Versions 0 (create) to 5 (inserts), a checkpoint at version 3.
std::string MakeLog(const std::string& dir) {
  std::string path = dir + "/t";
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.checkpointInterval"] = "3";
  auto table = DeltaTable::Create(FileSystem::Default(), "t", path, definition);
  for (int64_t i = 0; i < 5; i++) {
    TableCommit insert;
    insert.operation = "WRITE";
    insert.inserted = testing::Rows(i * 10, 10);
    table->Commit(insert);
  }
  EXPECT_EQ(table->Version(), 5);
  delta::WaitForCheckpoints(path);  // written in the background (checkpoint_writer.hpp)
  EXPECT_TRUE(std::filesystem::exists(path + "/_delta_log/" + delta::CheckpointFileName(3)));
  return path;
}

TEST(DeltaLogGap, MissingCommitAfterTheCheckpointIsNamed) {
  testing::ScopedTempDir dir("lakestream_gap");
  std::string path = MakeLog(dir.path);
  std::filesystem::remove(CommitPath(path, 4));
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  // _last_checkpoint leads to version 3; probing alone would stop at 3.
  auto snapshot = log->LoadSnapshot();
  ASSERT_FALSE(snapshot.ok()) << "loaded version " << snapshot.value().version << " over a missing commit";
  EXPECT_TRUE(snapshot.status().IsCorruption()) << snapshot.status().ToString();
  EXPECT_NE(snapshot.status().message().find("version 4 (" + CommitPath(path, 4) + ") is missing"), std::string::npos)
      << snapshot.status().message();
  EXPECT_NE(snapshot.status().message().find("versions 0 to 3 are intact"), std::string::npos) << snapshot.status().message();
  // Versions before the gap still load.
  auto old = log->LoadSnapshot(3);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old.value().NumRecords(), 30);
  EXPECT_THROW(DeltaTable::Open(FileSystem::Default(), "t", path), CorruptionError);
}

TEST(DeltaLogGap, MissingCommitWithoutACheckpointIsNamed) {
  testing::ScopedTempDir dir("lakestream_gap");
  std::string path = MakeLog(dir.path);
  std::filesystem::remove(CommitPath(path, 1));
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  auto snapshot = log->LoadSnapshot(2);  // before the checkpoint: replayed from version 0
  ASSERT_FALSE(snapshot.ok());
  EXPECT_TRUE(snapshot.status().IsCorruption()) << snapshot.status().ToString();
  EXPECT_NE(snapshot.status().message().find(CommitPath(path, 1)), std::string::npos) << snapshot.status().message();
  EXPECT_EQ(snapshot.status().message().find("cleaned up"), std::string::npos) << snapshot.status().message();
  // The checkpoint covers the hole for the versions after it.
  auto latest = log->LoadSnapshot();
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest.value().NumRecords(), 50);
}

TEST(DeltaLogGap, CommitsRemovedBeforeACheckpointAreCleanedUpHistory) {
  testing::ScopedTempDir dir("lakestream_gap");
  std::string path = MakeLog(dir.path);
  for (int64_t v = 0; v <= 2; v++) std::filesystem::remove(CommitPath(path, v));
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  auto old = log->LoadSnapshot(1);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), Status::Code::kInvalidArgument) << old.status().ToString();
  EXPECT_NE(old.status().message().find("available versions are 3 to 5"), std::string::npos) << old.status().message();
  auto latest = log->LoadSnapshot();
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest.value().version, 5);
}

TEST(DeltaLogGap, TornCommitIsCorruptionNamingIt) {
  testing::ScopedTempDir dir("lakestream_gap");
  std::string path = MakeLog(dir.path);
  std::filesystem::resize_file(CommitPath(path, 5), 40);
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  auto snapshot = log->LoadSnapshot();
  ASSERT_FALSE(snapshot.ok());
  EXPECT_TRUE(snapshot.status().IsCorruption()) << snapshot.status().ToString();
  EXPECT_NE(snapshot.status().message().find("commit file of version 5 is damaged"), std::string::npos)
      << snapshot.status().message();
  EXPECT_NE(snapshot.status().message().find(CommitPath(path, 5)), std::string::npos) << snapshot.status().message();
}

}  // namespace
}  // namespace lakestream
