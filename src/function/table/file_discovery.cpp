#include "function/table/file_discovery.hpp"

#include <fnmatch.h>
#include <glob.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "common/exception.hpp"
#include "common/s3/s3_file_system.hpp"

namespace lakestream {

namespace fs = std::filesystem;

static bool Hidden(const std::string& name) { return !name.empty() && (name[0] == '.' || name[0] == '_'); }

std::string FileIdentity(const std::string& path) {
  if (IsRemotePath(path)) return path;
  std::error_code ec;
  fs::path absolute = fs::absolute(fs::path(path), ec);
  if (ec) return path;
  return absolute.lexically_normal().string();
}

static bool HasGlob(const std::string& pattern) { return pattern.find_first_of("*?[") != std::string::npos; }

static void AddFile(const fs::path& p, std::vector<DiscoveredFile>& out) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return;
  DiscoveredFile f;
  f.path = p.string();
  f.id = FileIdentity(f.path);
  f.size = fs::file_size(p, ec);
  if (ec) return;  // vanished between listing and stat
  auto mtime = fs::last_write_time(p, ec);
  if (!ec) {
    auto since = mtime.time_since_epoch() - fs::file_time_type::clock::now().time_since_epoch() +
                 std::chrono::system_clock::now().time_since_epoch();
    f.mtime_ms = std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
  }
  out.push_back(std::move(f));
}

static void AddDirectory(const fs::path& dir, std::vector<DiscoveredFile>& out) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (Hidden(name)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    AddFile(it->path(), out);
  }
}

// Any component below `base` hidden ('.' or '_' first)?
static bool HiddenBelow(const std::string& key, size_t base) {
  size_t start = base;
  while (start < key.size()) {
    size_t slash = key.find('/', start);
    if (Hidden(key.substr(start, slash == std::string::npos ? std::string::npos : slash - start))) return true;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return false;
}

// The key after which to list `prefix_key` (a folder key ending in '/', or
// "" for the whole bucket), from `resume`; "" for a full listing.
static std::string StartAfter(const ListingResume& resume, const std::string& bucket_url, const std::string& prefix_key) {
  if (!resume) return "";
  std::string after = resume(bucket_url + prefix_key);
  // Only a key under the prefix bounds the listing; anything else lists it all.
  if (after.compare(0, bucket_url.size() + prefix_key.size(), bucket_url + prefix_key) != 0) return "";
  return after.substr(bucket_url.size());
}

bool FullListingDue(const std::string& source, int64_t interval_ms) {
  static std::mutex mutex;
  static std::map<std::string, int64_t> last_full;
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = last_full.find(source);
  if (it != last_full.end() && now - it->second < interval_ms) return false;
  last_full[source] = now;
  return true;
}

std::vector<DiscoveredFile> DiscoverRemoteFiles(const std::string& pattern, const ListingResume& resume) {
  auto loc = ParseS3Path(pattern);
  if (!loc.ok()) throw IOError(loc.status().message());
  S3FileSystem* s3 = S3FileSystem::Instance();
  std::string bucket_url = "s3://" + loc.value().bucket + "/";
  std::vector<DiscoveredFile> out;
  auto add = [&](const S3Object& o) {
    DiscoveredFile f;
    f.path = bucket_url + o.key;
    f.id = f.path;
    f.size = o.size;
    f.mtime_ms = o.mtime_ms;
    out.push_back(std::move(f));
  };
  const std::string& key = loc.value().key;
  if (!HasGlob(pattern)) {
    auto size = s3->FileSize(pattern);
    if (size.ok()) {
      auto mtime = s3->ModificationTime(pattern);
      add(S3Object{key, size.value(), mtime.ok() ? mtime.value() : 0});
      return out;
    }
    if (!size.status().IsNotFound()) throw IOError(size.status().message());
    auto listed = s3->ListRecursive(pattern, StartAfter(resume, bucket_url, key.empty() ? "" : key + "/"));
    if (!listed.ok()) throw IOError(listed.status().message());
    size_t base = key.empty() ? 0 : key.size() + 1;
    for (auto& o : listed.value())
      if (!HiddenBelow(o.key, base)) add(o);
    return out;
  }
  size_t wildcard = key.find_first_of("*?[");
  size_t slash = key.rfind('/', wildcard);
  std::string dir = slash == std::string::npos ? "" : key.substr(0, slash);
  auto listed = s3->ListRecursive(bucket_url + dir, StartAfter(resume, bucket_url, dir.empty() ? "" : dir + "/"));
  if (!listed.ok()) throw IOError(listed.status().message());
  size_t base = dir.empty() ? 0 : dir.size() + 1;
  for (auto& o : listed.value()) {
    if (::fnmatch(key.c_str(), o.key.c_str(), FNM_PATHNAME) != 0) continue;
    if (HiddenBelow(o.key, base)) continue;
    add(o);
  }
  return out;
}

std::vector<DiscoveredFile> DiscoverFiles(const std::vector<std::string>& patterns, const ListingResume& resume) {
  std::vector<DiscoveredFile> files;
  for (auto& pattern : patterns) {
    if (IsRemotePath(pattern)) {
      auto remote = DiscoverRemoteFiles(pattern, resume);
      files.insert(files.end(), remote.begin(), remote.end());
      continue;
    }
    if (!HasGlob(pattern)) {
      std::error_code ec;
      if (fs::is_directory(pattern, ec)) {
        AddDirectory(pattern, files);
      } else {
        AddFile(pattern, files);
      }
      continue;
    }
    glob_t result{};
    if (::glob(pattern.c_str(), 0, nullptr, &result) == 0) {
      for (size_t i = 0; i < result.gl_pathc; i++) {
        fs::path p(result.gl_pathv[i]);
        if (Hidden(p.filename().string())) continue;
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
          AddDirectory(p, files);
        } else {
          AddFile(p, files);
        }
      }
    }
    globfree(&result);
  }
  std::sort(files.begin(), files.end(), [](const DiscoveredFile& a, const DiscoveredFile& b) { return a.path < b.path; });
  std::set<std::string> seen;
  std::vector<DiscoveredFile> unique;
  for (auto& f : files) {
    if (seen.insert(f.id).second) unique.push_back(std::move(f));
  }
  return unique;
}

}  // namespace lakestream
