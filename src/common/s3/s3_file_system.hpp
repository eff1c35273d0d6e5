// S3FileSystem: the FileSystem of s3://bucket/key paths (AWS S3 and
// S3-compatible stores: MinIO, Cloudflare R2, GCS interoperability).
// docs/object-storage.md describes the model; S3Config where credentials,
// region, endpoint and URL style come from.
//
// HTTP goes through libcurl, which signs requests with AWS SigV4
// (CURLOPT_AWS_SIGV4); listings (ListObjectsV2, followed through its
// continuation tokens) and error bodies are parsed with libxml2.
//
// What the FileSystem contract means here:
//   * directories do not exist: a "directory" is a key prefix. ListDirectory
//     lists one level under "dir/" (delimiter '/'), NotFound when nothing is
//     there; CreateDirectories is a no-op; FileExists is true for an object
//     or a non-empty prefix.
//   * a PUT is atomic and durable once answered: Fsync, FsyncDirectory are
//     no-ops and WriteFileAtomic is one PUT.
//   * PutIfAbsent is one PUT with `If-None-Match: *` (412 -> AlreadyExists),
//     so of two writers of the same Delta commit exactly one wins. A store
//     that refuses the header (501), or ignores it (found by a probe object
//     PUT twice with it, once per endpoint and bucket and process), fails
//     the commit with NotSupported naming ALLOW_UNSAFE_RENAME, the explicit
//     single-writer mode (HEAD then PUT: racing writers may overwrite each
//     other's commit).
//   * there is no rename or hard link: Rename, Link and SetMode return
//     NotSupported naming the path.
// Every request is retried with exponential backoff on connection errors,
// 5xx, 429 and SlowDown; a 4xx fails at once with an error naming the
// operation, bucket, key, HTTP status and S3's error code and message.
// Thread-safe: every thread uses its own curl handle (connection reuse).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "common/s3/s3_config.hpp"

namespace lakestream {

// "s3://bucket/some/key" -> {"bucket", "some/key"}. InvalidArgument for a
// path without a bucket.
struct S3Location {
  std::string bucket;
  std::string key;  // without a leading '/'; "" for the bucket itself
};
Result<S3Location> ParseS3Path(const std::string& path);

// One listed object.
struct S3Object {
  std::string key;
  uint64_t size = 0;
  int64_t mtime_ms = 0;
};

class S3FileSystem : public FileSystem {
 public:
  // The process-wide instance (never deleted). Credentials are resolved per
  // request path (ResolveS3Config), so one instance serves every bucket.
  static S3FileSystem* Instance();

  Result<std::string> ReadFile(const std::string& path) override;
  Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length) override;
  Result<Tail> ReadTail(const std::string& path, uint64_t length) override;
  Status WriteFile(const std::string& path, const std::string& contents) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override;
  Status CreateDirectories(const std::string& dir) override;
  bool FileExists(const std::string& path) override;
  Result<uint64_t> FileSize(const std::string& path) override;
  Result<int64_t> ModificationTime(const std::string& path) override;
  Status RemoveFile(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status Link(const std::string& from, const std::string& to) override;
  Status Fsync(const std::string& path) override;
  Status FsyncDirectory(const std::string& dir) override;
  Status FsyncAll(const DurableSet& paths) override;
  Status PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet& first = {}) override;
  Status WriteFileAtomic(const std::string& path, const std::string& contents) override;
  Status SetMode(const std::string& path, uint32_t mode) override;

  // Every object under the prefix `prefix` (an s3:// path, no delimiter:
  // the whole subtree), in key order; with `start_after` (a key of the
  // bucket) only the keys after it, which the store skips for us
  // (ListObjectsV2 start-after): an incremental listing.
  // With `stop_before` (a key), the listing ends at the first key not
  // before it, so that no page beyond it is asked for.
  Result<std::vector<S3Object>> ListRecursive(const std::string& prefix, const std::string& start_after = "",
                                              const std::string& stop_before = "");
  // Every object under `prefix` except those in its subfolder `skipped`
  // (one path component, e.g. "_delta_log"), which the store is not asked
  // to list at all: the keys before it, then those after it (start-after),
  // so a table's files cost no page of its log.
  Result<std::vector<S3Object>> ListRecursiveSkipping(const std::string& prefix, const std::string& skipped);

  // Requests sent (each retry counts), for benchmarks and tests.
  uint64_t RequestCount() const { return requests_.load(); }

  // Objects larger than `threshold` (64 MiB) are uploaded in parts of
  // `part_size` (16 MiB; S3 wants >= 5 MiB but the last). Tests lower them.
  void SetMultipartSizes(uint64_t threshold, uint64_t part_size) {
    multipart_threshold_ = threshold;
    part_size_ = part_size;
  }

  struct Response;
  struct Request;

 private:
  S3FileSystem() = default;
  // Sends `req` with retries; the Status of a transport failure or (when
  // the status is not in `ok_codes`) of an HTTP error.
  Result<Response> Send(const Request& req);
  Status MultipartUpload(const std::string& path, const S3Location& loc, const std::string& contents);
  // OK when the store of `loc` answers 412 to a second If-None-Match PUT
  // (remembered per endpoint and bucket), else why commits cannot be safe.
  Status ProbeConditionalWrites(const S3Location& loc, const S3Config& cfg);
  static Status NoConditionalWrites(const std::string& what);

  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> multipart_threshold_{64ULL << 20};
  std::atomic<uint64_t> part_size_{16ULL << 20};
  std::mutex probe_mutex_;
  std::map<std::string, Status> probed_;  // endpoint/bucket -> ProbeConditionalWrites' verdict
};

}  // namespace lakestream
