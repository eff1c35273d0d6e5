// OPTIMIZE and VACUUM of Delta tables.
#include <algorithm>
#include <filesystem>
#include <set>

#include "common/exception.hpp"
#include "common/s3/s3_file_system.hpp"
#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "common/query_progress.hpp"
#include "storage/table/data_file_pool.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/row_tracking_rewrite.hpp"

namespace lakestream {

std::pair<int64_t, int64_t> DeltaTable::Optimize() {
  auto state = state_;
  const auto& snapshot = state->snapshot;
  // Files grouped by partition: only partitions with more than one file, or
  // with a deletion vector, change.
  std::map<std::string, std::vector<uint64_t>> partitions;
  for (uint64_t i = 0; i < state->files.size(); i++) {
    std::string key;
    for (auto& [k, v] : state->files[i]->partition_values) key += k + "=" + v.value_or("\x01") + "/";
    partitions[key].push_back(i);
  }
  std::vector<idx_t> all_columns;
  std::vector<LogicalType> types;
  for (idx_t c = 0; c < state->columns.size(); c++) {
    all_columns.push_back(c);
    types.push_back(state->columns[c].type);
  }
  int64_t now = NowMs();
  DeltaFileWriter writer(SharedFs(), name_, path_, state->columns, snapshot.partition_columns(), false);
  writer.MapColumns(snapshot.metadata, snapshot.schema);
  writer.SetDataChange(false);
  // Compaction copies every row: each keeps its row id and commit version.
  RowTrackingRewrite tracked(*state, name_);
  tracked.Prepare(writer);
  bool visible = false;
  AbortUnlessCommitted cleanup({&writer}, visible);
  std::vector<delta::Action> actions;
  std::vector<std::string> removed;
  // The progress bar counts the rows rewritten against the table's rows
  // (partitions with one file are not read: the bar ends short of 100%).
  QueryProgress* progress = CurrentQueryProgress();
  if (progress) {
    if (auto rows = EstimatedRowCount()) progress->AddTotal(*rows);
  }
  for (auto& [key, files] : partitions) {
    // A lone file is rewritten only to apply its deletion vector (the scan
    // leaves the deleted rows out), which then no longer needs to be read.
    bool has_vector = std::any_of(files.begin(), files.end(), [&](uint64_t f) { return state->files[f]->deletion_vector.has_value(); });
    if (files.size() < 2 && !has_vector) continue;
    auto scan = MakeDeltaScan(state, all_columns, files);
    DataChunk chunk;
    chunk.Initialize(types);
    Vector row_ids(TypeId::BIGINT);
    while (scan->Next(chunk, tracked.Active() ? &row_ids : nullptr)) {
      tracked.AppendCopied(writer, chunk, row_ids);
      if (progress) progress->AddDone(chunk.size());
    }
    for (uint64_t f : files) {
      const delta::AddFile& add = *state->files[f];
      actions.emplace_back(RemoveFor(add, now, false));
      removed.push_back(add.path);
    }
  }
  if (removed.empty()) return {0, 0};
  DurableSet new_files;
  auto adds = writer.Finish(now, new_files);
  int64_t added = static_cast<int64_t>(adds.size());
  delta::StringMap parameters;
  parameters["predicate"] = "[]";
  auto info = delta::CommitInfo::Make(now, "OPTIMIZE", parameters, false, snapshot.version);
  info.engine_info = "lakestream/" LAKESTREAM_VERSION;
  tracked.TagCommit(info, true);
  std::vector<delta::Action> all = {info};
  all.insert(all.end(), actions.begin(), actions.end());
  all.insert(all.end(), adds.begin(), adds.end());
  CommitActions(all, removed, "OPTIMIZE", new_files, &visible);
  return {static_cast<int64_t>(removed.size()), added};
}

// Files that the change feed of versions (version, latest] reads (adds,
// removes and cdc files), plus the files of `version` itself.
// The file of a deletion vector descriptor (AddFile/RemoveFile::deletion_vector),
// nullopt for none, an inline vector or an undecodable one.
static std::optional<std::string> DeletionVectorFileOf(const delta::Snapshot& snapshot,
                                                       const std::optional<std::string>& json) {
  if (!json) return std::nullopt;
  auto dv = delta::ParseDeletionVectorDescriptor(*json);
  if (!dv.ok()) return std::nullopt;
  auto file = delta::DeletionVectorFile(snapshot, dv.value());
  if (!file.ok()) return std::nullopt;
  return file.take();
}

// Keeps a data file and the file of its deletion vector.
template <typename FileAction>
static void KeepFile(const delta::Snapshot& snapshot, const FileAction& action, std::set<std::string>& keep) {
  keep.insert(snapshot.FilePath(action.path));
  if (auto dv = DeletionVectorFileOf(snapshot, action.deletion_vector)) keep.insert(*dv);
}

static void AddFilesNeededForChanges(const DeltaTable& table, int64_t version, std::set<std::string>& keep) {
  const auto& snapshot = table.Snapshot();
  if (version >= 0) {
    auto past = table.AtVersion(version);
    for (auto& [path, add] : past->Snapshot().files) KeepFile(snapshot, add, keep);
  }
  auto& log = const_cast<DeltaTable&>(table).Log();
  for (int64_t v = version + 1; v <= snapshot.version; v++) {
    auto actions = log.ReadCommit(v);
    if (!actions.ok()) continue;  // history already gone: the stream is stale anyway
    for (auto& action : actions.value()) {
      if (auto* add = std::get_if<delta::AddFile>(&action)) KeepFile(snapshot, *add, keep);
      if (auto* remove = std::get_if<delta::RemoveFile>(&action)) KeepFile(snapshot, *remove, keep);
      if (auto* cdc = std::get_if<delta::CdcFile>(&action)) keep.insert(snapshot.FilePath(cdc->path));
    }
  }
}

// Every file the log still names: the adds, removes, change data files and
// deletion vector files of each commit it holds (newest first, down to the
// oldest a log cleanup left). What a commit that cannot be read names is not
// known, so it is not deleted. `dv_removed_at`: per deletion vector file, the
// latest time a remove retired it. A data file that keeps its path while its
// vector changes (a DELETE by deletion vector) has one tombstone per path in
// the snapshot, so the older vectors' removal times are only in the commits.
static void AddFilesTheLogNames(DeltaTable& table, std::set<std::string>& named,
                                std::map<std::string, int64_t>& dv_removed_at) {
  const auto& snapshot = table.Snapshot();
  for (int64_t v = snapshot.version; v >= 0; v--) {
    auto actions = table.Log().ReadCommit(v);
    if (!actions.ok()) break;
    for (auto& action : actions.value()) {
      if (auto* add = std::get_if<delta::AddFile>(&action)) KeepFile(snapshot, *add, named);
      if (auto* remove = std::get_if<delta::RemoveFile>(&action)) {
        KeepFile(snapshot, *remove, named);
        auto dv = DeletionVectorFileOf(snapshot, remove->deletion_vector);
        if (dv && remove->deletion_timestamp) {
          auto [it, inserted] = dv_removed_at.emplace(*dv, *remove->deletion_timestamp);
          if (!inserted) it->second = std::max(it->second, *remove->deletion_timestamp);
        }
      }
      if (auto* cdc = std::get_if<delta::CdcFile>(&action)) named.insert(snapshot.FilePath(cdc->path));
    }
  }
}

std::vector<std::string> DeltaTable::Vacuum(std::optional<int64_t> retain_ms, bool dry_run,
                                            std::optional<int64_t> keep_changes_after) {
  Refresh();
  const auto& snapshot = state_->snapshot;
  // vacuumProtocolCheck (PROTOCOL.md): VACUUM of such a table must hold to the
  // write protocol, since the files it keeps or deletes depend on features
  // (deletion vectors, sidecars, ...) only a writer that knows them can judge.
  const auto& protocol = snapshot.protocol;
  if (!dry_run &&
      (protocol.ListsReaderFeature("vacuumProtocolCheck") || protocol.ListsWriterFeature("vacuumProtocolCheck"))) {
    Status writable = delta::CheckWritable(name_, snapshot);
    if (!writable.ok())
      throw NotImplementedError("VACUUM of table " + name_ + " is refused: the table has the Delta feature "
                                "'vacuumProtocolCheck', so VACUUM follows the write protocol, and " + writable.message() +
                                ". VACUUM it with an engine that writes these features (VACUUM ... DRY RUN lists the files)");
  }
  // This process's unused pooled names go first, so that a short retention
  // deletes none a commit of ours is about to fill (data_file_pool.hpp).
  if (!dry_run && pool_) pool_->Discard();
  int64_t retention = retain_ms.value_or(snapshot.DeletedFileRetentionMs());
  int64_t cutoff = NowMs() - retention;
  std::set<std::string> active;
  // A deletion vector file is live while a live file uses it (Spark packs
  // the vectors of many files into one).
  for (auto& [path, add] : snapshot.files) KeepFile(snapshot, add, active);
  if (keep_changes_after) AddFilesNeededForChanges(*this, *keep_changes_after, active);
  auto tombstones = delta::AllTombstones(Fs(), snapshot);
  if (!tombstones.ok())  // e.g. a log cleanup removed the checkpoint since this snapshot was read
    throw IOError("VACUUM of table " + name_ + " could not read the removed files of its checkpoint (" +
                  tombstones.status().message() + "); nothing was deleted, run VACUUM again");
  // Only what the table wrote may go: files its log names (the
  // checkpoint's tombstones and the commits it still holds), and data files
  // and temp files under lakestream's own names (a writer that died before
  // its commit leaves those). Anything else in the folder is not the
  // table's, whoever put it there.
  std::set<std::string> named;
  std::map<std::string, int64_t> removed_at;
  AddFilesTheLogNames(*this, named, removed_at);
  for (auto& [path, remove] : tombstones.value()) {
    KeepFile(snapshot, remove, named);
    if (!remove.deletion_timestamp) continue;
    removed_at[snapshot.FilePath(path)] = *remove.deletion_timestamp;
    // A vector file shared by several removed files ages from the last removal.
    if (auto dv = DeletionVectorFileOf(snapshot, remove.deletion_vector)) {
      auto [it, inserted] = removed_at.emplace(*dv, *remove.deletion_timestamp);
      if (!inserted) it->second = std::max(it->second, *remove.deletion_timestamp);
    }
  }
  std::vector<std::string> doomed;
  auto consider = [&](const std::string& full, int64_t mtime) {
    std::string name = BaseName(full);
    if (!FileSystem::IsTempFileName(name) && !IsWrittenDataFileName(name) && !named.count(full)) return;
    if (active.count(full)) return;
    auto removed = removed_at.find(full);
    int64_t age_from = removed != removed_at.end() ? removed->second : mtime;
    if (age_from < cutoff) doomed.push_back(full);
  };
  if (IsRemotePath(path_)) {
    // Object storage: one listing of the table's prefix, without its log,
    // gives every file with its time.
    auto listed = S3FileSystem::Instance()->ListRecursiveSkipping(path_, "_delta_log");
    if (!listed.ok())
      throw IOError("VACUUM of table " + name_ + " could not list " + path_ + ": " + listed.status().message());
    std::string bucket = path_.substr(0, path_.find('/', 5) + 1);
    // Another table's folder inside this one (its _delta_log/ shows in the
    // listing) is that table's: nothing below it is considered.
    std::set<std::string> nested;
    for (auto& o : listed.value()) {
      std::string full = bucket + o.key;
      auto log = full.find("/_delta_log/", path_.size());
      if (log != std::string::npos) nested.insert(full.substr(0, log + 1));
    }
    for (auto& o : listed.value()) {
      std::string full = bucket + o.key;
      bool inside_other = std::any_of(nested.begin(), nested.end(),
                                      [&](const std::string& root) { return full.rfind(root, 0) == 0; });
      if (!inside_other) consider(full, o.mtime_ms);
    }
  }
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(path_, ec);
       !IsRemotePath(path_) && !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const auto& p = it->path();
    std::string name = p.filename().string();
    if (it->is_directory()) {
      // Its own log, and another table's folder inside this one (a folder
      // with a _delta_log): never walked.
      if (name == "_delta_log" || std::filesystem::is_directory(p / "_delta_log", ec)) it.disable_recursion_pending();
      ec.clear();
      continue;
    }
    if (active.count(p.string())) continue;  // no stat for the files the table uses
    auto mtime = Fs()->ModificationTime(p.string());
    if (mtime.ok()) consider(p.string(), mtime.value());
  }
  // Leftover temp files of crashed commits in the log.
  auto log_entries = Fs()->ListDirectory(path_ + "/_delta_log");
  if (log_entries.ok()) {
    for (auto& name : log_entries.value()) {
      if (!FileSystem::IsTempFileName(name)) continue;
      std::string full = path_ + "/_delta_log/" + name;
      auto mtime = Fs()->ModificationTime(full);
      if (mtime.ok() && mtime.value() < cutoff) doomed.push_back(full);
    }
  }
  if (!dry_run) {
    // With external access off, each file is unlinked in its folder opened
    // beneath the table's root with no link followed: a folder swapped for
    // a link since the listing above fails the delete, never leads out.
    FileSystem* remover = Fs();
    for (auto& f : doomed) {
      Status s = remover->RemoveFile(f);
      if (!s.ok() && !s.IsNotFound()) throw IOError("VACUUM of table " + name_ + " could not delete " + f + ": " + s.message());
    }
  }
  return doomed;
}

}  // namespace lakestream
