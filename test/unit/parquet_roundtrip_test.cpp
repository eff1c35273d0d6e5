// Round trips through ParquetWriter and ParquetReader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "parquet_test_util.hpp"

namespace lakestream {
namespace {

using testing::ChunkCodecs;
using testing::ReadAll;
using testing::TempPath;
using testing::WriteRows;

std::vector<LogicalType> AllFlatTypes() {
  return {TypeId::BOOLEAN,          TypeId::INTEGER,          TypeId::BIGINT,
          TypeId::DOUBLE,           TypeId::VARCHAR,          TypeId::DATE,
          TypeId::TIMESTAMP,        LogicalType::Decimal(5, 2), LogicalType::Decimal(18, 4),
          LogicalType::Decimal(38, 10)};
}

std::vector<std::string> Names(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; i++) names.push_back("c" + std::to_string(i));
  return names;
}

std::vector<std::vector<Value>> MakeRows(size_t n, bool with_nulls, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<Value>> rows;
  hugeint_t big = static_cast<hugeint_t>(1234567890123456789LL) * 1000000000000LL;
  for (size_t i = 0; i < n; i++) {
    int64_t x = static_cast<int64_t>(rng()) - (1LL << 31);
    std::vector<Value> r = {
        Value::BOOLEAN(i % 3 == 0),
        Value::INTEGER(static_cast<int32_t>(x)),
        Value::BIGINT(x * 1000003LL),
        Value::DOUBLE(static_cast<double>(x) / 7.0),
        Value::VARCHAR("s" + std::to_string(i % 50) + (i % 7 == 0 ? "ünïcødé✓" : "")),
        Value::DATE(static_cast<date_t>(x % 40000)),
        Value::TIMESTAMP(x * 123457LL),
        Value::DECIMAL(x % 100000, 5, 2),
        Value::DECIMAL(x * 1000LL, 18, 4),
        Value::DECIMAL((i % 2 ? -big : big) + x, 38, 10),
    };
    if (with_nulls) {
      for (size_t c = 0; c < r.size(); c++)
        if ((i + c) % 5 == 0) r[c] = Value(r[c].type());
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

void ExpectSame(const std::vector<std::vector<Value>>& a, const std::vector<std::vector<Value>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); i++) {
    ASSERT_EQ(a[i].size(), b[i].size());
    for (size_t c = 0; c < a[i].size(); c++)
      ASSERT_TRUE(a[i][c] == b[i][c]) << "row " << i << " col " << c << ": " << a[i][c].ToString() << " vs "
                                      << b[i][c].ToString();
  }
}

TEST(ParquetRoundTrip, EveryTypeWithAndWithoutNulls) {
  auto types = AllFlatTypes();
  for (bool nulls : {false, true}) {
    auto rows = MakeRows(5000, nulls, 7);
    std::string path = TempPath(nulls ? "types_nulls.parquet" : "types.parquet");
    auto info = WriteRows(path, Names(types.size()), types, rows);
    EXPECT_EQ(info.row_count, 5000);
    auto back = ReadAll(path);
    ExpectSame(rows, back);
    auto r = ParquetReader::Open(path);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.value()->ColumnTypes().size(), types.size());
    for (size_t c = 0; c < types.size(); c++) EXPECT_EQ(r.value()->ColumnTypes()[c], types[c]) << c;
    EXPECT_EQ(r.value()->CreatedBy().rfind("lakestream version ", 0), 0u);
  }
}

TEST(ParquetRoundTrip, FileInfoStatistics) {
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::VARCHAR, TypeId::DOUBLE};
  std::vector<std::vector<Value>> rows = {
      {Value::BIGINT(5), Value("b"), Value::DOUBLE(1.5)},
      {Value::BIGINT(-3), Value(LogicalType(TypeId::VARCHAR)), Value::DOUBLE(-2.5)},
      {Value(LogicalType(TypeId::BIGINT)), Value("a"), Value::DOUBLE(9)},
  };
  std::string path = TempPath("stats.parquet");
  ParquetWriterOptions opt;
  opt.row_group_rows = 2;
  auto info = WriteRows(path, Names(3), types, rows, opt);
  ASSERT_EQ(info.columns.size(), 3u);
  EXPECT_EQ(info.columns[0].min, Value::BIGINT(-3));
  EXPECT_EQ(info.columns[0].max, Value::BIGINT(5));
  EXPECT_EQ(info.columns[0].null_count, 1);
  EXPECT_EQ(info.columns[1].min, Value("a"));
  EXPECT_EQ(info.columns[1].max, Value("b"));
  EXPECT_EQ(info.columns[2].max, Value::DOUBLE(9));
  auto r = ParquetReader::Open(path);
  ASSERT_TRUE(r.ok());
  auto& reader = *r.value();
  EXPECT_EQ(reader.RowGroupCount(), 2u);
  auto st = reader.ColumnStatistics(0, 0);
  EXPECT_EQ(st.min, Value::BIGINT(-3));
  EXPECT_EQ(st.max, Value::BIGINT(5));
  // Row-group skipping: x > 6 can only match in row group 1 (NULL only -> skipped too).
  ASSERT_TRUE(reader.Scan({0}, {{0, CompareOp::kGreater, Value::BIGINT(6)}}).ok());
  DataChunk c;
  c.Initialize(reader.ProjectedTypes());
  ASSERT_TRUE(reader.ReadChunk(c).ok());
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(reader.RowGroupsSkipped(), 2u);
  // Never drops matching rows.
  ASSERT_TRUE(reader.Scan({0}, {{0, CompareOp::kEqual, Value::BIGINT(5)}}).ok());
  ASSERT_TRUE(reader.ReadChunk(c).ok());
  EXPECT_EQ(c.size(), 2u);
}

