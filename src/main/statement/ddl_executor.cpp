// CREATE TABLE, DROP, ALTER TABLE, SHOW and DESCRIBE.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "catalog/catalog.hpp"
#include "catalog/stream_offset.hpp"
#include "execution/subquery_resolver.hpp"
#include "execution/execute_into.hpp"
#include "execution/plan_executor.hpp"
#include "catalog/object_folder.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "common/json_writer.hpp"
#include "expression/expression_executor.hpp"
#include "main/statement/alter_table.hpp"
#include "main/statement/drop_dependents.hpp"
#include "main/statement/statement_executor.hpp"
#include "storage/table_append.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "transaction/statement_commit.hpp"
#include "planner/binder.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/stream_reader.hpp"

namespace lakestream {

// change_tracking (ClickZetta/Snowflake) and delta.enableChangeDataFeed
// (Delta) are one setting: writing either writes both.
static const char* kChangeTracking = "change_tracking";
static const char* kChangeDataFeed = "delta.enableChangeDataFeed";

static void ApplyProperty(TableCatalogEntry& table, const std::string& key, const std::string& raw_value) {
  std::string value = raw_value;
  if (StringUtil::CIEquals(key, kChangeTracking) || StringUtil::CIEquals(key, kChangeDataFeed) ||
      StringUtil::CIEquals(key, "delta.appendOnly")) {
    std::string lower = StringUtil::Lower(value);
    if (lower != "true" && lower != "false") {
      throw InvalidInputError("Property " + key + " of table " + table.name + " must be 'true' or 'false', got '" + value + "'");
    }
    value = lower;
  }
  if (StringUtil::CIEquals(key, kChangeTracking) || StringUtil::CIEquals(key, kChangeDataFeed)) {
    table.SetProperty(kChangeDataFeed, value);
    table.SetProperty(kChangeTracking, value);
    return;
  }
  table.SetProperty(key, value);
}

static Value EvaluateDefault(ClientContext& context, const ColumnDefinition& column, const std::string& table) {
  if (!column.default_value) return Value(column.type);
  Binder binder(context);
  BindContext empty;
  // A subquery in the DEFAULT runs now, once: the default is that constant.
  auto bound = ResolveSubqueries(context, binder.BindExpression(*column.default_value, empty, "DEFAULT"));
  if (!bound->IsFoldable()) {
    throw BinderError("DEFAULT of column " + table + "." + column.name + " must be a constant expression");
  }
  FunctionContext fctx;
  fctx.statement_start = context.StatementStart();
  return ExpressionExecutor(fctx).EvaluateConstant(*bound).CastAs(column.type);
}

// CREATE OR REPLACE TABLE over a managed Delta table of this database: one
// Delta commit with the new definition and rows (DeltaTable::CommitReplace),
// so a statement that fails half way leaves the old table whole, and its rows
// stay in the history. False when `old` is not such a table (in memory,
// attached with LOCATION, a view or streaming table, or a new LOCATION is
// given): the caller drops and creates instead.
static bool ReplaceInPlace(ClientContext& context, TableCatalogEntry& old, TableCatalogEntry& replacement,
                           CreateTableStatement& stmt, LogicalOperatorPtr& plan) {
  DeltaTable* delta = DatabaseInstance::AsDelta(old);
  if (!delta || !old.managed || old.kind != TableKind::TABLE || stmt.location_path) return false;
  DeltaTableDefinition definition;
  definition.columns = replacement.columns;
  definition.partition_columns = replacement.partition_columns;
  for (auto& [k, v] : replacement.properties) definition.properties[k] = v;
  definition.description = stmt.comment;
  TableCommit commit;
  commit.operation = stmt.as_query ? "CREATE OR REPLACE TABLE AS SELECT" : "CREATE OR REPLACE TABLE";
  commit.replace = &definition;
  commit.inserted.SetTypes(replacement.Types());
  auto append = BeginAppend(*delta, false, &definition);
  // The query may read the table it replaces: it reads the old snapshot
  // while the new rows go to files no version names yet.
  if (plan) ExecutePlanInto(context, std::move(plan), [&](DataChunk& chunk) { append->Append(chunk); });
  AppendScope scope(append.get());
  CommitStatementChanges(context, old, commit);
  old.columns = replacement.columns;
  old.primary_key = replacement.primary_key;
  old.partition_columns = replacement.partition_columns;
  old.properties = replacement.properties;
  DatabaseInstance::SyncFromDelta(old);
  context.Database().SaveCatalog();
  return true;
}

std::unique_ptr<QueryResult> ExecuteCreateTable(ClientContext& context, CreateTableStatement& stmt) {
  Catalog& catalog = context.GetCatalog();
  std::string name = stmt.name.Name();
  if (!stmt.using_format.empty() && !StringUtil::CIEquals(stmt.using_format, "delta")) {
    throw InvalidInputError("Table " + name + ": USING " + stmt.using_format + " is not supported; lakestream tables are Delta tables (USING DELTA)");
  }
  if (catalog.FindTable(name) && stmt.if_not_exists) return MakeEmptyResult();
  catalog.RequireNameForTable(name, TableKind::TABLE);
  auto entry = std::make_unique<TableCatalogEntry>();
  entry->name = name;
  // CREATE TABLE AS: the query runs once the table exists, its rows
  // streaming into the table's files (bounded memory), or first, into
  // `rows`, when it replaces a table it may read that is dropped and created anew.
  LogicalOperatorPtr plan;
  ChunkCollection rows;
  if (stmt.as_query) {
    Binder binder(context);
    BoundQuery query = binder.BindQuery(*stmt.as_query);
    if (!stmt.columns.empty()) throw NotImplementedError("a column list together with CREATE TABLE ... AS SELECT");
    if (query.names.empty()) {
      throw BinderError("CREATE TABLE " + name + " AS SELECT: the query returns no columns, and a table needs at least " +
                        "one (read_files over files without records has nothing to infer columns from: give it " +
                        "schema => 'a INT, b STRING')");
    }
    plan = std::move(query.plan);
    for (idx_t i = 0; i < query.names.size(); i++) {
      LogicalType type = query.types[i].id() == TypeId::SQLNULL ? LogicalType(TypeId::INTEGER) : query.types[i];
      for (auto& existing : entry->columns) {
        if (StringUtil::CIEquals(existing.name, query.names[i])) {
          throw BinderError("CREATE TABLE " + name + " AS SELECT: the query has two columns named " + query.names[i] +
                            "; give one of them an alias");
        }
      }
      entry->columns.push_back({query.names[i], type, false, Value(type)});
    }
  } else {
    if (stmt.columns.empty() && !stmt.location_path) {
      throw BinderError("CREATE TABLE " + name + " needs at least one column, or AS SELECT, or LOCATION of an existing Delta table");
    }
    for (auto& column : stmt.columns) {
      if (entry->ColumnIndex(column.name) >= 0) {
        throw BinderError("Column " + column.name + " is defined twice in CREATE TABLE " + name);
      }
      if (column.type.id() == TypeId::INVALID) throw BinderError("Column " + column.name + " has no type");
      entry->columns.push_back({column.name, column.type, column.not_null, EvaluateDefault(context, column, name)});
    }
  }
  for (auto& key : stmt.primary_key) {
    int64_t idx = entry->ColumnIndex(key);
    if (idx < 0) throw BinderError("PRIMARY KEY column " + key + " is not a column of table " + name);
    entry->columns[idx].not_null = true;
    entry->primary_key.push_back(entry->columns[idx].name);
  }
  for (auto& part : stmt.partitioned_by) {
    int64_t idx = entry->ColumnIndex(part);
    if (idx < 0) throw BinderError("PARTITIONED BY column " + part + " is not a column of table " + name);
    entry->partition_columns.push_back(entry->columns[idx].name);
  }
  for (auto& [key, value] : stmt.properties) ApplyProperty(*entry, key, value);
  DatabaseInstance& db = context.Database();
  if (!stmt.or_replace && catalog.FindTable(name)) {
    throw CatalogError("Table with name " + name + " already exists! Use CREATE OR REPLACE TABLE to replace it, or pick another name.");
  }
  if (stmt.or_replace) {
    if (TableCatalogEntry* old = catalog.FindTable(name)) {
      CheckRowsRemovable(*old, stmt.as_query ? "CREATE OR REPLACE TABLE ... AS SELECT" : "CREATE OR REPLACE TABLE");
      if (ReplaceInPlace(context, *old, *entry, stmt, plan)) return MakeEmptyResult();
      if (plan) rows = ExecutePlan(context, std::move(plan));
      db.DropTableStorage(*old);
      catalog.DropTable(name, true);
    }
  }
  // CREATE TABLE AS is one commit or nothing: the table enters the catalog
  // only with its rows (CommitNewTable); until then its folder carries the
  // unregistered mark, so a crash leaves a leftover the next CREATE removes.
  try {
    db.CreateTableStorage(*entry, stmt.location_path, stmt.comment, /*unregistered=*/stmt.as_query != nullptr);
  } catch (...) {
    if (stmt.as_query) db.RemoveCreationLeftover(*entry);
    throw;
  }
  for (auto& key : entry->primary_key) {
    int64_t idx = entry->ColumnIndex(key);
    if (idx >= 0) entry->columns[idx].not_null = true;
  }
  if (!stmt.as_query) {
    catalog.CreateTable(std::move(entry), stmt.if_not_exists, stmt.or_replace);
    db.SaveCatalog();
    return MakeEmptyResult();
  }
  TableCatalogEntry doomed;  // what deleting the storage of a failed statement needs
  doomed.name = entry->name;
  doomed.kind = entry->kind;
  doomed.location = entry->location;
  doomed.managed = entry->managed;
  TableCommit commit;
  commit.operation = "CREATE TABLE AS SELECT";
  commit.inserted = std::move(rows);
  commit.inserted.SetTypes(entry->Types());
  try {
    auto append = BeginAppend(*entry->storage, false, nullptr);
    if (plan) ExecutePlanInto(context, std::move(plan), [&](DataChunk& chunk) { append->Append(chunk); });
    AppendScope scope(append.get());
    CommitNewTable(context, std::move(entry), commit, stmt.or_replace);
  } catch (...) {
    // A table whose rows could not be written (a full disk, an interrupt) is
    // not left behind; it was never in the catalog.
    try {
      db.DropTableStorage(doomed);
    } catch (...) {
      // The statement's own error says more; the folder keeps its mark.
    }
    throw;
  }
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteDrop(ClientContext& context, DropStatement& stmt) {
  switch (stmt.object_type) {
    case ObjectType::TABLE: {
      TableCatalogEntry* entry = context.GetCatalog().FindTable(stmt.name.Name());
      if (!entry && context.GetCatalog().FindView(stmt.name.Name())) {
        throw CatalogError(stmt.name.Name() + " is a view, not a table; drop it with DROP VIEW " + stmt.name.Name());
      }
      if (!entry) {
        context.GetCatalog().DropTable(stmt.name.Name(), stmt.if_exists);  // throws with a hint unless IF EXISTS
        return MakeEmptyResult();
      }
      if (entry->kind != TableKind::TABLE) {
        throw CatalogError(entry->name + " is a " + TableKindToString(entry->kind) + ", not a table; drop it with DROP " +
                           StringUtil::Upper(TableKindToString(entry->kind)) + " " + entry->name);
      }
      context.Database().RequireWritable("DROP TABLE");
      std::string name = entry->name;
      DropDependentsOrRefuse(context, stmt, "table", name);
      RemoveTable(context, *context.GetCatalog().FindTable(name));  // also a table that cannot be opened
      return MakeEmptyResult();
    }
    case ObjectType::STREAM: return ExecuteDropStream(context, stmt);
    case ObjectType::SINK: return ExecuteDropSink(context, stmt);
    case ObjectType::STREAMING_TABLE: return ExecuteDropStreamingTable(context, stmt);
    case ObjectType::MATERIALIZED_VIEW: return ExecuteDropMaterializedView(context, stmt);
    case ObjectType::VIEW: return ExecuteDropView(context, stmt);
  }
  throw InternalError("unknown DROP");
}

// Does `sql` mention `name` as a whole identifier (case-insensitively)? A
// textual test: it may see a column of that name too, which only makes a
// rename refuse where it need not.
static bool MentionsName(const std::string& sql, const std::string& name) {
  std::string text = StringUtil::Lower(sql);
  std::string word = StringUtil::Lower(name);
  auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool starts = at == 0 || !is_ident(text[at - 1]);
    bool ends = at + word.size() == text.size() || !is_ident(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// ALTER TABLE ... RENAME renames a plain table whose name nothing else
// holds: views, streaming tables, streams and sinks find their sources by
// name, so a rename under them would leave them reading nothing (or a new
// table that takes the old name).
static void RequireNoDependents(ClientContext& context, TableCatalogEntry& table, const std::string& new_name) {
  Catalog& catalog = context.GetCatalog();
  if (table.kind != TableKind::TABLE) {
    std::string kind = TableKindToString(table.kind);
    throw CatalogError("Cannot rename " + kind + " " + table.name + " to " + new_name +
                       ": ALTER TABLE ... RENAME renames tables only; create the " + kind + " again under the new name (CREATE " +
                       StringUtil::Upper(kind) + " " + new_name + " AS ...) and drop the old one");
  }
  std::vector<std::string> dependents;
  for (auto& name : catalog.TableNames()) {
    TableCatalogEntry* other = catalog.FindTable(name);
    if (!other || other == &table) continue;
    bool reads = false;
    if (other->kind == TableKind::MATERIALIZED_VIEW) {
      reads = (other->state.sources && other->state.sources->count(StringUtil::Lower(table.name))) ||
              MentionsName(other->definition, table.name);
    } else if (other->kind == TableKind::STREAMING_TABLE) {
      reads = MentionsName(other->definition, table.name);
    }
    if (reads) dependents.push_back(std::string(TableKindToString(other->kind)) + " " + other->name);
  }
  for (auto& name : catalog.StreamNames()) {
    StreamCatalogEntry* stream = catalog.FindStream(name);
    if (stream && StringUtil::CIEquals(stream->source, table.name)) dependents.push_back("stream " + stream->name);
  }
  for (auto& name : catalog.SinkNames()) {
    SinkCatalogEntry* sink = catalog.FindSink(name);
    if (sink && StringUtil::CIEquals(sink->source, table.name)) dependents.push_back("sink " + sink->name);
  }
  if (dependents.empty()) return;
  std::string list;
  for (auto& d : dependents) list += (list.empty() ? "" : ", ") + d;
  throw CatalogError("Cannot rename table " + table.name + " to " + new_name + ": " + list + " read" +
                     (dependents.size() == 1 ? "s" : "") + " it by name and would be left without a source; drop " +
                     (dependents.size() == 1 ? "it" : "them") + " first, rename, then create " +
                     (dependents.size() == 1 ? "it" : "them") + " again on " + new_name);
}

// Renames the entry and, like Spark, moves a managed table's folder to the
// folder of the new name (docs/names.md), so the old name can be used again.
// The catalog is saved first with the new location and "moved_from" in the
// entry's state; a crash before the rename(2) is finished on the next open
// (database_instance.cpp, FinishMove). A folder in a place this database
// did not choose (an older catalog's) stays where it is.
static void RenameTable(ClientContext& context, TableCatalogEntry& entry, const std::string& new_name) {
  DatabaseInstance& db = context.Database();
  Catalog& catalog = context.GetCatalog();
  std::string kind = TableKindToString(entry.kind);
  std::string folder_name = ObjectFolderName(new_name, kind.c_str());  // refuses what cannot be a name
  std::string old_name = entry.name;
  std::string from = entry.location;
  std::string to = db.Path() + "/" + folder_name;
  // Object storage has no rename: there the table keeps its folder.
  bool move = !db.InMemory() && !IsRemotePath(db.Path()) && entry.managed && from != to &&
              CheckOwnedFolder(db.Path(), from).ok();
  if (move) {
    db.RequireWritable("ALTER TABLE ... RENAME");
    struct stat st;
    if (::lstat(to.c_str(), &st) == 0) {
      throw CatalogError("Cannot rename " + kind + " " + old_name + " to " + new_name + ": its new folder " + to +
                         " already exists and belongs to no table; move it away, or pick another name");
    }
  }
  catalog.RenameTable(old_name, new_name);  // throws when new_name is taken
  if (!move) {
    db.SaveCatalog();
    return;
  }
  auto undo = [&]() {
    entry.location = from;
    entry.state.moved_from.reset();
    catalog.RenameTable(new_name, old_name);
  };
  entry.location = to;
  entry.state.moved_from = BaseName(from);
  try {
    db.SaveCatalog();
  } catch (...) {
    undo();
    throw;
  }
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
    std::string reason = std::strerror(errno);
    undo();
    db.SaveCatalog();
    throw IOError("Cannot rename " + kind + " " + old_name + " to " + new_name + ": moving its folder " + from + " to " + to +
                  " failed (" + reason + "); the table keeps its old name");
  }
  entry.state.moved_from.reset();
  auto opened_table = DeltaTable::Open(db.Fs(), entry.name, entry.location, std::nullopt, &db.AccessPolicy());
  entry.storage = std::move(opened_table);
  DatabaseInstance::SyncFromDelta(entry);
  db.SaveCatalog();
}

std::unique_ptr<QueryResult> ExecuteAlterTable(ClientContext& context, AlterTableStatement& stmt) {
  TableCatalogEntry& table = context.GetCatalog().GetTable(stmt.table.Name());
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  if (delta) context.Database().RequireWritable("ALTER TABLE");
  switch (stmt.alter_type) {
    case AlterType::SET_PROPERTIES:
      for (auto& [key, value] : stmt.properties) {
        if (!StringUtil::CIEquals(key, kTxnRetentionProperty)) continue;
        auto streams = StreamsRecordedIn(context.GetCatalog(), table);
        if (streams.empty()) continue;
        throw InvalidInputError("cannot set " + key + " on table " + table.name + ": it records the offset of stream " +
                                streams[0] + " in its txns, which a checkpoint could then drop, and the stream would "
                                "deliver its changes again; leave the property unset on tables that consume streams");
      }
      for (auto& [key, value] : stmt.properties) ApplyProperty(table, key, value);
      if (delta) {
        std::map<std::string, std::string> properties;
        for (auto& [k, v] : table.properties) properties[k] = v;
        try {
          delta->SetProperties(properties);
        } catch (...) {
          DatabaseInstance::SyncFromDelta(table);  // the catalog's properties as the table has them
          throw;
        }
        DatabaseInstance::SyncFromDelta(table);
      }
      return MakeEmptyResult();
    case AlterType::UNSET_PROPERTIES:
      for (auto& key : stmt.unset_keys) {
        bool is_cdf = StringUtil::CIEquals(key, kChangeTracking) || StringUtil::CIEquals(key, kChangeDataFeed);
        bool removed = is_cdf ? (table.UnsetProperty(kChangeTracking) | table.UnsetProperty(kChangeDataFeed))
                              : table.UnsetProperty(key);
        if (!removed && !stmt.if_exists) {
          throw InvalidInputError("Property " + key + " is not set on table " + table.name +
                                  "; use UNSET TBLPROPERTIES IF EXISTS to ignore missing keys");
        }
      }
      if (delta) {
        std::vector<std::string> keys = stmt.unset_keys;
        for (auto& key : stmt.unset_keys) {
          if (StringUtil::CIEquals(key, kChangeTracking) || StringUtil::CIEquals(key, kChangeDataFeed)) {
            keys.push_back(kChangeTracking);
            keys.push_back(kChangeDataFeed);
          }
        }
        try {
          delta->UnsetProperties(keys);
        } catch (...) {
          DatabaseInstance::SyncFromDelta(table);  // the catalog's properties as the table has them
          throw;
        }
        DatabaseInstance::SyncFromDelta(table);
      }
      return MakeEmptyResult();
    case AlterType::RENAME_TABLE:
      RequireNoDependents(context, table, stmt.new_name.Name());
      RenameTable(context, table, stmt.new_name.Name());
      return MakeEmptyResult();
    case AlterType::ADD_COLUMN: {
      std::vector<TableColumn> columns = table.columns;
      for (auto& def : stmt.new_columns) {
        for (auto& c : columns) {
          if (StringUtil::CIEquals(c.name, def.name)) {
            throw CatalogError("Column " + def.name + " already exists in table " + table.name);
          }
        }
        if (def.not_null) {
          throw ConstraintError("Cannot add NOT NULL column " + def.name + " to table " + table.name +
                                ": existing rows would hold NULL; add it nullable");
        }
        columns.push_back({def.name, def.type, false, EvaluateDefault(context, def, table.name)});
      }
      if (delta) {
        // Delta adds columns without rewriting files: old files read them as NULL.
        for (auto& c : columns) {
          if (!c.default_value.IsNull() && table.ColumnIndex(c.name) < 0) {
            throw NotImplementedError("ADD COLUMN ... DEFAULT on a Delta table (existing rows would stay NULL); add the column without DEFAULT");
          }
        }
        std::vector<TableColumn> added(columns.begin() + static_cast<int64_t>(table.columns.size()), columns.end());
        delta->AddColumns(added);
        DatabaseInstance::SyncFromDelta(table);
        context.Database().SaveCatalog();
        return MakeEmptyResult();
      }
      // Rewrite the rows with the new columns filled with their defaults.
      idx_t old_count = table.columns.size();
      std::vector<Value> defaults;
      for (idx_t c = old_count; c < columns.size(); c++) defaults.push_back(columns[c].default_value);
      RewriteInMemoryTable(table, std::move(columns), "ADD COLUMNS", [&](const DataChunk& old_rows, DataChunk& new_rows) {
        for (idx_t c = 0; c < old_count; c++) new_rows.data[c].Copy(old_rows.data[c], nullptr, old_rows.size(), 0, 0);
        for (idx_t c = 0; c < defaults.size(); c++) {
          for (idx_t r = 0; r < old_rows.size(); r++) new_rows.data[old_count + c].SetValue(r, defaults[c]);
        }
      });
      return MakeEmptyResult();
    }
    case AlterType::ALTER_COLUMN_TYPE:
      return ExecuteAlterColumnType(context, table, stmt);
    case AlterType::RENAME_COLUMN:
    case AlterType::DROP_COLUMN: {
      bool rename = stmt.alter_type == AlterType::RENAME_COLUMN;
      if (!delta || table.kind != TableKind::TABLE) {
        throw NotImplementedError(std::string(rename ? "RENAME COLUMN" : "DROP COLUMN") + " of " +
                                  (delta ? TableKindToString(table.kind) : "in-memory table") + " " + table.name +
                                  " (it works on Delta tables with column mapping)");
      }
      if (rename) {
        delta->RenameColumn(stmt.column_path, stmt.new_column_name);
      } else {
        delta->DropColumns(stmt.drop_columns, stmt.if_exists);
      }
      DatabaseInstance::SyncFromDelta(table);
      context.Database().SaveCatalog();
      return MakeEmptyResult();
    }
  }
  throw InternalError("unknown ALTER TABLE");
}

// A VARCHAR-column result (introspection output).
static std::unique_ptr<QueryResult> TextResult(std::vector<std::string> names, const std::vector<std::vector<Value>>& rows) {
  std::vector<LogicalType> types(names.size(), TypeId::VARCHAR);
  return MakeRowsResult(std::move(names), types, rows);
}

std::unique_ptr<QueryResult> ExecuteShow(ClientContext& context, ShowStatement& stmt) {
  switch (stmt.show_type) {
    case ShowType::TABLES: {
      std::string schema = ListedSchema(context, stmt);
      std::vector<std::vector<Value>> rows;
      for (auto& name : context.GetCatalog().TableNames()) {
        if (InSchema(context, name, schema)) rows.push_back({Value(NameInSchema(context, name))});
      }
      return TextResult({"name"}, rows);
    }
    case ShowType::SCHEMAS: return ExecuteShowSchemas(context, stmt);
    case ShowType::TBLPROPERTIES: {
      auto& table = context.GetCatalog().GetTable(stmt.name.Name());
      std::vector<std::vector<Value>> rows;
      for (auto& [k, v] : table.properties) rows.push_back({Value(k), Value(v)});
      return TextResult({"key", "value"}, rows);
    }
    case ShowType::COLUMNS: {
      auto& table = context.GetCatalog().GetTable(stmt.name.Name());
      std::vector<std::vector<Value>> rows;
      for (auto& c : table.columns) rows.push_back({Value(c.name)});
      return TextResult({"col_name"}, rows);
    }
    case ShowType::STREAMS: return ExecuteShowStreams(context, stmt);
    case ShowType::SINKS: return ExecuteShowSinks(context, stmt);
    case ShowType::MATERIALIZED_VIEWS: return ExecuteShowMaterializedViews(context, stmt);
    case ShowType::VIEWS: return ExecuteShowViews(context, stmt);
  }
  throw InternalError("unknown SHOW");
}

static DeltaTable& RequireDelta(ClientContext& context, const std::string& name, const char* what) {
  auto& table = context.GetCatalog().GetTable(name);
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  if (!delta) {
    throw NotImplementedError(std::string(what) + " on table " + table.name +
                              ": it needs Delta storage; open a database directory (lakestream DB_DIR)");
  }
  return *delta;
}

static std::unique_ptr<QueryResult> DescribeHistory(ClientContext& context, DescribeStatement& stmt) {
  DeltaTable& delta = RequireDelta(context, stmt.name.Name(), "DESCRIBE HISTORY");
  std::optional<size_t> limit;
  if (stmt.limit) limit = static_cast<size_t>(*stmt.limit);
  auto history = delta.Log().History(limit);
  if (!history.ok()) history.status().Throw();
  std::vector<std::vector<Value>> rows;
  for (auto& h : history.value()) {
    rows.push_back({Value::BIGINT(h.version), Value::TIMESTAMP(h.timestamp_ms * 1000), Value(h.operation),
                    Value(JsonObjectOfStrings(h.operation_parameters)),
                    h.read_version ? Value::BIGINT(*h.read_version) : Value(LogicalType(TypeId::BIGINT)),
                    h.is_blind_append ? Value::BOOLEAN(*h.is_blind_append) : Value(LogicalType(TypeId::BOOLEAN)),
                    h.engine_info ? Value(*h.engine_info) : Value(LogicalType(TypeId::VARCHAR))});
  }
  return MakeRowsResult({"version", "timestamp", "operation", "operationParameters", "readVersion", "isBlindAppend", "engineInfo"},
                        {TypeId::BIGINT, TypeId::TIMESTAMP, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::BIGINT,
                         TypeId::BOOLEAN, TypeId::VARCHAR},
                        rows);
}

static std::unique_ptr<QueryResult> DescribeDetail(ClientContext& context, DescribeStatement& stmt) {
  DeltaTable& delta = RequireDelta(context, stmt.name.Name(), "DESCRIBE DETAIL");
  const auto& snap = delta.Snapshot();
  std::string properties = JsonObjectOfStrings(snap.metadata.configuration);
  auto last = snap.commit_timestamps.empty() ? std::optional<int64_t>() : std::optional<int64_t>(snap.commit_timestamps.rbegin()->second);
  std::vector<std::vector<Value>> rows = {{
      Value("delta"), Value(snap.metadata.id), Value(delta.Name()),
      Value(snap.metadata.description.value_or("")), Value(delta.Path()),
      snap.metadata.created_time ? Value::TIMESTAMP(*snap.metadata.created_time * 1000) : Value(LogicalType(TypeId::TIMESTAMP)),
      last ? Value::TIMESTAMP(*last * 1000) : Value(LogicalType(TypeId::TIMESTAMP)),
      Value("[" + StringUtil::Join(snap.partition_columns(), ",") + "]"),
      Value::BIGINT(static_cast<int64_t>(snap.files.size())), Value::BIGINT(snap.TotalBytes()), Value(properties),
      Value::INTEGER(snap.protocol.min_reader_version), Value::INTEGER(snap.protocol.min_writer_version),
      Value::BIGINT(snap.version)}};
  std::vector<std::string> names = {"format", "id", "name", "description", "location", "createdAt", "lastModified",
                                    "partitionColumns", "numFiles", "sizeInBytes", "properties", "minReaderVersion",
                                    "minWriterVersion", "version"};
  std::vector<LogicalType> types;
  for (auto& v : rows[0]) types.push_back(v.type());
  return MakeRowsResult(names, types, rows);
}

// DESCRIBE on a stream: its columns (the source's, then the metadata columns).
static std::unique_ptr<QueryResult> DescribeStreamColumns(ClientContext& context, StreamCatalogEntry& stream) {
  TableCatalogEntry* source = nullptr;
  StreamSource(context, stream, &source);
  std::vector<std::string> names = source->Names();
  std::vector<LogicalType> types = source->Types();
  AddStreamMetadataColumns(names, types);
  std::vector<std::vector<Value>> rows;
  for (idx_t i = 0; i < names.size(); i++) rows.push_back({Value(names[i]), Value(types[i].ToString())});
  return TextResult({"column_name", "column_type"}, rows);
}

std::unique_ptr<QueryResult> ExecuteDescribe(ClientContext& context, DescribeStatement& stmt) {
  switch (stmt.describe_type) {
    case DescribeType::TABLE: {
      const ViewCatalogEntry* view = context.TempViews().Find(stmt.name.Name());
      if (!view) view = context.GetCatalog().FindView(stmt.name.Name());
      if (view) return DescribeView(context, *view);
      if (StreamCatalogEntry* stream = context.GetCatalog().FindStream(stmt.name.Name())) return DescribeStreamColumns(context, *stream);
      auto& table = context.GetCatalog().GetTable(stmt.name.Name());
      std::vector<std::vector<Value>> rows;
      for (auto& c : table.columns) {
        bool key = false;
        for (auto& k : table.primary_key) key |= StringUtil::CIEquals(k, c.name);
        rows.push_back({Value(c.name), Value(c.type.ToString()), Value(c.not_null ? "NO" : "YES"),
                        key ? Value("PRI") : Value(LogicalType(TypeId::VARCHAR)),
                        c.default_value.IsNull() ? Value(LogicalType(TypeId::VARCHAR)) : Value(c.default_value.ToSQLString())});
      }
      return TextResult({"column_name", "column_type", "null", "key", "default"}, rows);
    }
    case DescribeType::QUERY: {
      Binder binder(context);
      BoundQuery query = binder.BindQuery(*stmt.query);
      std::vector<std::vector<Value>> rows;
      for (idx_t i = 0; i < query.names.size(); i++) rows.push_back({Value(query.names[i]), Value(query.types[i].ToString())});
      return TextResult({"column_name", "column_type"}, rows);
    }
    case DescribeType::HISTORY: return DescribeHistory(context, stmt);
    case DescribeType::DETAIL: {
      // DESCRIBE DETAIL of a materialized view also says how it is maintained (issue 6).
      TableCatalogEntry* entry = context.GetCatalog().FindTable(stmt.name.Name());
      if (entry && entry->kind == TableKind::MATERIALIZED_VIEW) return ExecuteDescribeMaterializedView(context, stmt);
      return DescribeDetail(context, stmt);
    }
    case DescribeType::STREAM: return ExecuteDescribeStream(context, stmt);
    case DescribeType::MATERIALIZED_VIEW: return ExecuteDescribeMaterializedView(context, stmt);
    case DescribeType::SINK: return ExecuteDescribeSink(context, stmt);
  }
  throw InternalError("unknown DESCRIBE");
}

}  // namespace lakestream
