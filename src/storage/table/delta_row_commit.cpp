// DeltaTable::Commit: one statement's row changes (inserted, updated and
// deleted rows of a TableCommit) as data files, change data files and
// deletion vectors, and the actions of the one Delta commit that names them
// (CommitActions, delta_table.cpp, links it).
#include <algorithm>
#include <map>
#include <optional>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "storage/change_set.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/table/deletion_vector_update.hpp"
#include "storage/table/delta_append.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/row_tracking_rewrite.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

// The metaData action of `snapshot` with the schema of `columns` (evolved:
// new columns, new STRUCT fields, widened types), and the protocol action it
// needs when that is more than the table's (appended to `actions` first).
// A widened type needs delta.enableTypeWidening = true and a change Delta
// allows (PROTOCOL "Type Widening"); it is recorded in delta.typeChanges.
static void AppendEvolvedMetadata(const delta::Snapshot& snapshot, const std::vector<TableColumn>& columns,
                                  const std::string& name, std::vector<delta::Action>& actions) {
  for (auto& c : columns) {
    for (auto& old : snapshot.schema) {
      if (StringUtil::CIEquals(old.name, c.name) && old.type != c.type) CheckTypeChanges(snapshot, name, old.name, old.type, c.type);
    }
  }
  delta::Metadata metadata = snapshot.metadata;
  auto schema = EvolvedDeltaSchema(snapshot, columns, name, metadata.configuration);
  auto schema_string = delta::SchemaToString(schema);
  if (!schema_string.ok()) ThrowFor(name, schema_string.status());
  metadata.schema_string = schema_string.take();
  auto parsed = delta::ParseSchemaString(metadata.schema_string);
  if (!parsed.ok()) ThrowFor(name, parsed.status());
  delta::Protocol protocol = snapshot.protocol;
  if (delta::AddRequiredFeatures(parsed.value(), metadata.configuration, protocol)) actions.emplace_back(protocol);
  actions.emplace_back(std::move(metadata));
}

void DeltaTable::Commit(TableCommit& commit) { Commit(commit, DeltaFileRows()); }

