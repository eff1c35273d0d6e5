// The writer never writes what the reader refuses (parquet_limits.hpp): for
// each limit, input just below, at and past it either reads back exactly or
// is refused by Append before any of it is written, and what was written
// before still reads. Limits that would take hundreds of MB to reach are
// lowered through ParquetWriterOptions; a value past the real value limit
// is refused once at its real size (256 MiB), and LAKESTREAM_PARQUET_BIG=1
// also writes and reads one at the limit (about 2 GB, 30 s).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "parquet_test_util.hpp"
#include "storage/parquet/parquet_limits.hpp"

namespace lakestream {
namespace {

using testing::ReadAll;
using testing::TempPath;
using testing::WriteRows;

struct PageInfo {
  parquet::PageType type;
  int64_t uncompressed;
  int64_t values;
};

parquet::FileMetaData ReadFooter(const std::string& bytes) {
  parquet::FileMetaData md;
  uint32_t footer_len = 0;
  EXPECT_GE(bytes.size(), 12u);
  if (bytes.size() < 12) return md;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  parquet::TReader r(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8 - footer_len, footer_len);
  EXPECT_TRUE(parquet::ReadFileMetaData(r, md)) << r.error();
  return md;
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Every page of leaf `leaf` in every row group, from the page headers.
std::vector<PageInfo> Pages(const std::string& path, size_t leaf) {
  std::string bytes = FileBytes(path);
  auto md = ReadFooter(bytes);
  std::vector<PageInfo> pages;
  for (auto& rg : md.row_groups) {
    auto& m = *rg.columns.at(leaf).meta_data;
    int64_t pos = m.dictionary_page_offset.value_or(m.data_page_offset);
    int64_t end = pos + m.total_compressed_size;
    while (pos < end) {
      parquet::TReader r(reinterpret_cast<const uint8_t*>(bytes.data()) + pos, static_cast<size_t>(end - pos));
      parquet::PageHeader ph;
      if (!parquet::ReadPageHeader(r, ph)) {
        ADD_FAILURE() << "bad page header at " << pos;
        break;
      }
      int64_t values = ph.data_page_header ? ph.data_page_header->num_values
                                           : (ph.dictionary_page_header ? ph.dictionary_page_header->num_values : 0);
      pages.push_back({ph.type, ph.uncompressed_page_size, values});
      pos += static_cast<int64_t>(r.consumed()) + ph.compressed_page_size;
    }
  }
  return pages;
}

int64_t LargestDataPage(const std::vector<PageInfo>& pages) {
  int64_t largest = 0;
  for (auto& p : pages)
    if (p.type == parquet::PageType::DATA_PAGE) largest = std::max(largest, p.uncompressed);
  return largest;
}

std::vector<Value> Column(const std::vector<std::vector<Value>>& rows, size_t c) {
  std::vector<Value> out;
  for (auto& r : rows) out.push_back(r.at(c));
  return out;
}

// One VARCHAR column "s" whose rows point at `values` (not copied).
DataChunk StringChunk(const std::vector<std::string_view>& values) {
  DataChunk chunk;
  chunk.Initialize({TypeId::VARCHAR}, std::max<idx_t>(values.size(), 1));
  for (idx_t r = 0; r < values.size(); r++) {
    chunk.data[0].GetData<string_t>()[r] = values[r];
    chunk.data[0].SetValid(r, true);
  }
  chunk.SetCardinality(values.size());
  return chunk;
}

TEST(ParquetLimits, ValuesBelowAtAndPastTheValueLimit) {
  ParquetWriterOptions opt;
  opt.max_value_bytes = 100'000;
  opt.label = "table h";
  std::string path = TempPath("value_limit.parquet");
  auto w = ParquetWriter::Create(path, {"s"}, {TypeId::VARCHAR}, opt);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  std::string below(99'999, 'b'), at(100'000, 'a'), past(100'001, 'p');
  ASSERT_TRUE(w.value()->Append(StringChunk({below, at, "small"})).ok());
  // The value past the limit fails the whole chunk: "ok" must not be written either.
  Status s = w.value()->Append(StringChunk({"ok", past}));
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_EQ(s.message(),
            "column s of table h: a value of 100,001 bytes exceeds the largest value lakestream stores (100,000 "
            "bytes); store the value outside the table (e.g. in a file, and its path in the table) or split it "
            "across rows");
  ASSERT_TRUE(w.value()->Append(StringChunk({"after"})).ok());
  ASSERT_TRUE(w.value()->Finish().ok());
  auto back = Column(ReadAll(path), 0);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[0].GetString(), below);
  EXPECT_EQ(back[1].GetString(), at);
  EXPECT_EQ(back[2].GetString(), "small");
  EXPECT_EQ(back[3].GetString(), "after");
}

// The option cannot raise the limit past what a readable page holds. A
// value at the real limit takes about 2 GB to write and read back: that
// round trip runs with LAKESTREAM_PARQUET_BIG=1 (the refusal always runs).
TEST(ParquetLimits, ValueLimitIsCappedByTheFormatLimit) {
  ParquetWriterOptions opt;
  opt.max_value_bytes = UINT64_MAX;  // asks for more than any readable page holds
  std::string path = TempPath("value_cap.parquet");
  // One buffer for both: one byte past the limit, and at it.
  std::string big(parquet::kMaxValueBytes + 1, 'x');
  big[0] = 'y';
  auto w = ParquetWriter::Create(path, {"s"}, {TypeId::VARCHAR}, opt);
  ASSERT_TRUE(w.ok());
  Status s = w.value()->Append(StringChunk({std::string_view(big)}));
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("a value of 268,434,433 bytes exceeds the largest value lakestream stores "
                             "(268,434,432 bytes)"),
            std::string::npos)
      << s.message();
  if (!std::getenv("LAKESTREAM_PARQUET_BIG")) {
    ASSERT_TRUE(w.value()->Append(StringChunk({"z"})).ok());
    ASSERT_TRUE(w.value()->Finish().ok());
    EXPECT_EQ(ReadAll(path).size(), 1u);
    return;
  }
  ASSERT_TRUE(w.value()->Append(StringChunk({std::string_view(big).substr(0, parquet::kMaxValueBytes), "z"})).ok());
  ASSERT_TRUE(w.value()->Finish().ok());
  big.resize(parquet::kMaxValueBytes);
  EXPECT_LE(LargestDataPage(Pages(path, 0)), static_cast<int64_t>(parquet::kMaxPageBytes));
  auto r = ParquetReader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r.value()->Scan({0}).ok());
  DataChunk out;
  out.Initialize(r.value()->ProjectedTypes());
  ASSERT_TRUE(r.value()->ReadChunk(out).ok());
  ASSERT_EQ(out.size(), 2u);
  string_t first = out.data[0].GetData<string_t>()[0];
  ASSERT_EQ(first.size(), parquet::kMaxValueBytes);
  EXPECT_TRUE(first == std::string_view(big));
  EXPECT_EQ(out.data[0].GetData<string_t>()[1], "z");
}

// Many mid-size values in one chunk: pages end at the target size instead
// of growing with the chunk (a chunk of 2,048 values of 200 KB would make a
// 400 MB page, past what the reader accepts); a value larger than the
// target gets a page of its own.
TEST(ParquetLimits, PagesAreSplitBySize) {
  ParquetWriterOptions opt;
  opt.page_size = 256 << 10;
  std::string path = TempPath("page_split.parquet");
  std::vector<std::string> values;
  for (int i = 0; i < 300; i++) values.push_back(std::string(30'000 + i, static_cast<char>('a' + i % 26)));
  values[150] = std::string(1 << 20, 'L');  // 4 pages' worth
  std::vector<std::string_view> views(values.begin(), values.end());
  {
    auto w = ParquetWriter::Create(path, {"s"}, {TypeId::VARCHAR}, opt);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->Append(StringChunk(views)).ok());
    ASSERT_TRUE(w.value()->Finish().ok());
  }
  auto pages = Pages(path, 0);
  int64_t largest = 0, data_pages = 0, over_target = 0;
  for (auto& p : pages) {
    if (p.type != parquet::PageType::DATA_PAGE) continue;
    data_pages++;
    largest = std::max(largest, p.uncompressed);
    if (p.uncompressed > static_cast<int64_t>(opt.page_size)) {
      over_target++;
      EXPECT_EQ(p.values, 1) << "only a single value larger than the target makes a larger page";
    }
  }
  EXPECT_EQ(over_target, 1);
  EXPECT_LE(largest, (1 << 20) + 64);
  EXPECT_GE(data_pages, 300 * 30'000 / (256 << 10));
  auto back = Column(ReadAll(path), 0);
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); i++) ASSERT_EQ(back[i].GetString(), values[i]) << i;
}

// A page holds at most kMaxWriterPageValues entries, however small they are.
TEST(ParquetLimits, PagesAreSplitByEntryCount) {
  std::string path = TempPath("page_entries.parquet");
  const idx_t rows = parquet::kMaxWriterPageValues + 5000;
  {
    auto w = ParquetWriter::Create(path, {"b"}, {TypeId::BOOLEAN}, {});
    ASSERT_TRUE(w.ok());
    DataChunk chunk;
    chunk.Initialize({TypeId::BOOLEAN});
    for (idx_t done = 0; done < rows; done += STANDARD_VECTOR_SIZE) {
      idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, rows - done);
      for (idx_t r = 0; r < n; r++)
        chunk.data[0].SetValue(r, (done + r) % 3 ? Value(LogicalType(TypeId::BOOLEAN)) : Value::BOOLEAN(true));
      chunk.SetCardinality(n);
      ASSERT_TRUE(w.value()->Append(chunk).ok());
    }
    ASSERT_TRUE(w.value()->Finish().ok());
  }
  int64_t total = 0;
  for (auto& p : Pages(path, 0)) {
    EXPECT_LE(p.values, parquet::kMaxWriterPageValues);
    total += p.values;
  }
  EXPECT_EQ(total, static_cast<int64_t>(rows));
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), rows);
  for (idx_t r = 0; r < rows; r += 997) EXPECT_EQ(back[r][0].IsNull(), r % 3 != 0) << r;
}

