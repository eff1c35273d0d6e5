// ParquetReader::OpenRanged (how s3:// Parquet files are read): through a
// FileSystem that counts every request and byte, a ranged read returns the
// rows a memory-mapped read does, fetches only the projected column chunks,
// one request per row group, and fails on a bad footer with an error naming
// the file. The S3 transport itself is covered by s3_file_system_test and
// test/shell/object_storage.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "common/file_system.hpp"
#include "parquet_test_util.hpp"
#include "storage/parquet/parquet_remote_source.hpp"

namespace lakestream {
namespace {

using testing::TempPath;

// Local files, with every read counted as a store would see requests: a
// ReadTail is one request (a suffix-range GET), a ReadRange one, a ReadFile one.
class CountingFileSystem : public FileSystem {
 public:
  std::atomic<int64_t> requests{0};
  std::atomic<int64_t> bytes{0};
  std::atomic<int64_t> whole_file_reads{0};

  Result<std::string> ReadFile(const std::string& path) override {
    whole_file_reads++;
    return Count(base_->ReadFile(path));
  }
  Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length) override {
    return Count(base_->ReadRange(path, offset, length));
  }
  Result<Tail> ReadTail(const std::string& path, uint64_t length) override {
    auto tail = base_->ReadTail(path, length);
    requests++;
    if (tail.ok()) bytes += static_cast<int64_t>(tail.value().bytes.size());
    return tail;
  }
  Status WriteFile(const std::string& p, const std::string& c) override { return base_->WriteFile(p, c); }
  Result<std::vector<std::string>> ListDirectory(const std::string& d) override { return base_->ListDirectory(d); }
  Status CreateDirectories(const std::string& d) override { return base_->CreateDirectories(d); }
  bool FileExists(const std::string& p) override { return base_->FileExists(p); }
  Result<uint64_t> FileSize(const std::string& p) override { return base_->FileSize(p); }
  Result<int64_t> ModificationTime(const std::string& p) override { return base_->ModificationTime(p); }
  Status RemoveFile(const std::string& p) override { return base_->RemoveFile(p); }
  Status Rename(const std::string& f, const std::string& t) override { return base_->Rename(f, t); }
  Status Link(const std::string& f, const std::string& t) override { return base_->Link(f, t); }
  Status Fsync(const std::string& p) override { return base_->Fsync(p); }
  Status FsyncDirectory(const std::string& d) override { return base_->FsyncDirectory(d); }

  void Reset() {
    requests = 0;
    bytes = 0;
    whole_file_reads = 0;
  }

 private:
  Result<std::string> Count(Result<std::string> r) {
    requests++;
    if (r.ok()) bytes += static_cast<int64_t>(r.value().size());
    return r;
  }
  FileSystem* base_ = FileSystem::Default();
};

constexpr idx_t kWide = 6;             // BIGINT columns c0..c5
constexpr idx_t kRowGroupRows = 150000;  // 1.2 MB per chunk: chunks lie more than kMaxGap apart
constexpr idx_t kRowGroups = 3;

// Columns c0..c5 (c0 = row number, the others pseudo-random, so nothing
// compresses) and a struct s {x BIGINT, y VARCHAR}; three row groups.
std::string WriteWideFile(const std::string& name) {
  std::string path = TempPath(name);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  for (idx_t c = 0; c < kWide; c++) {
    names.push_back("c" + std::to_string(c));
    types.emplace_back(TypeId::BIGINT);
  }
  names.push_back("s");
  types.push_back(LogicalType::Struct({{"x", LogicalType(TypeId::BIGINT)}, {"y", LogicalType(TypeId::VARCHAR)}}));
  ParquetWriterOptions opt;
  opt.codec = ParquetCodec::kUncompressed;
  opt.dictionary = false;
  opt.row_group_rows = kRowGroupRows;
  auto w = ParquetWriter::Create(path, names, types, opt);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return path;
  uint64_t state = 42;
  DataChunk chunk;
  chunk.Initialize(types);
  const idx_t total = kRowGroupRows * kRowGroups;
  for (idx_t row = 0; row < total;) {
    chunk.Reset();
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, total - row);
    for (idx_t r = 0; r < n; r++) {
      chunk.data[0].GetData<int64_t>()[r] = static_cast<int64_t>(row + r);
      for (idx_t c = 1; c < kWide; c++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        chunk.data[c].GetData<int64_t>()[r] = static_cast<int64_t>(state >> 1);
      }
      // A few struct rows carry values; the struct column stays small.
      if ((row + r) % 1000 == 0)
        chunk.SetValue(kWide, r, Value::STRUCT(types[kWide], {Value::BIGINT(static_cast<int64_t>(row + r)),
                                                              Value::VARCHAR("v" + std::to_string(row + r))}));
      else
        chunk.SetValue(kWide, r, Value(types[kWide]));
    }
    for (idx_t c = 0; c < kWide; c++) chunk.data[c].SetAllValid(n);
    chunk.SetCardinality(n);
    Status s = w.value()->Append(chunk);
    EXPECT_TRUE(s.ok()) << s.ToString();
    row += n;
  }
  auto info = w.value()->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return path;
}

