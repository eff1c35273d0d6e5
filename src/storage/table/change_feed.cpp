#include "storage/table/change_feed.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "storage/change_set.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/deletion_vector.hpp"

#include <algorithm>
#include <iterator>
#include <set>

namespace lakestream {

ChangeFeedSchema GetChangeFeedSchema(const DeltaTable& table) {
  ChangeFeedSchema schema;
  for (auto& c : table.Columns()) {
    schema.names.push_back(c.name);
    schema.types.push_back(c.type);
  }
  schema.names.insert(schema.names.end(), {"_change_type", "_commit_version", "_commit_timestamp"});
  schema.types.insert(schema.types.end(), {TypeId::VARCHAR, TypeId::BIGINT, TypeId::TIMESTAMP});
  return schema;
}

static bool CdfOn(const delta::Metadata& metadata) {
  auto it = metadata.configuration.find("delta.enableChangeDataFeed");
  return it != metadata.configuration.end() && StringUtil::Lower(it->second) == "true";
}

void ScanTableFiles(const DeltaTable& table, const std::vector<delta::AddFile>& files, int64_t version,
                    bool with_change_type, const std::function<void(DataChunk&)>& consume,
                    const std::map<uint64_t, std::vector<uint64_t>>& selected_rows) {
  if (files.empty()) return;
  auto state = std::make_shared<DeltaSnapshotState>();
  state->access = table.State()->access;
  state->snapshot.table_path = table.Snapshot().table_path;
  state->snapshot.version = version;
  state->snapshot.metadata.partition_columns = table.Snapshot().partition_columns();
  state->columns = table.Columns();
  state->physical_names = table.State()->physical_names;
  state->physical_types = table.State()->physical_types;
  state->id_fields = table.State()->id_fields;
  state->snapshot.metadata.configuration = table.Snapshot().metadata.configuration;
  if (with_change_type) {
    state->columns.push_back({"_change_type", TypeId::VARCHAR, false, Value(LogicalType(TypeId::VARCHAR))});
    state->physical_names.push_back("_change_type");
    if (!state->physical_types.empty()) state->physical_types.emplace_back(TypeId::VARCHAR);
    if (!state->id_fields.empty()) state->id_fields.push_back(ParquetField{"_change_type", std::nullopt, {}});
  }
  for (auto& f : files) state->files.push_back(&f);
  for (auto& [index, rows] : selected_rows) state->selected_rows[index] = rows;
  std::vector<idx_t> ids;
  std::vector<LogicalType> types;
  ids.reserve(state->columns.size());
  types.reserve(state->columns.size());
  for (idx_t i = 0; i < state->columns.size(); i++) {
    ids.push_back(i);
    types.push_back(state->columns[i].type);
  }
  auto scan = MakeDeltaScan(state, ids);
  DataChunk chunk;
  chunk.Initialize(types);
  while (scan->Next(chunk, nullptr)) {
    consume(chunk);
    chunk.Reset();
  }
}

// The rows of `files` appended to `out` with the commit columns filled in:
// the files' own _change_type (cdc files) or `change_type` for every row.
static void AppendFiles(const DeltaTable& table, const std::vector<delta::AddFile>& files, bool with_change_type,
                        const char* change_type, int64_t version, timestamp_t commit_ts, ChunkCollection& out,
                        const std::map<uint64_t, std::vector<uint64_t>>& selected_rows = {}) {
  DataChunk row;
  row.Initialize(out.Types());
  idx_t width = table.Columns().size();
  ScanTableFiles(table, files, version, with_change_type, [&](DataChunk& chunk) {
    row.Reset();
    idx_t count = chunk.size();
    for (idx_t c = 0; c < width; c++) row.data[c].Copy(chunk.data[c], nullptr, count, 0, 0);
    // Whole columns rather than Values row by row (a view refresh reads its
    // sources' changes through here).
    if (with_change_type) {
      row.data[width].Copy(chunk.data[width], nullptr, count, 0, 0);
    } else {
      row.data[width].FillString(change_type, count);
    }
    row.data[width + 1].Fill<int64_t>(version, count);
    row.data[width + 2].Fill<timestamp_t>(commit_ts, count);
    row.SetCardinality(count);
    out.Append(row);
  }, selected_rows);
}

// The deleted rows of `file` under its deletion vector (none without one).
static std::vector<uint64_t> DeletedRows(const DeltaTable& table, const std::optional<std::string>& dv_json,
                                         const std::string& file, int64_t version) {
  if (!dv_json) return {};
  auto fail = [&](const Status& s) {
    std::string message = "table_changes('" + table.Name() + "'), version " + std::to_string(version) + ": " + s.message();
    if (s.IsCorruption()) throw CorruptionError(message);
    throw IOError(message);
  };
  auto dv = delta::ParseDeletionVectorDescriptor(*dv_json);
  if (!dv.ok()) fail(dv.status());
  auto rows = delta::LoadDeletionVector(table.Fs(), table.Snapshot(), dv.value(), file);
  if (!rows.ok()) fail(rows.status());
  return rows.take();
}

// A commit without cdc files: removed files are deletes and added files
// inserts, except a file both removed and added (its deletion vector
// replaced), whose change is only the rows the vectors differ in.
static void AppendAddsAndRemoves(const DeltaTable& table, std::vector<delta::AddFile> removed,
                                 std::vector<delta::AddFile> added, int64_t version, timestamp_t commit_ts,
                                 ChunkCollection& out) {
  std::map<std::string, size_t> added_at;
  for (size_t i = 0; i < added.size(); i++) added_at[added[i].path] = i;
  std::vector<delta::AddFile> whole_removed, newly_deleted, restored;
  std::map<uint64_t, std::vector<uint64_t>> deleted_rows, restored_rows;
  std::set<size_t> paired;
  for (auto& r : removed) {
    auto it = added_at.find(r.path);
    if (it == added_at.end() || (!r.deletion_vector && !added[it->second].deletion_vector)) {
      whole_removed.push_back(std::move(r));
      continue;
    }
    const delta::AddFile& a = added[it->second];
    paired.insert(it->second);
    std::vector<uint64_t> before = DeletedRows(table, r.deletion_vector, r.path, version);
    std::vector<uint64_t> after = DeletedRows(table, a.deletion_vector, a.path, version);
    std::vector<uint64_t> gone, back;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(gone));
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(back));
    delta::AddFile file = a;
    file.deletion_vector.reset();
    if (!gone.empty()) {
      deleted_rows[newly_deleted.size()] = std::move(gone);
      newly_deleted.push_back(file);
    }
    if (!back.empty()) {
      restored_rows[restored.size()] = std::move(back);
      restored.push_back(std::move(file));
    }
  }
  std::vector<delta::AddFile> whole_added;
  for (size_t i = 0; i < added.size(); i++) {
    if (!paired.count(i)) whole_added.push_back(std::move(added[i]));
  }
  AppendFiles(table, whole_removed, false, ChangeFeedName(ChangeKind::DELETE), version, commit_ts, out);
  AppendFiles(table, newly_deleted, false, ChangeFeedName(ChangeKind::DELETE), version, commit_ts, out, deleted_rows);
  AppendFiles(table, restored, false, ChangeFeedName(ChangeKind::INSERT), version, commit_ts, out, restored_rows);
  AppendFiles(table, whole_added, false, ChangeFeedName(ChangeKind::INSERT), version, commit_ts, out);
}

