#include "common/confined_file_system.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "common/external_access.hpp"
#include "common/s3/s3_file_system.hpp"

namespace lakestream {

namespace {

// 1: openat2 works; 0: not probed yet; -1: the kernel (or a seccomp filter) refuses it.
std::atomic<int> openat2_state{0};
std::atomic<bool> use_openat2{true};

// Splits `relative` into components; false for an absolute path or `..`.
bool Components(const std::string& relative, std::vector<std::string>& out) {
  if (!relative.empty() && relative[0] == '/') return false;
  size_t start = 0;
  while (start <= relative.size()) {
    size_t slash = relative.find('/', start);
    if (slash == std::string::npos) slash = relative.size();
    std::string part = relative.substr(start, slash - start);
    if (part == "..") return false;
    if (!part.empty() && part != ".") out.push_back(std::move(part));
    start = slash + 1;
  }
  return true;
}

// The fallback: one openat per component, never following a link. An
// intermediate link fails with ENOTDIR/ELOOP (O_NOFOLLOW | O_DIRECTORY), the
// last with ELOOP (O_NOFOLLOW); O_PATH would open a link itself, so that
// case is checked with fstat.
int WalkBeneath(int dir_fd, const std::string& relative, int flags, unsigned mode) {
  std::vector<std::string> parts;
  if (!Components(relative, parts)) {
    errno = EXDEV;
    return -1;
  }
  if (parts.empty()) return ::openat(dir_fd, ".", flags | O_CLOEXEC, static_cast<mode_t>(mode));
  int current = dir_fd;
  for (size_t i = 0; i + 1 < parts.size(); i++) {
    int next = ::openat(current, parts[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int err = errno;
    if (current != dir_fd) ::close(current);
    if (next < 0) {
      errno = err;
      return -1;
    }
    current = next;
  }
  int fd = ::openat(current, parts.back().c_str(), flags | O_NOFOLLOW | O_CLOEXEC, static_cast<mode_t>(mode));
  int err = errno;
  if (current != dir_fd) ::close(current);
  if (fd >= 0 && (flags & O_PATH)) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
      ::close(fd);
      errno = ELOOP;
      return -1;
    }
  }
  if (fd < 0) errno = err;
  return fd;
}

int Openat2Beneath(int dir_fd, const std::string& relative, int flags, unsigned mode) {
  open_how how{};
  how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & O_CREAT) == O_CREAT || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const char* name = relative.empty() ? "." : relative.c_str();
  for (int attempt = 0;; attempt++) {
    long fd = ::syscall(SYS_openat2, dir_fd, name, &how, sizeof(how));
    if (fd >= 0) return static_cast<int>(fd);
    // EAGAIN: a rename raced the lookup (RESOLVE_BENEATH's check); retry.
    if (errno == EINTR || (errno == EAGAIN && attempt < 16)) continue;
    return -1;
  }
}

}  // namespace

bool UseOpenat2ForTesting(bool use) { return use_openat2.exchange(use); }

bool KernelHasOpenat2() {
  if (openat2_state.load() == 0) {
    int fd = Openat2Beneath(AT_FDCWD, ".", O_PATH | O_DIRECTORY, 0);
    openat2_state.store(fd >= 0 ? 1 : ((errno == ENOSYS || errno == EPERM) ? -1 : 1));
    if (fd >= 0) ::close(fd);
  }
  return openat2_state.load() > 0;
}

int OpenBeneath(int dir_fd, const std::string& relative, int flags, unsigned mode) {
  if (use_openat2.load() && KernelHasOpenat2()) {
    if (!relative.empty() && relative[0] == '/') {
      errno = EXDEV;
      return -1;
    }
    return Openat2Beneath(dir_fd, relative, flags, mode);
  }
  return WalkBeneath(dir_fd, relative, flags, mode);
}

