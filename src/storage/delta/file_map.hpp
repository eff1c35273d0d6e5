// FileMap: a snapshot's active files by path (Snapshot::files), decoded
// from its checkpoint only when first used (issue 30).
//
// A checkpoint holds one add action per active file, and decoding them is
// most of what opening a large table costs; statements that need only the
// log's other actions (DESCRIBE DETAIL, property and schema lookups, an
// append's commit) never need them. So a snapshot loaded from a checkpoint
// starts with the checkpoint's files undecoded (a FileSource), and the adds
// and removes replayed from the JSON commits after it are kept in order;
// the first read of the map decodes the checkpoint's adds and applies them.
//
//   snapshot.files.size();        // count and bytes from a lighter decode
//   for (auto& [path, add] : snapshot.files) ...   // decodes once
//   Status s = snapshot.files.Load();              // the same, as a Status
//
// Reading through the map interface throws (Status::Throw: a
// CorruptionError naming the checkpoint) when the checkpoint's adds turn
// out not to decode; code that returns Status calls Load() first.
//
// Thread-safety: as a std::map that is only read, const access from any
// thread (the decode runs once, under a lock); non-const use needs the
// usual exclusive access. Copies share the undecoded source, never a
// decoded map.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.hpp"
#include "storage/delta/delta_actions.hpp"

namespace lakestream::delta {

// What DESCRIBE DETAIL needs of a file: its size and the identity of its
// deletion vector (a remove names the file by both).
struct FileSize {
  int64_t size = 0;
  std::optional<std::string> deletion_vector;  // as AddFile::deletion_vector
};

// A Bloom filter of file paths (decoded, as AddFile::path): MayContain is
// true for every path it was built from, and for about 0.05% of others. Our
// checkpoints carry one of their files' paths (with the files' count and
// bytes) in their Parquet footer, so that the count and bytes of a snapshot
// follow from it and the few commits after the checkpoint without decoding
// a path of the checkpoint, unless one of those commits names a path that
// may be in it.
class PathFilter {
 public:
  PathFilter() = default;
  explicit PathFilter(const std::vector<std::string_view>& paths);
  bool MayContain(std::string_view path) const;
  // "<hash count>:<bits as hex>"; Parse gives nullopt for anything else.
  std::string Serialize() const;
  static std::optional<PathFilter> Parse(std::string_view text);

 private:
  int hashes_ = 0;
  std::vector<uint8_t> bits_;
};

// What a checkpoint's footer says of its files (see PathFilter).
struct FileSummary {
  int64_t files = 0;
  int64_t bytes = 0;
  PathFilter paths;
  // The rows a read of the files returns (LiveRecords summed, delta_stats.hpp):
  // what COUNT(*) needs. nullopt when the footer does not say: a checkpoint
  // written before it was recorded, or one of whose files has no numRecords.
  std::optional<int64_t> records;
};

// The undecoded files of a snapshot: a checkpoint's add column
// (delta_checkpoint_read.cpp). Thread-safe.
class FileSource {
 public:
  virtual ~FileSource() = default;
  // The files' count, bytes and path filter without decoding them, when the
  // checkpoint recorded them.
  virtual const std::optional<FileSummary>& Summary() const = 0;
  // Adds every file it holds to `files` (in path order, as our checkpoints
  // list them; any order is correct). Corruption naming the file otherwise.
  virtual Status Decode(std::map<std::string, AddFile>& files) const = 0;
  // The same, with only each file's size and deletion vector decoded.
  virtual Status DecodeSizes(std::map<std::string, FileSize>& sizes) const = 0;
};

class FileMap {
 public:
  using Map = std::map<std::string, AddFile>;
  // The std::map interface's names, so that FileMap reads as the map it
  // replaced (Snapshot::files) at every use.
  using iterator = Map::iterator;              // NOLINT(readability-identifier-naming)
  using const_iterator = Map::const_iterator;  // NOLINT(readability-identifier-naming)

  FileMap() = default;
  FileMap(const FileMap& other);
  FileMap(FileMap&& other) noexcept;
  FileMap& operator=(const FileMap& other);
  FileMap& operator=(FileMap&& other) noexcept;