// The metadata in force at `start` (its commit applied), given the commits
// of [start, end]. The table's current metadata when no commit after `start`
// changed it: (start, end] is at hand and (end, latest] is usually empty (a
// view or stream reads up to the latest version), so this costs no snapshot
// load. Otherwise the snapshot of `start` (a checkpoint may be where the log
// now begins).
static delta::Metadata MetadataAt(DeltaTable& table, int64_t start, int64_t end,
                                  const std::vector<std::vector<delta::Action>>& commits) {
  constexpr int64_t kMaxNewerCommits = 16;  // beyond this many, loading the snapshot is cheaper
  auto changes_metadata = [](const std::vector<delta::Action>& actions) {
    for (auto& a : actions) {
      if (std::holds_alternative<delta::Metadata>(a)) return true;
    }
    return false;
  };
  bool current = table.Version() - end <= kMaxNewerCommits;
  for (size_t i = 1; current && i < commits.size(); i++) current = !changes_metadata(commits[i]);
  for (int64_t v = end + 1; current && v <= table.Version(); v++) {
    auto actions = table.Log().ReadCommit(v);
    current = actions.ok() && !changes_metadata(actions.value());
  }
  if (current) return table.Snapshot().metadata;
  auto at_start = table.Log().LoadSnapshot(start);
  if (!at_start.ok()) {
    throw InvalidInputError("table_changes('" + table.Name() + "', " + std::to_string(start) + "): version " +
                            std::to_string(start) + " can no longer be read (" + at_start.status().message() + ")");
  }
  return at_start.value().metadata;
}

namespace {

// What the change feed of [start, end] needs from the log: its commits, and
// why it cannot be read ("" when it can).
struct FeedCommits {
  std::vector<std::vector<delta::Action>> commits;  // of versions [start, end]
  std::string unreadable;
};

}  // namespace