TEST(ParquetRoundTrip, EmptyFileAndOneRow) {
  auto types = AllFlatTypes();
  std::string empty = TempPath("empty.parquet");
  auto info = WriteRows(empty, Names(types.size()), types, {});
  EXPECT_EQ(info.row_count, 0);
  EXPECT_TRUE(ReadAll(empty).empty());
  auto rows = MakeRows(1, false, 3);
  std::string one = TempPath("one.parquet");
  WriteRows(one, Names(types.size()), types, rows);
  ExpectSame(rows, ReadAll(one));
}

TEST(ParquetRoundTrip, EveryCodec) {
  auto types = AllFlatTypes();
  auto rows = MakeRows(3000, true, 11);
  for (auto codec : {ParquetCodec::kUncompressed, ParquetCodec::kSnappy, ParquetCodec::kGzip, ParquetCodec::kZstd,
                     ParquetCodec::kLz4Raw}) {
    ParquetWriterOptions opt;
    opt.codec = codec;
    opt.page_size = 4096;  // many pages
    std::string path = TempPath("codec" + std::to_string(static_cast<int>(codec)) + ".parquet");
    WriteRows(path, Names(types.size()), types, rows, opt);
    ExpectSame(rows, ReadAll(path));
  }
}

// uncompressed_below: a column chunk of one small page is stored
// UNCOMPRESSED (its footer says so), larger chunks and chunks of several
// pages keep the codec, and every file reads back the same.
TEST(ParquetRoundTrip, SmallChunksUncompressedBelowTheThreshold) {
  using parquet::Codec;
  auto types = AllFlatTypes();
  auto few = MakeRows(5, true, 3);
  ParquetWriterOptions small;
  small.uncompressed_below = kSmallChunkUncompressedBytes;
  std::string path = TempPath("small_chunks.parquet");
  WriteRows(path, Names(types.size()), types, few, small);
  ExpectSame(few, ReadAll(path));
  auto codecs = ChunkCodecs(path);
  EXPECT_EQ(codecs, std::vector<Codec>(types.size(), Codec::UNCOMPRESSED));
  // Off (the default): the codec, whatever the size.
  std::string off = TempPath("small_chunks_off.parquet");
  WriteRows(off, Names(types.size()), types, few);
  EXPECT_EQ(ChunkCodecs(off), std::vector<Codec>(types.size(), Codec::ZSTD));
  ExpectSame(few, ReadAll(off));
  // A tiny BOOLEAN chunk beside a large string chunk in one row group: each chunk by its own size.
  std::vector<std::vector<Value>> mixed;
  for (int i = 0; i < 300; i++) mixed.push_back({Value::BOOLEAN(i % 3 == 0), Value(std::string(300, static_cast<char>('a' + i % 26)) + std::to_string(i))});
  std::string both = TempPath("small_and_large.parquet");
  WriteRows(both, {"b", "s"}, {TypeId::BOOLEAN, TypeId::VARCHAR}, mixed, small);
  EXPECT_EQ(ChunkCodecs(both), (std::vector<Codec>{Codec::UNCOMPRESSED, Codec::ZSTD}));
  ExpectSame(mixed, ReadAll(both));
  // A chunk of several pages (each small) keeps the codec: the rule is per chunk.
  auto many = MakeRows(3000, true, 11);
  small.page_size = 64;
  std::string paged = TempPath("small_pages.parquet");
  WriteRows(paged, Names(types.size()), types, many, small);
  for (Codec codec : ChunkCodecs(paged)) EXPECT_EQ(codec, Codec::ZSTD);
  ExpectSame(many, ReadAll(paged));
}

