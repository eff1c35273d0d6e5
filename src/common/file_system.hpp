// FileSystem: the storage layer's only way to touch files (LevelDB's Env, for
// files). Every operation returns a Status/Result: I/O failure is expected
// here and never throws. The default implementation is POSIX; tests wrap it
// in FaultInjectionFileSystem to make chosen operations fail or to simulate a
// crash that loses whatever was not fsynced.
//
//   FileSystem* fs = FileSystem::Default();
//   Status s = fs->PutIfAbsent("t/_delta_log/00000000000000000007.json", body);
//   if (s.IsAlreadyExists()) { /* another writer won version 7: re-read, retry */ }
//
// Paths are local paths or s3://bucket/key URLs (S3FileSystem,
// docs/object-storage.md): Default() sends each path to the file system of its
// scheme, and For(path) names that file system. All methods are thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace lakestream {

// Paths that must be durable before a later step (see PutIfAbsent): new
// files, and the directories whose new entries name them.
struct DurableSet {
  std::set<std::string> files;
  std::set<std::string> directories;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The process-wide file system (never null, never deleted): POSIX for
  // local paths, S3FileSystem for s3:// paths.
  static FileSystem* Default();
  // The file system that serves `path`'s scheme (never null).
  static FileSystem* For(const std::string& path);

  // Whole-file read. NotFound when the file does not exist.
  virtual Result<std::string> ReadFile(const std::string& path) = 0;
  // `length` bytes from `offset` (fewer at the end of the file). Object
  // stores answer with one ranged GET; this default reads the whole file.
  virtual Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length);
  // The last `length` bytes of `path` (all of it when shorter) and the
  // file's size: what a reader needs to find a footer (Parquet) without
  // knowing the size. Object stores answer with one suffix-range GET; this
  // default asks FileSize and then ReadRange.
  struct Tail {
    std::string bytes;
    uint64_t file_size = 0;
  };
  virtual Result<Tail> ReadTail(const std::string& path, uint64_t length);
  // May a reader open `path` itself (memory-map it) instead of calling
  // ReadFile? True only for the POSIX file system: a wrapper (fault
  // injection) must see every read. Mapping a large file reuses the page
  // cache; reading it fills fresh memory, which costs one page fault per page.
  virtual bool ReadsInPlace() const { return false; }
  // open(2) of a local file: a descriptor the caller owns (and closes), for
  // readers that map a file in place and writers that stream into it.
  // `flags` are open(2)'s; O_CLOEXEC is added. NotSupported on object
  // storage and in wrappers that must see every read (the default). The
  // confined file system (confined_file_system.hpp) opens beneath its roots.
  virtual Result<int> OpenFile(const std::string& path, int flags, uint32_t mode);
  // Creates or truncates `path` and writes `contents`. NOT durable until
  // Fsync(path) (and FsyncDirectory(parent) for a new name) succeed.
  virtual Status WriteFile(const std::string& path, const std::string& contents) = 0;
  // Names (not paths) of the entries of `dir`, without "." and "..", sorted.
  // NotFound when `dir` does not exist.
  virtual Result<std::vector<std::string>> ListDirectory(const std::string& dir) = 0;
  // mkdir -p. OK when the directory already exists.
  virtual Status CreateDirectories(const std::string& dir) = 0;
  // True for any existing entry (file or directory). I/O errors read as false.
  virtual bool FileExists(const std::string& path) = 0;
  virtual Result<uint64_t> FileSize(const std::string& path) = 0;
  // Last modification time, milliseconds since the epoch.
  virtual Result<int64_t> ModificationTime(const std::string& path) = 0;
  // NotFound when the file does not exist.
  virtual Status RemoveFile(const std::string& path) = 0;
  // Atomically replaces `to` (if it exists) with `from` (rename(2)).
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Hard-links `to` to the file `from`. AlreadyExists when `to` exists: this
  // is the atomic "create if absent" primitive of PutIfAbsent.
  virtual Status Link(const std::string& from, const std::string& to) = 0;
  // Makes the contents of a written file durable (fsync(2)).
  virtual Status Fsync(const std::string& path) = 0;
  // Makes the entries (creations, renames, removals) of a directory durable.
  virtual Status FsyncDirectory(const std::string& dir) = 0;
  // Fsync of every file and FsyncDirectory of every directory of `paths`. OK
  // only when all succeeded; on failure, any of them may or may not be
  // durable. This implementation calls the two primitives one after the
  // other (so fault injection sees each); the POSIX one issues them
  // concurrently, because a journaling file system (ext4, xfs) then makes
  // them durable with one journal commit and one device cache flush instead
  // of one per path (measured on ext4: five paths in 3.3 ms instead of 17 ms).
  virtual Status FsyncAll(const DurableSet& paths);

  // Atomically creates `path` with `contents` unless it already exists, and
  // makes it durable before returning OK:
  //   write a hidden temp file beside it (".<name>.<unique>.tmp"), fsync it
  //   together with everything in `first` (one FsyncAll), link() it to
  //   `path` (EEXIST -> AlreadyExists), unlink the temp, fsync the directory.
  // So `path` becomes visible only once `first` is durable: a Delta commit
  // passes the data and change data files it names, and they cost no device
  // flush of their own. AlreadyExists implies `first` is durable.
  // Readers therefore see either no file or the complete file, never a torn
  // one; of several racing callers exactly one gets OK. On failure before the
  // link the temp file is removed (best effort) and `path` does not exist. An
  // IOError from the final directory fsync means `path` IS visible but its
  // durability is unknown; callers that must know re-read it.
  // Implemented with the virtual primitives above, so fault injection sees
  // each step.
  // Object stores override it with a conditional write.
  virtual Status PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet& first = {});
  // PutIfAbsent up to the link: on OK `path` is visible with its contents
  // (and `first`) durable, but its name is not yet: FsyncDirectory of its
  // parent makes it so. For a caller that makes several names of one
  // directory durable with one fsync (group commit, storage/delta/log_sync.hpp).
  // Local file systems only: object stores have no link (use PutIfAbsent).
  // `alongside`, when given, is another flush that must succeed before the
  // link and does not depend on this one (a Delta commit's: the sources'
  // _delta_log/ fsyncs before a view's commit): it runs concurrently with the
  // fsync of the temp file and `first` (RunConcurrently), so the link waits
  // for one flush round instead of two. Its failure is returned, and then
  // nothing is linked. `spare_temp`, when given, is the temp file to write
  // the contents to: an empty file made ahead in `path`'s folder under a temp
  // name (IsTempFileName; storage/table/data_file_pool.hpp), so the commit
  // creates no inode on its way. Its name need not be durable, and one that
  // vanished is created again. Otherwise a new temp name (TempPathFor).
  Status LinkIfAbsent(const std::string& path, const std::string& contents, const DurableSet& first = {},
                      const std::function<Status()>& alongside = nullptr, const std::string& spare_temp = "");

  // Writes `contents` to a temp file beside `path`, fsyncs it, renames it over
  // `path` and fsyncs the directory: an atomic, durable overwrite (for files
  // like _last_checkpoint that are replaced, not created once).
  virtual Status WriteFileAtomic(const std::string& path, const std::string& contents);
  // As WriteFileAtomic, with the file's permission bits set to `mode` (e.g.
  // 0600 for owner-only files) on the temp file before any contents are
  // written to it, so the contents are never readable with wider permissions.
  Status WriteFileAtomicWithMode(const std::string& path, const std::string& contents, uint32_t mode);
  // chmod(2). Files and folders are otherwise created with the permissions the
  // umask leaves of 0666 / 0777.
  virtual Status SetMode(const std::string& path, uint32_t mode);

  // A unique hidden temp name in the directory of `path` (no file is created).
  // Leftovers of crashed writers match IsTempFileName() so cleanup can find them.
  static std::string TempPathFor(const std::string& path);
  static bool IsTempFileName(const std::string& name);
};