// A dictionary that grows past dictionary_max_bytes falls back to PLAIN in
// the middle of a chunk; the dictionary page stays within the limit.
TEST(ParquetLimits, DictionaryOverflowFallsBackToPlain) {
  ParquetWriterOptions opt;
  opt.dictionary_max_bytes = 64 << 10;
  std::string path = TempPath("dict_overflow.parquet");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 40'000; i++) {
    // Repeats at first (the dictionary pays), then ever new values.
    int key = i < 10'000 ? i % 100 : i;
    rows.push_back({Value::VARCHAR("value-" + std::to_string(key) + std::string(20, 'x'))});
  }
  WriteRows(path, {"s"}, {TypeId::VARCHAR}, rows, opt);
  auto pages = Pages(path, 0);
  ASSERT_FALSE(pages.empty());
  ASSERT_EQ(pages[0].type, parquet::PageType::DICTIONARY_PAGE);
  EXPECT_LE(pages[0].uncompressed, 64 << 10);
  EXPECT_GT(pages.size(), 2u);
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); i++) ASSERT_TRUE(back[i][0] == rows[i][0]) << i;
}

LogicalType ListOfStrings() { return LogicalType::List(TypeId::VARCHAR); }

Value StringList(int n, size_t len) {
  std::vector<Value> elements;
  for (int i = 0; i < n; i++) elements.push_back(Value::VARCHAR(std::string(len, static_cast<char>('a' + i % 26))));
  return Value::LIST(ListOfStrings(), elements);
}

