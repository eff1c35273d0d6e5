#include "common/external_access.hpp"

#include <filesystem>

#include "common/confined_file_system.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"

namespace lakestream {

namespace fs = std::filesystem;

std::string ExternalAccessPolicy::Normalize(const std::string& path) {
  if (IsRemotePath(path)) {
    // An object key is a name, not a walk: S3 gives `..` no meaning.
    std::string text = path;
    while (!text.empty() && text.back() == '/') text.pop_back();
    return text;
  }
  std::error_code ec;
  fs::path absolute = fs::absolute(fs::path(path), ec);
  if (ec) absolute = fs::path(path);
  // weakly_canonical: realpath of the longest existing prefix, the rest
  // lexically normal. A path it cannot resolve (a loop, no permission to
  // look) is judged lexically, which never widens what passes: the roots it
  // is compared with are resolved, and a resolved root is no prefix of an
  // unresolved path that leaves it by `..`.
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  std::string text = ec ? absolute.lexically_normal().string() : canonical.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

static bool Inside(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

static std::string ListText(const std::vector<std::string>& items) {
  std::string text = "[";
  for (size_t i = 0; i < items.size(); i++) text += (i ? ", '" : "'") + items[i] + "'";
  return text + "]";
}

static std::vector<std::string> NormalizeAll(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (auto& p : paths) {
    if (p.empty()) throw InvalidInputError("an allowed path or directory must not be empty; name it, e.g. '/data/in'");
    out.push_back(ExternalAccessPolicy::Normalize(p));
  }
  return out;
}

ExternalAccessPolicy::ExternalAccessPolicy(const std::string& database_dir, bool enabled,
                                           const std::vector<std::string>& allowed_directories,
                                           const std::vector<std::string>& allowed_paths)
    : database_dir_(database_dir.empty() ? "" : Normalize(database_dir)),
      enabled_(enabled),
      allowed_directories_(NormalizeAll(allowed_directories)),
      allowed_paths_(NormalizeAll(allowed_paths)) {}

ExternalAccessPolicy::~ExternalAccessPolicy() = default;

FileSystem* ExternalAccessPolicy::Files() const {
  std::lock_guard<std::mutex> guard(lock_);
  if (enabled_) return FileSystem::Default();
  if (!confined_) {
    std::vector<ConfinedRoot> roots;
    if (!database_dir_.empty()) roots.push_back(ConfinedRoot{database_dir_, "", "_lakestream"});
    for (auto& dir : allowed_directories_) roots.push_back(ConfinedRoot{dir, "", ""});
    for (auto& path : allowed_paths_) {
      if (IsRemotePath(path)) roots.push_back(ConfinedRoot{path, "", ""});
      else roots.push_back(ConfinedRoot{ParentDirectory(path), BaseName(path), ""});
    }
    confined_ = std::make_unique<ConfinedFileSystem>(std::move(roots));
  }
  return confined_.get();
}

void ExternalAccessPolicy::CheckNotTableLog(const std::string& path, const std::string& what) const {
  std::string normalized = Normalize(path);
  std::string database_dir;
  {
    std::lock_guard<std::mutex> guard(lock_);
    database_dir = database_dir_;
  }
  std::string why;
  if (!database_dir.empty() && Inside(normalized, database_dir + "/_lakestream")) {
    why = "it is inside the database's _lakestream/ folder (the catalog and secrets)";
  } else {
    for (size_t start = 0; start < normalized.size();) {
      size_t slash = normalized.find('/', start);
      if (slash == std::string::npos) slash = normalized.size();
      if (normalized.compare(start, slash - start, "_delta_log") == 0 && slash - start == 10) {
        why = "it is inside the transaction log " + normalized.substr(0, slash) + " of a Delta table";
        break;
      }
      start = slash + 1;
    }
  }
  if (why.empty()) return;
  std::string shown = normalized == path ? path : path + " (" + normalized + ")";
  throw PermissionError(what + " cannot write " + shown + ": " + why +
                        ", where only the table's own commits are written (a file there would be read as a commit or "
                        "checkpoint); write it to another folder");
}

bool ExternalAccessPolicy::Enabled() const {
  std::lock_guard<std::mutex> guard(lock_);
  return enabled_;
}

std::vector<std::string> ExternalAccessPolicy::AllowedDirectories() const {
  std::lock_guard<std::mutex> guard(lock_);
  return allowed_directories_;
}

std::vector<std::string> ExternalAccessPolicy::AllowedPaths() const {
  std::lock_guard<std::mutex> guard(lock_);
  return allowed_paths_;
}

void ExternalAccessPolicy::SetEnabled(bool enabled) {
  std::lock_guard<std::mutex> guard(lock_);
  if (enabled && !enabled_) {
    throw InvalidInputError("enable_external_access cannot be turned back on once it is false; it stays off until the "
                            "database is closed (open it again to read and write outside it)");
  }
  enabled_ = enabled;
}

void ExternalAccessPolicy::SetAllowedDirectories(const std::vector<std::string>& directories) {
  auto normalized = NormalizeAll(directories);
  std::lock_guard<std::mutex> guard(lock_);
  if (!enabled_) {
    throw InvalidInputError("allowed_directories cannot change once enable_external_access is false; set it before "
                            "turning external access off");
  }
  allowed_directories_ = std::move(normalized);
}

void ExternalAccessPolicy::SetAllowedPaths(const std::vector<std::string>& paths) {
  auto normalized = NormalizeAll(paths);
  std::lock_guard<std::mutex> guard(lock_);
  if (!enabled_) {
    throw InvalidInputError("allowed_paths cannot change once enable_external_access is false; set it before turning "
                            "external access off");
  }
  allowed_paths_ = std::move(normalized);
}

std::string ExternalAccessPolicy::AllowedText() const {
  std::string text = database_dir_.empty() ? "allowed: (an in-memory database has no directory)"
                                            : "allowed: the database directory " + database_dir_;
  text += " and allowed_directories " + ListText(allowed_directories_) + ", allowed_paths " + ListText(allowed_paths_);
  return text;
}

std::string ExternalAccessPolicy::CheckPath(const std::string& path, AccessMode mode, const std::string& what) const {
  // The common case costs no system call: read_files checks every file it lists.
  if (Enabled()) return path;
  std::string normalized = Normalize(path);
  std::lock_guard<std::mutex> guard(lock_);
  // The catalog and secrets live here: no statement reads or writes them as files.
  bool in_database = Inside(normalized, database_dir_) && !Inside(normalized, database_dir_ + "/_lakestream");
  if (in_database) return normalized;
  for (auto& dir : allowed_directories_) {
    if (Inside(normalized, dir)) return normalized;
  }
  for (auto& p : allowed_paths_) {
    if (normalized == p) return normalized;
  }
  if (IsRemotePath(path)) {
    throw PermissionError(what + (mode == AccessMode::READ ? " cannot read " : " cannot write ") + path +
                          ": external access is disabled (enable_external_access = false), and object storage is "
                          "network access; " + AllowedText() + " (an s3:// prefix may be listed in allowed_directories)");
  }
  std::string shown = normalized == path ? path : path + " (" + normalized + ")";
  throw PermissionError(what + (mode == AccessMode::READ ? " cannot read " : " cannot write ") + shown +
                        ": external access is disabled (enable_external_access = false); " + AllowedText());
}

void ExternalAccessPolicy::CheckPattern(const std::string& pattern, AccessMode mode, const std::string& what) const {
  size_t wildcard = pattern.find_first_of("*?[");
  if (wildcard == std::string::npos) {
    CheckPath(pattern, mode, what);
    return;
  }
  size_t slash = pattern.rfind('/', wildcard);
  std::string prefix = slash == std::string::npos ? "." : (slash == 0 ? "/" : pattern.substr(0, slash));
  try {
    CheckPath(prefix, mode, what);
  } catch (const PermissionError&) {
    // Name what the user wrote, not only the directory it starts in.
    std::lock_guard<std::mutex> guard(lock_);
    throw PermissionError(what + (mode == AccessMode::READ ? " cannot read " : " cannot write ") + pattern + " (in " +
                          Normalize(prefix) + "): external access is disabled (enable_external_access = false); " +
                          AllowedText());
  }
}

void ExternalAccessPolicy::CheckNetwork(const std::string& endpoint, const std::string& what) const {
  std::lock_guard<std::mutex> guard(lock_);
  if (enabled_) return;
  throw PermissionError(what + " cannot connect to " + endpoint +
                        ": external access is disabled (enable_external_access = false), which refuses every network "
                        "connection; open the database without -safe / enable_external_access = false to use Kafka");
}

}  // namespace lakestream
