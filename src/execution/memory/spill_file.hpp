// Temp files of operators that spill (SET temp_directory, docs/memory.md).
//
// SpillFolder: one per query, a folder `lakestream-spill-<pid>-<n>` made in
// the temp directory on the first spill; removed with every file in it when
// the last SpillFile of the query is gone, so a query that ends, fails or is
// cancelled (its operators are destroyed) leaves nothing behind.
//
// SpillFile: rows appended (buffered), then read back in order as chunks of
// up to STANDARD_VECTOR_SIZE rows; the file is deleted when the SpillFile is
// destroyed. A spill file is private to its query and is never read after a
// crash, so it has no checksums and is never fsynced. Its format:
//
//   file     := block*
//   block    := rows:u32le column*        one column per type of the file, in order
//   column   := validity:u8[rows] values  validity 1 = the value is not NULL
//   values   := fixed[rows]               BOOLEAN 1 byte, INTEGER/DATE 4, BIGINT/
//                                         TIMESTAMP/TIMESTAMP_NTZ/DOUBLE 8,
//                                         DECIMAL 16, INTERVAL 16: the in-memory
//                                         bytes (this machine's byte order)
//             | string[rows]              VARCHAR
//   string   := length:u32le byte[length] (length 0 for NULL)
//
// Columns of nested types (STRUCT, LIST, MAP) cannot be spilled
// (CanSpill() says so; the operator then reports it runs out of memory).
//
// I/O goes through FileSystem (Status); a failure throws IOError naming the
// file, since the operators that spill are SQL-layer code.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/vector.hpp"

namespace lakestream {

class MemoryPool;

class SpillFolder {
 public:
  // `directory`: where the query's folder goes (MemoryPool::TempDirectory()).
  explicit SpillFolder(std::string directory) : directory_(std::move(directory)) {}
  ~SpillFolder();
  SpillFolder(const SpillFolder&) = delete;
  SpillFolder& operator=(const SpillFolder&) = delete;
  // A new file name in the query's folder (made on first call).
  std::string NewFilePath(const std::string& stem);

 private:
  std::mutex mutex_;  // the workers of a parallel query spill at once
  std::string directory_;
  std::string path_;
  idx_t next_file_ = 0;
};

// Bytes the values of `chunk` take in memory (strings: their bytes too): what
// an operator that keeps the chunk reserves.
uint64_t ChunkBytes(const DataChunk& chunk);

// Whether rows of these types can go to a spill file.
bool CanSpill(const std::vector<LogicalType>& types);

class SpillFile {
 public:
  SpillFile(std::shared_ptr<SpillFolder> folder, std::vector<LogicalType> types, const std::string& stem);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends rows sel[0..count) of `chunk` (rows 0..count when sel is null).
  void Append(const DataChunk& chunk, const sel_t* sel, idx_t count);
  // Reads the next rows into `out` (Initialize'd with the file's types);
  // false at the end. The first call flushes what Append buffered.
  bool Read(DataChunk& out);
  // Reads from the first row again (after Append, or after a Read).
  void Rewind();
  idx_t Rows() const { return rows_; }
  uint64_t Bytes() const { return bytes_; }

 private:
  void Flush();
  void Fail(const std::string& what, int err) const;

  std::shared_ptr<SpillFolder> folder_;
  std::vector<LogicalType> types_;
  std::string path_;
  int fd_ = -1;
  std::string buffer_;  // written blocks not yet flushed; when reading: bytes read not yet decoded
  size_t read_pos_ = 0;
  bool reading_ = false;
  bool eof_ = false;
  idx_t rows_ = 0;
  uint64_t bytes_ = 0;
};

// Rows split by partition into one SpillFile each (made on first row).
class PartitionedSpill {
 public:
  PartitionedSpill(std::shared_ptr<SpillFolder> folder, std::vector<LogicalType> types, idx_t partitions,
                   std::string stem)
      : folder_(std::move(folder)), types_(std::move(types)), files_(partitions), stem_(std::move(stem)) {}
  // Row sel[i] of `chunk` (i < count; row i when sel is null) goes to
  // partition partition_of[i].
  void Append(const DataChunk& chunk, const sel_t* sel, const uint32_t* partition_of, idx_t count);
  idx_t PartitionCount() const { return files_.size(); }
  // The file of partition p, null when no row went there; Take hands it over.
  SpillFile* File(idx_t p) { return files_[p].get(); }
  std::unique_ptr<SpillFile> Take(idx_t p) { return std::move(files_[p]); }
  uint64_t Bytes() const;

 private:
  std::shared_ptr<SpillFolder> folder_;
  std::vector<LogicalType> types_;
  std::vector<std::unique_ptr<SpillFile>> files_;
  std::string stem_;
  std::vector<std::vector<sel_t>> sels_;
};

}  // namespace lakestream