static bool Inside(const std::string& path, const std::string& dir) {
  if (dir == "/") return !path.empty() && path[0] == '/';
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

// The error of a confined open: a link or a path leaving the root reads as
// what it is, not as "Too many levels of symbolic links".
static Status ConfinedError(const std::string& action, const std::string& path, int err) {
  if (err == ELOOP || err == EXDEV) {
    return Status::InvalidArgument("cannot " + action + " " + path +
                                   ": it is reached through a symbolic link (or leaves its allowed folder), and with "
                                   "external access disabled no link is followed; name the file itself");
  }
  return PosixError("cannot " + action + " " + path, err);
}

ConfinedFileSystem::ConfinedFileSystem(std::vector<ConfinedRoot> roots)
    : roots_(std::move(roots)), root_fds_(roots_.size(), -1) {}

ConfinedFileSystem::~ConfinedFileSystem() {
  for (int fd : root_fds_)
    if (fd >= 0) ::close(fd);
}

Result<ConfinedFileSystem::Resolved> ConfinedFileSystem::Resolve(const std::string& path, bool entry) {
  bool remote = IsRemotePath(path);
  std::string normalized;
  if (entry && !remote) {
    std::string name = BaseName(path);
    if (name.empty() || name == "." || name == ".." || name == "/") {
      return Status::InvalidArgument(path + " names no entry of a folder");
    }
    normalized = JoinPath(ExternalAccessPolicy::Normalize(ParentDirectory(path)), name);
  } else {
    normalized = ExternalAccessPolicy::Normalize(path);
  }
  for (size_t i = 0; i < roots_.size(); i++) {
    const ConfinedRoot& root = roots_[i];
    if (IsRemotePath(root.path) != remote || !Inside(normalized, root.path)) continue;
    std::string relative = normalized.size() > root.path.size() ? normalized.substr(root.path.size() + 1) : "";
    if (root.path == "/") relative = normalized.substr(1);
    if (!root.only_name.empty() && relative != root.only_name) continue;
    if (!root.excluded.empty() && Inside(relative, root.excluded)) continue;
    Resolved out;
    out.relative = relative;
    out.remote = remote;
    if (remote) return out;
    std::lock_guard<std::mutex> guard(lock_);
    if (root_fds_[i] < 0) {
      // Opened once and kept: what is beneath this descriptor is what the
      // root named when it was first used, whatever is renamed later.
      int fd = ::open(root.path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0) return PosixError("cannot open the allowed folder " + root.path, errno);
      root_fds_[i] = fd;
    }
    out.root_fd = root_fds_[i];
    return out;
  }
  std::string list;
  for (auto& root : roots_) list += (list.empty() ? "" : ", ") + JoinPath(root.path, root.only_name);
  std::string shown = normalized == path ? path : path + " (" + normalized + ")";
  return Status::InvalidArgument(shown + " lies outside the allowed folders [" + list +
                                 "]: external access is disabled (enable_external_access = false)");
}

Result<int> ConfinedFileSystem::Open(const std::string& path, int flags, uint32_t mode, const char* action) {
  auto resolved = Resolve(path);
  if (!resolved.ok()) return resolved.status();
  if (resolved.value().remote) return Status::NotSupported("opening " + path + " as a local file descriptor");
  int fd = OpenBeneath(resolved.value().root_fd, resolved.value().relative, flags, mode);
  if (fd < 0) return ConfinedError(action, path, errno);
  return fd;
}

Result<int> ConfinedFileSystem::OpenParent(const std::string& path, std::string* name) {
  auto resolved = Resolve(path, true);
  if (!resolved.ok()) return resolved.status();
  if (resolved.value().remote) return Status::NotSupported("a directory entry operation on " + path);
  const std::string& relative = resolved.value().relative;
  if (relative.empty()) return Status::InvalidArgument(path + " is an allowed folder itself, not an entry in it");
  size_t slash = relative.rfind('/');
  *name = slash == std::string::npos ? relative : relative.substr(slash + 1);
  std::string parent = slash == std::string::npos ? "" : relative.substr(0, slash);
  int fd = OpenBeneath(resolved.value().root_fd, parent, O_PATH | O_DIRECTORY, 0);
  if (fd < 0) return ConfinedError("open the folder of", path, errno);
  return fd;
}

Result<int> ConfinedFileSystem::OpenFile(const std::string& path, int flags, uint32_t mode) {
  return Open(path, flags, mode, "open");
}

Result<std::string> ConfinedFileSystem::ReadFile(const std::string& path) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->ReadFile(path);
  }
  auto fd = Open(path, O_RDONLY, 0, "open");
  if (!fd.ok()) return fd.status();
  return ReadWholeFd(fd.value(), path);
}

