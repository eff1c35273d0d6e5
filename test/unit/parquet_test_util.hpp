// Helpers shared by the Parquet unit tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "storage/parquet/parquet_metadata.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"

#ifndef LAKESTREAM_SHARED_DIR
#define LAKESTREAM_SHARED_DIR "/work/shared"
#endif

namespace lakestream::testing {

inline std::string TempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_pq_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// Reads every row of every column as Values (row-major).
inline std::vector<std::vector<Value>> ReadAll(const std::string& path, Status* status = nullptr) {
  std::vector<std::vector<Value>> rows;
  auto r = ParquetReader::Open(path);
  if (!r.ok()) {
    if (status) *status = r.status();
    else ADD_FAILURE() << r.status().ToString();
    return rows;
  }
  auto& reader = *r.value();
  std::vector<idx_t> ids;
  for (idx_t i = 0; i < reader.ColumnNames().size(); i++) ids.push_back(i);
  Status s = reader.Scan(ids, {});
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  while (s.ok()) {
    s = reader.ReadChunk(chunk);
    if (!s.ok() || chunk.size() == 0) break;
    for (idx_t row = 0; row < chunk.size(); row++) {
      std::vector<Value> vals;
      for (idx_t c = 0; c < chunk.ColumnCount(); c++) vals.push_back(chunk.GetValue(c, row));
      rows.push_back(std::move(vals));
    }
  }
  if (status) *status = s;
  else EXPECT_TRUE(s.ok()) << s.ToString();
  return rows;
}

// Writes rows (row-major Values) with the given schema.
inline ParquetFileInfo WriteRows(const std::string& path, const std::vector<std::string>& names,
                                 const std::vector<LogicalType>& types, const std::vector<std::vector<Value>>& rows,
                                 const ParquetWriterOptions& opt = {}) {
  auto w = ParquetWriter::Create(path, names, types, opt);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return {};
  DataChunk chunk;
  chunk.Initialize(types);
  for (size_t i = 0; i < rows.size(); i++) {
    idx_t r = chunk.size();
    for (idx_t c = 0; c < types.size(); c++) chunk.SetValue(c, r, rows[i][c]);
    chunk.SetCardinality(r + 1);
    if (chunk.size() == STANDARD_VECTOR_SIZE || i + 1 == rows.size()) {
      Status s = w.value()->Append(chunk);
      EXPECT_TRUE(s.ok()) << s.ToString();
      chunk.Reset();
    }
  }
  auto info = w.value()->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return info.ok() ? info.value() : ParquetFileInfo{};
}

// The footer of the Parquet file at `path`; false, with a test failure, when it does not parse.
inline bool ReadFooter(const std::string& path, parquet::FileMetaData& md) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 12) return ADD_FAILURE() << path << ": too short", false;
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  if (footer_len > bytes.size() - 12) return ADD_FAILURE() << path << ": bad footer length", false;
  parquet::TReader r(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8 - footer_len, footer_len);
  if (!parquet::ReadFileMetaData(r, md)) return ADD_FAILURE() << path << ": footer does not parse", false;
  return true;
}

// Whether column chunk `column` of the first row group has a dictionary page
// (read from the footer). False, with a test failure, when the footer does not parse.
inline bool HasDictionaryPage(const std::string& path, size_t column) {
  parquet::FileMetaData md;
  if (!ReadFooter(path, md)) return false;
  if (md.row_groups.empty() || md.row_groups[0].columns.size() <= column || !md.row_groups[0].columns[column].meta_data)
    return ADD_FAILURE() << path << ": no column chunk " << column, false;
  return md.row_groups[0].columns[column].meta_data->dictionary_page_offset.has_value();
}

// The codec of every column chunk, row group by row group.
inline std::vector<parquet::Codec> ChunkCodecs(const std::string& path) {
  parquet::FileMetaData md;
  std::vector<parquet::Codec> out;
  if (!ReadFooter(path, md)) return out;
  for (auto& rg : md.row_groups) {
    for (auto& cc : rg.columns) {
      if (cc.meta_data) out.push_back(cc.meta_data->codec);
    }
  }
  return out;
}

}  // namespace lakestream::testing