static FeedCommits ReadFeedCommits(DeltaTable& table, int64_t start, int64_t end) {
  const std::string& name = table.Name();
  FeedCommits feed;
  for (int64_t v = start; v <= end; v++) {
    auto actions = table.Log().ReadCommit(v);
    if (!actions.ok()) {
      feed.unreadable = "the commit of version " + std::to_string(v) + " of " + name + " is no longer in the log (" +
                        actions.status().message() + ")";
      return feed;
    }
    feed.commits.push_back(actions.take());
  }
  delta::Metadata metadata = MetadataAt(table, start, end, feed.commits);
  for (int64_t v = start; v <= end; v++) {
    for (auto& action : feed.commits[static_cast<size_t>(v - start)]) {
      if (auto* m = std::get_if<delta::Metadata>(&action)) metadata = *m;
    }
    if (!CdfOn(metadata)) {
      feed.unreadable = "the change data feed was not enabled at version " + std::to_string(v) + " of " + name +
                        ". Changes are recorded only after ALTER TABLE " + name +
                        " SET TBLPROPERTIES (delta.enableChangeDataFeed = true); read a range after that version";
      return feed;
    }
  }
  return feed;
}

std::string ChangeFeedUnreadableReason(DeltaTable& table, int64_t start, int64_t end) {
  if (start > end) return "";
  try {
    return ReadFeedCommits(table, start, end).unreadable;
  } catch (const Exception& e) {
    return e.what();  // the metadata at `start` cannot be loaded
  }
}

void ReadChangeFeed(DeltaTable& table, int64_t start, int64_t end, ChunkCollection& out) {
  const std::string& name = table.Name();
  int64_t latest = table.Version();
  if (start < 0) throw InvalidInputError("table_changes('" + name + "', " + std::to_string(start) + "): versions start at 0");
  if (start > latest) {
    throw InvalidInputError("table_changes('" + name + "', " + std::to_string(start) + "): start version " +
                            std::to_string(start) + " is after the latest version " + std::to_string(latest) + " of " + name);
  }
  if (end > latest) {
    throw InvalidInputError("table_changes('" + name + "', " + std::to_string(start) + ", " + std::to_string(end) +
                            "): end version " + std::to_string(end) + " is after the latest version " + std::to_string(latest));
  }
  if (end < start) {
    throw InvalidInputError("table_changes('" + name + "', " + std::to_string(start) + ", " + std::to_string(end) +
                            "): the end version is before the start version");
  }
  FeedCommits feed = ReadFeedCommits(table, start, end);
  if (!feed.unreadable.empty()) {
    throw InvalidInputError("table_changes('" + name + "', " + std::to_string(start) + ", " + std::to_string(end) +
                            "): " + feed.unreadable);
  }
  const auto& commits = feed.commits;
  for (int64_t v = start; v <= end; v++) {
    const std::vector<delta::Action>& actions = commits[static_cast<size_t>(v - start)];
    std::optional<int64_t> commit_ms;
    std::vector<delta::AddFile> cdc, added, removed;
    for (auto& action : actions) {
      if (auto* info = std::get_if<delta::CommitInfo>(&action)) commit_ms = info->CommitTimeMs();
      if (auto* c = std::get_if<delta::CdcFile>(&action)) {
        delta::AddFile f;
        f.path = c->path;
        f.partition_values = c->partition_values;
        cdc.push_back(std::move(f));
      }
      if (auto* a = std::get_if<delta::AddFile>(&action); a && a->data_change) added.push_back(*a);
      if (auto* r = std::get_if<delta::RemoveFile>(&action); r && r->data_change) {
        delta::AddFile f;
        f.path = r->path;
        if (r->partition_values) f.partition_values = *r->partition_values;
        f.deletion_vector = r->deletion_vector;  // rows deleted before are not deleted again
        removed.push_back(std::move(f));
      }
    }
    if (!commit_ms) {  // no commitInfo timestamp: the commit file's mtime
      auto ts = table.Log().CommitTimestamp(v);
      if (ts.ok()) commit_ms = ts.value();
    }
    timestamp_t commit_ts = commit_ms.value_or(0) * 1000;
    if (!cdc.empty()) {
      AppendFiles(table, cdc, true, nullptr, v, commit_ts, out);
    } else {
      AppendAddsAndRemoves(table, std::move(removed), std::move(added), v, commit_ts, out);
    }
  }
}

int64_t LastVersionAtOrBefore(DeltaTable& table, timestamp_t timestamp) {
  auto v = table.Log().VersionAtOrBefore(timestamp / 1000);
  if (!v.ok()) throw InvalidInputError("Table " + table.Name() + ": " + v.status().message());
  return v.value();
}

int64_t FirstVersionAtOrAfter(DeltaTable& table, timestamp_t timestamp) {
  auto v = table.Log().VersionAtOrBefore(timestamp / 1000);
  if (!v.ok()) {
    // After the latest commit: the first version committed at or after it is
    // the next one (Delta's startingTimestamp for streams), never the first.
    auto latest_ms = table.Log().CommitTimestamp(table.Version());
    if (latest_ms.ok() && timestamp > latest_ms.value() * 1000) return table.Version() + 1;
    return 0;  // before the first commit: the range starts at the beginning
  }
  auto ts = table.Log().CommitTimestamp(v.value());
  if (ts.ok() && ts.value() * 1000 >= timestamp) return v.value();
  return v.value() + 1;
}

}  // namespace lakestream
