#include "function/table/file_discovery.hpp"

#include <glob.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

namespace lakestream {

namespace fs = std::filesystem;

static bool Hidden(const std::string& name) { return !name.empty() && (name[0] == '.' || name[0] == '_'); }

std::string FileIdentity(const std::string& path) {
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

std::vector<DiscoveredFile> DiscoverFiles(const std::vector<std::string>& patterns) {
  std::vector<DiscoveredFile> files;
  for (auto& pattern : patterns) {
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
