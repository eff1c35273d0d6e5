// Issue 30: COUNT(*) without WHERE is answered from the log (DeltaTable::
// RowCount): from the checkpoint footer's record count and the commits after
// it (FileMap::RecordsFromSummary), else from the adds' numRecords less their
// deletion vectors' cardinalities, else by reading the files. Every way must
// give what a scan counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "delta_table_util.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using testing::ScopedTempDir;

// The rows a scan of `table` returns, or the error it throws.
std::string ScannedRows(DeltaTable& table) {
  try {
    auto scan = table.Scan({0});
    DataChunk chunk;
    chunk.Initialize({table.Columns()[0].type});
    idx_t rows = 0;
    while (scan->Next(chunk, nullptr)) {
      rows += chunk.size();
      chunk.Reset();
    }
    return std::to_string(rows);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

// RowCount (COUNT(*) without WHERE), or the error it throws.
std::string CountedRows(DeltaTable& table) {
  try {
    return std::to_string(table.RowCount());
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

// The same count as the scan's; `compared` counts the versions compared.
// A version whose scan fails (a data file missing from the copy) is not
// compared: the log's answer opens no data file.
void ExpectSameCount(DeltaTable& table, const std::string& what, int& compared) {
  std::string scanned = ScannedRows(table);
  if (scanned.rfind("error", 0) == 0) return;
  EXPECT_EQ(CountedRows(table), scanned) << what;
  compared++;
}

// The footer's key-value metadata of a checkpoint file.
std::map<std::string, std::string> Footer(const std::string& path) {
  auto reader = ParquetReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::map<std::string, std::string> out;
  if (!reader.ok()) return out;
  for (auto& [key, value] : reader.value()->KeyValueMetadata()) out[key] = value;
  return out;
}

// Every version of every table in ../shared/delta-tables (written by Spark,
// Databricks and delta-rs: checkpoints with and without stats_parsed, V2
// checkpoints with sidecars, deletion vectors, column mapping, partitions):
// RowCount agrees with the scan.
TEST(DeltaCount, EveryVersionOfEverySharedTableCountsAsItsScan) {
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SharedDeltaTable(""))) {
    if (!entry.is_directory()) continue;
    std::string name = entry.path().filename().string();
    std::unique_ptr<DeltaTable> latest;
    try {
      latest = DeltaTable::Open(FileSystem::Default(), name, entry.path().string());
    } catch (const std::exception&) {
      continue;  // refused (an unknown reader feature) or a log without data
    }
    if (latest->Columns().empty()) continue;
    for (int64_t v = latest->Snapshot().version; v >= 0; v--) {
      std::unique_ptr<DeltaTable> at;
      try {
        at = latest->AtVersion(v);
      } catch (const std::exception&) {
        continue;  // cleaned up from the log
      }
      ExpectSameCount(*at, name + " version " + std::to_string(v), compared);
    }
  }
  EXPECT_GE(compared, 40);  // most versions of most tables have all their files
}

// A table of (k, v) (testing::MakeTable) of `files` data files of 10 rows,
// one per version from 1 on; a checkpoint every 10 commits.
std::unique_ptr<DeltaTable> MakeTable(const std::string& path, int files) {
  auto table = testing::MakeTable(FileSystem::Default(), path);
  for (int64_t f = 2; f <= files; f++) {
    TableCommit insert = testing::InsertRows(f * 100, 10);
    table->Commit(insert);
  }
  delta::WaitForCheckpoints(path);
  return table;
}

// After appends, COUNT(*) of a fresh open comes from the footer of the
// checkpoint we wrote plus the commits after it: not one add of the
// checkpoint decoded.
TEST(DeltaCount, OurCheckpointFooterAnswersWithoutDecodingTheAdds) {
  ScopedTempDir dir("lakestream_count");
  std::string path = dir.path + "/t";
  MakeTable(path, 13);  // versions 0..13, checkpoint at 10
  auto footer = Footer(path + "/_delta_log/" + delta::CheckpointFileName(10));
  EXPECT_EQ(footer[delta::kSummaryRecordsKey], "100");  // versions 1..10 inserted 10 rows each
  EXPECT_EQ(footer[delta::kSummaryFilesKey], "10");
  auto table = DeltaTable::Open(FileSystem::Default(), "t", path);
  EXPECT_EQ(table->Snapshot().checkpoint_version, 10);
  int64_t decodes = delta::FileSourceDecodes(), size_decodes = delta::FileSourceSizeDecodes();
  EXPECT_EQ(table->Snapshot().files.RecordsFromSummary(), 130);
  EXPECT_EQ(table->RowCount(), 130u);
  EXPECT_EQ(delta::FileSourceDecodes(), decodes);
  EXPECT_EQ(delta::FileSourceSizeDecodes(), size_decodes);
  EXPECT_EQ(ScannedRows(*table), "130");
}

// A commit after the checkpoint that rewrites one of its files sends the
// count back to the adds (the footer cannot say what the removed file held);
// the answer is the same.
TEST(DeltaCount, ARewriteOfACheckpointFileCountsTheAdds) {
  ScopedTempDir dir("lakestream_count");
  std::string path = dir.path + "/t";
  auto table = MakeTable(path, 10);  // checkpoint at 10
  TableCommit update = testing::UpdateOneRow();
  table->Commit(update);
  auto fresh = DeltaTable::Open(FileSystem::Default(), "t", path);
  EXPECT_EQ(fresh->Snapshot().files.RecordsFromSummary(), std::nullopt);
  int compared = 0;
  ExpectSameCount(*fresh, "after the update", compared);
  EXPECT_EQ(compared, 1);
  EXPECT_EQ(fresh->RowCount(), 100u);
}

// A file without numRecords: the checkpoint's footer leaves the record
// count out (its files and bytes stay), and COUNT(*) reads the files.
TEST(DeltaCount, AFileWithoutNumRecordsLeavesTheFooterCountOut) {
  ScopedTempDir dir("lakestream_count");
  std::string path = dir.path + "/t";
  MakeTable(path, 3);
  auto log = delta::DeltaLog::Open(FileSystem::Default(), path).take();
  delta::Snapshot snap = log->LoadSnapshot().take();
  ASSERT_EQ(delta::LiveRecords(snap.files.begin()->second), 10);
  delta::AddFile bare = snap.files.begin()->second;
  bare.path = "no-stats.parquet";
  bare.stats.reset();
  bare.counts = {};
  EXPECT_EQ(delta::LiveRecords(bare), std::nullopt);
  snap.ApplyAdd(bare);
  std::string out = dir.path + "/log";
  std::filesystem::create_directories(out);
  ASSERT_TRUE(delta::WriteCheckpointFile(FileSystem::Default(), out, snap, 0).ok());
  auto footer = Footer(out + "/" + delta::CheckpointFileName(snap.version));
  EXPECT_EQ(footer.count(delta::kSummaryRecordsKey), 0u);
  EXPECT_EQ(footer[delta::kSummaryFilesKey], "4");
}

// A fake checkpoint: `summary` and nothing to decode (the tests below never
// need the adds).
class SummaryOnly : public delta::FileSource {
 public:
  explicit SummaryOnly(delta::FileSummary summary) : summary_(std::move(summary)) {}
  const std::optional<delta::FileSummary>& Summary() const override { return summary_; }
  Status Decode(std::map<std::string, delta::AddFile>&) const override { return Status::OK(); }
  Status DecodeSizes(std::map<std::string, delta::FileSize>&) const override { return Status::OK(); }

 private:
  std::optional<delta::FileSummary> summary_;
};

delta::AddFile Add(const std::string& path, int64_t records, std::optional<int64_t> deleted = std::nullopt) {
  delta::AddFile add;
  add.path = path;
  add.size = 100;
  add.stats = "{\"numRecords\":" + std::to_string(records) + "}";
  if (deleted)  // a distinct vector per cardinality (its offset)
    add.deletion_vector = "{\"storageType\":\"u\",\"pathOrInlineDv\":\"ab^-aqEH.-t@S}K{vb[*k^\",\"offset\":" +
                          std::to_string(*deleted + 1) + ",\"sizeInBytes\":36,\"cardinality\":" +
                          std::to_string(*deleted) + "}";
  return add;
}

delta::RemoveFile Remove(const delta::AddFile& add) {
  delta::RemoveFile remove;
  remove.path = add.path;
  remove.deletion_vector = add.deletion_vector;
  return remove;
}

delta::FileMap Checkpointed(std::optional<int64_t> records) {
  delta::FileMap map;
  map.SetSource(std::make_shared<SummaryOnly>(
      delta::FileSummary{2, 200, delta::PathFilter({"a.parquet", "b.parquet"}), records}));
  return map;
}

// The record count follows the changes after the checkpoint in order: adds,
// a deletion vector replacing one (remove of the old (path, DV) and add of
// the new, in either order), removes; and gives up when it cannot know.
TEST(DeltaCount, FooterRecordCountFollowsTheChangesAfterIt) {
  delta::FileMap map = Checkpointed(30);
  EXPECT_EQ(map.RecordsFromSummary(), 30);
  delta::AddFile c = Add("c.parquet", 5);
  map.Add(c);
  EXPECT_EQ(map.RecordsFromSummary(), 35);
  delta::AddFile c_dv = Add("c.parquet", 5, 2);
  map.Remove(Remove(c));
  map.Add(c_dv);
  EXPECT_EQ(map.RecordsFromSummary(), 33);
  delta::AddFile c_dv3 = Add("c.parquet", 5, 3);
  map.Add(c_dv3);  // the add before the remove of the old (path, DV): the new one stays
  map.Remove(Remove(c_dv));
  EXPECT_EQ(map.RecordsFromSummary(), 32);
  EXPECT_EQ(map.size(), 3u);
  map.Add(Add("d.parquet", 7));
  map.Remove(Remove(c_dv3));
  EXPECT_EQ(map.RecordsFromSummary(), 37);
  EXPECT_EQ(map.size(), 3u);
  delta::FileMap copy = map;
  EXPECT_EQ(copy.RecordsFromSummary(), 37);
  // A file without a vector gaining one, the add listed first: the remove
  // (no vector) names the old logical file, not the new one.
  delta::AddFile g = Add("g.parquet", 4);
  map.Add(g);
  map.Add(Add("g.parquet", 4, 1));
  map.Remove(Remove(g));
  EXPECT_EQ(map.RecordsFromSummary(), 40);
  EXPECT_EQ(map.size(), 4u);
  ASSERT_TRUE(map.Load().ok());
  ASSERT_EQ(map.Get().count("g.parquet"), 1u);
  EXPECT_EQ(delta::LiveRecords(map.Get().at("g.parquet")), 3);

  // A remove of (maybe) one of the checkpoint's files: the footer cannot say
  // how many rows went with it.
  delta::FileMap removed = Checkpointed(30);
  removed.Remove(Remove(Add("a.parquet", 0)));
  EXPECT_EQ(removed.RecordsFromSummary(), std::nullopt);

  // An add without numRecords, or with more rows deleted than it has.
  delta::FileMap bare = Checkpointed(30);
  delta::AddFile no_stats = Add("e.parquet", 1);
  no_stats.stats.reset();
  bare.Add(no_stats);
  EXPECT_EQ(bare.RecordsFromSummary(), std::nullopt);
  delta::FileMap lying = Checkpointed(30);
  lying.Add(Add("f.parquet", 3, 4));
  EXPECT_EQ(lying.RecordsFromSummary(), std::nullopt);

  // A footer without the count (a checkpoint written before it was
  // recorded), and a decoded map: nothing from the footer.
  EXPECT_EQ(Checkpointed(std::nullopt).RecordsFromSummary(), std::nullopt);
  delta::FileMap decoded = Checkpointed(30);
  ASSERT_TRUE(decoded.Load().ok());
  EXPECT_EQ(decoded.RecordsFromSummary(), std::nullopt);
}

// Updates and checkpoints on our own table: every version counts as its
// scan, from a fresh open (footer, adds) and time travel. (Deletion vectors
// written by DELETE / UPDATE: test/sql/delta/count_metadata.test.)
TEST(DeltaCount, OwnTableAfterUpdatesAndCheckpointsCountsAsItsScan) {
  ScopedTempDir dir("lakestream_count");
  std::string path = dir.path + "/t";
  auto table = MakeTable(path, 12);
  TableCommit update = testing::UpdateOneRow();
  table->Commit(update);
  for (int64_t f = 13; f <= 24; f++) {
    TableCommit insert = testing::InsertRows(f * 100, 10 + f);
    table->Commit(insert);
  }
  delta::WaitForCheckpoints(path);
  int compared = 0;
  auto fresh = DeltaTable::Open(FileSystem::Default(), "t", path);
  for (int64_t v = fresh->Snapshot().version; v >= 0; v--) {
    auto at = fresh->AtVersion(v);
    ExpectSameCount(*at, "version " + std::to_string(v), compared);
  }
  EXPECT_EQ(compared, fresh->Snapshot().version + 1);
}

}  // namespace
}  // namespace lakestream
