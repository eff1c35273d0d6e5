// ExternalAccessPolicy: which files and network endpoints statements may
// reach (DuckDB's enable_external_access, allowed_directories, allowed_paths).
// docs/security.md describes the model.
//
// While external access is enabled (the default) every path passes. Once it
// is disabled, a path passes only when, after normalisation, it lies inside
//   * the database directory (not its _lakestream/ folder, which holds the
//     catalog and secrets), or
//   * one of allowed_directories (a directory and everything below it), or
//   * is one of allowed_paths (that file exactly);
// and no network endpoint (Kafka) passes at all. An s3:// path is network
// access: it passes only under an s3:// prefix in allowed_directories (or
// as one of allowed_paths), compared lexically (S3 gives `..` no meaning).
//
// Normalisation: a relative path is made absolute against the working
// directory, then the longest existing prefix is resolved with realpath (so
// `..`, `//` and symlinks anywhere in the existing part are followed) and the
// rest is normalised lexically. So `/db/../etc/passwd` and `/db/link` with
// link -> /etc are judged by where they lead. The allowed roots are resolved
// the same way when they are set.
//
// Rules for changing the settings (DuckDB's): enable_external_access can be
// turned off at any time but never back on in a running database;
// allowed_directories and allowed_paths can be set only while external access
// is still enabled, since widening them afterwards would undo the switch.
// Thread-safe: sink and pipeline threads check paths while SET may run.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lakestream {

class FileSystem;
class ConfinedFileSystem;

enum class AccessMode { READ, WRITE };

class ExternalAccessPolicy {
 public:
  // `database_dir` is "" for an in-memory database (then only allowed_*
  // are reachable once access is disabled).
  ExternalAccessPolicy(const std::string& database_dir, bool enabled, const std::vector<std::string>& allowed_directories,
                       const std::vector<std::string>& allowed_paths);
  ~ExternalAccessPolicy();

  bool Enabled() const;
  std::vector<std::string> AllowedDirectories() const;
  std::vector<std::string> AllowedPaths() const;

  // Throws InvalidInputError when the change is not allowed (see above).
  void SetEnabled(bool enabled);
  void SetAllowedDirectories(const std::vector<std::string>& directories);
  void SetAllowedPaths(const std::vector<std::string>& paths);

  // Throws PermissionError when `path` may not be reached; `what` names the
  // reader or writer ("read_files", "COPY ... TO", "sink s") for the message.
  // Returns the normalised path it judged (`path` unchanged while access is enabled).
  std::string CheckPath(const std::string& path, AccessMode mode, const std::string& what) const;
  // CheckPath for a glob pattern ('dir/*.json'): judges the directory before
  // the first component with a wildcard, so a pattern that can only match
  // outside fails before anything is listed. Callers check each match too.
  void CheckPattern(const std::string& pattern, AccessMode mode, const std::string& what) const;
  // The file system statements reach files through: FileSystem::Default()
  // while external access is enabled; once it is disabled, a
  // ConfinedFileSystem (confined_file_system.hpp) whose roots are the
  // allowed places above, so a path judged by CheckPath is also opened
  // beneath them, with no link followed (no check-then-use gap). Never null;
  // lives as long as this policy.
  FileSystem* Files() const;
  // Throws PermissionError when `path` (as CheckPath normalises it) names a
  // table's transaction log (a `_delta_log` component) or the database's
  // `_lakestream/` folder: only the Delta commit writes there, whatever the
  // access setting (a COPY ... TO into a _delta_log forges commits and
  // checkpoints). `what` names the writer.
  void CheckNotTableLog(const std::string& path, const std::string& what) const;
  // Throws PermissionError when external access is disabled: `endpoint`
  // (a Kafka bootstrap list) is on the network, never inside the database.
  void CheckNetwork(const std::string& endpoint, const std::string& what) const;

  // The absolute path with `..`/`.`/`//` removed and the existing prefix's
  // symlinks resolved.
  static std::string Normalize(const std::string& path);

 private:
  std::string AllowedText() const;  // lock_ held

  mutable std::mutex lock_;
  std::string database_dir_;  // normalised; "" in memory
  bool enabled_;
  std::vector<std::string> allowed_directories_;  // normalised
  std::vector<std::string> allowed_paths_;        // normalised
  // Made on the first Files() after access is disabled; the roots cannot
  // change from then on.
  mutable std::unique_ptr<ConfinedFileSystem> confined_;
};

}  // namespace lakestream
