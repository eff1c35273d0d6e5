// read_files() readers over files read in blocks (function/table/file_readers.hpp):
// whatever the block size, down to one byte, so that every record, quoted
// field, doubled quote, CRLF and multi-byte UTF-8 sequence is cut by a
// block's end somewhere, the rows, line numbers and errors are those of one
// block holding the whole file.
#include <gtest/gtest.h>

#include <fstream>

#include "common/exception.hpp"
#include "function/table/file_readers.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

FileSchema Schema(std::vector<std::string> names, std::vector<LogicalType> types) {
  FileSchema schema;
  schema.names = std::move(names);
  schema.types = std::move(types);
  return schema;
}

// Every row as "v1|v2|...", each prefixed with the record's line when rescued.
std::vector<std::string> ReadAll(const std::string& path, FileFormat format, const ReadFilesOptions& options,
                                 const FileSchema& schema, uint64_t block_size) {
  RecordBuilder builder(schema, options.rescue_column, path);
  auto reader = OpenFileRecords(path, format, options, block_size);
  std::vector<std::string> rows;
  bool more = true;
  while (more) {
    more = reader->Read(builder, 3);  // small batches: records of a batch span blocks
    ChunkCollection batch = builder.TakeRows();
    for (idx_t c = 0; c < batch.ChunkCount(); c++) {
      const DataChunk& chunk = batch.Chunk(c);
      for (idx_t r = 0; r < chunk.size(); r++) {
        std::string row;
        for (idx_t col = 0; col < chunk.ColumnCount(); col++) {
          row += (col ? "|" : "") + chunk.GetValue(col, r).ToString();
        }
        rows.push_back(row);
      }
    }
  }
  return rows;
}

std::string ErrorOf(const std::string& path, FileFormat format, const ReadFilesOptions& options, const FileSchema& schema,
                    uint64_t block_size) {
  try {
    ReadAll(path, format, options, schema, block_size);
  } catch (const Exception& e) {
    return e.what();
  }
  return "";
}

const char* kCsv =
    "id,name,note\r\n"
    "1,plain,\"a, b\"\r\n"
    "\n"
    "2,\"two\nlines\",\"say \"\"hi\"\"\"\n"
    "3,h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80,\"\"\n"
    "4,,last\n"
    "5,x,\"\"\"\"\n"
    "6,no newline at end,\"\xC3\xA9\"";

TEST(ReadFilesBlocks, CsvRowsDoNotDependOnTheBlockSize) {
  testing::ScopedTempDir dir;
  std::string path = WriteFile(dir.path, "a.csv", kCsv);
  ReadFilesOptions options;
  options.header = true;
  FileSchema schema = Schema({"id", "name", "note"}, {TypeId::BIGINT, TypeId::VARCHAR, TypeId::VARCHAR});
  auto whole = ReadAll(path, FileFormat::CSV, options, schema, kReadBlockBytes);
  ASSERT_EQ(whole.size(), 6u);
  EXPECT_EQ(whole[0], "1|plain|a, b");
  EXPECT_EQ(whole[1], "2|two\nlines|say \"hi\"");
  EXPECT_EQ(whole[2], "3|h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80|");
  EXPECT_EQ(whole[3], "4|NULL|last");
  EXPECT_EQ(whole[4], "5|x|\"");
  EXPECT_EQ(whole[5], "6|no newline at end|\xC3\xA9");
  for (uint64_t block = 1; block <= 40; block++) {
    EXPECT_EQ(ReadAll(path, FileFormat::CSV, options, schema, block), whole) << "block size " << block;
  }
}

TEST(ReadFilesBlocks, CsvMalformedRecordsKeepTheirLines) {
  testing::ScopedTempDir dir;
  // Line 4 has too many fields; the quote opened on line 6 never closes.
  std::string path = WriteFile(dir.path, "bad.csv", "a,b\n1,\"x\ny\"\n2,z,extra\n3,w\n4,\"open\n...");
  ReadFilesOptions options;
  options.header = true;
  FileSchema schema = Schema({"a", "b"}, {TypeId::BIGINT, TypeId::VARCHAR});
  for (uint64_t block : {uint64_t{1}, uint64_t{2}, uint64_t{5}, kReadBlockBytes}) {
    EXPECT_NE(ErrorOf(path, FileFormat::CSV, options, schema, block).find("bad.csv line 4: the record has 3 fields"),
              std::string::npos)
        << block;
  }
  options.rescue_column = "_rescued_data";
  auto whole = ReadAll(path, FileFormat::CSV, options, schema, kReadBlockBytes);
  ASSERT_EQ(whole.size(), 4u);
  EXPECT_NE(whole[1].find("_corrupt_record\":\"2,z,extra\""), std::string::npos) << whole[1];
  EXPECT_NE(whole[3].find("\"4,\\\"open\\n...\""), std::string::npos) << whole[3];
  for (uint64_t block = 1; block <= 12; block++) {
    EXPECT_EQ(ReadAll(path, FileFormat::CSV, options, schema, block), whole) << "block size " << block;
  }
}

