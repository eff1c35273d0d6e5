#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/stack_depth.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "planner/binder.hpp"
#include "catalog/stream_columns.hpp"
#include "planner/table_function.hpp"
#include "function/table/stream_read.hpp"
#include "function/table/connection_table_scan.hpp"
#include "common/date.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

static LogicalOperatorPtr MakeSource(idx_t table_index, const std::string& name, const std::string& alias,
                              TableFunctionBinding binding, const TableRef& ref, BindContext& scope);

LogicalOperatorPtr Binder::BindTableRef(const TableRef& ref, BindContext& scope) {
  if (StackNearlyExhausted()) throw BinderError(NestedTooDeeplyMessage("too many joins and subqueries in FROM"));
  switch (ref.type) {
    case TableRefType::BASE_TABLE: return BindBaseTable(ref, scope);
    case TableRefType::SUBQUERY: return BindSubqueryRef(*ref.subquery, ref.alias, ref.column_aliases, scope);
    case TableRefType::TABLE_FUNCTION: return BindTableFunction(ref, scope);
    case TableRefType::JOIN:
      if (IsUnnestRef(*ref.right)) return BindUnnestJoin(ref, scope);  // t JOIN UNNEST(t.arr): reads the left side
      return BindJoin(ref, scope);
  }
  throw InternalError("BindTableRef: unknown table reference");
}

LogicalOperatorPtr Binder::BindSubqueryRef(const QueryNode& query, const std::string& alias,
                                           const std::vector<std::string>& column_aliases, BindContext& scope,
                                           const CommonTableExpression* cte) {
  Binder sub(context_, this);
  sub.binding_cte_ = cte;
  BoundQuery bound = sub.BindQuery(query);
  BindEntry entry;
  entry.alias = alias;
  entry.names = bound.names;
  if (column_aliases.size() > bound.names.size()) {
    throw BinderError("Alias " + alias + " names " + std::to_string(column_aliases.size()) + " columns but the subquery has " +
                      std::to_string(bound.names.size()));
  }
  for (idx_t i = 0; i < column_aliases.size(); i++) entry.names[i] = column_aliases[i];
  entry.types = bound.types;
  entry.bindings = bound.plan->GetBindings();
  scope.Add(std::move(entry));
  if (cte && !sub.correlated_) return ShareCTE(*cte, std::move(bound.plan));
  return std::move(bound.plan);
}

LogicalOperatorPtr Binder::ShareCTE(const CommonTableExpression& cte, LogicalOperatorPtr plan) {
  Binder* root = this;
  for (Binder* b = this; b; b = b->parent_) {
    // Inside a recursive CTE's parts or a view's query the body may read
    // what changes between runs (the working table) or be differentiated.
    if (b->recursive_working_ || b->binding_view_) return plan;
    root = b;
  }
  if (!root->materialize_ctes_) return plan;
  // The shared rows stand in for the plan only when its columns are one
  // table's, in order (a projection's): then a CHUNK_GET binds the same.
  auto bindings = plan->GetBindings();
  for (idx_t i = 0; i < bindings.size(); i++) {
    if (bindings[i].table_index != bindings[0].table_index || bindings[i].column_index != i) return plan;
  }
  if (bindings.empty()) return plan;
  CTEReferences& refs = root->cte_references_[&cte];
  if (!refs.first) {
    refs.first = plan.get();
    refs.first_bindings = bindings;
    return plan;
  }
  // A rewrite since (a subquery decorrelated around it) may have moved it.
  if (!refs.shared && refs.first->GetBindings() != refs.first_bindings) return plan;
  auto read_shared = [&refs](LogicalOperator& op, idx_t table_index) {
    op = LogicalOperator(LogicalOperatorType::CHUNK_GET);
    op.table_index = table_index;
    op.collection = refs.shared->rows;
    op.materialized = refs.shared;
  };
  if (!refs.shared) {
    // The second reference: the first one's plan, already in the query,
    // becomes the shared plan and its place a read of the rows.
    refs.shared = std::make_shared<MaterializedCTE>();
    refs.shared->name = "CTE " + cte.name;
    refs.shared->rows = std::make_shared<ChunkCollection>(refs.first->GetTypes());
    refs.shared->plan = std::make_unique<LogicalOperator>(std::move(*refs.first));
    read_shared(*refs.first, refs.shared->plan->GetBindings()[0].table_index);
  }
  read_shared(*plan, bindings[0].table_index);
  return plan;
}

