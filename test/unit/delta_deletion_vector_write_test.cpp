// Writing deletion vectors (deletion_vector.hpp "Writing"): the encoder
// reproduces Spark's vector files byte for byte, and what it writes reads
// back through the decoder (LoadDeletionVector) for every container kind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_snapshot.hpp"

#ifndef LAKESTREAM_SHARED_DIR
#define LAKESTREAM_SHARED_DIR "/work/shared"
#endif

namespace lakestream::delta {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Every deletion vector descriptor the commits of a table's log name.
std::vector<std::string> DescriptorsOf(const std::string& table) {
  std::vector<std::string> out;
  for (auto& entry : std::filesystem::directory_iterator(table + "/_delta_log")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      for (const char* kind : {"add", "remove"}) {
        if (j.is_object() && j.contains(kind) && j[kind].contains("deletionVector") && !j[kind]["deletionVector"].is_null())
          out.push_back(j[kind]["deletionVector"].dump());
      }
    }
  }
  return out;
}

TEST(DeletionVectorWriteTest, ReencodesSparkFilesByteForByte) {
  int checked = 0;
  for (const char* name : {"table-with-dv-small", "table_with_deletion_logs"}) {
    std::string table = std::string(LAKESTREAM_SHARED_DIR) + "/delta-tables/" + name;
    Snapshot snap;
    snap.table_path = table;
    for (auto& json : DescriptorsOf(table)) {
      auto dv = ParseDeletionVectorDescriptor(json);
      ASSERT_TRUE(dv.ok()) << json;
      auto rows = LoadDeletionVector(FileSystem::Default(), snap, dv.value(), "data.parquet");
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      auto file = DeletionVectorFile(snap, dv.value());
      ASSERT_TRUE(file.ok());
      std::string spark = ReadAll(file.value());
      // The entry Spark wrote: size, bitmap, CRC at the descriptor's offset.
      size_t at = static_cast<size_t>(dv.value().offset.value_or(1));
      std::string spark_entry = spark.substr(at, 4 + static_cast<size_t>(dv.value().size_in_bytes) + 4);
      DeletionVectorFileBuilder builder("00000000-0000-0000-0000-000000000000");
      auto ours = builder.Add(rows.value());
      EXPECT_EQ(ours.size_in_bytes, dv.value().size_in_bytes) << json;
      EXPECT_EQ(ours.cardinality, dv.value().cardinality) << json;
      EXPECT_EQ(ours.offset, std::optional<int32_t>(1));
      EXPECT_EQ(builder.Contents().substr(1), spark_entry) << "vector of " << json << " in " << name;
      EXPECT_EQ(builder.Contents()[0], '\x01');
      checked++;
    }
  }
  EXPECT_GE(checked, 3);  // both tables' vectors, including those of later DELETEs
}

// Row sets exercising array containers, bitmap containers (> 4096 rows under
// one 16-bit key), several containers, and rows past 2^32 (several 32-bit
// bitmaps, with empty ones in between).
std::vector<std::vector<uint64_t>> Shapes() {
  std::mt19937_64 rng(42);
  std::vector<std::vector<uint64_t>> shapes = {{0}, {0, 9}, {65535, 65536}, {5, (1ULL << 32) + 7}, {(3ULL << 32) + 1}};
  std::vector<uint64_t> dense;
  for (uint64_t i = 0; i < 70000; i += 2) dense.push_back(i);  // 32768 per key: bitmap containers
  shapes.push_back(dense);
  for (int round = 0; round < 20; round++) {
    std::set<uint64_t> rows;
    uint64_t span = round % 2 ? 1000000 : 20000;
    size_t count = 1 + rng() % (round % 3 == 0 ? 9000 : 300);
    while (rows.size() < count) rows.insert(rng() % span);
    shapes.emplace_back(rows.begin(), rows.end());
  }
  return shapes;
}

