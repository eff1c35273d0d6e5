// ConfinedFileSystem: a FileSystem that reaches only what lies beneath a
// fixed set of root folders, with no gap between the check and the use.
// docs/security.md ("How a path is opened") describes the model.
//
// Each root is opened once as a directory descriptor (on first use). Every
// operation then resolves the path to (root, path relative to it) and acts
// on that descriptor: files are opened with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS), entries are made, removed, renamed and linked with
// mkdirat/unlinkat/renameat/linkat in a parent opened the same way, and
// listings read the opened folder (fdopendir). So a symbolic link swapped
// in anywhere below a root after the path was judged makes the operation
// fail (ELOOP), never reach outside. Where the kernel lacks openat2 (before
// Linux 5.6, or a seccomp filter refusing it: ENOSYS/EPERM) the relative
// path is walked one component at a time with openat(O_NOFOLLOW |
// O_DIRECTORY), refusing `..`.
//
// To find the root, a path is first normalised (ExternalAccessPolicy::
// Normalize: realpath of its existing prefix), so legitimate links that
// lead to a place inside a root keep working; what the normalisation
// returned is only a name, the kernel enforces the rest. A path under no
// root fails with Status::InvalidArgument naming it and the roots.
// s3:// paths pass to S3FileSystem when a root is an s3:// prefix (compared
// lexically: object keys have no links).
//
//   ConfinedFileSystem fs({{"/db", "", "_lakestream"}, {"/data/in", "", ""}});
//   fs.ReadFile("/db/t/x.json");     // beneath /db, no link followed
//   fs.ReadFile("/etc/passwd");      // InvalidArgument: under no root
//
// Thread-safe.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/file_system.hpp"

namespace lakestream {

struct ConfinedRoot {
  std::string path;       // a folder, normalised; an s3:// prefix for object storage
  std::string only_name;  // non-empty: only this entry of `path` (a single allowed file)
  std::string excluded;   // non-empty: this entry of `path` and all below it are refused ("_lakestream")
};

// Opens `relative` ('/'-separated, not absolute, no `..`) beneath the
// directory `dir_fd` without following any symbolic link, its last
// component included: openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or
// the O_NOFOLLOW walk where the kernel lacks it. "" and "." open `dir_fd`'s
// folder itself. Returns the descriptor (O_CLOEXEC added) or -1 with errno
// set (ELOOP for a link, EXDEV/EINVAL for a path leaving the folder).
int OpenBeneath(int dir_fd, const std::string& relative, int flags, unsigned mode);
// Tests: false makes OpenBeneath use the component walk even where openat2
// exists, so both ways are exercised on one kernel. Returns the old value.
bool UseOpenat2ForTesting(bool use);
// Whether this kernel has openat2 (probed on first use).
bool KernelHasOpenat2();

class ConfinedFileSystem : public FileSystem {
 public:
  explicit ConfinedFileSystem(std::vector<ConfinedRoot> roots);
  ~ConfinedFileSystem() override;

  const std::vector<ConfinedRoot>& Roots() const { return roots_; }

  bool ReadsInPlace() const override { return true; }
  Result<int> OpenFile(const std::string& path, int flags, uint32_t mode) override;
  Result<std::string> ReadFile(const std::string& path) override;
  Result<std::string> ReadRange(const std::string& path, uint64_t offset, uint64_t length) override;
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
  Status SetMode(const std::string& path, uint32_t mode) override;

 private:
  // A path resolved to a root: `root_fd` (owned by this object) and the
  // path relative to it ("" for the root itself). remote: an s3:// path
  // under an s3:// root, to be served by S3FileSystem.
  struct Resolved {
    int root_fd = -1;
    std::string relative;
    bool remote = false;
  };
  // `entry`: the last component is the entry itself (to remove, rename,
  // link or test), so only the folder above it is normalised: a link there
  // is acted on as a link, not judged by where it leads.
  Result<Resolved> Resolve(const std::string& path, bool entry = false);
  // The folder holding `path`'s last component, opened beneath its root
  // (O_PATH | O_DIRECTORY; the caller closes it), and that component.
  Result<int> OpenParent(const std::string& path, std::string* name);
  Result<int> Open(const std::string& path, int flags, uint32_t mode, const char* action);
  // fstat of a local `path` opened beneath its root (O_PATH, no link followed).
  Result<struct stat> StatBeneath(const std::string& path);

  std::vector<ConfinedRoot> roots_;
  std::mutex lock_;
  std::vector<int> root_fds_;  // -1 until opened
};

}  // namespace lakestream
