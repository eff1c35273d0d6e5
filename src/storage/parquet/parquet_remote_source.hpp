// The bytes of a Parquet file on object storage, fetched by range GETs
// instead of one GET of the whole object (ParquetReader uses it for remote
// paths; local files stay memory-mapped).
//
//   auto tail = ReadParquetTail(fs, path);          // 1 request, 2 if the footer is > 64 KiB
//   ... parse the footer in tail.bytes ...
//   RangePrefetcher prefetcher(fs, path);
//   auto bytes = prefetcher.Take(rg, ChunkRanges(...));     // this row group's chunks
//   prefetcher.Prefetch(next_rg, ChunkRanges(...));         // next one, in the background
//   const uint8_t* p = bytes.value().Find(offset, length);  // a chunk inside them
//
// Requests: the column chunks a scan projects in one row group become byte
// ranges, sorted and merged where the gap between two is under kMaxGap (a
// second request costs more than reading a gap that small), and the merged
// ranges are fetched in requests of at most 8 MiB, up to four at once. While
// the caller decodes row group N, one background thread fetches the ranges
// of the next row group it will read, so a scan holds about two row groups
// of projected columns in memory, never the file.
//
// Errors are the FileSystem's Status (they name the bucket, key and HTTP
// status); a store that answers a range with fewer bytes than asked inside
// the file gives Corruption naming the path. Thread-compatible: one
// prefetcher per reader.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/file_system.hpp"
#include "common/status.hpp"

namespace lakestream::parquet {

struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool operator==(const ByteRange& o) const { return offset == o.offset && length == o.length; }
};

// Bytes read speculatively from the end of a remote file: most footers fit,
// so opening costs one request.
constexpr uint64_t kSpeculativeTailBytes = 64ULL << 10;
// Ranges closer than this are fetched as one.
constexpr uint64_t kMaxGap = 1ULL << 20;
// A range larger than this is fetched in requests of this size, and at most
// kMaxParallelRanges requests of one row group are in flight at once.
constexpr uint64_t kMaxRequestBytes = 8ULL << 20;
constexpr size_t kMaxParallelRanges = 4;

// Sorts `ranges`, drops empty ones and merges those that overlap or lie
// less than `max_gap` bytes apart.
std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, uint64_t max_gap);

// Ranges less what the file's last bytes from `tail_offset` on (read with the
// footer) already hold: a range inside them is dropped, one reaching into
// them ends where they begin. A file smaller than the speculative read then
// costs no request after the footer's.
std::vector<ByteRange> ClipToTail(const std::vector<ByteRange>& ranges, uint64_t tail_offset);

// The end of a file: `bytes` are its last bytes, covering the whole Parquet
// footer (length and magic included) when the file is well formed. A second
// range GET fetches the rest of a footer longer than the speculative read.
struct ParquetTail {
  std::string bytes;
  uint64_t file_size = 0;
};
Result<ParquetTail> ReadParquetTail(FileSystem* fs, const std::string& path);

// Fetched bytes of some ranges of a file.
class RangeBytes {
 public:
  // The bytes [offset, offset + length) when one fetched range holds them
  // all, else nullptr.
  const uint8_t* Find(uint64_t offset, uint64_t length) const;
  uint64_t TotalBytes() const;
  // Adds the file's last bytes `tail`, from `tail_offset` on: appended to the
  // fetched range that ends where they begin (ClipToTail), else kept apart.
  void AddTail(const std::string& tail, uint64_t tail_offset);

 private:
  friend Result<RangeBytes> FetchRanges(FileSystem* fs, const std::string& path, const std::vector<ByteRange>& ranges);
  std::vector<std::pair<ByteRange, std::string>> parts_;
};

// Fetches `ranges` (already coalesced) with ReadRange calls of at most
// kMaxRequestBytes, up to kMaxParallelRanges at once.
Result<RangeBytes> FetchRanges(FileSystem* fs, const std::string& path, const std::vector<ByteRange>& ranges);

// Fetches the ranges of the next row group on a background thread while the
// current one is decoded. Keys are row group indexes; a Take whose key or
// ranges differ from the prefetched ones (a restarted scan) discards them
// and fetches on the caller's thread.
class RangePrefetcher {
 public:
  RangePrefetcher(FileSystem* fs, std::string path);
  // Waits for a fetch in flight (its result is dropped).
  ~RangePrefetcher();
  RangePrefetcher(const RangePrefetcher&) = delete;
  RangePrefetcher& operator=(const RangePrefetcher&) = delete;

  // Starts fetching `ranges` for row group `key` unless a fetch is pending.
  void Prefetch(uint64_t key, std::vector<ByteRange> ranges);
  // The bytes of `ranges` for row group `key`.
  Result<RangeBytes> Take(uint64_t key, const std::vector<ByteRange>& ranges);

 private:
  struct Job {
    Job(uint64_t k, std::vector<ByteRange> r) : key(k), ranges(std::move(r)) {}
    uint64_t key;
    std::vector<ByteRange> ranges;
    std::optional<Result<RangeBytes>> result;
  };
  void Run();

  FileSystem* fs_;
  std::string path_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Job> job_;  // posted, running or done
  bool stop_ = false;
  std::thread worker_;      // started by the first Prefetch
};

}  // namespace lakestream::parquet