TEST(DeletionVectorWriteTest, RandomSetsRoundTripThroughTheDecoder) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_dv_write_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Snapshot snap;
  snap.table_path = dir.string();
  DeletionVectorFileBuilder builder("61d16c75-6994-46b7-a15b-8b538852e50e");
  auto shapes = Shapes();
  std::vector<DeletionVectorDescriptor> descriptors;
  for (auto& rows : shapes) descriptors.push_back(builder.Add(rows));
  std::ofstream((dir / builder.RelativePath()).string(), std::ios::binary) << builder.Contents();
  for (size_t i = 0; i < shapes.size(); i++) {
    // Through the JSON an add carries, as a reader sees it.
    auto parsed = ParseDeletionVectorDescriptor(DeletionVectorJson(descriptors[i]));
    ASSERT_TRUE(parsed.ok()) << DeletionVectorJson(descriptors[i]);
    EXPECT_EQ(parsed.value().UniqueId(), descriptors[i].UniqueId());
    auto rows = LoadDeletionVector(FileSystem::Default(), snap, parsed.value(), "data.parquet");
    ASSERT_TRUE(rows.ok()) << "shape " << i << ": " << rows.status().ToString();
    EXPECT_EQ(rows.value(), shapes[i]) << "shape " << i;
  }
  // The UUID path names the file the builder calls it (no random prefix).
  auto relative = DeletionVectorRelativePath(descriptors[0].path_or_inline_dv);
  ASSERT_TRUE(relative.ok());
  EXPECT_EQ(relative.value(), "deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin");
  // A flipped bit in any entry fails its checksum.
  std::string damaged = builder.Contents();
  damaged[static_cast<size_t>(*descriptors[3].offset) + 10] ^= 1;
  std::ofstream((dir / builder.RelativePath()).string(), std::ios::binary | std::ios::trunc) << damaged;
  auto bad = LoadDeletionVector(FileSystem::Default(), snap, descriptors[3], "data.parquet");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsCorruption());
  std::filesystem::remove_all(dir);
}

TEST(DeletionVectorWriteTest, BitmapLayout) {
  // The magic, one 32-bit bitmap per high key up to the highest (empty ones
  // too), and a bitmap container past 4096 values.
  auto two = EncodeRoaringBitmapArray({1, (2ULL << 32) + 3});
  ASSERT_GE(two.size(), 12u);
  EXPECT_EQ(two.substr(0, 4), std::string("\xd1\xd3\x39\x64", 4));
  EXPECT_EQ(two[4], 3);  // keys 0, 1 (empty), 2
  std::vector<uint64_t> dense(5000);
  for (uint64_t i = 0; i < dense.size(); i++) dense[i] = i;
  // magic 4 + count 8 + key 4 + cookie 4 + n 4 + header 4 + offset 4 + 8192.
  EXPECT_EQ(EncodeRoaringBitmapArray(dense).size(), 4u + 8 + 4 + 4 + 4 + 4 + 4 + 8192);
  auto decoded = DecodeRoaringBitmapArray(EncodeRoaringBitmapArray(dense), "test");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.value(), dense);
}

TEST(DeletionVectorWriteTest, Z85RoundTripAndRules) {
  std::string bytes = "\x86\x4f\xd2\x6f\xb5\x59\xf7\x5b";  // the Z85 spec's example: "HelloWorld"
  auto text = EncodeZ85(bytes);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.value(), "HelloWorld");
  auto back = DecodeZ85(text.value());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), bytes);
  EXPECT_FALSE(EncodeZ85("abc").ok());
}

TEST(DeletionVectorWriteTest, UnionRows) {
  EXPECT_EQ(UnionRows({1, 5, 9}, {2, 5, 10}), (std::vector<uint64_t>{1, 2, 5, 9, 10}));
  EXPECT_EQ(UnionRows({}, {3}), (std::vector<uint64_t>{3}));
}

}  // namespace
}  // namespace lakestream::delta