// Every row of the projection, as text (row-major).
std::vector<std::string> ReadRows(ParquetReader& reader, const std::vector<ParquetProjection>& projection,
                                  const std::vector<ParquetFilter>& filters = {}) {
  std::vector<std::string> rows;
  Status s = reader.ScanProjected(projection, filters);
  EXPECT_TRUE(s.ok()) << s.ToString();
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  while (s.ok()) {
    s = reader.ReadChunk(chunk);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok() || chunk.size() == 0) break;
    for (idx_t r = 0; r < chunk.size(); r++) {
      std::string row;
      for (idx_t c = 0; c < chunk.ColumnCount(); c++) row += chunk.GetValue(c, r).ToString() + "|";
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

class ParquetRemoteReadTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { path_ = new std::string(WriteWideFile("remote_wide.parquet")); }
  static void TearDownTestSuite() {
    std::filesystem::remove(*path_);
    delete path_;
  }
  static uint64_t FileSize() { return std::filesystem::file_size(*path_); }

  static std::string* path_;
  CountingFileSystem fs;
};
std::string* ParquetRemoteReadTest::path_ = nullptr;

TEST_F(ParquetRemoteReadTest, RangedReadReturnsTheRowsOfAMappedRead) {
  auto local = ParquetReader::Open(*path_);
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  auto remote = ParquetReader::OpenRanged(*path_, &fs);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  ASSERT_EQ(remote.value()->RowGroupCount(), kRowGroups);
  std::vector<ParquetProjection> all;
  for (idx_t c = 0; c <= kWide; c++) all.push_back({c, {}});
  auto want = ReadRows(*local.value(), all);
  ASSERT_EQ(want.size(), kRowGroupRows * kRowGroups);
  EXPECT_TRUE(ReadRows(*remote.value(), all) == want) << "a ranged read differs from a mapped read";
  EXPECT_EQ(fs.whole_file_reads.load(), 0);
  // Every byte is needed here, and each is fetched once (the bytes read with
  // the footer are not fetched again).
  EXPECT_LE(fs.bytes.load(), static_cast<int64_t>(FileSize()));

  // A struct narrowed to one field, beside a flat column, on a restarted scan.
  std::vector<ParquetProjection> narrow = {{kWide, {"y"}}, {3, {}}};
  auto narrow_want = ReadRows(*local.value(), narrow);
  EXPECT_EQ(narrow_want.size(), kRowGroupRows * kRowGroups);
  EXPECT_TRUE(ReadRows(*remote.value(), narrow) == narrow_want) << "a narrowed struct differs";
}

TEST_F(ParquetRemoteReadTest, OneOfManyColumnsTransfersOnlyItsChunks) {
  auto remote = ParquetReader::OpenRanged(*path_, &fs);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  EXPECT_EQ(fs.requests.load(), 1) << "the footer fits the speculative tail read";
  fs.Reset();
  auto rows = ReadRows(*remote.value(), {{2, {}}});
  ASSERT_EQ(rows.size(), kRowGroupRows * kRowGroups);
  // One column chunk of 7 leaves per row group: the c2 chunks (8 bytes a
  // row, with page headers) and nothing of the other columns.
  const int64_t chunk_bytes = static_cast<int64_t>(kRowGroupRows * kRowGroups * 8);
  EXPECT_GE(fs.bytes.load(), chunk_bytes);
  EXPECT_LT(fs.bytes.load(), chunk_bytes + chunk_bytes / 20);
  EXPECT_LT(fs.bytes.load(), static_cast<int64_t>(FileSize() / 5));
  EXPECT_EQ(fs.requests.load(), static_cast<int64_t>(kRowGroups)) << "one range GET per row group";

  // Row groups that statistics rule out are neither fetched nor prefetched.
  fs.Reset();
  ParquetFilter first_only{0, CompareOp::kLess, Value::BIGINT(static_cast<int64_t>(kRowGroupRows)), {}};
  rows = ReadRows(*remote.value(), {{2, {}}}, {first_only});
  EXPECT_EQ(rows.size(), kRowGroupRows);
  EXPECT_EQ(remote.value()->RowGroupsSkipped(), 2u);
  EXPECT_EQ(fs.requests.load(), 1);
  fs.Reset();
  ParquetFilter last_only{0, CompareOp::kGreaterEqual, Value::BIGINT(static_cast<int64_t>(2 * kRowGroupRows)), {}};
  rows = ReadRows(*remote.value(), {{2, {}}}, {last_only});
  EXPECT_EQ(rows.size(), kRowGroupRows);
  EXPECT_EQ(fs.requests.load(), 1);

  // count(*): no column, no chunk is fetched.
  fs.Reset();
  ASSERT_TRUE(remote.value()->Scan({}).ok());
  DataChunk empty;
  int64_t counted = 0;
  while (true) {
    ASSERT_TRUE(remote.value()->ReadChunk(empty).ok());
    if (empty.size() == 0) break;
    counted += static_cast<int64_t>(empty.size());
  }
  EXPECT_EQ(counted, static_cast<int64_t>(kRowGroupRows * kRowGroups));
  EXPECT_EQ(fs.requests.load(), 0);
}

TEST(ParquetRemoteRead, RangesInsideTheTailAreNotFetchedAgain) {
  using parquet::ByteRange;
  EXPECT_EQ(parquet::ClipToTail({{0, 10}, {50, 100}, {200, 20}}, 100),
            (std::vector<ByteRange>{{0, 10}, {50, 50}}));
  parquet::RangeBytes bytes;
  bytes.AddTail("tail", 100);
  ASSERT_NE(bytes.Find(101, 3), nullptr);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.Find(101, 3)), 3), "ail");
  EXPECT_EQ(bytes.Find(99, 2), nullptr);
  EXPECT_EQ(bytes.Find(102, 3), nullptr);
}

