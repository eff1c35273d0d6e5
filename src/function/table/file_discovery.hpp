// Which files a read_files() path names. A directory means every file below
// it (recursively); a glob ('landing/*.json') its matches; a plain path that
// file. Names starting with '.' or '_' are skipped at every level, so a writer
// can create '.part' or '_tmp' files and rename them into place when complete
// (the rename is what makes a file visible to ingestion), and _SUCCESS
// markers are ignored.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "function/table/read_files_options.hpp"

namespace lakestream {

struct DiscoveredFile {
  std::string path;  // as matched (relative paths stay relative; used to open and in messages)
  std::string id;    // absolute, lexically normal path: the file's identity for exactly-once ingestion
  uint64_t size = 0;
  int64_t mtime_ms = 0;
};

// For an incremental listing of object storage: given the prefix a pattern
// lists (an s3:// URL ending in '/'), the file under it after which to list
// (an s3:// URL), or "" for a full listing.
using ListingResume = std::function<std::string(const std::string& prefix_url)>;

// Sorted by path, without duplicates. Empty when nothing matches (a missing
// directory matches nothing: the landing folder may not exist yet).
// `resume` applies to s3:// patterns only (local folders are always walked).
std::vector<DiscoveredFile> DiscoverFiles(const std::vector<std::string>& patterns, const ListingResume& resume = {});

// An s3:// pattern: a plain path is that object or, when no object has that
// key, every object below it as a folder; a glob lists the objects under the
// part before its first wildcard (one ListObjectsV2 walk) and keeps the
// keys the pattern matches ('*' stays within one '/' level). Hidden names
// are skipped as locally. With `resume`, a folder or glob lists only the
// keys after the one it names (ListObjectsV2 start-after). Throws IOError
// when the store cannot be listed.
std::vector<DiscoveredFile> DiscoverRemoteFiles(const std::string& pattern, const ListingResume& resume = {});

// Whether the incremental listing of `source` (a key naming the table,
// flow and pattern) is due for a full listing: true the first time in this
// process and once `interval_ms` has passed since the last full one (which
// this records); false in between.
bool FullListingDue(const std::string& source, int64_t interval_ms);

// The absolute, lexically normal form of `path` (a URL unchanged).
std::string FileIdentity(const std::string& path);

}  // namespace lakestream
