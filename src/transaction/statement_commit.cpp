#include "transaction/statement_commit.hpp"

#include <atomic>
#include <cstdint>

#include "storage/table_append.hpp"

#include "catalog/stream_offset.hpp"
#include "common/commit_notifier.hpp"
#include "common/crash_point.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/database_instance.hpp"
#include "transaction/client_context.hpp"
#include "storage/delta/log_sync.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

std::string CommitKey(DatabaseInstance& db, TableCatalogEntry& table) {
  if (DeltaTable* delta = table.storage ? DatabaseInstance::AsDelta(table) : nullptr) return delta->Path();
  return "memory:" + std::to_string(reinterpret_cast<uintptr_t>(&db));
}

// The key and version PublishCommit announces for `table`.
static std::pair<std::string, int64_t> Publication(DatabaseInstance& db, TableCatalogEntry& table) {
  if (DeltaTable* delta = table.storage ? DatabaseInstance::AsDelta(table) : nullptr) return {delta->Path(), delta->Version()};
  // In memory there is no version to compare: every call counts as a commit.
  static std::atomic<int64_t> memory_commits{0};
  return {CommitKey(db, table), ++memory_commits};
}

void PublishCommit(DatabaseInstance& db, TableCatalogEntry& table) {
  auto [key, version] = Publication(db, table);
  CommitNotifier::Global().Publish(key, version);
}

TableVersions CurrentTableVersions(DatabaseInstance& db) {
  TableVersions versions;
  if (db.InMemory()) return versions;
  Catalog& catalog = db.GetCatalog();
  for (auto& name : catalog.TableNames()) {
    TableCatalogEntry* table = catalog.FindTable(name);
    DeltaTable* delta = table && table->storage ? DatabaseInstance::AsDelta(*table) : nullptr;
    if (delta) versions.emplace_back(name, delta->Version());
  }
  return versions;
}

Publications CommitsToPublish(DatabaseInstance& db, const TableVersions& before) {
  Publications out;
  Catalog& catalog = db.GetCatalog();
  if (db.InMemory()) {
    for (auto& name : catalog.TableNames()) {
      TableCatalogEntry* table = catalog.FindTable(name);
      if (!table || !table->storage) continue;
      out.push_back(Publication(db, *table));  // one key for the whole database
      break;
    }
    return out;
  }
  for (auto& [name, version] : before) {
    TableCatalogEntry* table = catalog.FindTable(name);
    DeltaTable* delta = table && table->storage ? DatabaseInstance::AsDelta(*table) : nullptr;
    if (delta && delta->Version() > version) out.push_back(Publication(db, *table));
  }
  return out;
}

void Publish(const Publications& publications) {
  for (auto& [key, version] : publications) CommitNotifier::Global().Publish(key, version);
}

void PublishCommits(DatabaseInstance& db, const TableVersions& before) { Publish(CommitsToPublish(db, before)); }

bool TableIsAppendOnly(TableCatalogEntry& table) {
  if (DeltaTable* delta = table.storage ? DatabaseInstance::AsDelta(table) : nullptr) return delta->AppendOnly();
  return StringUtil::Lower(table.GetProperty("delta.appendOnly")) == "true";
}

void CheckRowsRemovable(TableCatalogEntry& table, const std::string& operation) {
  if (!TableIsAppendOnly(table)) return;
  throw ConstraintError(operation + " on table " + table.name +
                        " is not allowed: it has delta.appendOnly = true, which allows only inserts, and " + operation +
                        " removes or rewrites rows. To allow it run ALTER TABLE " + table.name +
                        " SET TBLPROPERTIES ('delta.appendOnly' = 'false')");
}

