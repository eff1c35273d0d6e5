// Which files a read_files() path names. A directory means every file below
// it (recursively); a glob ('landing/*.json') its matches; a plain path that
// file. Names starting with '.' or '_' are skipped at every level, so a writer
// can create '.part' or '_tmp' files and rename them into place when complete
// (the rename is what makes a file visible to ingestion), and _SUCCESS
// markers are ignored.
#pragma once

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

// Sorted by path, without duplicates. Empty when nothing matches (a missing
// directory matches nothing: the landing folder may not exist yet).
std::vector<DiscoveredFile> DiscoverFiles(const std::vector<std::string>& patterns);

// An s3:// pattern: a plain path is that object or, when no object has that
// key, every object below it as a folder; a glob lists the objects under the
// part before its first wildcard (one ListObjectsV2 walk) and keeps the
// keys the pattern matches ('*' stays within one '/' level). Hidden names
// are skipped as locally. Throws IOError when the store cannot be listed.
std::vector<DiscoveredFile> DiscoverRemoteFiles(const std::string& pattern);

// The absolute, lexically normal form of `path` (a URL unchanged).
std::string FileIdentity(const std::string& path);

}  // namespace lakestream