TEST(ParquetRoundTrip, LongAndNonAsciiStrings) {
  std::vector<std::vector<Value>> rows;
  rows.push_back({Value(std::string(1 << 20, 'x'))});
  rows.push_back({Value("日本語のテキスト 🎉 emoji")});
  rows.push_back({Value("")});
  rows.push_back({Value(std::string("nul\0inside", 10))});
  rows.push_back({Value(std::string(70000, 'y') + "é")});
  std::string path = TempPath("strings.parquet");
  WriteRows(path, {"s"}, {TypeId::VARCHAR}, rows);
  ExpectSame(rows, ReadAll(path));
}

TEST(ParquetRoundTrip, DictionaryFallbackToPlain) {
  // Unique strings overflow a small dictionary mid-chunk.
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 20000; i++) rows.push_back({Value("value-" + std::to_string(i * 7919)), Value::BIGINT(i)});
  ParquetWriterOptions opt;
  opt.dictionary_max_bytes = 10000;
  opt.page_size = 8192;
  std::string path = TempPath("fallback.parquet");
  WriteRows(path, {"s", "i"}, {TypeId::VARCHAR, TypeId::BIGINT}, rows, opt);
  ExpectSame(rows, ReadAll(path));
  opt.dictionary = false;
  WriteRows(path, {"s", "i"}, {TypeId::VARCHAR, TypeId::BIGINT}, rows, opt);
  ExpectSame(rows, ReadAll(path));
}

TEST(ParquetRoundTrip, DictionaryOnlyWhereItPays) {
  // Distinct keys, doubles and strings are written PLAIN (ids + dictionary
  // would be larger); a low-cardinality column keeps its dictionary. With
  // NULLs between the values, and over several pages and row groups.
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 30000; i++) {
    rows.push_back({i % 11 == 0 ? Value(TypeId::BIGINT) : Value::BIGINT(i), Value::DOUBLE(i * 0.5),
                    Value("user_" + std::to_string(i * 7919 % 100000)), Value::DATE(static_cast<date_t>(i % 100)),
                    i % 13 == 0 ? Value(LogicalType::Decimal(38, 2)) : Value::DECIMAL(i, 38, 2)});
  }
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::DOUBLE, TypeId::VARCHAR, TypeId::DATE,
                                    LogicalType::Decimal(38, 2)};
  ParquetWriterOptions opt;
  opt.page_size = 16384;
  opt.row_group_rows = 12000;
  std::string path = TempPath("dict_choice.parquet");
  WriteRows(path, {"a", "b", "s", "d", "m"}, types, rows, opt);
  ExpectSame(rows, ReadAll(path));
  for (size_t c : {0, 1, 2, 4}) EXPECT_FALSE(testing::HasDictionaryPage(path, c)) << "column " << c;
  EXPECT_TRUE(testing::HasDictionaryPage(path, 3));
}

TEST(ParquetRoundTrip, DictionaryThatPaysFirstThenOverflows) {
  // The first pages repeat a few values (the dictionary pays), then every
  // value is new until the dictionary overflows: dictionary pages, then PLAIN
  // pages in the same column chunk.
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 20000; i++) {
    int64_t v = i < 5000 ? i % 7 : i;
    rows.push_back({Value::BIGINT(v), Value("k" + std::to_string(v))});
  }
  ParquetWriterOptions opt;
  opt.page_size = 4096;
  opt.dictionary_max_bytes = 20000;
  std::string path = TempPath("dict_overflow.parquet");
  WriteRows(path, {"i", "s"}, {TypeId::BIGINT, TypeId::VARCHAR}, rows, opt);
  ExpectSame(rows, ReadAll(path));
  EXPECT_TRUE(testing::HasDictionaryPage(path, 0));
  EXPECT_TRUE(testing::HasDictionaryPage(path, 1));
}