// A nested column's row group ends before a leaf holds more level entries
// than the reader takes in one row group; a single row with more is refused.
TEST(ParquetLimits, NestedRowGroupsEndAtTheEntryLimit) {
  ParquetWriterOptions opt;
  opt.max_nested_entries = 1000;
  opt.label = "table h";
  std::string path = TempPath("nested_entries.parquet");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 200; i++) rows.push_back({Value::BIGINT(i), StringList(i % 40, 3)});
  rows.push_back({Value::BIGINT(200), StringList(1000, 1)});  // exactly at the limit
  WriteRows(path, {"id", "l"}, {TypeId::BIGINT, ListOfStrings()}, rows, opt);
  auto md = ReadFooter(FileBytes(path));
  EXPECT_GE(md.row_groups.size(), 5u);
  for (auto& rg : md.row_groups) EXPECT_LE(rg.columns.at(1).meta_data->num_values, 1000);
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); i++) ASSERT_TRUE(back[i][1] == rows[i][1]) << i;

  auto w = ParquetWriter::Create(TempPath("nested_entries_refused.parquet"), {"l"}, {ListOfStrings()}, opt);
  ASSERT_TRUE(w.ok());
  DataChunk chunk;
  chunk.Initialize({ListOfStrings()});
  chunk.SetValue(0, 0, StringList(1001, 1));
  chunk.SetCardinality(1);
  Status s = w.value()->Append(chunk);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "column l of table h: a row holds 1,001 nested values, more than lakestream stores in one "
                         "row (1,000); split its lists across rows");
}

