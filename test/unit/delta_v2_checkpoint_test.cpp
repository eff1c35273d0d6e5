// V2 checkpoints: the Databricks-written checkpoint-v2-table loads from its
// JSON manifests and sidecars, and from the same manifest in Parquet form
// (test/unit/data/v2_checkpoint_manifest.parquet, written by DuckDB with
// make_v2_parquet_manifest.mjs), with the same files as a replay of its JSON
// commits; a missing sidecar is a Corruption naming it.
#include <gtest/gtest.h>

#include <filesystem>

#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "temp_dir_util.hpp"

#ifndef LAKESTREAM_SOURCE_DIR
#define LAKESTREAM_SOURCE_DIR "."
#endif

namespace lakestream::delta {
namespace {

namespace fs = std::filesystem;
using testing::CopySharedDeltaTable;
using testing::SharedDeltaTable;

// The active files and numRecords total of a replay of the JSON commits only.
Snapshot JsonReplay(const std::string& table, int64_t version) {
  auto log = DeltaLog::Open(FileSystem::Default(), table).take();
  LoadOptions no_checkpoint;
  no_checkpoint.use_checkpoint = false;
  auto snap = log->LoadSnapshot(version, no_checkpoint);
  EXPECT_TRUE(snap.ok()) << snap.status().ToString();
  return snap.take();
}

std::vector<std::string> Paths(const Snapshot& s) {
  std::vector<std::string> out;
  for (auto& [path, add] : s.files) out.push_back(path);
  return out;
}

// Deletes the JSON commits before `version` and every checkpoint manifest
// other than `keep`, so that only that checkpoint can give the state.
void LeaveOnlyCheckpoint(const std::string& dir, int64_t version, const std::string& keep) {
  for (auto& e : fs::directory_iterator(fs::path(dir) / "_delta_log")) {
    std::string name = e.path().filename().string();
    if (name.size() < 21 || name[20] != '.') continue;
    int64_t v = std::stoll(name.substr(0, 20));
    bool commit = name.substr(21) == "json";
    bool manifest = name.find(".checkpoint.") != std::string::npos && name != keep;
    if ((commit && v < version) || manifest) fs::remove(e.path());
  }
}

TEST(DeltaV2Checkpoint, JsonManifestMatchesJsonReplay) {
  std::string shared = SharedDeltaTable("checkpoint-v2-table");
  Snapshot expected = JsonReplay(shared, 9);
  ASSERT_EQ(expected.files.size(), 8u);
  ASSERT_EQ(expected.NumRecords(), 44);
  std::string dir = CopySharedDeltaTable("checkpoint-v2-table");
  std::string manifest;
  for (auto& e : fs::directory_iterator(fs::path(dir) / "_delta_log")) {
    std::string name = e.path().filename().string();
    if (name.rfind("00000000000000000008.checkpoint.", 0) == 0) manifest = name;
  }
  ASSERT_FALSE(manifest.empty());
  LeaveOnlyCheckpoint(dir, 8, manifest);
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 8);
  EXPECT_EQ(snap.value().version, 9);
  EXPECT_EQ(Paths(snap.value()), Paths(expected));
  EXPECT_EQ(snap.value().NumRecords(), 44);
  EXPECT_EQ(snap.value().metadata, expected.metadata);
  EXPECT_EQ(snap.value().protocol, expected.protocol);
}

TEST(DeltaV2Checkpoint, ParquetManifestMatchesJsonReplay) {
  Snapshot expected = JsonReplay(SharedDeltaTable("checkpoint-v2-table"), 9);
  std::string dir = CopySharedDeltaTable("checkpoint-v2-table");
  std::string name = "00000000000000000008.checkpoint.0f2e1d3c-4b5a-6978-8796-a5b4c3d2e1f0.parquet";
  fs::copy_file(std::string(LAKESTREAM_SOURCE_DIR) + "/test/unit/data/v2_checkpoint_manifest.parquet",
                fs::path(dir) / "_delta_log" / name);
  LeaveOnlyCheckpoint(dir, 8, name);
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 8);
  EXPECT_EQ(Paths(snap.value()), Paths(expected));
  EXPECT_EQ(snap.value().NumRecords(), 44);
  EXPECT_EQ(snap.value().metadata.schema_string, expected.metadata.schema_string);
  EXPECT_EQ(snap.value().protocol, expected.protocol);

  // Without its sidecar the checkpoint cannot stand, and nothing else can.
  fs::path sidecars = fs::path(dir) / "_delta_log" / "_sidecars";
  std::string sidecar;
  for (auto& e : fs::directory_iterator(sidecars)) {
    if (e.path().filename().string().rfind("00000000000000000008.", 0) == 0) sidecar = e.path().string();
  }
  ASSERT_FALSE(sidecar.empty());
  fs::remove(sidecar);
  auto broken = log->LoadSnapshot();
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(broken.status().IsCorruption()) << broken.status().ToString();
  EXPECT_NE(broken.status().message().find(sidecar), std::string::npos) << broken.status().ToString();
}

TEST(DeltaV2Checkpoint, LastCheckpointNamesTheManifest) {
  EXPECT_EQ(LastCheckpointV2Path(
                R"({"version":8,"size":11,"v2Checkpoint":{"path":"00000000000000000008.checkpoint.abc.json","sizeInBytes":1}})",
                8),
            "00000000000000000008.checkpoint.abc.json");
  // Only a checkpoint file of that version in _delta_log is taken as the hint.
  for (const char* bad : {R"({"version":8,"v2Checkpoint":{"path":"../../etc/passwd"}})",
                          R"({"version":8,"v2Checkpoint":{"path":"00000000000000000007.checkpoint.abc.json"}})",
                          R"({"version":8,"v2Checkpoint":{"path":"00000000000000000008.checkpoint."}})",
                          R"({"version":8,"size":11})", "not json"})
    EXPECT_FALSE(LastCheckpointV2Path(bad, 8).has_value()) << bad;
  // A table whose _last_checkpoint names its V2 manifest loads from it.
  std::string dir = CopySharedDeltaTable("checkpoint-v2-table");
  std::string manifest;
  for (auto& e : fs::directory_iterator(fs::path(dir) / "_delta_log")) {
    std::string name = e.path().filename().string();
    if (name.rfind("00000000000000000008.checkpoint.", 0) == 0) manifest = name;
  }
  ASSERT_FALSE(manifest.empty());
  LeaveOnlyCheckpoint(dir, 8, manifest);
  ASSERT_TRUE(FileSystem::Default()
                  ->WriteFile((fs::path(dir) / "_delta_log" / "_last_checkpoint").string(),
                              R"({"version":8,"size":11,"v2Checkpoint":{"path":")" + manifest + R"("}})")
                  .ok());
  auto log = DeltaLog::Open(FileSystem::Default(), dir).take();
  auto snap = log->LoadSnapshot();
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap.value().checkpoint_version, 8);
  EXPECT_EQ(snap.value().version, 9);
  EXPECT_EQ(snap.value().NumRecords(), 44);
  EXPECT_TRUE(snap.value().warnings.empty());
}

}  // namespace
}  // namespace lakestream::delta