Result<std::string> ConfinedFileSystem::ReadRange(const std::string& path, uint64_t offset, uint64_t length) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->ReadRange(path, offset, length);
  }
  auto fd = Open(path, O_RDONLY, 0, "open");
  if (!fd.ok()) return fd.status();
  return ReadFdRange(fd.value(), path, offset, length);
}

Status ConfinedFileSystem::WriteFile(const std::string& path, const std::string& contents) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->WriteFile(path, contents);
  }
  auto fd = Open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666, "create");
  if (!fd.ok()) return fd.status();
  return WriteWholeFd(fd.value(), path, contents);
}

Result<std::vector<std::string>> ConfinedFileSystem::ListDirectory(const std::string& dir) {
  if (IsRemotePath(dir)) {
    auto resolved = Resolve(dir);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->ListDirectory(dir);
  }
  auto fd = Open(dir, O_RDONLY | O_DIRECTORY, 0, "list");
  if (!fd.ok()) return fd.status();
  return ListDirectoryFd(fd.value(), dir);
}

Status ConfinedFileSystem::CreateDirectories(const std::string& dir) {
  if (dir.empty()) return Status::OK();
  auto resolved = Resolve(dir);
  if (!resolved.ok()) return resolved.status();
  if (resolved.value().remote) return S3FileSystem::Instance()->CreateDirectories(dir);
  std::vector<std::string> parts;
  if (!Components(resolved.value().relative, parts)) return ConfinedError("create the folder", dir, EXDEV);
  // mkdirat, then step into what was made without following a link: a link
  // planted at a component between the two fails the step.
  int current = resolved.value().root_fd;
  for (auto& part : parts) {
    int err = ::mkdirat(current, part.c_str(), 0777) == 0 ? 0 : errno;
    int next = err == 0 || err == EEXIST ? ::openat(current, part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (next < 0 && err == 0) err = errno;
    if (next < 0 && err == EEXIST) err = errno == ENOTDIR ? ELOOP : errno;
    if (current != resolved.value().root_fd) ::close(current);
    if (next < 0) return ConfinedError("create the folder", dir, err);
    current = next;
  }
  if (current != resolved.value().root_fd) ::close(current);
  return Status::OK();
}

bool ConfinedFileSystem::FileExists(const std::string& path) {
  if (IsRemotePath(path)) return Resolve(path).ok() && S3FileSystem::Instance()->FileExists(path);
  std::string name;
  auto parent = OpenParent(path, &name);
  if (!parent.ok()) {
    // The root itself.
    auto fd = Open(path, O_PATH, 0, "open");
    if (!fd.ok()) return false;
    ::close(fd.value());
    return true;
  }
  struct stat st {};
  bool exists = ::fstatat(parent.value(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  ::close(parent.value());
  return exists;
}

Result<uint64_t> ConfinedFileSystem::FileSize(const std::string& path) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->FileSize(path);
  }
  auto st = StatBeneath(path);
  if (!st.ok()) return st.status();
  return static_cast<uint64_t>(st.value().st_size);
}

Result<int64_t> ConfinedFileSystem::ModificationTime(const std::string& path) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->ModificationTime(path);
  }
  auto st = StatBeneath(path);
  if (!st.ok()) return st.status();
  return static_cast<int64_t>(st.value().st_mtim.tv_sec) * 1000 + st.value().st_mtim.tv_nsec / 1000000;
}

Result<struct stat> ConfinedFileSystem::StatBeneath(const std::string& path) {
  auto fd = Open(path, O_PATH, 0, "stat");
  if (!fd.ok()) return fd.status();
  struct stat st {};
  int rc = ::fstat(fd.value(), &st);
  int err = errno;
  ::close(fd.value());
  if (rc != 0) return PosixError("cannot stat " + path, err);
  return st;
}

