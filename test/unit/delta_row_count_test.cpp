// DeltaTable::RowCount (COUNT(*) from the log) on a table whose root holds
// many data files: answered from the log alone, as Spark and DuckDB answer
// it (no stat, no listing of the data files), while a scan still names a
// file deleted outside lakestream.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/exception.hpp"
#include "delta_table_util.hpp"
#include "recording_file_system.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

TEST(DeltaRowCount, ManyFilesInOneDirectory) {
  testing::ScopedTempDir dir("lakestream_row_count");
  std::string path = dir.path + "/t";
  testing::RecordingFileSystem fs;
  auto table = testing::MakeTable(&fs, path);  // 10 rows in one file
  for (int64_t i = 0; i < 24; i++) {                             // one more file per commit
    TableCommit insert = testing::InsertRows(100 + i, 1);
    table->Commit(insert);
  }
  int64_t stats_before = fs.exists_calls();
  EXPECT_EQ(table->RowCount(), 10u + 24u);
  EXPECT_EQ(fs.exists_calls(), stats_before);  // no stat of a data file
  // Delete one of the files outside lakestream, then reopen (a new snapshot
  // state, so nothing remembered from the count above): the log still says
  // 34 rows; reading them names the missing file.
  std::string victim;
  for (auto& entry : std::filesystem::directory_iterator(path)) {
    std::string name = entry.path().filename().string();
    // A data file the log names: not one of the empty names the table's
    // data file pool holds (storage/table/data_file_pool.hpp).
    if (name.rfind("part-", 0) == 0 && entry.file_size() > 0) victim = entry.path().string();
  }
  ASSERT_FALSE(victim.empty());
  std::filesystem::remove(victim);
  auto reopened = DeltaTable::Open(&fs, "t", path);
  EXPECT_EQ(reopened->RowCount(), 10u + 24u);
  try {
    auto scan = reopened->Scan({0});
    DataChunk chunk;
    chunk.Initialize({LogicalType(TypeId::BIGINT)});
    while (scan->Next(chunk, nullptr)) chunk.Reset();
    FAIL() << "the scan read the table without " << victim;
  } catch (const IOError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("missing its data file " + victim), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace lakestream
