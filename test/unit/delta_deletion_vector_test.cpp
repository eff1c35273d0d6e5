// Deletion vectors: Z85 and UUID path decoding, the RoaringBitmapArray
// decoder (array, bitmap and run containers; corrupt input gives Corruption
// naming the data file) and the DV file of a Databricks-written table.
#include <gtest/gtest.h>

#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_snapshot.hpp"

#ifndef LAKESTREAM_SHARED_DIR
#define LAKESTREAM_SHARED_DIR "/work/shared"
#endif

namespace lakestream::delta {
namespace {

// A tiny independent serializer of the portable format, for the tests:
// little-endian integers appended to a byte string.
void Put(std::string& out, uint64_t v, int width) {
  for (int i = 0; i < width; i++) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// One container of a 32-bit bitmap.
struct Container {
  uint16_t key;
  enum Kind { kArray, kBitmap, kRun } kind;
  std::vector<uint16_t> values;                       // kArray, kBitmap
  std::vector<std::pair<uint16_t, uint16_t>> runs;    // kRun: (start, length - 1)
  uint32_t Cardinality() const {
    if (kind != kRun) return static_cast<uint32_t>(values.size());
    uint32_t n = 0;
    for (auto& r : runs) n += r.second + 1u;
    return n;
  }
};

std::string Roaring32(const std::vector<Container>& containers) {
  std::string out;
  bool runs = false;
  for (auto& c : containers) runs |= c.kind == Container::kRun;
  uint32_t n = static_cast<uint32_t>(containers.size());
  if (runs) {
    Put(out, 12347u | ((n - 1) << 16), 4);
    std::string flags((n + 7) / 8, '\0');
    for (uint32_t i = 0; i < n; i++)
      if (containers[i].kind == Container::kRun) flags[i / 8] = static_cast<char>(flags[i / 8] | (1 << (i % 8)));
    out += flags;
  } else {
    Put(out, 12346, 4);
    Put(out, n, 4);
  }
  for (auto& c : containers) {
    Put(out, c.key, 2);
    Put(out, c.Cardinality() - 1, 2);
  }
  if (!runs || n >= 4) {
    for (uint32_t i = 0; i < n; i++) Put(out, 0, 4);  // offsets: the decoder reads sequentially
  }
  for (auto& c : containers) {
    if (c.kind == Container::kRun) {
      Put(out, c.runs.size(), 2);
      for (auto& r : c.runs) {
        Put(out, r.first, 2);
        Put(out, r.second, 2);
      }
    } else if (c.kind == Container::kArray) {
      for (auto v : c.values) Put(out, v, 2);
    } else {
      std::vector<uint64_t> words(1024, 0);
      for (auto v : c.values) words[v / 64] |= uint64_t{1} << (v % 64);
      for (auto w : words) Put(out, w, 8);
    }
  }
  return out;
}

std::string RoaringArray(const std::vector<std::pair<uint32_t, std::string>>& bitmaps) {
  std::string out;
  Put(out, 1681511377u, 4);
  Put(out, bitmaps.size(), 8);
  for (auto& [key, body] : bitmaps) {
    Put(out, key, 4);
    out += body;
  }
  return out;
}

TEST(DeletionVectorTest, DecodesArrayBitmapAndRunContainersAcrossHighKeys) {
  Container array{0, Container::kArray, {3, 7, 65535}, {}};
  Container bitmap{1, Container::kBitmap, {}, {}};
  for (uint16_t v = 0; v < 5000; v++) bitmap.values.push_back(static_cast<uint16_t>(v * 2));  // > 4096: a bitmap
  Container run{2, Container::kRun, {}, {{10, 4}, {100, 0}}};
  std::string bytes = RoaringArray({{0, Roaring32({array, bitmap, run})}, {5, Roaring32({array})}});
  auto rows = DecodeRoaringBitmapArray(bytes, "part-0.parquet");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  std::vector<uint64_t> expected = {3, 7, 65535};
  for (uint64_t v = 0; v < 5000; v++) expected.push_back(65536 + v * 2);
  for (uint64_t v = 10; v <= 14; v++) expected.push_back(2 * 65536 + v);
  expected.push_back(2 * 65536 + 100);
  for (uint64_t v : {3, 7, 65535}) expected.push_back((uint64_t{5} << 32) + v);
  EXPECT_EQ(rows.value(), expected);
}

TEST(DeletionVectorTest, EmptyBitmapArrayHasNoRows) {
  auto rows = DecodeRoaringBitmapArray(RoaringArray({}), "f");
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows.value().empty());
}

void ExpectCorrupt(const std::string& bytes, const std::string& fragment) {
  auto rows = DecodeRoaringBitmapArray(bytes, "data/part-7.parquet", 1000000);
  ASSERT_FALSE(rows.ok()) << "accepted: " << fragment;
  EXPECT_TRUE(rows.status().IsCorruption()) << rows.status().ToString();
  EXPECT_NE(rows.status().message().find("data/part-7.parquet"), std::string::npos) << rows.status().message();
  EXPECT_NE(rows.status().message().find(fragment), std::string::npos) << rows.status().message();
}

TEST(DeletionVectorTest, CorruptInputIsCorruptionNamingTheFile) {
  Container array{0, Container::kArray, {1, 2, 3}, {}};
  std::string good = RoaringArray({{0, Roaring32({array})}});
  std::string bad_magic = good;
  bad_magic[0] = 'x';
  ExpectCorrupt(bad_magic, "bad magic number");
  ExpectCorrupt(good.substr(0, 2), "truncated");
  for (size_t cut = 4; cut < good.size(); cut++) {
    auto rows = DecodeRoaringBitmapArray(good.substr(0, cut), "f");
    EXPECT_TRUE(!rows.ok() && rows.status().IsCorruption()) << "truncated at " << cut;
  }
  ExpectCorrupt(good + "zz", "left over");
  // Bitmap count far beyond the input.
  std::string huge;
  Put(huge, 1681511377u, 4);
  Put(huge, uint64_t{1} << 40, 8);
  ExpectCorrupt(huge, "cannot fit");
  // Array values out of order, unknown cookie, a run past 65535.
  ExpectCorrupt(RoaringArray({{0, Roaring32({Container{0, Container::kArray, {5, 4}, {}}})}}), "not ascending");
  std::string cookie = good;
  cookie[16] = 9;  // the 32-bit bitmap's cookie starts after magic (4) + count (8) + key (4)
  ExpectCorrupt(cookie, "cookie");
  ExpectCorrupt(RoaringArray({{0, Roaring32({Container{0, Container::kRun, {}, {{65530, 10}}}})}}), "past the end");
  // Keys of the 64-bit array must ascend.
  ExpectCorrupt(RoaringArray({{3, Roaring32({array})}, {3, Roaring32({array})}}), "not ascending");
}

TEST(DeletionVectorTest, RunContainersAreBoundedByTheExpectedRowCount) {
  // One 4-byte run standing for 65536 rows, when 10 were promised.
  std::string bytes = RoaringArray({{0, Roaring32({Container{0, Container::kRun, {}, {{0, 65535}}}})}});
  auto rows = DecodeRoaringBitmapArray(bytes, "f", 10);
  ASSERT_FALSE(rows.ok());
  EXPECT_TRUE(rows.status().IsCorruption());
}

TEST(DeletionVectorTest, Z85AndUuidPaths) {
  // Z85's reference vector (ZeroMQ RFC 32).
  auto hello = DecodeZ85("HelloWorld");
  ASSERT_TRUE(hello.ok());
  EXPECT_EQ(hello.value(), std::string("\x86\x4F\xD2\x6F\xB5\x59\xF7\x5B", 8));
  EXPECT_TRUE(DecodeZ85("Hell").status().IsCorruption());   // not a multiple of 5
  EXPECT_TRUE(DecodeZ85("Hell~").status().IsCorruption());  // '~' is not in the alphabet
  // The DV of table-with-dv-small: its log names the file this way.
  auto path = DeletionVectorRelativePath("vBn[lx{q8@P<9BNH/isA");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(path.value(), "deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin");
  auto prefixed = DeletionVectorRelativePath("ab" + std::string("vBn[lx{q8@P<9BNH/isA"));
  ASSERT_TRUE(prefixed.ok());
  EXPECT_EQ(prefixed.value(), "ab/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin");
  EXPECT_TRUE(DeletionVectorRelativePath("short").status().IsCorruption());
}

TEST(DeletionVectorTest, DescriptorParsingAndIdentity) {
  auto dv = ParseDeletionVectorDescriptor(
      R"({"storageType":"u","pathOrInlineDv":"vBn[lx{q8@P<9BNH/isA","offset":1,"sizeInBytes":36,"cardinality":2})");
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  EXPECT_EQ(dv.value().storage_type, 'u');
  EXPECT_EQ(dv.value().offset, 1);
  EXPECT_EQ(dv.value().size_in_bytes, 36);
  EXPECT_EQ(dv.value().cardinality, 2);
  EXPECT_EQ(dv.value().UniqueId(), "uvBn[lx{q8@P<9BNH/isA@1");
  EXPECT_TRUE(ParseDeletionVectorDescriptor(R"({"storageType":"x","pathOrInlineDv":"a","sizeInBytes":1,"cardinality":1})")
                  .status()
                  .IsCorruption());
  EXPECT_TRUE(ParseDeletionVectorDescriptor("[1]").status().IsCorruption());
}

std::string Z85Encode(const std::string& bytes) {
  static const char kAlphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  std::string padded = bytes;
  while (padded.size() % 4) padded.push_back('\0');
  std::string out;
  for (size_t i = 0; i < padded.size(); i += 4) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; k++) v = (v << 8) | static_cast<uint8_t>(padded[i + k]);
    char group[5];
    for (int k = 4; k >= 0; k--) {
      group[k] = kAlphabet[v % 85];
      v /= 85;
    }
    out.append(group, 5);
  }
  return out;
}

TEST(DeletionVectorTest, InlineVector) {
  Snapshot snap;
  snap.table_path = "/nowhere";
  std::string bytes = RoaringArray({{0, Roaring32({Container{0, Container::kArray, {0, 2}, {}}})}});
  DeletionVectorDescriptor dv;
  dv.storage_type = 'i';
  dv.path_or_inline_dv = Z85Encode(bytes);
  dv.size_in_bytes = static_cast<int32_t>(bytes.size());
  dv.cardinality = 2;
  auto rows = LoadDeletionVector(FileSystem::Default(), snap, dv, "part-0.parquet");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows.value(), (std::vector<uint64_t>{0, 2}));
  dv.cardinality = 3;  // the log disagrees with the bitmap
  auto wrong = LoadDeletionVector(FileSystem::Default(), snap, dv, "part-0.parquet");
  ASSERT_FALSE(wrong.ok());
  EXPECT_TRUE(wrong.status().IsCorruption());
  EXPECT_NE(wrong.status().message().find("/nowhere/part-0.parquet"), std::string::npos) << wrong.status().message();
}

TEST(DeletionVectorTest, FileOfADatabricksTable) {
  Snapshot snap;
  snap.table_path = std::string(LAKESTREAM_SHARED_DIR) + "/delta-tables/table-with-dv-small";
  auto dv = ParseDeletionVectorDescriptor(
      R"({"storageType":"u","pathOrInlineDv":"vBn[lx{q8@P<9BNH/isA","offset":1,"sizeInBytes":36,"cardinality":2})");
  ASSERT_TRUE(dv.ok());
  auto rows = LoadDeletionVector(FileSystem::Default(), snap, dv.value(), "part-0.parquet");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  // The DELETE of that commit removed the values 0 and 9, the first and last rows.
  EXPECT_EQ(rows.value(), (std::vector<uint64_t>{0, 9}));
}

TEST(DeletionVectorTest, DamagedFileIsCorruptionNamingBothFiles) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_dv_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string source = std::string(LAKESTREAM_SHARED_DIR) +
                       "/delta-tables/table-with-dv-small/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin";
  std::ifstream in(source, std::ios::binary);
  std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(good.empty());
  std::string target = (dir / "deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin").string();
  Snapshot snap;
  snap.table_path = dir.string();
  auto dv = ParseDeletionVectorDescriptor(
      R"({"storageType":"u","pathOrInlineDv":"vBn[lx{q8@P<9BNH/isA","offset":1,"sizeInBytes":36,"cardinality":2})");
  ASSERT_TRUE(dv.ok());
  auto load_with = [&](const std::string& contents) {
    std::ofstream(target, std::ios::binary | std::ios::trunc) << contents;
    return LoadDeletionVector(FileSystem::Default(), snap, dv.value(), "part-0.parquet");
  };
  std::string flipped = good;
  flipped[20] = static_cast<char>(flipped[20] ^ 1);  // inside the bitmap: the checksum no longer matches
  auto r1 = load_with(flipped);
  ASSERT_FALSE(r1.ok());
  EXPECT_TRUE(r1.status().IsCorruption());
  EXPECT_NE(r1.status().message().find("checksum"), std::string::npos);
  EXPECT_NE(r1.status().message().find(target), std::string::npos) << r1.status().message();
  auto r2 = load_with(good.substr(0, 20));  // truncated
  ASSERT_FALSE(r2.ok());
  EXPECT_TRUE(r2.status().IsCorruption());
  EXPECT_NE(r2.status().message().find("past the end"), std::string::npos) << r2.status().message();
  std::filesystem::remove(target);
  auto r3 = LoadDeletionVector(FileSystem::Default(), snap, dv.value(), "part-0.parquet");
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.status().message().find(target), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lakestream::delta