Status ConfinedFileSystem::RemoveFile(const std::string& path) {
  if (IsRemotePath(path)) {
    auto resolved = Resolve(path);
    if (!resolved.ok()) return resolved.status();
    return S3FileSystem::Instance()->RemoveFile(path);
  }
  // unlinkat removes the entry in the opened folder: a link there is
  // removed itself, never what it points to.
  std::string name;
  auto parent = OpenParent(path, &name);
  if (!parent.ok()) return parent.status();
  int rc = ::unlinkat(parent.value(), name.c_str(), 0);
  int err = errno;
  ::close(parent.value());
  if (rc != 0) return PosixError("cannot remove " + path, err);
  return Status::OK();
}

Status ConfinedFileSystem::Rename(const std::string& from, const std::string& to) {
  if (IsRemotePath(from) || IsRemotePath(to)) return Status::NotSupported("rename on object storage (" + from + ")");
  std::string from_name, to_name;
  auto from_parent = OpenParent(from, &from_name);
  if (!from_parent.ok()) return from_parent.status();
  auto to_parent = OpenParent(to, &to_name);
  if (!to_parent.ok()) {
    ::close(from_parent.value());
    return to_parent.status();
  }
  int rc = ::renameat(from_parent.value(), from_name.c_str(), to_parent.value(), to_name.c_str());
  int err = errno;
  ::close(from_parent.value());
  ::close(to_parent.value());
  if (rc != 0) return PosixError("cannot rename " + from + " to " + to, err);
  return Status::OK();
}

Status ConfinedFileSystem::Link(const std::string& from, const std::string& to) {
  if (IsRemotePath(from) || IsRemotePath(to)) return Status::NotSupported("link on object storage (" + from + ")");
  std::string from_name, to_name;
  auto from_parent = OpenParent(from, &from_name);
  if (!from_parent.ok()) return from_parent.status();
  auto to_parent = OpenParent(to, &to_name);
  if (!to_parent.ok()) {
    ::close(from_parent.value());
    return to_parent.status();
  }
  // No AT_SYMLINK_FOLLOW: a link at `from` is linked itself, never its target.
  int rc = ::linkat(from_parent.value(), from_name.c_str(), to_parent.value(), to_name.c_str(), 0);
  int err = errno;
  ::close(from_parent.value());
  ::close(to_parent.value());
  if (rc != 0) {
    if (err == EEXIST) return Status::AlreadyExists(to + " already exists");
    return PosixError("cannot link " + from + " to " + to, err);
  }
  return Status::OK();
}

Status ConfinedFileSystem::Fsync(const std::string& path) {
  if (IsRemotePath(path)) return Status::OK();
  auto fd = Open(path, O_RDONLY, 0, "open for fsync");
  if (!fd.ok()) return fd.status();
  int rc = ::fsync(fd.value());
  int err = errno;
  ::close(fd.value());
  if (rc != 0) return PosixError("cannot fsync " + path, err);
  return Status::OK();
}

Status ConfinedFileSystem::FsyncDirectory(const std::string& dir) {
  if (IsRemotePath(dir)) return Status::OK();
  auto fd = Open(dir, O_RDONLY | O_DIRECTORY, 0, "open for fsync");
  if (!fd.ok()) return fd.status();
  int rc = ::fsync(fd.value());
  int err = errno;
  ::close(fd.value());
  if (rc != 0) return PosixError("cannot fsync " + dir, err);
  return Status::OK();
}

Status ConfinedFileSystem::SetMode(const std::string& path, uint32_t mode) {
  if (IsRemotePath(path)) return Status::OK();
  auto fd = Open(path, O_RDONLY, 0, "open");
  if (!fd.ok()) return fd.status();
  int rc = ::fchmod(fd.value(), static_cast<mode_t>(mode));
  int err = errno;
  ::close(fd.value());
  if (rc != 0) return PosixError("cannot set the permissions of " + path, err);
  return Status::OK();
}

}  // namespace lakestream