LogicalOperatorPtr Binder::BindBaseTable(const TableRef& ref, BindContext& scope) {
  if (ref.name.parts.size() == 1) {
    const std::string& name = ref.name.parts[0];
    if (const CommonTableExpression* cte = FindCTE(name)) {
      if (ref.version_as_of || ref.timestamp_as_of) {
        throw BinderError("Time travel (VERSION/TIMESTAMP AS OF) applies to tables, not to the CTE " + name);
      }
      std::vector<std::string> aliases = cte->column_aliases;
      for (idx_t i = 0; i < ref.column_aliases.size(); i++) {
        if (i < aliases.size()) {
          aliases[i] = ref.column_aliases[i];
        } else {
          aliases.push_back(ref.column_aliases[i]);
        }
      }
      for (Binder* b = this; b; b = b->parent_) {
        if (b->binding_cte_ == cte) {
          if (cte->recursive) return BindRecursiveReference(*cte, *b, ref, scope);
          throw BinderError("common table expression \"" + cte->name +
                            "\" reads itself, directly or through another CTE; declare it with WITH RECURSIVE (as "
                            "<anchor> UNION [ALL] <part that reads it>), or make it read only tables and other CTEs");
        }
      }
      if (cte->recursive) return BindRecursiveCTE(*cte, ref.alias.empty() ? cte->name : ref.alias, aliases, scope);
      return BindSubqueryRef(*cte->query, ref.alias.empty() ? cte->name : ref.alias, aliases, scope, cte);
    }
  }
  // A temporary view belongs to the connection, not to a schema: its bare name finds it.
  if (ref.name.parts.size() == 1) {
    if (const ViewCatalogEntry* temp = context_.TempViews().Find(ref.name.parts[0])) return BindView(*temp, &ref, scope);
  }
  std::string name = ResolveObjectName(context_, ref.name);
  if (const ViewCatalogEntry* view = FindView(name)) return BindView(*view, &ref, scope);
  if (!ref.stream_function) {
    if (StreamCatalogEntry* stream = context_.GetCatalog().FindStream(name)) {
      // A DML statement that reads a stream consumes it; a view is read by
      // name from anywhere, so it must never hold one.
      for (const Binder* b = this; b; b = b->parent_) {
        if (b->binding_view_) {
          throw BinderError("View " + b->binding_view_->name + " reads the stream " + stream->name +
                            ": views cannot read streams, because reading a stream in a statement that writes consumes "
                            "it. Read the stream directly, or define the view on its source " + stream->source +
                            " (or on table_changes('" + stream->source + "', ...))");
        }
      }
      return BindStreamRef(ref, *stream, scope);
    }
  }
  // The application's own data (Connection::RegisterTable, a replacement scan).
  if (ref.name.parts.size() == 1 && !ref.version_as_of && !ref.timestamp_as_of && !context_.GetCatalog().FindTable(name)) {
    if (std::optional<TableFunctionBinding> local = BindConnectionTable(context_, ref.name.parts[0])) {
      const std::string& written = ref.name.parts[0];
      return MakeSource(NextTableIndex(), written, ref.alias.empty() ? written : ref.alias, std::move(*local), ref, scope);
    }
  }
  TableCatalogEntry& table = context_.GetCatalog().GetTable(name);
  // STREAM(t) in a streaming table reads what t gained since the last refresh
  // (pipeline/stream_read.hpp); anywhere else it reads like t.
  if (ref.stream_function && context_.ingestion_scope) {
    if (ref.version_as_of || ref.timestamp_as_of) {
      throw BinderError("STREAM(" + table.name + ") reads from where the streaming table stopped; it takes no VERSION/TIMESTAMP AS OF");
    }
    return MakeSource(NextTableIndex(), "stream(" + table.name + ")", ref.alias.empty() ? NameInSchema(context_, table.name) : ref.alias,
                      BindStreamRead(context_, table, ref.stream_options), ref, scope);
  }
  // Noted so the statement's result can warn when the view is behind its sources.
  if (table.kind == TableKind::MATERIALIZED_VIEW && !ref.version_as_of && !ref.timestamp_as_of) {
    context_.ViewsRead().insert(StringUtil::Lower(table.name));
  }
  auto get = std::make_unique<LogicalOperator>(LogicalOperatorType::GET);
  get->table_index = NextTableIndex();
  get->table = &table;
  get->storage = table.storage.get();
  get->table_name = table.name;
  get->source_types = table.Types();
  std::vector<std::string> column_names = table.Names();
  if (ref.version_as_of || ref.timestamp_as_of) {
    DeltaTable* delta = DatabaseInstance::AsDelta(table);
    if (!delta) {
      throw NotImplementedError("time travel (VERSION AS OF / TIMESTAMP AS OF) on table " + table.name +
                                ": it needs Delta storage; open a database directory (lakestream DB_DIR)");
    }
    std::shared_ptr<DeltaTable> past;
    if (ref.version_as_of) {
      past = delta->AtVersion(*ref.version_as_of);
    } else {
      timestamp_t ts;
      if (!Timestamp::TryParseInZone(*ref.timestamp_as_of, SessionTimeZone(), ts)) {  // the session zone, as Spark reads it
        throw BinderError("TIMESTAMP AS OF '" + *ref.timestamp_as_of + "' on table " + table.name +
                          " is not a timestamp; write it as 'YYYY-MM-DD HH:MM:SS'");
      }
      past = delta->AtTimestamp(ts);
    }
    // The schema may have changed since that version.
    get->source_types.clear();
    column_names.clear();
    for (auto& c : past->Columns()) {
      get->source_types.push_back(c.type);
      column_names.push_back(c.name);
    }
    get->storage = past.get();
    get->owned_storage = std::move(past);
  }
  for (idx_t i = 0; i < column_names.size(); i++) get->column_ids.push_back(i);
  BindEntry entry;
  entry.alias = ref.alias.empty() ? NameInSchema(context_, table.name) : ref.alias;  // s.t is read as t.col
  entry.names = column_names;
  for (idx_t i = 0; i < ref.column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = ref.column_aliases[i];
  entry.types = get->source_types;
  for (idx_t i = 0; i < column_names.size(); i++) entry.bindings.push_back({get->table_index, i});
  scope.Add(std::move(entry));
  return get;
}

LogicalOperatorPtr Binder::BindStreamRef(const TableRef& ref, StreamCatalogEntry& stream, BindContext& scope) {
  if (ref.version_as_of || ref.timestamp_as_of) {
    throw BinderError("Time travel (VERSION/TIMESTAMP AS OF) applies to tables, not to the stream " + stream.name +
                      "; read the source's history with SELECT ... FROM " + stream.source + " VERSION AS OF n, or table_changes('" +
                      stream.source + "', ...)");
  }
  // Only the columns are known here: the rows are read when the plan runs
  // (execution/physical_planner.cpp), once per statement.
  auto get = std::make_unique<LogicalOperator>(LogicalOperatorType::STREAM_GET);
  get->table_index = NextTableIndex();
  get->table_name = stream.name;
  std::vector<std::string> names;
  StreamColumns(context_.GetCatalog(), stream, names, get->source_types);
  for (idx_t i = 0; i < get->source_types.size(); i++) get->column_ids.push_back(i);
  BindEntry entry;
  entry.alias = ref.alias.empty() ? NameInSchema(context_, stream.name) : ref.alias;
  entry.names = std::move(names);
  for (idx_t i = 0; i < ref.column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = ref.column_aliases[i];
  entry.types = get->source_types;
  for (idx_t i = 0; i < get->source_types.size(); i++) entry.bindings.push_back({get->table_index, i});
  scope.Add(std::move(entry));
  return get;
}

LogicalOperatorPtr Binder::BindTableFunction(const TableRef& ref, BindContext& scope) {
  const ParsedExpression& call = *ref.function;
  std::string name = StringUtil::Lower(call.function_name);
  if (IsUnnestRef(ref)) return BindUnnestRef(ref, scope);  // UNNEST(x), explode(x) in FROM
  // Arguments must be constants (paths, table names, versions, options).
  std::vector<Value> arguments;
  std::vector<std::string> argument_names;
  BindContext empty;
  for (idx_t i = 0; i < call.children.size(); i++) {
    auto bound = FoldNow(BindExpression(*call.children[i], empty, "a table function argument"));
    if (!bound->IsConstant()) {
      throw BinderError("Argument " + std::to_string(i + 1) + " of " + name + "() must be a constant, got " +
                        call.children[i]->ToString());
    }
    arguments.push_back(bound->value);
    argument_names.push_back(i < call.arg_names.size() ? StringUtil::Lower(call.arg_names[i]) : "");
  }
  TableFunctionBinding binding = BindTableFunctionCall(context_, name, arguments, argument_names);
  return MakeSource(NextTableIndex(), name, ref.alias.empty() ? name : ref.alias, std::move(binding), ref, scope);
}

// A SOURCE operator over a bound table function (or a stream read), with its
// columns added to `scope` under `alias`.
static LogicalOperatorPtr MakeSource(idx_t table_index, const std::string& name, const std::string& alias,
                              TableFunctionBinding binding, const TableRef& ref, BindContext& scope) {
  auto source = std::make_unique<LogicalOperator>(LogicalOperatorType::SOURCE);
  source->table_index = table_index;
  source->table_name = name;
  source->source_types = binding.types;
  source->source_factory = std::move(binding.factory);
  for (idx_t i = 0; i < binding.types.size(); i++) source->column_ids.push_back(i);
  BindEntry entry;
  entry.alias = alias;
  entry.names = binding.names;
  for (idx_t i = 0; i < ref.column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = ref.column_aliases[i];
  entry.types = binding.types;
  for (idx_t i = 0; i < binding.types.size(); i++) entry.bindings.push_back({source->table_index, i});
  scope.Add(std::move(entry));
  return source;
}

}  // namespace lakestream
