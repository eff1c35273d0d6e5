// Scratch directories for unit tests, and private copies of the Delta tables
// under ../shared/delta-tables (tests may write to a copy, never to the
// original). Every test binary process gets its own names (pid), so ctest -j
// runs do not collide.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#ifndef LAKESTREAM_SHARED_DIR
#define LAKESTREAM_SHARED_DIR "/work/shared"
#endif

namespace lakestream::testing {

// A fresh directory, removed with everything in it when the object goes.
struct ScopedTempDir {
  std::string path;
  explicit ScopedTempDir(const std::string& prefix = "lakestream") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    path = mkdtemp(tmpl.data());
  }
  ~ScopedTempDir() { std::filesystem::remove_all(path); }
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
};

// The whole text of the file at `path` ("" when it cannot be read).
inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The path of shared Delta table `table` (read only).
inline std::string SharedDeltaTable(const std::string& table) {
  return std::string(LAKESTREAM_SHARED_DIR) + "/delta-tables/" + table;
}

// A private copy of shared Delta table `table`, replacing an earlier copy
// made by this process.
inline std::string CopySharedDeltaTable(const std::string& table) {
  auto dir = std::filesystem::temp_directory_path() / ("lakestream_tables_" + std::to_string(::getpid())) / table;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir.parent_path());
  std::filesystem::copy(SharedDeltaTable(table), dir, std::filesystem::copy_options::recursive);
  return dir.string();
}

}  // namespace lakestream::testing
