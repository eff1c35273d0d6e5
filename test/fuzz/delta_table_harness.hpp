// A hostile Delta log against a real table folder: the fuzz target
// delta_table_fuzz.cpp and the replay test test/unit/delta_hostile_log_test.cpp
// both run RunHostileLog.
//
// Once per process a temp folder is made holding `table/` (a Parquet data
// file, part-0.parquet) and `outside/` (secret.parquet, a file the table must
// never read). Each input is written as the table's commits: split at form
// feeds ('\f') into versions 0, 1, ... (at most 8), with "@ROOT@" replaced by
// the table's folder and "@OUTSIDE@" by the outside folder, so seeds can hold
// absolute paths. Then, as a reader with external access off does, the
// snapshot is loaded, refused unless delta::CheckFilesInsideTable passes, its
// files are scanned (data files, deletion vectors) and its commits read, all
// through ConfinedFileSystem: a read of any path not beneath the table's folder
// aborts the process (a fuzzer finding), as does any write.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_system.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/delta_snapshot.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream::fuzz {

// Passes reads beneath `root` to the default file system; aborts on any
// other read and on every write.
class ConfinedFileSystem : public FileSystem {
 public:
  explicit ConfinedFileSystem(std::string root) : root_(std::move(root)) {}

  Result<std::string> ReadFile(const std::string& path) override { return base_->ReadFile(Check(path)); }
  Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length) override {
    return base_->ReadRange(Check(path), offset, length);
  }
  Result<Tail> ReadTail(const std::string& path, uint64_t length) override { return base_->ReadTail(Check(path), length); }
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override {
    return base_->ListDirectory(Check(dir));
  }
  bool FileExists(const std::string& path) override { return base_->FileExists(Check(path)); }
  Result<uint64_t> FileSize(const std::string& path) override { return base_->FileSize(Check(path)); }
  Result<int64_t> ModificationTime(const std::string& path) override { return base_->ModificationTime(Check(path)); }
  Status WriteFile(const std::string& path, const std::string&) override { Write(path); }
  Status CreateDirectories(const std::string& dir) override { Write(dir); }
  Status RemoveFile(const std::string& path) override { Write(path); }
  Status Rename(const std::string& from, const std::string&) override { Write(from); }
  Status Link(const std::string& from, const std::string&) override { Write(from); }
  Status Fsync(const std::string& path) override { Write(path); }
  Status FsyncDirectory(const std::string& dir) override { Write(dir); }

 private:
  // `path` itself when it lies beneath the root after normalisation (the
  // harness's folders hold no symlinks, so the lexical form is the real one).
  const std::string& Check(const std::string& path) const {
    std::string normal = std::filesystem::path(path).lexically_normal().string();
    if (normal == root_ || normal.rfind(root_ + "/", 0) == 0) return path;
    std::fprintf(stderr, "hostile Delta log: the reader reached %s, outside the table %s\n", path.c_str(), root_.c_str());
    std::abort();
  }
  [[noreturn]] void Write(const std::string& path) const {
    std::fprintf(stderr, "hostile Delta log: a read-only scan wrote %s\n", path.c_str());
    std::abort();
  }
  std::string root_;
  FileSystem* base_ = FileSystem::Default();
};

struct HarnessFolders {
  std::string table;
  std::string outside;
};

// Made once per process (a temp folder removed at exit).
inline const HarnessFolders& Folders() {
  static const HarnessFolders folders = [] {
    std::string temp = (std::filesystem::temp_directory_path() / "lakestream-hostile-log-XXXXXX").string();
    if (!mkdtemp(temp.data())) std::abort();
    HarnessFolders f{temp + "/table", temp + "/outside"};
    std::filesystem::create_directories(f.table + "/_delta_log");
    std::filesystem::create_directories(f.outside);
    for (const std::string& file : {f.table + "/part-0.parquet", f.outside + "/secret.parquet"}) {
      auto writer = ParquetWriter::Create(file, {"id"}, {LogicalType(TypeId::INTEGER)});
      if (!writer.ok()) std::abort();
      DataChunk chunk;
      chunk.Initialize({LogicalType(TypeId::INTEGER)});
      for (int i = 0; i < 3; i++) chunk.SetValue(0, i, Value::INTEGER(i));
      chunk.SetCardinality(3);
      if (!writer.value()->Append(chunk).ok() || !writer.value()->Finish().ok()) std::abort();
    }
    static std::string remove_at_exit = temp;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(remove_at_exit, ec);
    });
    return f;
  }();
  return folders;
}

inline std::string ReplaceAll(std::string text, std::string_view from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// What became of one input (for the replay test's assertions).
struct HostileLogOutcome {
  Status load;           // loading the snapshot
  Status confined;       // CheckFilesInsideTable, when it loaded
  int64_t rows_read = 0;  // rows of the data files scanned
};

inline HostileLogOutcome RunHostileLog(std::string_view input) {
  const HarnessFolders& folders = Folders();
  std::string log_dir = folders.table + "/_delta_log";
  std::error_code ec;
  for (auto& entry : std::filesystem::directory_iterator(log_dir, ec)) std::filesystem::remove_all(entry.path(), ec);
  std::string text = ReplaceAll(ReplaceAll(std::string(input), "@ROOT@", folders.table), "@OUTSIDE@", folders.outside);
  size_t start = 0;
  for (int version = 0; version < 8 && start <= text.size(); version++) {
    size_t end = text.find('\f', start);
    if (end == std::string::npos) end = text.size();
    char name[32];
    std::snprintf(name, sizeof(name), "%020d.json", version);
    if (!FileSystem::Default()->WriteFile(log_dir + "/" + name, text.substr(start, end - start)).ok()) std::abort();
    start = end + 1;
  }

  HostileLogOutcome outcome;
  ConfinedFileSystem fs(folders.table);
  auto log = delta::DeltaLog::Open(&fs, folders.table);
  if (!log.ok()) {
    outcome.load = log.status();
    return outcome;
  }
  auto snapshot = log.value()->LoadSnapshot();
  if (!snapshot.ok()) {
    outcome.load = snapshot.status();
    return outcome;
  }
  const delta::Snapshot& snap = snapshot.value();
  outcome.confined = delta::CheckFilesInsideTable(snap);
  if (!outcome.confined.ok()) return outcome;
  for (const auto& [path, add] : snap.files) {
    if (add.deletion_vector) {
      auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
      if (dv.ok()) (void)delta::LoadDeletionVector(&fs, snap, dv.value(), add.path);
    }
    auto reader = ParquetReader::OpenRanged(snap.FilePath(add.path), &fs);
    if (!reader.ok()) continue;
    std::vector<idx_t> columns;
    for (idx_t c = 0; c < reader.value()->ColumnNames().size(); c++) columns.push_back(c);
    if (!reader.value()->Scan(columns).ok()) continue;
    while (true) {
      DataChunk chunk;
      chunk.Initialize(reader.value()->ProjectedTypes());
      if (!reader.value()->ReadChunk(chunk).ok() || chunk.size() == 0) break;
      outcome.rows_read += static_cast<int64_t>(chunk.size());
    }
  }
  (void)delta::AllTombstones(&fs, snap);
  for (int64_t v = 0; v <= snap.version; v++) (void)log.value()->ReadCommit(v);
  return outcome;
}

}  // namespace lakestream::fuzz
