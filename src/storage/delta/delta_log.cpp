#include "storage/delta/delta_log.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "common/date.hpp"
#include "storage/delta/log_sync.hpp"

namespace lakestream::delta {

namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int64_t ToInt(std::string_view s) {
  int64_t v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string FormatMs(int64_t ms) { return Timestamp::ToIsoString(ms * 1000); }

// What is still sound when the log cannot be read from `version` on.
std::string OlderVersionHint(int64_t version) {
  if (version <= 0) return "";
  if (version == 1) return " (version 0 is intact)";
  return " (versions 0 to " + std::to_string(version - 1) + " are intact)";
}

}  // namespace

struct DeltaLog::Listing {
  std::set<int64_t> commits;
  // Complete checkpoints: version -> file names (parts in order).
  std::map<int64_t, std::vector<std::string>> checkpoints;
  bool has_last_checkpoint = false;

  int64_t Latest() const {
    int64_t latest = -1;
    if (!commits.empty()) latest = *commits.rbegin();
    if (!checkpoints.empty()) latest = std::max(latest, checkpoints.rbegin()->first);
    return latest;
  }
  // Smallest version that can be reconstructed (-1 when none).
  int64_t Earliest() const {
    int64_t earliest = commits.count(0) ? 0 : -1;
    if (!checkpoints.empty() && (earliest < 0 || checkpoints.begin()->first < earliest))
      earliest = checkpoints.begin()->first;
    return earliest;
  }
  bool CommitsCover(int64_t from, int64_t to) const {  // every commit in [from, to]
    for (int64_t v = from; v <= to; v++)
      if (!commits.count(v)) return false;
    return true;
  }
  // A commit missing between where a replay of `target` would start (the
  // newest checkpoint at or before it, else version 0) and `target`: a gap,
  // which no log cleanup leaves (cleanup removes only commits older than a
  // checkpoint). nullopt when the history was merely cleaned up.
  std::optional<int64_t> FirstGap(int64_t target) const {
    int64_t start = 0;
    auto it = checkpoints.upper_bound(target);
    if (it != checkpoints.begin()) {
      start = std::prev(it)->first + 1;
    } else if (!commits.count(0) && !checkpoints.empty()) {
      return std::nullopt;  // the history before the oldest checkpoint was cleaned up
    }
    for (int64_t v = start; v <= target; v++)
      if (!commits.count(v)) return v;
    return std::nullopt;
  }
};

DeltaLog::DeltaLog(FileSystem* fs, std::string table_path)
    : fs_(fs), table_path_(std::move(table_path)), log_path_(JoinPath(table_path_, "_delta_log")) {}

Result<std::unique_ptr<DeltaLog>> DeltaLog::Open(FileSystem* fs, const std::string& table_path) {
  if (!fs) return Status::InvalidArgument("DeltaLog::Open: no file system");
  if (table_path.empty()) return Status::InvalidArgument("DeltaLog::Open: empty table path");
  std::string path = table_path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return std::unique_ptr<DeltaLog>(new DeltaLog(fs, path));
}

Result<DeltaLog::Listing> DeltaLog::List() {
  auto names = fs_->ListDirectory(log_path_);
  if (!names.ok()) {
    if (names.status().IsNotFound())
      return Status::NotFound("no Delta table at " + table_path_ + ": " + log_path_ + " does not exist");
    return names.status();
  }
  Listing listing;
  // version -> (parts declared -> part numbers seen)
  std::map<int64_t, std::map<int64_t, std::map<int64_t, std::string>>> multipart;
  std::map<int64_t, std::string> v2;
  auto ends_with = [](std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
  };
  for (const auto& name : names.value()) {
    std::string_view n = name;
    if (n == "_last_checkpoint") {
      listing.has_last_checkpoint = true;
      continue;
    }
    if (n.size() < 21 || !AllDigits(n.substr(0, 20)) || n[20] != '.') continue;
    int64_t version = ToInt(n.substr(0, 20));
    std::string_view rest = n.substr(21);
    if (rest == "json") {
      listing.commits.insert(version);
    } else if (rest == "checkpoint.parquet") {
      listing.checkpoints[version] = {name};
    } else if (rest.size() == 40 && rest.substr(0, 11) == "checkpoint." &&
               AllDigits(rest.substr(11, 10)) && rest[21] == '.' && AllDigits(rest.substr(22, 10)) &&
               rest.substr(32) == ".parquet") {
      multipart[version][ToInt(rest.substr(22, 10))][ToInt(rest.substr(11, 10))] = name;
    }
    // A V2 checkpoint: "checkpoint.<uuid>.json" or ".parquet", a manifest
    // whose sidecar actions name the files holding the adds and removes.
    else if (rest.rfind("checkpoint.", 0) == 0 && (ends_with(rest, ".json") || ends_with(rest, ".parquet"))) {
      std::string_view uuid = rest.substr(11, rest.size() - 11 - (ends_with(rest, ".json") ? 5 : 8));
      if (uuid.size() == 36 && uuid.find('.') == std::string_view::npos) v2[version] = name;
    }
    // Anything else (.crc, compacted logs, temp files) is not needed to read.
  }
  for (auto& [version, name] : v2) {
    if (!multipart.count(version)) listing.checkpoints.emplace(version, std::vector<std::string>{name});
  }
  for (auto& [version, by_parts] : multipart) {
    if (listing.checkpoints.count(version)) continue;  // prefer the classic one
    for (auto& [parts, seen] : by_parts) {
      if (static_cast<int64_t>(seen.size()) != parts || seen.begin()->first != 1) continue;  // incomplete: ignore
      std::vector<std::string> files;
      for (auto& [part, file] : seen) files.push_back(file);
      listing.checkpoints[version] = files;
      break;
    }
  }
  return listing;
}

bool DeltaLog::CommitExists(int64_t version) { return fs_->FileExists(JoinPath(log_path_, CommitFileName(version))); }

bool DeltaLog::Exists() {
  if (CommitExists(0)) return true;  // the common case, without listing a long log
  auto listing = List();
  return listing.ok() && listing.value().Latest() >= 0;
}

Result<int64_t> DeltaLog::LatestVersion() {
  auto listing = List();
  if (!listing.ok()) return listing.status().IsNotFound() ? Result<int64_t>(int64_t{-1}) : listing.status();
  return listing.value().Latest();
}

Result<std::vector<Action>> DeltaLog::ReadCommit(int64_t version) {
  if (version < 0) return Status::InvalidArgument("negative version " + std::to_string(version));
  std::string path = JoinPath(log_path_, CommitFileName(version));
  auto contents = fs_->ReadFile(path);
  if (!contents.ok()) {
    if (contents.status().IsNotFound())
      return Status::NotFound("version " + std::to_string(version) + " of table " + table_path_ +
                              " has no commit file (" + path + ")");
    return contents.status();
  }
  auto actions = ParseCommit(contents.value(), path);
  if (!actions.ok() && actions.status().IsCorruption()) {
    // Commits are created whole (put-if-absent of a fsynced temp file), so a
    // torn or garbled one is damage done after its commit, not a commit in
    // progress: it is not skipped, and reading stops with the file named.
    return Status::Corruption("the commit file of version " + std::to_string(version) + " is damaged: " +
                              actions.status().message() + ". Restore " + path +
                              " from a backup" + OlderVersionHint(version));
  }
  return actions;
}

namespace {
std::optional<int64_t> TimestampOf(const std::vector<Action>& actions) {
  for (const auto& a : actions)
    if (auto* ci = std::get_if<CommitInfo>(&a))
      if (ci->CommitTimeMs()) return ci->CommitTimeMs();
  return std::nullopt;
}
}  // namespace

Result<int64_t> DeltaLog::CommitTimestamp(int64_t version) {
  auto actions = ReadCommit(version);
  if (!actions.ok()) return actions.status();
  if (auto ts = TimestampOf(actions.value())) return *ts;
  return fs_->ModificationTime(JoinPath(log_path_, CommitFileName(version)));
}

Result<Snapshot> DeltaLog::Replay(const Listing& listing, int64_t target, const LoadOptions& options) {
  Snapshot snap;
  snap.table_path = table_path_;
  bool started = false;
  Status checkpoint_error;
  if (options.use_checkpoint) {
    for (auto it = listing.checkpoints.rbegin(); it != listing.checkpoints.rend(); ++it) {
      int64_t cv = it->first;
      if (cv > target || !listing.CommitsCover(cv + 1, target)) continue;
      std::vector<std::string> paths;
      for (const auto& f : it->second) paths.push_back(JoinPath(log_path_, f));
      Snapshot base;
      Status loaded = LoadCheckpoint(fs_, paths, cv, base);
      if (!loaded.ok()) {
        snap.warnings.push_back("skipped unreadable checkpoint: " + loaded.message());
        if (checkpoint_error.ok()) checkpoint_error = loaded;
        continue;
      }
      base.table_path = table_path_;
      base.warnings = std::move(snap.warnings);
      snap = std::move(base);
      snap.checkpoint_version = cv;
      started = true;
      break;
    }
  }
  if (!started) {
    if (!listing.CommitsCover(0, target)) {
      if (!checkpoint_error.ok()) return checkpoint_error;
      if (std::optional<int64_t> missing = listing.FirstGap(target)) {
        std::string path = JoinPath(log_path_, CommitFileName(*missing));
        return Status::Corruption("the log of table " + table_path_ + " has a gap: the commit file of version " +
                                  std::to_string(*missing) + " (" + path + ") is missing, while later versions up to " +
                                  std::to_string(listing.Latest()) + " exist, so version " + std::to_string(target) +
                                  " cannot be reconstructed. Restore " + path + " from a backup" +
                                  OlderVersionHint(*missing));
      }
      return Status::InvalidArgument("cannot load version " + std::to_string(target) + " of table " + table_path_ +
                                     ": its log was cleaned up; available versions are " +
                                     std::to_string(listing.Earliest()) + " to " + std::to_string(listing.Latest()));
    }
  }
  for (int64_t v = started ? snap.version + 1 : 0; v <= target; v++) {
    auto actions = ReadCommit(v);
    if (!actions.ok()) return actions.status();
    std::optional<int64_t> ts = TimestampOf(actions.value());
    if (!ts) {
      auto mtime = fs_->ModificationTime(JoinPath(log_path_, CommitFileName(v)));
      if (mtime.ok()) ts = mtime.value();
    }
    snap.Apply(v, actions.value(), ts);
  }
  if (snap.metadata.id.empty())
    return Status::Corruption("table " + table_path_ + " has no metaData action up to version " +
                              std::to_string(target));
  LS_RETURN_NOT_OK(CheckReadable(table_path_, snap.protocol, snap.metadata));
  LS_RETURN_NOT_OK(snap.ParseSchema());
  return snap;
}

std::optional<Snapshot> DeltaLog::LoadLatestFromLastCheckpoint(const LoadOptions& options) {
  // More parts than this is not a checkpoint we would want to trust unlisted.
  constexpr int64_t kMaxParts = 100000;
  auto lc = ReadLastCheckpoint();
  if (!lc.ok()) return std::nullopt;
  int64_t cv = lc.value().version;
  Listing listing;
  std::vector<std::string>& names = listing.checkpoints[cv];
  auto contents = fs_->ReadFile(JoinPath(log_path_, "_last_checkpoint"));
  std::optional<std::string> v2 = contents.ok() ? LastCheckpointV2Path(contents.value(), cv) : std::nullopt;
  if (v2) {
    names.push_back(*v2);
  } else if (std::optional<int64_t> parts = lc.value().parts) {
    if (*parts < 1 || *parts > kMaxParts) return std::nullopt;
    for (int64_t part = 1; part <= *parts; part++) names.push_back(CheckpointPartFileName(cv, part, *parts));
  } else {
    names.push_back(CheckpointFileName(cv));
  }
  listing.has_last_checkpoint = true;
  // A missing part shows up as NotFound when Replay reads it.
  int64_t v = cv + 1;
  for (; CommitExists(v); v++) listing.commits.insert(v);
  // A commit after the missing one means a gap, not the end of the log: the
  // listing path names it (one more stat, not a listing).
  if (CommitExists(v + 1)) return std::nullopt;
  auto snap = Replay(listing, listing.Latest(), options);
  // Replay would have fallen back to an older checkpoint or the JSON commits
  // had it seen them; with this partial listing only a clean load counts.
  if (!snap.ok() || !snap.value().warnings.empty()) return std::nullopt;
  return snap.take();
}

Result<Snapshot> DeltaLog::LoadSnapshot(std::optional<int64_t> version, const LoadOptions& options) {
  if (!version && options.use_checkpoint)
    if (auto snap = LoadLatestFromLastCheckpoint(options)) return std::move(*snap);
  auto listing_or = List();
  if (!listing_or.ok()) return listing_or.status();
  const Listing& listing = listing_or.value();
  int64_t latest = listing.Latest();
  if (latest < 0) return Status::NotFound("no Delta table at " + table_path_ + ": " + log_path_ + " has no commits");
  int64_t target = version.value_or(latest);
  if (target < 0 || target > latest)
    return Status::InvalidArgument("version " + std::to_string(target) + " of table " + table_path_ +
                                   " does not exist; available versions are " + std::to_string(listing.Earliest()) +
                                   " to " + std::to_string(latest));
  std::vector<std::string> warnings;
  if (listing.has_last_checkpoint) {
    auto lc = ReadLastCheckpoint();
    if (!lc.ok()) warnings.push_back("ignored " + lc.status().message());
    else if (!listing.checkpoints.count(lc.value().version))
      warnings.push_back("ignored stale " + JoinPath(log_path_, "_last_checkpoint") + ": checkpoint " +
                         std::to_string(lc.value().version) + " is missing or incomplete");
  }
  auto snap = Replay(listing, target, options);
  if (snap.ok()) snap.value().warnings.insert(snap.value().warnings.begin(), warnings.begin(), warnings.end());
  return snap;
}

Result<Snapshot> DeltaLog::UpdateSnapshot(const Snapshot& base) {
  // Every new version adds its commit file, so without base.version + 1
  // nothing is newer (and a long log need not be listed).
  if (base.version >= 0 && !CommitExists(base.version + 1)) return base;
  // A few new commits (a follower's pass, a writer's refresh) are found by
  // probing the next names: a long log's listing costs more than the
  // commits. Past kProbedCommits, the listing may offer a checkpoint.
  constexpr int64_t kProbedCommits = 16;
  int64_t latest = -1;
  if (base.version >= 0) {
    for (int64_t v = base.version + 2; v <= base.version + kProbedCommits; v++) {
      if (!CommitExists(v)) {
        latest = v - 1;
        break;
      }
    }
  }
  if (latest < 0) {
    auto listing_or = List();
    if (!listing_or.ok()) return listing_or.status();
    const Listing& listing = listing_or.value();
    latest = listing.Latest();
    if (latest <= base.version) return base;
    if (base.version < 0 || !listing.CommitsCover(base.version + 1, latest)) return LoadSnapshot(latest);
  }
  Snapshot snap = base;
  snap.warnings.clear();
  std::string schema_before = snap.metadata.schema_string;
  for (int64_t v = base.version + 1; v <= latest; v++) {
    auto actions = ReadCommit(v);
    if (!actions.ok()) return actions.status();
    std::optional<int64_t> ts = TimestampOf(actions.value());
    if (!ts) {
      auto mtime = fs_->ModificationTime(JoinPath(log_path_, CommitFileName(v)));
      if (mtime.ok()) ts = mtime.value();
    }
    snap.Apply(v, actions.value(), ts);
  }
  LS_RETURN_NOT_OK(CheckReadable(table_path_, snap.protocol, snap.metadata));
  if (snap.metadata.schema_string != schema_before) LS_RETURN_NOT_OK(snap.ParseSchema());
  return snap;
}

Result<int64_t> DeltaLog::VersionAtOrBefore(int64_t timestamp_ms) {
  auto listing_or = List();
  if (!listing_or.ok()) return listing_or.status();
  const Listing& listing = listing_or.value();
  int64_t earliest = listing.Earliest(), latest = listing.Latest();
  if (latest < 0) return Status::NotFound("no Delta table at " + table_path_);
  // Commit timestamps, made strictly increasing as Delta does, so a clock
  // that went backwards cannot make the answer ambiguous.
  std::vector<std::pair<int64_t, int64_t>> times;  // (version, ts)
  for (int64_t v = earliest; v <= latest; v++) {
    int64_t ts;
    if (listing.commits.count(v)) {
      auto t = CommitTimestamp(v);
      if (!t.ok()) return t.status();
      ts = t.value();
    } else {
      auto it = listing.checkpoints.find(v);
      if (it == listing.checkpoints.end()) continue;
      auto t = fs_->ModificationTime(JoinPath(log_path_, it->second.front()));
      if (!t.ok()) return t.status();
      ts = t.value();
    }
    if (!times.empty() && ts <= times.back().second) ts = times.back().second + 1;
    times.emplace_back(v, ts);
  }
  if (times.empty()) return Status::NotFound("no Delta table at " + table_path_);
  auto range = [&]() {
    return "available are version " + std::to_string(times.front().first) + " (" + FormatMs(times.front().second) +
           ") to version " + std::to_string(times.back().first) + " (" + FormatMs(times.back().second) + ")";
  };
  if (timestamp_ms < times.front().second)
    return Status::InvalidArgument("timestamp " + FormatMs(timestamp_ms) + " is before the earliest version of table " +
                                   table_path_ + "; " + range());
  if (timestamp_ms > times.back().second)
    return Status::InvalidArgument("timestamp " + FormatMs(timestamp_ms) + " is after the latest version of table " +
                                   table_path_ + "; " + range());
  int64_t found = times.front().first;
  for (const auto& [v, ts] : times) {
    if (ts > timestamp_ms) break;
    found = v;
  }
  return found;
}

Result<std::vector<HistoryEntry>> DeltaLog::History(std::optional<size_t> limit) {
  auto listing_or = List();
  if (!listing_or.ok()) return listing_or.status();
  std::vector<HistoryEntry> out;
  const auto& commits = listing_or.value().commits;
  for (auto it = commits.rbegin(); it != commits.rend(); ++it) {
    if (limit && out.size() >= *limit) break;
    auto actions = ReadCommit(*it);
    if (!actions.ok()) return actions.status();
    HistoryEntry e;
    e.version = *it;
    const CommitInfo* ci = nullptr;
    for (const auto& a : actions.value())
      if ((ci = std::get_if<CommitInfo>(&a))) break;
    if (ci) {
      e.operation = ci->operation.value_or("");
      e.operation_parameters = ci->operation_parameters;
      e.engine_info = ci->engine_info;
      e.is_blind_append = ci->is_blind_append;
      e.read_version = ci->read_version;
    }
    if (ci && ci->CommitTimeMs()) {
      e.timestamp_ms = *ci->CommitTimeMs();
    } else {
      auto mtime = fs_->ModificationTime(JoinPath(log_path_, CommitFileName(*it)));
      if (!mtime.ok()) return mtime.status();
      e.timestamp_ms = mtime.value();
    }
    out.push_back(std::move(e));
  }
  return out;
}

Status DeltaLog::Commit(int64_t version, const std::vector<Action>& actions, const DurableSet& first, Sync sync,
                        const std::function<Status()>& before_link, const std::string& spare_temp) {
  if (version < 0) return Status::InvalidArgument("cannot commit negative version " + std::to_string(version));
  if (actions.empty()) return Status::InvalidArgument("cannot commit an empty list of actions");
  LS_RETURN_NOT_OK(fs_->CreateDirectories(log_path_));
  if (version > 0 && !fs_->FileExists(JoinPath(log_path_, CommitFileName(version - 1))) &&
      !fs_->FileExists(JoinPath(log_path_, CheckpointFileName(version - 1))))
    return Status::InvalidArgument("cannot commit version " + std::to_string(version) + " of table " + table_path_ +
                                   ": version " + std::to_string(version - 1) + " does not exist");
  std::string path = JoinPath(log_path_, CommitFileName(version));
  Status s;
  if (CanDeferSync()) {
    // Round 1 (the commit's files, its temp file, `before_link`), the link,
    // then round 2 (this directory, now or deferred): docs/delta-format.md
    // "Commits and durability".
    s = fs_->LinkIfAbsent(path, SerializeCommit(actions), first, before_link, spare_temp);
    if (s.ok()) NoteLinked(fs_, log_path_, version);
  } else {
    // Object stores: one conditional PUT, durable when answered.
    if (before_link) s = before_link();
    if (s.ok()) s = fs_->PutIfAbsent(path, SerializeCommit(actions), first);
  }
  if (s.IsAlreadyExists())
    return Status::AlreadyExists("version " + std::to_string(version) + " of table " + table_path_ +
                                 " was already committed by another writer");
  if (!s.ok() || !CanDeferSync() || sync == Sync::kDeferred) return s;
  return SyncLogDirectory(fs_, log_path_);
}

bool DeltaLog::CanDeferSync() const { return !IsRemotePath(log_path_); }

Result<LastCheckpoint> DeltaLog::ReadLastCheckpoint() {
  std::string path = JoinPath(log_path_, "_last_checkpoint");
  auto contents = fs_->ReadFile(path);
  if (!contents.ok()) return contents.status();
  return ParseLastCheckpoint(contents.value(), path);
}

// No directory fsync (issue 30: one fsync fewer per checkpoint). A
// checkpoint only saves readers from replaying the JSON commits, which stay
// (nothing here deletes a commit a checkpoint covers), so its names need not
// survive a crash: the checkpoint file and _last_checkpoint are each fsynced
// before their rename, so a name that does survive never shows torn
// contents; a name that does not leaves the log as it was (a _last_checkpoint
// naming a checkpoint that is gone is ignored as stale, LoadSnapshot). The
// next commit's fsync of this directory makes both durable anyway.
Result<LastCheckpoint> DeltaLog::WriteCheckpoint(const Snapshot& snapshot) {
  return PointLastCheckpoint(WriteCheckpointFile(fs_, log_path_, snapshot, NowMs()));
}

Result<LastCheckpoint> DeltaLog::WriteCheckpoint(const std::shared_ptr<const Snapshot>& snapshot,
                                                 CheckpointCache& cache) {
  return PointLastCheckpoint(WriteCheckpointFile(fs_, log_path_, snapshot, NowMs(), cache));
}

Result<LastCheckpoint> DeltaLog::PointLastCheckpoint(Result<LastCheckpoint> lc) {
  if (!lc.ok()) return lc;
  auto existing = ReadLastCheckpoint();
  if (existing.ok() && existing.value().version > lc.value().version) return lc;  // never move it backwards
  std::string path = JoinPath(log_path_, "_last_checkpoint");
  std::string temp = FileSystem::TempPathFor(path);
  Status s = fs_->WriteFile(temp, SerializeLastCheckpoint(lc.value()));
  if (s.ok()) s = fs_->Fsync(temp);
  if (s.ok()) s = fs_->Rename(temp, path);
  if (!s.ok()) {
    (void)fs_->RemoveFile(temp);
    return s;
  }
  return lc;
}

}  // namespace lakestream::delta