void DeltaTable::Commit(TableCommit& commit, const DeltaFileRows& read) {
  if (commit.replace) {
    CommitReplace(commit);
    return;
  }
  auto state_holder = state_;  // the snapshot the statement read, kept alive across the commit
  const DeltaSnapshotState& state = *state_holder;
  const auto& snapshot = state.snapshot;
  bool cdf = snapshot.ChangeDataFeedEnabled();
  int64_t now = NowMs();
  const std::vector<TableColumn>* evolved = SchemaEvolutionScope::Current();
  std::vector<TableColumn> columns = evolved ? *evolved : state.columns;
  std::vector<LogicalType> types;
  types.reserve(columns.size());
  for (auto& c : columns) types.push_back(c.type);
  std::vector<LogicalType> old_types;
  for (auto& c : state.columns) old_types.push_back(c.type);
  // Rows of existing files are read in the old schema and conformed to the new one.
  auto conform = [&](const DataChunk& chunk) {
    DataChunk out;
    out.Initialize(types, chunk.size());
    for (idx_t c = 0; c < types.size(); c++) {
      if (c >= old_types.size()) {
        for (idx_t r = 0; r < chunk.size(); r++) out.data[c].SetValid(r, false);
      } else if (old_types[c] == types[c]) {
        out.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
      } else {
        ConformVector(chunk.data[c], out.data[c], chunk.size());
      }
    }
    out.SetCardinality(chunk.size());
    return out;
  };
  std::vector<LogicalType> change_types = types;
  change_types.push_back(TypeId::VARCHAR);

  DeltaFileWriter data(SharedFs(), name_, path_, columns, snapshot.partition_columns(), false);
  DeltaFileWriter changes(SharedFs(), name_, path_, columns, snapshot.partition_columns(), true);
  if (evolved) {
    delta::Metadata evolved_metadata = snapshot.metadata;
    auto evolved_schema = EvolvedDeltaSchema(snapshot, columns, name_, evolved_metadata.configuration);
    data.MapColumns(evolved_metadata, evolved_schema);
    changes.MapColumns(evolved_metadata, evolved_schema);
  } else {
    data.MapColumns(snapshot.metadata, snapshot.schema);
    changes.MapColumns(snapshot.metadata, snapshot.schema);
  }
  // Rows copied or updated keep their row ids (delta.enableRowTracking).
  RowTrackingRewrite tracked(state, name_);
  tracked.Prepare(data);
  uint64_t target = TargetFileSizeOf(snapshot.metadata.configuration);
  data.SetTargetFileSize(target);
  changes.SetTargetFileSize(target);
  // A statement that fails (a full disk, a data file that is gone, a lost
  // conflict) deletes what it wrote, unless its commit may be visible.
  DeltaTableAppend* appended = DeltaAppendFor(this);
  bool own_visible = false;
  bool& visible = appended ? appended->visible : own_visible;
  AbortUnlessCommitted cleanup({&data, &changes}, visible);
  // Merge-on-read: rows leave existing files through deletion vectors. A
  // schema-evolving statement rewrites, so that no file keeps the old schema.
  std::optional<DeletionVectorUpdate> vectors;
  if (!commit.overwrite && !evolved && WritesDeletionVectors(snapshot)) vectors.emplace(SharedFs(), snapshot, visible);
  // Change rows: the table row plus its _change_type.
  if (!cdf) commit.written = nullptr;
  auto add_change = [&](const DataChunk& rows, const sel_t* sel, idx_t count, ChangeKind kind) {
    if (!cdf || count == 0) return;
    if (commit.written && !commit.written->AddKept(rows, sel, count, kind)) commit.written = nullptr;
    const char* type = ChangeFeedName(kind);
    DataChunk out;
    out.Initialize(change_types, count);
    for (idx_t c = 0; c < types.size(); c++) out.data[c].Copy(rows.data[c], sel, count, 0, 0);
    out.data[types.size()].FillString(type, count);
    out.SetCardinality(count);
    changes.Append(out);
  };

  // Which rows of which files change: file index -> (row in file, new row
  // index or -1 for delete), by row (a vector sorted once: cheaper than a map
  // per file when a commit changes thousands of rows).
  std::map<uint64_t, std::vector<std::pair<uint64_t, int64_t>>> touched;
  if (commit.overwrite) {
    for (uint64_t f = 0; f < state.files.size(); f++) touched[f];
  }
  for (row_t id : commit.deleted_rows) touched[static_cast<uint64_t>(id) >> 32].emplace_back(static_cast<uint64_t>(id) & 0xffffffffULL, -1);
  for (idx_t i = 0; i < commit.updated_row_ids.size(); i++) {
    uint64_t id = static_cast<uint64_t>(commit.updated_row_ids[i]);
    touched[id >> 32].emplace_back(id & 0xffffffffULL, static_cast<int64_t>(i));
  }
  for (auto& [file_index, rows] : touched) {
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // A row named twice keeps its last entry (an update over a delete).
    size_t kept = 0;
    for (size_t i = 0; i < rows.size(); i++) {
      if (kept > 0 && rows[kept - 1].first == rows[i].first) {
        rows[kept - 1] = rows[i];
      } else {
        rows[kept++] = rows[i];
      }
    }
    rows.resize(kept);
  }

  // The removed rows' values, when the statement knows them (KnownRemovedRows).
  const KnownRemovedRows* known = KnownRemovedRows::Current();
  if (!vectors || !cdf || (known && (&known->table != this || known->values.Types() != types))) known = nullptr;

  std::vector<delta::Action> actions;
  std::vector<std::string> removed_paths;
  std::vector<idx_t> all_columns;
  for (idx_t c = 0; c < old_types.size(); c++) all_columns.push_back(c);
  // Update postimages are written in the order of their preimages, so that
  // readers of the change feed without a key (table streams) can pair the
  // i-th update_preimage of a version with its i-th update_postimage.
  std::vector<int64_t> postimage_order;
  for (auto& entry : touched) {
    uint64_t file_index = entry.first;
    const auto& rows = entry.second;  // not a structured binding: the lambda below captures it
    if (file_index >= state.files.size()) throw InternalError("row id names a file the snapshot does not have");
    const delta::AddFile& add = *state.files[file_index];
    // Split the whole file's rows: kept, deleted, updated. Rows are matched
    // by their row id (the row's index in the file), which the scan gives:
    // counting the rows read would be wrong once a deletion vector hides some.
    uint64_t position = 0;
    size_t next = 0;  // the first changed row at or after `position`
    auto split = [&](const DataChunk& read_chunk, const Vector* row_ids) {
      DataChunk conformed;
      if (evolved) conformed = conform(read_chunk);
      const DataChunk& chunk = evolved ? conformed : read_chunk;
      std::vector<sel_t> kept, deleted, preimage;
      std::vector<uint64_t> kept_positions;
      const int64_t* ids = row_ids ? row_ids->GetData<int64_t>() : nullptr;
      for (idx_t r = 0; r < chunk.size(); r++, position++) {
        if (ids) position = static_cast<uint64_t>(ids[r]) & 0xffffffffULL;
        while (next < rows.size() && rows[next].first < position) next++;
        bool changed = next < rows.size() && rows[next].first == position;
        if (commit.overwrite && !changed) {
          deleted.push_back(static_cast<sel_t>(r));
        } else if (!changed) {
          kept.push_back(static_cast<sel_t>(r));
          kept_positions.push_back(position);
        } else if (rows[next].second < 0) {
          deleted.push_back(static_cast<sel_t>(r));
        } else {
          preimage.push_back(static_cast<sel_t>(r));
          postimage_order.push_back(rows[next].second);
          tracked.NoteUpdated(rows[next].second, file_index, position);
        }
      }
      if (!kept.empty() && !vectors) {
        DataChunk keep;
        keep.Initialize(types, kept.size());
        keep.Append(chunk, kept.data(), kept.size());
        tracked.AppendCopied(data, keep, file_index, kept_positions.data());
      }
      add_change(chunk, deleted.data(), deleted.size(), ChangeKind::DELETE);
      add_change(chunk, preimage.data(), preimage.size(), ChangeKind::UPDATE_PREIMAGE);
    };
    if (vectors) {
      // The file stays; only the change feed needs the changed rows' values.
      std::vector<uint64_t> positions;
      positions.reserve(rows.size());
      for (auto& r : rows) positions.push_back(r.first);
      if (!cdf) {
        for (auto& r : rows) {
          if (r.second < 0) continue;
          postimage_order.push_back(r.second);
          tracked.NoteUpdated(r.second, file_index, r.first);
        }
        vectors->Delete(add, positions, now, actions);
        removed_paths.push_back(add.path);
        continue;
      }
      vectors->Delete(add, positions, now, actions);
      if (known && AddKnownChanges(file_index, rows, *known, [&](const DataChunk& chunk, ChangeKind kind) {
            add_change(chunk, nullptr, chunk.size(), kind);
          }, [&](int64_t updated, uint64_t position) {
            postimage_order.push_back(updated);
            tracked.NoteUpdated(updated, file_index, position);
          })) {
        removed_paths.push_back(add.path);
        continue;
      }
    }
    // Rows a statement kept are every row in file order, so only a file
    // without a deletion vector can be split from them.
    auto known = read.version == snapshot.version && !add.deletion_vector ? read.files.find(file_index) : read.files.end();
    if (known != read.files.end() && known->second.Types() == old_types) {
      for (idx_t c = 0; c < known->second.ChunkCount(); c++) split(known->second.Chunk(c), nullptr);
    } else {
      auto file_scan = MakeDeltaScan(state_holder, all_columns, {file_index});
      DataChunk chunk;
      chunk.Initialize(old_types);
      Vector row_ids(TypeId::BIGINT);
      while (file_scan->Next(chunk, &row_ids)) split(chunk, &row_ids);
    }
    if (!vectors) actions.emplace_back(RemoveFor(add, now, true));
    removed_paths.push_back(add.path);
  }
  // New versions of updated rows (in preimage order), then inserted rows.
  if (postimage_order.size() != commit.updated.Count()) throw InternalError("update row ids do not match the updated rows");
  std::vector<std::pair<idx_t, sel_t>> updated_position;  // updated row index -> (chunk, row)
  for (idx_t c = 0; c < commit.updated.ChunkCount(); c++) {
    for (idx_t r = 0; r < commit.updated.Chunk(c).size(); r++) updated_position.emplace_back(c, static_cast<sel_t>(r));
  }
  for (idx_t begin = 0; begin < postimage_order.size(); begin += STANDARD_VECTOR_SIZE) {
    idx_t count = std::min<idx_t>(STANDARD_VECTOR_SIZE, postimage_order.size() - begin);
    DataChunk chunk;
    chunk.Initialize(types, count);
    // Runs of rows from one chunk of commit.updated are appended at once.
    std::vector<sel_t> run;
    for (idx_t i = 0; i < count;) {
      idx_t c = updated_position[static_cast<idx_t>(postimage_order[begin + i])].first;
      run.clear();
      for (; i < count && updated_position[static_cast<idx_t>(postimage_order[begin + i])].first == c; i++) {
        run.push_back(updated_position[static_cast<idx_t>(postimage_order[begin + i])].second);
      }
      chunk.Append(commit.updated.Chunk(c), run.data(), run.size());
    }
    tracked.AppendUpdated(data, chunk, postimage_order.data() + begin);
    add_change(chunk, nullptr, chunk.size(), ChangeKind::UPDATE_POSTIMAGE);
  }
  bool has_changes = changes.RowCount() > 0;
  for (idx_t c = 0; c < commit.inserted.ChunkCount(); c++) {
    const DataChunk& chunk = commit.inserted.Chunk(c);
    data.Append(chunk);
    // A version with cdc files is read only from them, so inserts of a
    // MERGE must be in them too; a pure insert needs none (adds are inserts).
    if (has_changes) add_change(chunk, nullptr, chunk.size(), ChangeKind::INSERT);
  }
  DurableSet new_files;
  auto adds = data.Finish(now, new_files);
  auto cdcs = changes.Finish(now, new_files);
  if (vectors) vectors->Finish(new_files);
  if (appended) {
    if (has_changes && appended->RowCount() > 0 && !appended->Changes()) {
      throw InternalError("appended rows without change data files in a commit that needs them");
    }
    auto more = appended->Data().Finish(now, new_files);
    adds.insert(adds.end(), more.begin(), more.end());
    if (appended->Changes()) {
      auto more_cdcs = appended->Changes()->Finish(now, new_files);
      cdcs.insert(cdcs.end(), more_cdcs.begin(), more_cdcs.end());
    }
  }
  delta::StringMap parameters;
  if (commit.overwrite) parameters["mode"] = "Overwrite";
  else if (commit.operation == "WRITE") parameters["mode"] = "Append";
  bool blind = removed_paths.empty();
  auto info = delta::CommitInfo::Make(now, commit.operation, parameters, blind, snapshot.version);
  info.engine_info = kEngineInfo;
  tracked.TagCommit(info, !removed_paths.empty());
  std::vector<delta::Action> all = {info};
  if (evolved) AppendEvolvedMetadata(snapshot, columns, name_, all);
  all.insert(all.end(), actions.begin(), actions.end());
  all.insert(all.end(), adds.begin(), adds.end());
  all.insert(all.end(), cdcs.begin(), cdcs.end());
  AppendTxnActions(commit.txns, now, all);
  // Nothing below reads the statement's snapshot: let it go, so that the
  // commit can move it forward instead of copying every file of the table.
  state_holder.reset();
  CommitActions(all, removed_paths, commit.operation, new_files, &visible);
}

}  // namespace lakestream