// Strings inside lists, structs and maps are held to the value limit too,
// and a nested row whose strings outgrow a page spans pages.
TEST(ParquetLimits, NestedValues) {
  ParquetWriterOptions opt;
  opt.max_value_bytes = 10'000;
  auto struct_type = LogicalType::Struct({{"a", TypeId::INTEGER}, {"t", TypeId::VARCHAR}});
  auto map_type = LogicalType::Map(TypeId::VARCHAR, TypeId::VARCHAR);
  std::vector<LogicalType> types = {ListOfStrings(), struct_type, map_type};
  auto ok_row = [&](int i) {
    return std::vector<Value>{StringList(i % 5, 10'000),
                              Value::STRUCT(struct_type, {Value::INTEGER(i), Value::VARCHAR(std::string(10'000, 't'))}),
                              Value::LIST(map_type, {Value::STRUCT(map_type.ListChild(),
                                                                   {Value::VARCHAR("k"), Value::VARCHAR("v")})})};
  };
  std::string path = TempPath("nested_values.parquet");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 50; i++) rows.push_back(ok_row(i));
  WriteRows(path, {"l", "st", "m"}, types, rows, opt);
  {
    auto back = ReadAll(path);
    ASSERT_EQ(back.size(), rows.size());
    for (size_t i = 0; i < rows.size(); i++)
      for (size_t c = 0; c < types.size(); c++) ASSERT_TRUE(back[i][c] == rows[i][c]) << i << "," << c;
  }
  for (size_t c = 0; c < types.size(); c++) {
    auto w = ParquetWriter::Create(TempPath("nested_refused.parquet"), {"l", "st", "m"}, types, opt);
    ASSERT_TRUE(w.ok());
    auto row = ok_row(3);
    std::string big(10'001, 'B');
    if (c == 0) row[0] = Value::LIST(ListOfStrings(), {Value::VARCHAR("a"), Value::VARCHAR(big)});
    if (c == 1) row[1] = Value::STRUCT(struct_type, {Value::INTEGER(1), Value::VARCHAR(big)});
    if (c == 2)
      row[2] = Value::LIST(map_type, {Value::STRUCT(map_type.ListChild(), {Value::VARCHAR(big), Value::VARCHAR("v")})});
    DataChunk chunk;
    chunk.Initialize(types);
    for (size_t k = 0; k < types.size(); k++) chunk.SetValue(k, 0, row[k]);
    chunk.SetCardinality(1);
    Status s = w.value()->Append(chunk);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << c;
    EXPECT_NE(s.message().find("column " + std::string(c == 0 ? "l" : c == 1 ? "st" : "m") +
                               " of "),
              std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("a value of 10,001 bytes exceeds"), std::string::npos) << s.message();
  }
}

// A NULL map key is refused with the chunk, before any of it is written.
TEST(ParquetLimits, NullMapKeyRefusesTheChunk) {
  auto map_type = LogicalType::Map(TypeId::VARCHAR, TypeId::INTEGER);
  auto entry = [&](Value key, int v) { return Value::STRUCT(map_type.ListChild(), {std::move(key), Value::INTEGER(v)}); };
  std::string path = TempPath("null_map_key.parquet");
  ParquetWriterOptions opt;
  opt.label = "table h";
  auto w = ParquetWriter::Create(path, {"m"}, {map_type}, opt);
  ASSERT_TRUE(w.ok());
  DataChunk chunk;
  chunk.Initialize({map_type});
  chunk.SetValue(0, 0, Value::LIST(map_type, {entry(Value::VARCHAR("a"), 1)}));
  chunk.SetValue(0, 1, Value::LIST(map_type, {entry(Value(LogicalType(TypeId::VARCHAR)), 2)}));
  chunk.SetCardinality(2);
  Status s = w.value()->Append(chunk);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "column m of table h: a map has a NULL key; give every entry a key or leave the entry out");
  chunk.SetCardinality(1);
  ASSERT_TRUE(w.value()->Append(chunk).ok());
  ASSERT_TRUE(w.value()->Finish().ok());
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0][0] == Value::LIST(map_type, {entry(Value::VARCHAR("a"), 1)}));
}

// Pages of a nested column end between rows, unless one row would take a
// page past twice the target: then its entries span pages.
TEST(ParquetLimits, NestedRowLargerThanAPageSpansPages) {
  ParquetWriterOptions opt;
  opt.page_size = 256 << 10;
  std::string path = TempPath("nested_big_row.parquet");
  std::vector<std::vector<Value>> rows = {{StringList(3, 1000)}, {StringList(20, 100'000)}, {StringList(2, 10)}};
  WriteRows(path, {"l"}, {ListOfStrings()}, rows, opt);
  auto pages = Pages(path, 0);
  EXPECT_GE(pages.size(), 2'000'000u / (512 << 10));
  EXPECT_LE(LargestDataPage(pages), 2 * (256 << 10) + 1024);
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); i++) EXPECT_TRUE(back[i][0] == rows[i][0]) << i;
}

LogicalType NestedLists(int levels) {
  LogicalType t = TypeId::INTEGER;
  for (int i = 0; i < levels; i++) t = LogicalType::List(t);
  return t;
}

// LIST^k(INTEGER) is 2k + 1 schema levels deep: 23 lists (47) still read,
// 24 (49) are refused by Create.
TEST(ParquetLimits, SchemaDepth) {
  EXPECT_EQ(parquet::SchemaDepth(NestedLists(23)), 47);
  std::string path = TempPath("deep.parquet");
  auto deep = NestedLists(23);
  WriteRows(path, {"d"}, {deep}, {{Value(deep)}, {Value::LIST(deep, {})}});
  auto back = ReadAll(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[0][0].IsNull());
  EXPECT_FALSE(back[1][0].IsNull());

  ParquetWriterOptions opt;
  opt.label = "table h";
  auto w = ParquetWriter::Create(TempPath("too_deep.parquet"), {"d"}, {NestedLists(24)}, opt);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(w.status().message().find("column d of table h: its type"), std::string::npos) << w.status().message();
  EXPECT_NE(w.status().message().find("nests 49 levels deep in Parquet, more than the 48 lakestream reads"),
            std::string::npos)
      << w.status().message();
}

// Row-group min/max of strings longer than kMaxStatisticsValueBytes stay out
// of the footer; the file info (Delta's statistics) keeps the exact values.
TEST(ParquetLimits, LongStringsGetNoFooterStatistics) {
  std::string path = TempPath("long_stats.parquet");
  std::string at(parquet::kMaxStatisticsValueBytes, 'm'), past(parquet::kMaxStatisticsValueBytes + 1, 'z');
  auto info = WriteRows(path, {"short", "long"}, {TypeId::VARCHAR, TypeId::VARCHAR},
                        {{Value::VARCHAR("a"), Value::VARCHAR("a")}, {Value::VARCHAR(at), Value::VARCHAR(past)}});
  auto r = ParquetReader::Open(path);
  ASSERT_TRUE(r.ok());
  auto short_stats = r.value()->ColumnStatistics(0, 0);
  EXPECT_EQ(short_stats.max.GetString(), at);
  auto long_stats = r.value()->ColumnStatistics(0, 1);
  EXPECT_TRUE(long_stats.max.IsNull());
  EXPECT_EQ(long_stats.null_count, 0);
  ASSERT_EQ(info.columns.size(), 2u);
  EXPECT_EQ(info.columns[1].max.GetString(), past);
  EXPECT_LT(FileBytes(path).size(), 3u * parquet::kMaxStatisticsValueBytes + 2048);
}

}  // namespace
}  // namespace lakestream