TEST(ReadFilesBlocks, CsvInvalidUtf8NamesTheLineAndFileOffset) {
  testing::ScopedTempDir dir;
  std::string path = WriteFile(dir.path, "latin1.csv", "a\n\xC3\xA9\n\"two\nline\"\ncaf\xE9\n");
  ReadFilesOptions options;
  options.header = true;
  FileSchema schema = Schema({"a"}, {TypeId::VARCHAR});
  std::string whole = ErrorOf(path, FileFormat::CSV, options, schema, kReadBlockBytes);
  EXPECT_NE(whole.find("latin1.csv line 5: the text is not valid UTF-8 (byte 0xE9 at offset 19 of the file)"),
            std::string::npos)
      << whole;
  for (uint64_t block = 1; block <= 24; block++) {
    EXPECT_EQ(ErrorOf(path, FileFormat::CSV, options, schema, block), whole) << "block size " << block;
  }
}

// The reader hands out its first rows having read one block, not the file:
// a file whose last line is not UTF-8 yields rows before it fails (the old
// whole-file reader failed before the first row), and each batch stays small.
TEST(ReadFilesBlocks, CsvRowsComeBeforeTheFileIsRead) {
  testing::ScopedTempDir dir;
  std::string text = "id,s\n";
  const idx_t kRows = 200000;
  for (idx_t i = 0; i < kRows; i++) text += std::to_string(i) + ",row " + std::to_string(i) + "\n";
  text += "x,caf\xE9\n";
  std::string path = WriteFile(dir.path, "big.csv", text);
  ReadFilesOptions options;
  options.header = true;
  FileSchema schema = Schema({"id", "s"}, {TypeId::BIGINT, TypeId::VARCHAR});
  RecordBuilder builder(schema, "", path);
  auto reader = OpenFileRecords(path, FileFormat::CSV, options, 64 << 10);
  ASSERT_TRUE(reader->Read(builder, 1000));
  ChunkCollection first = builder.TakeRows();
  ASSERT_EQ(first.Count(), 999u);  // the header is the first of the 1000 records
  EXPECT_EQ(first.Chunk(0).GetValue(1, 0).ToString(), "row 0");
  idx_t rows = first.Count();
  std::string error;
  try {
    while (reader->Read(builder, 1000)) {
      ChunkCollection batch = builder.TakeRows();
      EXPECT_LE(batch.Count(), 1000u);
      rows += batch.Count();
    }
  } catch (const Exception& e) {
    error = e.what();
  }
  // Every row but those of the last block (a block is checked before its records are read).
  EXPECT_GT(rows, kRows - 10000);
  EXPECT_LT(rows, kRows);
  EXPECT_NE(error.find("big.csv line " + std::to_string(kRows + 2) + ": the text is not valid UTF-8"), std::string::npos)
      << error;
}

TEST(ReadFilesBlocks, JsonLinesDoNotDependOnTheBlockSize) {
  testing::ScopedTempDir dir;
  std::string path = WriteFile(dir.path, "a.json",
                               "{\"id\": 1, \"s\": \"h\xC3\xA9llo\"}\r\n"
                               "\n"
                               "{\"id\": 2, \"s\": \"\xF0\x9F\x98\x80\", \"extra\": true}\n"
                               "{\"id\": \"three\"}\n"
                               "not json\n"
                               "{\"id\": 5}");
  ReadFilesOptions options;
  options.rescue_column = "_rescued_data";
  FileSchema schema = Schema({"id", "s"}, {TypeId::BIGINT, TypeId::VARCHAR});
  auto whole = ReadAll(path, FileFormat::JSON, options, schema, kReadBlockBytes);
  ASSERT_EQ(whole.size(), 5u);
  EXPECT_EQ(whole[0], "1|h\xC3\xA9llo|NULL");
  EXPECT_NE(whole[2].find("\"id\":\"three\""), std::string::npos) << whole[2];
  EXPECT_NE(whole[3].find("\"_corrupt_record\":\"not json\""), std::string::npos) << whole[3];
  EXPECT_EQ(whole[4], "5|NULL|NULL");
  for (uint64_t block = 1; block <= 30; block++) {
    EXPECT_EQ(ReadAll(path, FileFormat::JSON, options, schema, block), whole) << "block size " << block;
  }
  options.rescue_column.clear();
  for (uint64_t block : {uint64_t{1}, uint64_t{7}, kReadBlockBytes}) {
    EXPECT_NE(ErrorOf(path, FileFormat::JSON, options, schema, block).find("a.json line 4: column id is BIGINT"),
              std::string::npos)
        << block;
  }
}

TEST(ReadFilesBlocks, JsonArrayFileIsReadWhole) {
  testing::ScopedTempDir dir;
  std::string path = WriteFile(dir.path, "arr.json", "  \n[{\"id\": 1},\n {\"id\": 2}]");
  ReadFilesOptions options;
  FileSchema schema = Schema({"id"}, {TypeId::BIGINT});
  std::vector<std::string> expected = {"1", "2"};
  for (uint64_t block : {uint64_t{1}, uint64_t{2}, kReadBlockBytes}) {
    EXPECT_EQ(ReadAll(path, FileFormat::JSON, options, schema, block), expected) << block;
  }
}

}  // namespace
}  // namespace lakestream
