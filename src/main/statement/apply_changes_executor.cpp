// APPLY CHANGES INTO / CREATE FLOW ... AS AUTO CDC INTO (docs/apply-changes.md),
// and the query-less declaration of its target (CREATE OR REFRESH STREAMING
// TABLE t [(columns)]).
//
// One run reads what the source gained since the target's last run through
// STREAM(source) (the same stream offsets as streaming tables: a Delta txn in
// the target's commit), turns those change events into the target's changes
// (apply_changes_plan.hpp) and commits them together with the new offset, so
// each event is applied exactly once even when a run is killed. The state
// that the rows do not hold (apply_changes_state.hpp) is written first, under
// the version the commit will create.
//
// The result is one row: target, rows_read, num_inserted_rows,
// num_updated_rows, num_deleted_rows, num_ignored_rows, version.
#include <chrono>
#include <mutex>

#include "common/crash_point.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "execution/plan_executor.hpp"
#include "function/table/ingestion_scope.hpp"
#include "main/statement/apply_changes_plan.hpp"
#include "main/statement/declared_properties.hpp"
#include "main/statement/apply_changes_state.hpp"
#include "main/statement/dml_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "main/statement/streaming_write.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

namespace {

constexpr const char* kSequence = "__lakestream_cdc_sequence";
constexpr const char* kDelete = "__lakestream_cdc_delete";
constexpr const char* kTruncate = "__lakestream_cdc_truncate";
constexpr const char* kStartAt = "__START_AT";
constexpr const char* kEndAt = "__END_AT";
constexpr const char* kStreamAppPrefix = "lakestream.stream:";
// Databricks' name for how long a deleted key's tombstone is kept.
constexpr const char* kTombstoneProperty = "pipelines.cdc.tombstoneGCThresholdInSeconds";
constexpr int64_t kDefaultTombstoneSeconds = int64_t{2} * 24 * 3600;

struct ScopeGuard {
  ClientContext& context;
  ScopeGuard(ClientContext& c, IngestionScope* scope) : context(c) { context.ingestion_scope = scope; }
  ~ScopeGuard() { context.ingestion_scope = nullptr; }
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What a query-less declaration said about a target that its first run creates.
struct Declaration {
  std::string comment;
  PropertyList properties;
  std::vector<std::string> partitioned_by;
};

std::mutex declarations_lock;
std::map<std::string, Declaration>& Declarations() {
  static std::map<std::string, Declaration> declarations;
  return declarations;
}

std::string DeclarationKey(DatabaseInstance& db, const std::string& name) {
  return db.Path() + "\n" + StringUtil::Lower(name);
}

int64_t IndexOf(const std::vector<std::string>& names, const std::string& name) {
  for (idx_t i = 0; i < names.size(); i++) {
    if (StringUtil::CIEquals(names[i], name)) return static_cast<int64_t>(i);
  }
  return -1;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// A new streaming table for the declaration / the first run: change data feed on.
TableCatalogEntry& CreateTarget(ClientContext& context, const std::string& name, std::vector<TableColumn> columns,
                                const Declaration& declaration, const std::string& definition) {
  DatabaseInstance& db = context.Database();
  auto entry = std::make_unique<TableCatalogEntry>();
  entry->name = name;
  entry->kind = TableKind::STREAMING_TABLE;
  entry->definition = definition;
  entry->columns = std::move(columns);
  for (auto& part : declaration.partitioned_by) {
    int64_t idx = entry->ColumnIndex(part);
    if (idx < 0) throw BinderError("PARTITIONED BY column " + part + " is not a column of streaming table " + name);
    entry->partition_columns.push_back(entry->columns[idx].name);
  }
  entry->SetProperty("delta.enableChangeDataFeed", "true");
  entry->SetProperty("change_tracking", "true");
  for (auto& [key, value] : declaration.properties) entry->SetProperty(key, value);
  RecordDeclaredProperties(*entry, declaration.properties);
  db.CreateTableStorage(*entry, std::nullopt, declaration.comment);
  TableCatalogEntry& table = context.GetCatalog().CreateTable(std::move(entry), false, false);
  db.SaveCatalog();
  return table;
}

// Which source columns the target stores: COLUMNS (a, b) or * EXCEPT (a, b).
std::vector<std::string> StoredColumns(const ApplyChangesStatement& stmt, const std::vector<std::string>& source) {
  std::string where = "APPLY CHANGES INTO " + stmt.target.Name() + ": ";
  for (auto& name : stmt.columns) {
    if (IndexOf(source, name) < 0) {
      throw BinderError(where + "COLUMNS names " + name + ", which source " + stmt.source.Name() +
                        " does not have; its columns are " + JoinNames(source));
    }
  }
  std::vector<std::string> stored;
  if (stmt.columns.empty() || stmt.columns_except) {
    for (auto& name : source) {
      if (IndexOf(stmt.columns, name) < 0) stored.push_back(name);
    }
  } else {
    for (auto& name : stmt.columns) stored.push_back(source[IndexOf(source, name)]);
  }
  for (auto& key : stmt.keys) {
    if (IndexOf(source, key) < 0) {
      throw BinderError(where + "key column " + key + " is not a column of source " + stmt.source.Name() +
                        "; its columns are " + JoinNames(source));
    }
    if (IndexOf(stored, key) < 0) {
      throw BinderError(where + "key column " + key + " is left out by COLUMNS; the target must store its keys");
    }
  }
  if (stmt.scd_type == 2) {
    for (const char* reserved : {kStartAt, kEndAt}) {
      if (IndexOf(stored, reserved) >= 0) {
        throw BinderError(where + "the source has a column " + std::string(reserved) +
                          ", which SCD type 2 adds itself; leave it out with COLUMNS * EXCEPT (" + reserved + ")");
      }
    }
  }
  return stored;
}

std::unique_ptr<QueryResult> RunResult(const std::string& table, const ApplyChangesCounts& n, std::optional<int64_t> version) {
  return MakeRowsResult({"target", "rows_read", "num_inserted_rows", "num_updated_rows", "num_deleted_rows",
                         "num_ignored_rows", "version"},
                        {TypeId::VARCHAR, TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT,
                         TypeId::BIGINT},
                        {{Value(table), Value::BIGINT(n.events), Value::BIGINT(n.inserted), Value::BIGINT(n.updated),
                          Value::BIGINT(n.deleted), Value::BIGINT(n.ignored),
                          version ? Value::BIGINT(*version) : Value(LogicalType(TypeId::BIGINT))}});
}

int64_t TombstoneMs(const TableCatalogEntry& table) {
  std::string text = table.GetProperty(kTombstoneProperty);
  if (text.empty()) return kDefaultTombstoneSeconds * 1000;
  if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 12) {
    throw InvalidInputError("Streaming table " + table.name + ": '" + kTombstoneProperty +
                            "' must be a whole number of seconds, got '" + text + "'");
  }
  return std::stoll(text) * 1000;
}

// A streaming table made by CREATE STREAMING TABLE ... AS query stores the
// query; one made by a declaration or a flow stores nothing or the flow's text.
bool DefinedByQuery(const TableCatalogEntry& table) {
  size_t start = table.definition.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  std::string word = StringUtil::Upper(table.definition.substr(start, 6));
  return word.rfind("APPLY", 0) != 0 && word.rfind("CREATE", 0) != 0;
}

}  // namespace

std::unique_ptr<QueryResult> ExecuteDeclareStreamingTable(ClientContext& context, CreateViewStatement& stmt) {
  Catalog& catalog = context.GetCatalog();
  DatabaseInstance& db = context.Database();
  std::string name = stmt.name.Name();
  catalog.RequireNameForTable(name, TableKind::STREAMING_TABLE);
  TableCatalogEntry* table = catalog.FindTable(name);
  if (table && table->kind != TableKind::STREAMING_TABLE) {
    throw CatalogError(table->name + " is a " + std::string(TableKindToString(table->kind)) +
                       ", not a streaming table; pick another name, or drop it first");
  }
  if (table && stmt.or_replace) {
    CheckRowsRemovable(*table, "CREATE OR REPLACE STREAMING TABLE");
    db.DropTableStorage(*table);
    catalog.DropTable(table->name, true);
    db.SaveCatalog();
    table = nullptr;
  }
  if (table) {
    if (stmt.or_refresh) ReconcileDeclaredProperties(context, *table, stmt.properties);
    if (stmt.or_refresh || stmt.if_not_exists) return MakeEmptyResult();
    throw CatalogError("Streaming table " + table->name + " already exists! Use CREATE OR REFRESH STREAMING TABLE");
  }
  if (!stmt.primary_key.empty()) {
    throw BinderError("Streaming table " + name + " has no query, so its rows come from a flow: give the keys to the flow "
                      "(APPLY CHANGES INTO " + name + " ... KEYS (...)) instead of PRIMARY KEY");
  }
  Declaration declaration{stmt.comment, stmt.properties, stmt.partitioned_by};
  if (stmt.columns.empty()) {
    // The first run of its flow creates it with the columns the flow writes
    // (an APPLY CHANGES flow from Declarations(), an append flow from the
    // text kept by RememberFlowTargetDeclaration).
    RememberFlowTargetDeclaration(context, stmt);
    std::lock_guard<std::mutex> guard(declarations_lock);
    Declarations()[DeclarationKey(db, name)] = declaration;
    return MakeEmptyResult();
  }
  std::vector<TableColumn> columns;
  for (auto& column : stmt.columns) {
    if (column.type.id() == TypeId::INVALID) {
      throw BinderError("Streaming table " + name + " declares column " + column.name +
                        " without a type and has no query to take it from; give it a type");
    }
    for (auto& c : columns) {
      if (StringUtil::CIEquals(c.name, column.name)) {
        throw BinderError("Column " + column.name + " is declared twice in streaming table " + name);
      }
    }
    columns.push_back({column.name, column.type, column.not_null, Value(column.type)});
  }
  CreateTarget(context, name, std::move(columns), declaration, "");
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteApplyChanges(ClientContext& context, ApplyChangesStatement& stmt) {
  Catalog& catalog = context.GetCatalog();
  DatabaseInstance& db = context.Database();
  std::string name = stmt.target.Name();
  std::string where = "APPLY CHANGES INTO " + name + ": ";
  if (StringUtil::CIEquals(stmt.source.Name(), name)) {
    throw BinderError(where + "the source is the target itself; read the changes from another table");
  }
  TableCatalogEntry* table = catalog.FindTable(name);
  if (table && table->kind != TableKind::STREAMING_TABLE) {
    throw CatalogError(where + name + " is a " + std::string(TableKindToString(table->kind)) +
                       ", not a streaming table; declare the target with CREATE OR REFRESH STREAMING TABLE " + name +
                       " under another name, or drop it first");
  }
  if (!table) catalog.RequireNameForTable(name, TableKind::STREAMING_TABLE);
  if (table && DefinedByQuery(*table)) {
    // Its query and the flow would share the stream offsets of a common source.
    throw BinderError(where + name + " is defined by its query (CREATE STREAMING TABLE " + name +
                      " AS ...); a flow writes a streaming table declared without a query: declare one (CREATE OR "
                      "REFRESH STREAMING TABLE <name>;) and apply the changes into it");
  }

  // One query gives each event's columns, sequence and kind.
  std::string sql = "SELECT *, (" + stmt.sequence_by + ") AS " + kSequence;
  if (!stmt.delete_when.empty()) sql += ", (" + stmt.delete_when + ") AS " + kDelete;
  if (!stmt.truncate_when.empty()) sql += ", (" + stmt.truncate_when + ") AS " + kTruncate;
  sql += " FROM STREAM(" + stmt.source_text + ")";
  auto parsed = Parser::Parse(sql);
  auto& select = static_cast<SelectStatement&>(*parsed[0]);

  IngestionScope scope;
  scope.table = name;
  nlohmann::json ingestion = nlohmann::json::object();
  scope.state = &ingestion;
  std::map<std::string, int64_t> memory_txns;
  DeltaTable* delta = AttachIngestedTxns(table, scope, memory_txns);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  ChunkCollection rows;
  {
    ScopeGuard guard(context, &scope);
    Binder binder(context);
    BoundQuery query = binder.BindQuery(*select.node);
    names = query.names;
    types = query.types;
    rows = ExecutePlan(context, std::move(query.plan));
  }
  idx_t helpers = 1 + !stmt.delete_when.empty() + !stmt.truncate_when.empty();
  std::vector<std::string> source(names.begin(), names.end() - helpers);
  idx_t sequence_column = source.size();
  LogicalType sequence_type = types[sequence_column];
  if (sequence_type.id() == TypeId::SQLNULL || sequence_type.id() == TypeId::LIST || sequence_type.id() == TypeId::MAP) {
    throw BinderError(where + "SEQUENCE BY " + stmt.sequence_by + " is of type " + sequence_type.ToString() +
                      ", which has no order; use a number, a timestamp, a string or a STRUCT of them");
  }
  ApplyChangesSpec spec;
  spec.target = name;
  spec.sequence_text = stmt.sequence_by;
  spec.scd_type = stmt.scd_type;
  spec.ignore_null_updates = stmt.ignore_null_updates;
  spec.sequence_column = sequence_column;
  idx_t next = sequence_column + 1;
  for (auto [text, column, clause] : {std::tuple{&stmt.delete_when, &spec.delete_column, "APPLY AS DELETE WHEN"},
                                      std::tuple{&stmt.truncate_when, &spec.truncate_column, "APPLY AS TRUNCATE WHEN"}}) {
    if (text->empty()) continue;
    *column = static_cast<int64_t>(next++);
    if (types[*column].id() != TypeId::BOOLEAN) {
      throw BinderError(where + clause + " " + *text + " is of type " + types[*column].ToString() +
                        ", not a condition; write a BOOLEAN expression such as operation = 'DELETE'");
    }
  }
  std::vector<std::string> stored = StoredColumns(stmt, source);

  if (!table) {
    std::vector<TableColumn> columns;
    for (auto& column : stored) {
      LogicalType type = types[IndexOf(source, column)];
      if (type.id() == TypeId::SQLNULL) type = LogicalType(TypeId::VARCHAR);
      columns.push_back({column, type, IndexOf(stmt.keys, column) >= 0, Value(type)});
    }
    if (stmt.scd_type == 2) {
      columns.push_back({kStartAt, sequence_type, false, Value(sequence_type)});
      columns.push_back({kEndAt, sequence_type, false, Value(sequence_type)});
    }
    Declaration declaration;
    {
      std::lock_guard<std::mutex> guard(declarations_lock);
      auto it = Declarations().find(DeclarationKey(db, name));
      if (it != Declarations().end()) declaration = it->second;
    }
    table = &CreateTarget(context, name, std::move(columns), declaration, stmt.text);
    delta = DatabaseInstance::AsDelta(*table);
  }

  // The target's columns, matched to the source's by name.
  for (auto& column : stored) {
    if (table->ColumnIndex(column) < 0) {
      throw BinderError(where + "the target has no column " + column + ", which the source has; add it with ALTER TABLE " +
                        name + " ADD COLUMN " + column + " <type>, or leave it out with COLUMNS * EXCEPT (" + column + ")");
    }
  }
  for (idx_t c = 0; c < table->columns.size(); c++) {
    const std::string& column = table->columns[c].name;
    if (stmt.scd_type == 2 && StringUtil::CIEquals(column, kStartAt)) {
      spec.start_column = static_cast<int64_t>(c);
      spec.target_source.push_back(-1);
    } else if (stmt.scd_type == 2 && StringUtil::CIEquals(column, kEndAt)) {
      spec.end_column = static_cast<int64_t>(c);
      spec.target_source.push_back(-1);
    } else {
      spec.target_source.push_back(IndexOf(stored, column) >= 0 ? IndexOf(source, column) : -1);
    }
  }
  if (stmt.scd_type == 2 && (spec.start_column < 0 || spec.end_column < 0)) {
    throw BinderError(where + "an SCD type 2 target needs the columns __START_AT and __END_AT (of the sequence's type, " +
                      sequence_type.ToString() + "); add them to its declaration, or declare it without columns");
  }
  for (auto& key : stmt.keys) spec.key_columns.push_back(static_cast<idx_t>(table->ColumnIndex(key)));
  spec.tracked.assign(table->columns.size(), true);
  if (stmt.has_track_history) {
    for (auto& column : stmt.track_history) {
      if (IndexOf(stored, column) < 0) {
        throw BinderError(where + "TRACK HISTORY ON names " + column + ", which is not a column the target stores (" +
                          JoinNames(stored) + ")");
      }
    }
    for (idx_t c = 0; c < table->columns.size(); c++) {
      bool listed = IndexOf(stmt.track_history, table->columns[c].name) >= 0;
      spec.tracked[c] = stmt.track_history_except ? !listed : listed;
    }
  }
  spec.now_ms = NowMs();

  auto version = [&]() -> std::optional<int64_t> {
    if (delta) return delta->Version();
    return std::nullopt;
  };
  ApplyChangesCounts counts;
  if (scope.stream_offsets.empty()) {
    counts.events = *scope.rows_read;
    return RunResult(table->name, counts, version());
  }
  // The offsets the target records now, and after this commit.
  std::map<std::string, int64_t> txns;
  if (delta) {
    for (auto& [app, txn] : delta->Snapshot().txns) {
      if (app.rfind(kStreamAppPrefix, 0) == 0) txns[app] = txn.version;
    }
  }
  CdcState state = LoadCdcState(db, *table, sequence_type, txns);
  state.CollectGarbage(spec.now_ms - TombstoneMs(*table));
  TableCommit commit;
  commit.operation = "APPLY CHANGES";
  counts = PlanApplyChanges(spec, rows, *table, state, commit);
  for (auto& offset : scope.stream_offsets) {
    commit.txns.push_back(offset);
    txns[offset.first] = offset.second;
  }
  CheckNotNull(*table, {&commit.updated, &commit.inserted}, "");
  if (delta) SaveCdcState(db, *table, state, txns);
  CrashPoint("apply_changes.before_commit");
  CommitStatementChanges(context, *table, commit);
  if (!delta) {
    if (!table->state.txns) table->state.txns.emplace();
    for (auto& [app, v] : commit.txns) (*table->state.txns)[app] = v;
    SaveCdcState(db, *table, state, txns);
  } else {
    delta->Refresh();
  }
  return RunResult(table->name, counts, version());
}

}  // namespace lakestream