  // The files of `source` join the map (undecoded); later Add/Remove calls
  // apply on top of them.
  void SetSource(std::shared_ptr<const FileSource> source);
  // Whether the checkpoint's adds have been decoded (or there were none).
  bool Decoded() const { return decoded_.load(std::memory_order_acquire); }
  // Decodes now; the error when the source does not decode (the map is then
  // left as it was, and the next use tries again).
  Status Load() const;

  // Reconciliation (PROTOCOL.md "Action Reconciliation"); recorded, not
  // applied, while undecoded. Add: the file becomes active, replacing one of
  // the same path. Remove: a file's identity is its path and deletion
  // vector, so the remove of the old (path, DV) that comes with the add of a
  // new DV on the same path must not retire the new one, whichever order the
  // commit lists them in.
  void Add(AddFile add);
  void Remove(const RemoveFile& remove);

  // Without decoding the adds fully (FileSource::DecodeSizes).
  size_t size() const;
  bool empty() const { return size() == 0; }
  int64_t TotalBytes() const;
  // The rows a read of the map's files returns (LiveRecords summed) from the
  // checkpoint's FileSummary and the changes after it, without decoding the
  // checkpoint's adds (COUNT(*) of a large table, issue 30). nullopt when
  // that cannot tell: the adds are decoded already (sum them instead), the
  // footer has no record count, a change after the checkpoint may touch one
  // of its files, or an add after it has no LiveRecords.
  std::optional<int64_t> RecordsFromSummary() const;

  // The std::map interface; each decodes first (throwing on failure).
  const Map& Get() const;
  Map& Mutable();
  const_iterator begin() const { return Get().begin(); }
  const_iterator end() const { return Get().end(); }
  iterator begin() { return Mutable().begin(); }
  iterator end() { return Mutable().end(); }
  const_iterator find(const std::string& path) const { return Get().find(path); }
  iterator find(const std::string& path) { return Mutable().find(path); }
  size_t count(const std::string& path) const { return Get().count(path); }
  const AddFile& at(const std::string& path) const { return Get().at(path); }
  AddFile& at(const std::string& path) { return Mutable().at(path); }
  AddFile& operator[](const std::string& path) { return Mutable()[path]; }
  iterator erase(const_iterator it) { return Mutable().erase(it); }
  size_t erase(const std::string& path) { return Mutable().erase(path); }
  void clear();

 private:
  using Change = std::variant<AddFile, RemoveFile>;
  // Applies `change` to `files` (either map kind).
  static void Apply(Map& files, Change change);
  Status DecodeLocked() const;
  // What the undecoded map holds, in numbers.
  struct Totals {
    size_t files = 0;
    int64_t bytes = 0;
    std::optional<int64_t> records;  // as RecordsFromSummary
  };
  // The undecoded map's totals (its sizes decoded when the footer has no
  // summary, and then without records).
  Status SummaryLocked(Totals& totals) const;
  // The same from the source's FileSummary; nullopt when a change may touch
  // a file of the checkpoint (its paths must then be decoded).
  std::optional<Totals> FromSummary(const FileSummary& summary) const;

  mutable std::mutex mu_;
  mutable std::atomic<bool> decoded_{true};
  // While undecoded: what the map holds is `map_` (files known before the
  // source was set, e.g. a V2 checkpoint's JSON manifest), the source's
  // files, then `pending_` applied in order.
  mutable std::shared_ptr<const FileSource> source_;
  mutable std::vector<Change> pending_;
  mutable Map map_;
  // DESCRIBE DETAIL's and COUNT(*)'s numbers while undecoded (reset by
  // Add/Remove).
  mutable std::optional<Totals> summary_;
};

// Times a FileSource decoded its adds fully / their sizes in this process
// (tests: a statement that needs only the log decodes none).
int64_t FileSourceDecodes();
int64_t FileSourceSizeDecodes();
void CountFileSourceDecode(bool sizes_only);

}  // namespace lakestream::delta