TEST_F(ParquetRemoteReadTest, ALargeRangeIsFetchedInBoundedRequests) {
  const uint64_t size = FileSize();
  ASSERT_GT(size, 2 * parquet::kMaxRequestBytes);
  auto got = parquet::FetchRanges(&fs, *path_, {{1, size - 1}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(fs.requests.load(), static_cast<int64_t>((size - 1 + parquet::kMaxRequestBytes - 1) / parquet::kMaxRequestBytes));
  std::ifstream in(*path_, std::ios::binary);
  std::string want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const uint8_t* bytes = got.value().Find(1, size - 1);
  ASSERT_NE(bytes, nullptr);
  EXPECT_TRUE(std::memcmp(bytes, want.data() + 1, size - 1) == 0) << "pieces reassemble to the file's bytes";
  // A range past the end of the file is a short answer: an error naming the file.
  auto past = parquet::FetchRanges(&fs, *path_, {{size - 10, 20}});
  EXPECT_TRUE(past.status().IsCorruption()) << past.status().ToString();
  EXPECT_EQ(past.status().message().rfind(*path_ + ":", 0), 0u) << past.status().ToString();
}

TEST(ParquetRemoteRead, CoalescesRangesCloserThanTheGap) {
  using parquet::ByteRange;
  auto merged = parquet::CoalesceRanges({{300, 10}, {0, 100}, {100, 50}, {5000, 1}, {0, 0}}, 200);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0], (ByteRange{0, 310}));
  EXPECT_EQ(merged[1], (ByteRange{5000, 1}));
  EXPECT_EQ(parquet::CoalesceRanges({{0, 100}, {10, 20}}, 0), (std::vector<ByteRange>{{0, 100}}));
}

