// A Delta write refuses a value no Parquet page of lakestream's holds
// before anything is committed: the statement fails with an Invalid Input
// Error naming the column and table, its data files are removed, and the
// table reads as before. Statistics of long strings stay short.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/exception.hpp"
#include "storage/parquet/parquet_limits.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

struct Table {
  testing::ScopedTempDir dir{"lakestream_limits"};
  std::string path = dir.path + "/h";
  std::unique_ptr<DeltaTable> table;
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR};

  Table() {
    DeltaTableDefinition definition;
    definition.columns = {{"id", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                          {"s", TypeId::VARCHAR, false, Value(LogicalType(TypeId::VARCHAR))}};
    table = DeltaTable::Create(FileSystem::Default(), "h", path, definition);
  }

  // Commits rows (i, strings[i]); the strings are not copied into the chunk.
  void Insert(const std::vector<std::string_view>& strings) {
    DataChunk chunk;
    chunk.Initialize(types, strings.size());
    for (idx_t r = 0; r < strings.size(); r++) {
      chunk.data[0].SetValue(r, Value::BIGINT(static_cast<int64_t>(r)));
      chunk.data[1].GetData<string_t>()[r] = strings[r];
      chunk.data[1].SetValid(r, true);
    }
    chunk.SetCardinality(strings.size());
    TableCommit insert;
    insert.operation = "WRITE";
    insert.inserted = ChunkCollection(types);
    insert.inserted.Append(std::move(chunk));
    table->Commit(insert);
  }

  size_t DataFiles() const {
    size_t n = 0;
    for (auto& e : std::filesystem::recursive_directory_iterator(path)) n += e.path().extension() == ".parquet";
    return n;
  }

  std::vector<std::string> Strings(DeltaTable& t) const {
    auto scan = t.Scan({1});
    DataChunk out;
    out.Initialize({TypeId::VARCHAR});
    std::vector<std::string> seen;
    while (scan->Next(out, nullptr))
      for (idx_t r = 0; r < out.size(); r++) seen.push_back(out.GetValue(0, r).GetString());
    return seen;
  }
};

TEST(DeltaValueLimits, AValuePastTheLimitIsRefusedBeforeTheCommit) {
  Table h;
  h.Insert({"one", "two"});
  int64_t version = h.table->Version();
  size_t files_before = h.DataFiles();
  std::string big(parquet::kMaxValueBytes + 1, 'a');
  try {
    h.Insert({"three", big});
    FAIL() << "the commit of a value past the limit succeeded";
  } catch (const InvalidInputError& e) {
    EXPECT_EQ(e.RawMessage().rfind("column s of table h: a value of 268,434,433 bytes exceeds the largest value "
                                   "lakestream stores (268,434,432 bytes); ",
                                   0),
              0u)
        << e.RawMessage();
  }
  EXPECT_EQ(h.table->Version(), version);
  EXPECT_EQ(h.DataFiles(), files_before) << "the refused statement's data file was left behind";
  EXPECT_EQ(h.Strings(*h.table), (std::vector<std::string>{"one", "two"}));
  auto reopened = DeltaTable::Open(FileSystem::Default(), "h", h.path);
  EXPECT_EQ(reopened->Version(), version);
  EXPECT_EQ(h.Strings(*reopened), (std::vector<std::string>{"one", "two"}));
  // The table still takes writes.
  h.Insert({"four"});
  EXPECT_EQ(h.table->Version(), version + 1);
}

// A long string's min is a 32-character prefix in the add's stats, its max
// is left out: the log does not grow with the value.
TEST(DeltaValueLimits, StatisticsOfLongStringsStayShort) {
  Table h;
  std::string long_value(1 << 20, 'q');
  h.Insert({long_value});
  const auto& files = h.table->Snapshot().files;
  ASSERT_EQ(files.size(), 1u);
  const std::string& stats = *files.begin()->second.stats;
  EXPECT_LT(stats.size(), 300u) << stats;
  EXPECT_NE(stats.find("\"minValues\":{\"id\":0,\"s\":\"" + std::string(32, 'q') + "\"}"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"maxValues\":{\"id\":0}"), std::string::npos) << stats;
  EXPECT_EQ(h.Strings(*h.table), std::vector<std::string>{long_value});
}

}  // namespace
}  // namespace lakestream
