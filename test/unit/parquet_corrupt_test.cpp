// Corrupt and hostile Parquet input: every case returns Status::Corruption (or
// NotSupported) naming the file; none crashes, hangs or allocates unboundedly.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "parquet_test_util.hpp"

namespace lakestream {
namespace {

using testing::TempPath;
using testing::WriteRows;

std::string ValidFile() {
  static std::string bytes = [] {
    std::string path = TempPath("valid_for_corruption.parquet");
    std::vector<std::vector<Value>> rows;
    LogicalType list = LogicalType::List(TypeId::BIGINT);
    for (int i = 0; i < 300; i++)
      rows.push_back({Value::BIGINT(i), Value("s" + std::to_string(i % 10)),
                      Value::LIST(list, {Value::BIGINT(i), Value::BIGINT(i + 1)})});
    ParquetWriterOptions opt;
    opt.page_size = 512;
    opt.codec = ParquetCodec::kSnappy;
    WriteRows(path, {"a", "b", "l"}, {TypeId::BIGINT, TypeId::VARCHAR, list}, rows, opt);
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

// Opens and scans the bytes in full; returns the first error (OK if none).
Status OpenAndScan(const std::string& bytes, const std::string& name = "bad.parquet") {
  auto r = ParquetReader::OpenBuffer(name, bytes);
  if (!r.ok()) return r.status();
  auto& reader = *r.value();
  std::vector<idx_t> ids;
  for (idx_t i = 0; i < reader.ColumnNames().size(); i++) ids.push_back(i);
  LS_RETURN_NOT_OK(reader.Scan(ids));
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  for (int guard = 0; guard < 100000; guard++) {
    LS_RETURN_NOT_OK(reader.ReadChunk(chunk));
    if (chunk.size() == 0) return Status::OK();
  }
  return Status::OK();
}

void ExpectCorrupt(const std::string& bytes, const char* what) {
  Status s = OpenAndScan(bytes);
  EXPECT_FALSE(s.ok()) << what;
  EXPECT_TRUE(s.IsCorruption() || s.code() == Status::Code::kNotSupported) << what << ": " << s.ToString();
  EXPECT_NE(s.message().find("bad.parquet"), std::string::npos) << s.message();
}

uint32_t FooterLen(const std::string& f) {
  uint32_t len;
  std::memcpy(&len, f.data() + f.size() - 8, 4);
  return len;
}

TEST(ParquetCorrupt, ValidFileScans) { EXPECT_TRUE(OpenAndScan(ValidFile()).ok()); }

TEST(ParquetCorrupt, FileOnDisk) {
  std::string path = TempPath("garbage.parquet");
  std::ofstream(path) << "this is not parquet at all";
  auto r = ParquetReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_NE(r.status().message().find(path), std::string::npos);
  EXPECT_TRUE(ParquetReader::Open(TempPath("missing.parquet")).status().IsNotFound());
}

TEST(ParquetCorrupt, TruncatedEverywhere) {
  std::string f = ValidFile();
  for (size_t len = 0; len < f.size(); len += (len < 64 ? 1 : 37)) ExpectCorrupt(f.substr(0, len), "truncated");
}

TEST(ParquetCorrupt, BadMagic) {
  std::string f = ValidFile();
  std::string a = f;
  a[0] = 'X';
  ExpectCorrupt(a, "bad leading magic");
  std::string b = f;
  b[b.size() - 1] = 'X';
  ExpectCorrupt(b, "bad trailing magic");
}

TEST(ParquetCorrupt, FooterLengthPastFile) {
  std::string f = ValidFile();
  for (uint32_t len : {static_cast<uint32_t>(f.size()), 0xffffffffu, static_cast<uint32_t>(f.size() - 11)}) {
    std::string g = f;
    std::memcpy(g.data() + g.size() - 8, &len, 4);
    ExpectCorrupt(g, "footer length");
  }
  std::string g = f;
  uint32_t zero = 0;
  std::memcpy(g.data() + g.size() - 8, &zero, 4);
  ExpectCorrupt(g, "empty footer");
}

TEST(ParquetCorrupt, BadThriftInFooter) {
  std::string f = ValidFile();
  uint32_t len = FooterLen(f);
  size_t start = f.size() - 8 - len;
  std::mt19937 rng(42);
  int failures = 0;
  for (int i = 0; i < 400; i++) {
    std::string g = f;
    int flips = 1 + rng() % 4;
    for (int k = 0; k < flips; k++) g[start + rng() % len] = static_cast<char>(rng());
    Status s = OpenAndScan(g);  // may succeed if the flip hit something harmless
    if (!s.ok()) {
      failures++;
      EXPECT_NE(s.message().find("bad.parquet"), std::string::npos) << s.ToString();
    }
  }
  EXPECT_GT(failures, 100);
  // A footer of 0xff bytes (absurd varints / field types).
  std::string g = f;
  std::memset(g.data() + start, 0xff, len);
  ExpectCorrupt(g, "0xff footer");
}

TEST(ParquetCorrupt, BadDataPages) {
  std::string f = ValidFile();
  uint32_t len = FooterLen(f);
  size_t data_end = f.size() - 8 - len;
  std::mt19937 rng(7);
  for (int i = 0; i < 600; i++) {
    std::string g = f;
    size_t pos = 4 + rng() % (data_end - 4);
    g[pos] = static_cast<char>(rng());
    Status s = OpenAndScan(g);
    if (!s.ok()) EXPECT_NE(s.message().find("bad.parquet"), std::string::npos) << s.ToString();
  }
}

// Page headers that lie about sizes: rewrite the first page header's sizes.
TEST(ParquetCorrupt, PageSizesThatLie) {
  std::string f = ValidFile();
  // The first page header starts right after "PAR1": field 1 (type), 2 (uncompressed), 3 (compressed).
  // Replace the whole header region with hand-built headers.
  auto with_header = [&](int32_t type, int64_t uncompressed, int64_t compressed) {
    std::string h;
    auto varint = [&](uint64_t v) {
      while (v >= 0x80) {
        h.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
      }
      h.push_back(static_cast<char>(v));
    };
    auto zz = [](int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); };
    h.push_back(0x15);
    varint(zz(type));
    h.push_back(0x15);
    varint(zz(uncompressed));
    h.push_back(0x15);
    varint(zz(compressed));
    h.push_back(0x2c);  // field 5 (data page header), struct
    h.push_back(0x15);
    varint(zz(100));
    h.push_back(0x00);
    h.push_back(0x00);
    std::string g = f;
    g.replace(4, h.size(), h);
    return g;
  };
  ExpectCorrupt(with_header(0, 100, 1 << 30), "compressed size past chunk");
  ExpectCorrupt(with_header(0, -5, 10), "negative size");
  ExpectCorrupt(with_header(0, 2000000000, 10), "absurd uncompressed size");
  ExpectCorrupt(with_header(2, 2000000000, 3), "dictionary page absurd");
}

TEST(ParquetCorrupt, AbsurdCountsInFooter) {
  // A footer claiming a 2^40-element schema list must fail without allocating.
  std::string footer;
  footer.push_back(0x15);
  footer.push_back(0x02);  // version = 1
  footer.push_back(0x19);  // field 2, list
  footer.push_back(static_cast<char>(0xfc));  // size 15+ of structs
  for (int i = 0; i < 6; i++) footer.push_back(static_cast<char>(0xff));
  footer.push_back(0x01);
  std::string f = "PAR1" + footer;
  uint32_t len = static_cast<uint32_t>(footer.size());
  f.append(reinterpret_cast<const char*>(&len), 4);
  f += "PAR1";
  ExpectCorrupt(f, "absurd list size");
  // Deeply nested thrift structs.
  std::string deep = "PAR1";
  std::string body;
  for (int i = 0; i < 10000; i++) body.push_back(0x1c);  // field +1, struct
  deep += body;
  len = static_cast<uint32_t>(body.size());
  deep.append(reinterpret_cast<const char*>(&len), 4);
  deep += "PAR1";
  ExpectCorrupt(deep, "deep nesting");
}

}  // namespace
}  // namespace lakestream