// After `commit` made `target` a new version: what it wrote, kept for view
// maintenance in memory. An INSERT's rows are the append's (or
// commit.inserted); an UPDATE's, DELETE's or MERGE's pre-images only the
// Delta commit saw, which kept its change rows in commit.written (null when
// it did not: no change feed, too many rows). Those, an overwrite and an
// append too large to keep are read back from the change feed instead.
// `before`: the table's version before the commit.
static void KeepChangeSet(ClientContext& context, TableCatalogEntry& target, const TableCommit& commit, int64_t before) {
  DeltaTable* delta = DatabaseInstance::AsDelta(target);
  if (!delta || delta->Version() <= before || commit.overwrite || commit.replace) return;
  bool rewrites = !commit.deleted_rows.empty() || commit.updated.Count() > 0;
  if (rewrites && !commit.written) return;
  const TableAppend* appended = AppendScope::For(target.storage.get());
  const ChangeSet* kept = appended ? appended->KeptRows() : nullptr;
  if (appended && !kept) return;
  ChangeSet changes;
  changes.table = delta;
  changes.table_identity = delta->Identity();
  // A race lost to another writer moved the commit past from + 1: the
  // versions in between are another process's, which this set does not hold.
  changes.to_version = delta->Version();
  changes.from_version = changes.to_version - 1;
  if (kept) {
    changes.rows.SetTypes(kept->rows.Types());
    for (idx_t k = 0; k < kept->rows.ChunkCount(); k++) changes.Add(kept->rows.Chunk(k), ChangeKind::INSERT);
  }
  // The commit's change rows hold its inserts too once it wrote any change rows.
  const ChangeSet* written = rewrites ? commit.written : nullptr;
  if (written) {
    idx_t row = 0;
    for (idx_t k = 0; k < written->rows.ChunkCount(); k++) {
      const DataChunk& chunk = written->rows.Chunk(k);
      for (idx_t r = 0; r < chunk.size(); r++) changes.kinds.push_back(written->kinds[row + r]);
      if (changes.rows.Types().empty()) changes.rows.SetTypes(chunk.GetTypes());
      changes.rows.Append(chunk);
      row += chunk.size();
    }
  }
  if (!written || written->rows.Count() == 0) {
    for (idx_t k = 0; k < commit.inserted.ChunkCount(); k++) changes.Add(commit.inserted.Chunk(k), ChangeKind::INSERT);
  }
  context.CommittedChanges().push_back(std::move(changes));
}

// Lends `commit` a change set for the Delta commit to fill
// (TableCommit::written) while it lives.
class WrittenChanges {
 public:
  explicit WrittenChanges(TableCommit& commit) : commit_(commit) { commit_.written = &set_; }
  ~WrittenChanges() { commit_.written = nullptr; }
  WrittenChanges(const WrittenChanges&) = delete;
  WrittenChanges& operator=(const WrittenChanges&) = delete;

 private:
  TableCommit& commit_;
  ChangeSet set_;
};

// The streams the current statement read whose position the commit must
// move: each with the source version it read. A stream already at that
// version (nothing new since its last consumption) needs no record.
static std::vector<std::pair<StreamCatalogEntry*, int64_t>> StreamsToRecord(ClientContext& context) {
  std::vector<std::pair<StreamCatalogEntry*, int64_t>> consumed;
  Catalog& catalog = context.GetCatalog();
  for (auto& [name, changes] : context.StreamReads()) {
    StreamCatalogEntry* stream = catalog.FindStream(changes->stream);
    if (!stream) continue;
    StreamPosition at = StreamPositionOf(catalog, *stream);
    if (changes->read_version <= at.offset && !at.initial_pending) continue;
    consumed.emplace_back(stream, changes->read_version);
  }
  return consumed;
}