TEST(ParquetRoundTrip, NestedStructListMap) {
  LogicalType inner = LogicalType::Struct({{"a", TypeId::INTEGER}, {"b", TypeId::VARCHAR}});
  LogicalType list_of_struct = LogicalType::List(inner);
  LogicalType map = LogicalType::Map(TypeId::VARCHAR, TypeId::BIGINT);
  LogicalType list_of_list = LogicalType::List(LogicalType::List(TypeId::BIGINT));
  LogicalType outer = LogicalType::Struct({{"m", map}, {"l", LogicalType::List(TypeId::VARCHAR)}, {"x", TypeId::DOUBLE}});
  std::vector<LogicalType> types = {TypeId::BIGINT, inner, list_of_struct, map, list_of_list, outer};
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 3000; i++) {
    Value s = Value::STRUCT(inner, {Value::INTEGER(i), i % 4 == 1 ? Value(LogicalType(TypeId::VARCHAR)) : Value("v" + std::to_string(i))});
    std::vector<Value> elems;
    for (int k = 0; k < i % 4; k++) elems.push_back(k == 2 ? Value(inner) : s);
    Value l = i % 9 == 0 ? Value(list_of_struct) : Value::LIST(list_of_struct, elems);
    std::vector<Value> entries;
    for (int k = 0; k < i % 3; k++)
      entries.push_back(Value::STRUCT(map.ListChild(), {Value("k" + std::to_string(k)),
                                                        k == 1 ? Value(LogicalType(TypeId::BIGINT)) : Value::BIGINT(i * k)}));
    Value m = i % 7 == 0 ? Value(map) : Value::LIST(map, entries);
    std::vector<Value> ll;
    for (int k = 0; k < i % 3; k++) {
      std::vector<Value> in;
      for (int j = 0; j < k; j++) in.push_back(Value::BIGINT(j));
      ll.push_back(Value::LIST(LogicalType::List(TypeId::BIGINT), in));
    }
    Value o = Value::STRUCT(outer, {m, Value::LIST(LogicalType::List(TypeId::VARCHAR), {Value("p"), Value("q")}),
                                    Value::DOUBLE(i * 0.5)});
    rows.push_back({Value::BIGINT(i), i % 5 == 0 ? Value(inner) : s, l, m,
                    Value::LIST(list_of_list, ll), i % 11 == 0 ? Value(outer) : o});
  }
  for (auto codec : {ParquetCodec::kZstd, ParquetCodec::kSnappy}) {
    ParquetWriterOptions opt;
    opt.codec = codec;
    opt.page_size = 2048;
    opt.row_group_rows = 1000;
    std::string path = TempPath("nested.parquet");
    WriteRows(path, Names(types.size()), types, rows, opt);
    auto r = ParquetReader::Open(path);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (size_t c = 0; c < types.size(); c++) EXPECT_EQ(r.value()->ColumnTypes()[c], types[c]) << types[c].ToString();
    ExpectSame(rows, ReadAll(path));
  }
}

TEST(ParquetRoundTrip, ManyRows) {
  // 1M rows by default; LAKESTREAM_PARQUET_BIG=1 runs 10M.
  idx_t n = std::getenv("LAKESTREAM_PARQUET_BIG") ? 10'000'000 : 1'100'000;
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::DOUBLE, TypeId::VARCHAR, TypeId::DATE};
  std::string path = TempPath("many.parquet");
  {
    auto w = ParquetWriter::Create(path, Names(4), types);
    ASSERT_TRUE(w.ok());
    DataChunk chunk;
    chunk.Initialize(types);
    for (idx_t base = 0; base < n; base += STANDARD_VECTOR_SIZE) {
      chunk.Reset();
      idx_t cnt = std::min<idx_t>(STANDARD_VECTOR_SIZE, n - base);
      for (idx_t i = 0; i < cnt; i++) {
        idx_t row = base + i;
        chunk.data[0].GetData<int64_t>()[i] = static_cast<int64_t>(row);
        chunk.data[1].GetData<double>()[i] = row * 0.25;
        chunk.data[2].GetData<string_t>()[i] = chunk.data[2].AddString("str-" + std::to_string(row % 100000));
        chunk.data[3].GetData<date_t>()[i] = static_cast<date_t>(row % 20000);
        if (row % 13 == 0) chunk.data[1].SetValid(i, false);
      }
      chunk.SetCardinality(cnt);
      ASSERT_TRUE(w.value()->Append(chunk).ok());
    }
    auto info = w.value()->Finish();
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info.value().row_count, static_cast<int64_t>(n));
    EXPECT_EQ(info.value().columns[0].max, Value::BIGINT(static_cast<int64_t>(n - 1)));
  }
  auto r = ParquetReader::Open(path);
  ASSERT_TRUE(r.ok());
  auto& reader = *r.value();
  EXPECT_EQ(reader.RowCount(), static_cast<int64_t>(n));
  EXPECT_GE(reader.RowGroupCount(), 2u);
  ASSERT_TRUE(reader.Scan({0, 1, 2, 3}).ok());
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  idx_t row = 0;
  while (true) {
    ASSERT_TRUE(reader.ReadChunk(chunk).ok());
    if (chunk.size() == 0) break;
    for (idx_t i = 0; i < chunk.size(); i++, row++) {
      ASSERT_EQ(chunk.data[0].GetData<int64_t>()[i], static_cast<int64_t>(row));
      ASSERT_EQ(chunk.data[1].IsValid(i), row % 13 != 0);
      if (row % 13) ASSERT_EQ(chunk.data[1].GetData<double>()[i], row * 0.25);
      ASSERT_EQ(chunk.data[3].GetData<date_t>()[i], static_cast<date_t>(row % 20000));
      if (i == 0) ASSERT_EQ(std::string(chunk.data[2].GetData<string_t>()[i]), "str-" + std::to_string(row % 100000));
    }
  }
  EXPECT_EQ(row, n);
}

}  // namespace
}  // namespace lakestream