// Runs `tasks` at the same time, the caller running a share of them and
// threads kept for the life of the process the rest, and returns once all
// have ended: OK, or the first failure. For flushes that do not depend on
// one another (FsyncAll's fsyncs): a journaling file system (ext4, xfs)
// makes concurrent fsyncs durable with one journal commit and one device
// cache flush instead of one each. A task may itself call RunConcurrently.
Status RunConcurrently(std::vector<std::function<Status()>> tasks);

// True for a URL with a scheme (s3://...): not a local path, so no
// std::filesystem call or open(2) may be made on it.
bool IsRemotePath(const std::string& path);

// Helpers on file descriptors, shared by the local file systems. Each takes
// ownership of `fd` and closes it; `path` only names it in errors.
Result<std::string> ReadWholeFd(int fd, const std::string& path);
Result<std::string> ReadFdRange(int fd, const std::string& path, uint64_t offset, uint64_t length);
Status WriteWholeFd(int fd, const std::string& path, const std::string& contents);
// Names of the entries of the open directory `fd`, without "." and "..", sorted.
Result<std::vector<std::string>> ListDirectoryFd(int fd, const std::string& dir);
// The Status of a failed system call: NotFound for ENOENT, AlreadyExists for
// EEXIST, IOError otherwise; the message is `context: strerror(err)`.
Status PosixError(const std::string& context, int err);

// Helpers on '/'-separated paths.
std::string JoinPath(const std::string& a, const std::string& b);
std::string ParentDirectory(const std::string& path);  // "" -> ".", "a" -> "."
std::string BaseName(const std::string& path);

// Wraps another file system (not owned) and injects faults, for tests.
//
// Faults: FailAfter(op, n) makes the n-th next call (1 = the very next) of
// that kind fail with an IOError, once, without touching the file system.
// Kinds: kWrite (WriteFile), kFsync (Fsync and FsyncDirectory), kRename, kLink.
// Counts of every kind are kept (e.g. to report fsyncs per commit).
//
// Crash model (SimulateCrash()): what a power loss may do to an ext4-like file
// system where only fsync gives guarantees:
//   * a file written since its last Fsync loses the new contents: it reverts
//     to the contents it had at its last Fsync through this wrapper, or is
//     removed if it was never fsynced through it;
//   * a name created by WriteFile, Link or Rename (the new name) whose parent
//     directory was not fsynced since then is removed.
// Not modelled: a renamed-away source name reappearing, partial (torn) writes
// inside a file, reordering between files. The state is reset after a crash.
class FaultInjectionFileSystem : public FileSystem {
 public:
  enum class Op { kWrite, kFsync, kRename, kLink };

  explicit FaultInjectionFileSystem(FileSystem* base);
  ~FaultInjectionFileSystem() override;

  void FailAfter(Op op, int n);
  // Calls of a kind so far (including failed ones).
  int64_t Count(Op op) const;
  // Applies the crash model to the underlying files.
  Status SimulateCrash();

  Result<std::string> ReadFile(const std::string& path) override;
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

  struct State;

 private:
  // Counts the call; returns an IOError if a fault is due.
  Status Tick(Op op, const std::string& what);
  FileSystem* base_;
  std::unique_ptr<State> state_;
};

}  // namespace lakestream