TEST(ParquetRemoteRead, AFileSmallerThanTheSpeculativeReadTakesOneRequest) {
  std::string path = TempPath("remote_small.parquet");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 1000; i++) rows.push_back({Value::BIGINT(i), Value::VARCHAR("row " + std::to_string(i))});
  testing::WriteRows(path, {"a", "b"}, {LogicalType(TypeId::BIGINT), LogicalType(TypeId::VARCHAR)}, rows);
  ASSERT_LT(std::filesystem::file_size(path), parquet::kSpeculativeTailBytes);
  CountingFileSystem fs;
  auto r = ParquetReader::OpenRanged(path, &fs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto got = ReadRows(*r.value(), {{1, {}}, {0, {}}});
  ASSERT_EQ(got.size(), 1000u);
  EXPECT_EQ(got[999], "row 999|999|");
  EXPECT_EQ(fs.requests.load(), 1);
  EXPECT_EQ(fs.bytes.load(), static_cast<int64_t>(std::filesystem::file_size(path)));
  std::filesystem::remove(path);
}

TEST(ParquetRemoteRead, AFooterLongerThanTheSpeculativeReadTakesASecondRequest) {
  std::string path = TempPath("remote_big_footer.parquet");
  ParquetWriterOptions opt;
  opt.key_value_metadata = {{"big", std::string(200 * 1024, 'x')}};
  testing::WriteRows(path, {"a"}, {LogicalType(TypeId::BIGINT)}, {{Value::BIGINT(7)}, {Value::BIGINT(8)}}, opt);
  CountingFileSystem fs;
  auto r = ParquetReader::OpenRanged(path, &fs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(fs.requests.load(), 2);
  EXPECT_EQ(ReadRows(*r.value(), {{0, {}}}), (std::vector<std::string>{"7|", "8|"}));
  std::filesystem::remove(path);
}

TEST(ParquetRemoteRead, ABadFooterIsAnErrorNamingTheFile) {
  std::string good = TempPath("remote_good.parquet");
  testing::WriteRows(good, {"a"}, {LogicalType(TypeId::BIGINT)}, {{Value::BIGINT(1)}});
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 12u);
  auto write = [](const std::string& name, const std::string& contents) {
    std::string p = TempPath(name);
    std::ofstream(p, std::ios::binary | std::ios::trunc) << contents;
    return p;
  };
  std::string huge_len = bytes;
  huge_len[huge_len.size() - 5] = '\x7f';  // footer length's top byte: past the start of the file
  std::string bad_footer = bytes;
  std::fill(bad_footer.end() - 20, bad_footer.end() - 8, '\xff');  // the footer's last bytes
  struct Case {
    std::string path;
    std::string expected;
  } cases[] = {
      {write("remote_huge_len.parquet", huge_len), "past the start of the file"},
      {write("remote_truncated.parquet", bytes.substr(0, bytes.size() - 3)), "bad magic at the end"},
      {write("remote_short.parquet", "PAR1"), "too small to be Parquet"},
      {write("remote_empty.parquet", ""), "too small to be Parquet"},
      {write("remote_bad_footer.parquet", bad_footer), "bad footer"},
  };
  CountingFileSystem fs;
  for (const auto& c : cases) {
    auto r = ParquetReader::OpenRanged(c.path, &fs);
    ASSERT_FALSE(r.ok()) << c.path;
    EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
    EXPECT_EQ(r.status().message().rfind(c.path + ":", 0), 0u) << r.status().ToString();
    EXPECT_NE(r.status().message().find(c.expected), std::string::npos) << r.status().ToString();
    std::filesystem::remove(c.path);
  }
  auto missing = ParquetReader::OpenRanged(TempPath("remote_missing.parquet"), &fs);
  EXPECT_TRUE(missing.status().IsNotFound()) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("remote_missing.parquet"), std::string::npos);
  std::filesystem::remove(good);
}

}  // namespace
}  // namespace lakestream
