// libFuzzer target for the Parquet reader: open a file image from memory and
// scan every column. Any crash, sanitizer report, timeout or out-of-memory is
// a bug; Corruption/NotSupported statuses are the expected outcome.
//
//   clang++ -std=gnu++20 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc \
//     src/common/{cast,date,decimal,exception,status,types,value,vector}.cpp \
//     src/storage/parquet/*.cpp test/fuzz/parquet_fuzz.cpp \
//     -lzstd -lsnappy -llz4 -lz -o /tmp/parquet_fuzz
//   /tmp/parquet_fuzz -max_total_time=60 -rss_limit_mb=2048 test/parquet/corpus
#include <cstddef>
#include <cstdint>
#include <string>

#include "storage/parquet/parquet_reader.hpp"

using namespace lakestream;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto r = ParquetReader::OpenBuffer("fuzz.parquet", std::string(reinterpret_cast<const char*>(data), size));
  if (!r.ok()) return 0;
  auto& reader = *r.value();
  std::vector<idx_t> ids;
  for (idx_t i = 0; i < reader.ColumnNames().size(); i++) ids.push_back(i);
  for (idx_t rg = 0; rg < reader.RowGroupCount(); rg++)
    for (idx_t c = 0; c < ids.size(); c++) (void)reader.ColumnStatistics(rg, c);
  if (!reader.Scan(ids).ok()) return 0;
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  // Bound the work per input: a footer may claim billions of rows.
  for (int i = 0; i < 64; i++) {
    if (!reader.ReadChunk(chunk).ok() || chunk.size() == 0) break;
    for (idx_t c = 0; c < chunk.ColumnCount(); c++) (void)chunk.GetValue(c, 0);
  }
  return 0;
}