void CommitStatementChanges(ClientContext& context, TableCatalogEntry& target, TableCommit& commit) {
  context.BeginCommit();  // an interrupt now would leave the statement half committed
  // The executors refused earlier; this catches any path that did not.
  if (commit.overwrite || !commit.deleted_rows.empty() || !commit.updated_row_ids.empty()) {
    CheckRowsRemovable(target, commit.operation);
  }
  DeltaTable* delta = DatabaseInstance::AsDelta(target);
  const int64_t before = delta ? delta->Version() : -1;
  const bool read_streams = !context.StreamReads().empty();
  auto consumed = read_streams ? StreamsToRecord(context) : std::vector<std::pair<StreamCatalogEntry*, int64_t>>();
  if (read_streams) {
    TableAppend* appended = AppendScope::For(target.storage.get());
    bool changes_rows = commit.ChangedRows() + (appended ? appended->RowCount() : 0) > 0 || commit.overwrite;
    // Nothing to write and no stream to move: nothing becomes durable. A
    // statement that changes no rows but moves a stream commits its txns
    // alone (as Spark's Delta sink does for an empty batch).
    if (!changes_rows && consumed.empty()) return;
    if (!consumed.empty() && !delta) {
      throw InternalError("table " + target.name + " consumes a stream but has no Delta log to record the stream's offset in");
    }
  }
  for (auto& [stream, version] : consumed) {
    CheckTargetKeepsStreamTxns(target, stream->name);
    commit.txns.emplace_back(StreamAppId(*stream), version);
  }
  if (!consumed.empty()) CrashPoint("stream.before_target_commit");
  WrittenChanges written(commit);  // alive until KeepChangeSet has taken the rows
  target.storage->Commit(commit);
  // The commit is the consumption: the offsets moved with it (stream_offset.hpp).
  if (!consumed.empty()) CrashPoint("stream.after_target_commit");
  KeepChangeSet(context, target, commit, before);
  // A commit whose last fsync is deferred is published by the statement
  // runner once it is durable (PublishCommits after the flush).
  if (!delta::DeferredLogSync::Current()) PublishCommit(context.Database(), target);
}

TableCatalogEntry& CommitNewTable(ClientContext& context, std::unique_ptr<TableCatalogEntry> table, TableCommit& commit,
                                  bool or_replace) {
  context.BeginCommit();  // an interrupt now would leave the statement half committed
  Catalog& catalog = context.GetCatalog();
  // The streams read, as they were: a failed save must not leave them moved
  // (dropping the table again below would fold its txns into them).
  std::vector<std::pair<StreamCatalogEntry*, StreamCatalogEntry>> read;
  for (auto& [stream, version] : StreamsToRecord(context)) {
    CheckTargetKeepsStreamTxns(*table, stream->name);
    read.emplace_back(stream, *stream);
    commit.txns.emplace_back(StreamAppId(*stream), version);
  }
  TableAppend* appended = AppendScope::For(table->storage.get());
  if (commit.ChangedRows() + (appended ? appended->RowCount() : 0) > 0 || !commit.txns.empty()) table->storage->Commit(commit);
  // Until the save below names the table, its txns count for nothing: the
  // streams move exactly when the table appears with its rows.
  CrashPoint("ctas.before_register");
  std::string name = table->name;
  TableCatalogEntry& entry = catalog.CreateTable(std::move(table), false, or_replace);
  try {
    context.Database().SaveCatalog();
  } catch (...) {
    catalog.DropTable(name, true);
    for (auto& [stream, saved] : read) *stream = saved;
    throw;
  }
  context.Database().ClearUnregistered(entry);
  return entry;
}

void ReconcileStreamOffsets(DatabaseInstance& db) {
  bool changed = false;
  Catalog& catalog = db.GetCatalog();
  for (auto& name : catalog.StreamNames()) {
    StreamCatalogEntry& stream = *catalog.FindStream(name);
    if (stream.pending_target.empty()) continue;
    TableCatalogEntry* target = catalog.FindTable(stream.pending_target);
    DeltaTable* delta = target && target->storage ? DatabaseInstance::AsDelta(*target) : nullptr;
    if (target && !delta) continue;  // cannot tell yet; settled on an open where the target loads
    if (delta) {
      auto recorded = delta->Snapshot().TxnVersion(StreamAppId(stream));
      if (recorded && *recorded == stream.pending_version) AdvanceStreamBase(stream, stream.pending_version);
    }
    stream.pending_target.clear();
    stream.pending_version = -1;
    changed = true;
  }
  if (changed) db.SaveCatalog();
}

}  // namespace lakestream
