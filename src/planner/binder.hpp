// Binder: resolves names against the catalog and the FROM clause, checks types,
// and builds the logical plan of a query (DuckDB's binder is the model).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parser/ast.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

struct StreamCatalogEntry;
struct ViewCatalogEntry;
struct UserScalarFunction;

class ClientContext;

// The columns visible in a scope: one entry per FROM item (table, subquery, CTE).
struct BindEntry {
  std::string alias;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<ColumnBinding> bindings;
  // Columns merged into the other side of a JOIN ... USING: reachable only
  // qualified (q.id), skipped by an unqualified *. Empty: none.
  std::vector<bool> merged;
  bool IsMerged(idx_t i) const { return i < merged.size() && merged[i]; }
};

class BindContext {
 public:
  // Throws BinderError when the alias is already used in this scope.
  void Add(BindEntry entry);
  // Resolves a (possibly qualified) column name, or throws BinderError naming
  // the column and listing candidates. Returns nullptr (no throw) when
  // `optional` and nothing matches.
  BoundExprPtr Resolve(const std::vector<std::string>& names, bool optional = false) const;
  // Columns for * (qualifier empty) or t.*.
  std::vector<std::pair<std::string, BoundExprPtr>> ExpandStar(const std::vector<std::string>& qualifier) const;
  const std::vector<BindEntry>& Entries() const { return entries_; }
  // A key that is equal for two expressions that mean the same: `expr`'s text
  // with each column it names replaced by the column that name resolves to
  // (so t.a, a and T.A give one key), function and unresolved names in lower
  // case. A name that resolves to nothing or to several columns keeps its
  // text; binding it reports that. Subqueries are kept as written.
  std::string ExpressionKey(const ParsedExpression& expr) const;
  // The key ExpressionKey gives a reference to the column `binding`.
  static std::string ColumnKey(const ColumnBinding& binding);
  // JOIN ... USING: hides the (unqualified) column `name` of this scope.
  void MarkMerged(const std::string& name);
  void Merge(const BindContext& other);

 private:
  std::vector<BindEntry> entries_;
};

struct BoundQuery {
  LogicalOperatorPtr plan;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
};

// State for binding the select list, HAVING and ORDER BY of an aggregate query.
struct AggregateBindState {
  std::vector<std::string> group_strings;  // BindContext::ExpressionKey of each group
  std::vector<BoundExprPtr> groups;
  std::vector<BoundAggregate> aggregates;
  std::vector<std::string> aggregate_strings;  // BindContext::ExpressionKey of each aggregate call
  idx_t group_index = 0;
  idx_t aggregate_index = 0;
  bool grouping_sets = false;  // GROUPING SETS/ROLLUP/CUBE: group columns may read NULL
  // Select-list aliases and the ExpressionKey of what they name, for
  // grouping(alias) (Spark resolves an alias of a GROUP BY expression there).
  std::vector<std::pair<std::string, std::string>> select_aliases;
};

// State for binding the window functions of one SELECT (bind_window.cpp):
// the inputs and windows of its WINDOW operator, whose outputs are bound at
// (window_index, i).
struct WindowBindState {
  idx_t window_index = 0;
  const QueryNode* node = nullptr;  // its WINDOW clause names windows
  std::vector<BoundExprPtr> inputs;
  std::vector<std::string> input_keys;   // to share equal inputs ("" = not shared)
  std::vector<BoundWindow> windows;
  std::vector<std::string> window_keys;  // BindContext::ExpressionKey of each call
};

// Adds an input to the WINDOW operator, or finds the equal one (same `key`).
idx_t AddWindowInput(WindowBindState& state, BoundExprPtr input, const std::string& key);

class Binder {
 public:
  explicit Binder(ClientContext& context, Binder* parent = nullptr);

  BoundQuery BindQuery(const QueryNode& node);
  // A SELECT's root binder: a CTE the query reads more than once runs once
  // (MaterializedCTE, logical_plan.hpp). Not for view definitions, whose
  // plans view maintenance differentiates.
  void MaterializeRepeatedCTEs() { materialize_ctes_ = true; }
  // Binds an expression that must not contain aggregates (`clause` names the
  // place for the error message, e.g. "WHERE").
  BoundExprPtr BindExpression(const ParsedExpression& expr, const BindContext& scope, const char* clause);
  LogicalOperatorPtr BindTableRef(const TableRef& ref, BindContext& scope);

  // `expr` evaluated now when it has no column or subquery in it, raising
  // what evaluating it raises (an overflow, a bad cast); else unchanged. For
  // places that need a constant (LIMIT, table function arguments): binding
  // leaves a constant expression that fails unfolded, for when a row reaches it.
  BoundExprPtr FoldNow(BoundExprPtr expr);

  // A plain view's query, bound as a subquery named `alias` with the view's
  // column aliases (planner/bind_view.cpp). Errors name the view. CREATE VIEW
  // calls it (`creating`) to check a definition before storing it; `ref`
  // (alias, column aliases) may be null.
  LogicalOperatorPtr BindView(const ViewCatalogEntry& view, const TableRef* ref, BindContext& scope, bool creating = false);
  // The view `name` stands for where a table is read: a temporary view of the
  // connection first, then a view of the catalog; null when neither.
  const ViewCatalogEntry* FindView(const std::string& name) const;

  idx_t NextTableIndex();
  ClientContext& Context() { return context_; }
  // True when a subquery used as a value (IN/EXISTS/scalar) was bound anywhere
  // in this query: it reads rows outside any change when the plan runs, so
  // materialized views cannot maintain such a query incrementally.
  bool BoundSubqueryExpression() const { return bound_subquery_expression_; }

 private:
  friend class SelectNodeBinder;  // bind_select.cpp: the phases of BindSelectNode
  friend class SubqueryPlanner;   // planner/subquery/plan_subqueries.cpp: binds the comparisons it adds
  friend class DependentJoinFlattener;  // planner/subquery/flatten_dependent_join.cpp: likewise
  BoundQuery BindSelectNode(const QueryNode& node);
  BoundQuery BindSetOperation(const QueryNode& node);
  BoundQuery BindValues(const QueryNode& node);
  void AddCTEs(const QueryNode& node);
  const CommonTableExpression* FindCTE(const std::string& name) const;

  BoundExprPtr Bind(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                    const char* clause);
  BoundExprPtr BindFunction(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                            const char* clause);
  // bind_aggregate.cpp: an aggregate call (with FILTER, ORDER BY, WITHIN
  // GROUP), or grouping()/grouping_id(), added to `aggregate` once per
  // distinct call; returns the reference to its result.
  BoundExprPtr BindAggregateCall(const ParsedExpression& expr, const BindContext& scope, AggregateBindState& aggregate);
  // sum(x + c) of an integer x and literal c as sum(x) + c * count(x), or nullptr.
  ExprPtr SumOfOffset(const ParsedExpression& expr, const BindContext& scope);
  // `argument_names`: field names for struct()-like functions ("" = unknown);
  // defaults to each child's column name.
  BoundExprPtr BindOperator(const std::string& name, std::vector<BoundExprPtr> children, uint32_t location,
                            const std::vector<std::string>* argument_names = nullptr);
  // A call of a function registered on the connection (ClientContext::user_functions).
  BoundExprPtr BindUserFunctionCall(const UserScalarFunction& function, std::vector<BoundExprPtr> children);
  // Resolves a column, explaining correlated references to an outer query.
  BoundExprPtr ResolveColumn(const std::vector<std::string>& names, const BindContext& scope);
  // f(...) OVER (...): adds it to window_state_ (an error naming `clause`
  // when that is null: windows are allowed in SELECT, QUALIFY and ORDER BY).
  BoundExprPtr BindWindow(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                          const char* clause);
  void BindWindowFunction(const ParsedExpression& expr, BoundWindow& window, std::vector<BoundExprPtr>& args,
                          const std::vector<std::string>& arg_keys, WindowBindState& state);
  void BindWindowFrame(const WindowSpec* spec, BoundWindow& window, const BindContext& scope,
                       AggregateBindState* aggregate, WindowBindState& state);
  BoundExprPtr BindSubquery(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                            const char* clause);
  BoundExprPtr BindRowMembership(const ParsedExpression& expr, const ParsedExpression& row, const BindContext& scope,
                                 AggregateBindState* aggregate, const char* clause,
                                 const std::vector<LogicalType>& columns,
                                 const std::function<BoundExprPtr(SubqueryKind, LogicalType)>& make_node);
  void CheckAnyOverValues(const ParsedExpression& expr, const BindContext& scope, const char* clause);
  BoundExprPtr BindCase(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                        const char* clause);
  BoundExprPtr FoldConstant(BoundExprPtr expr);
  // Nested data (bind_nested.cpp): `s.a.b` / `t.s.a` / lambda parameters (null
  // when `expr` is a plain column), `x.f` field access, `x -> ...` lambdas.
  BoundExprPtr BindNestedColumn(const ParsedExpression& expr, const BindContext& scope, AggregateBindState* aggregate,
                                const char* clause);
  BoundExprPtr BindFieldAccess(BoundExprPtr child, const std::string& field);
  BoundExprPtr BindLambdaFunction(const std::string& name, const ParsedExpression& expr, const BindContext& scope,
                                  AggregateBindState* aggregate, const char* clause);
  struct LambdaScope {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    idx_t table_index;
  };
  std::vector<LambdaScope> lambda_scopes_;  // innermost last
  // Generators (bind_unnest.cpp): explode(...) in a SELECT list is replaced
  // by `<alias>.*` (RewriteGenerators) and becomes an UNNEST over the FROM
  // and WHERE of that SELECT (BindPendingGenerators, called after WHERE).
  std::unique_ptr<QueryNode> RewriteGenerators(const QueryNode& node);
  LogicalOperatorPtr BindPendingGenerators(const QueryNode& node, LogicalOperatorPtr plan, BindContext& scope);
  LogicalOperatorPtr BindUnnest(const ParsedExpression& call, const std::string& function, LogicalOperatorPtr input,
                                const BindContext& argument_scope, const std::string& alias,
                                const std::vector<std::string>& column_aliases, BindContext& scope);
  // FROM UNNEST(x) [AS u(a)] and t JOIN UNNEST(t.arr): the argument may read the left side.
  LogicalOperatorPtr BindUnnestRef(const TableRef& ref, BindContext& scope);
  LogicalOperatorPtr BindUnnestJoin(const TableRef& ref, BindContext& scope);
  struct PendingGenerator {
    const QueryNode* node;
    ExprPtr call;
    std::string alias;
  };
  std::vector<PendingGenerator> pending_generators_;
  idx_t generator_count_ = 0;
  LogicalOperatorPtr BindTableFunction(const TableRef& ref, BindContext& scope);
  // FROM a table stream: a STREAM_GET naming it; its pending changes are read
  // when the plan runs, once per statement (src/stream/).
  LogicalOperatorPtr BindStreamRef(const TableRef& ref, StreamCatalogEntry& stream, BindContext& scope);
  BoundExprPtr BindStreamHasData(const ParsedExpression& expr);
  LogicalOperatorPtr BindBaseTable(const TableRef& ref, BindContext& scope);
  // JOIN of every kind (bind_join.cpp): NATURAL and USING columns, RIGHT as a
  // swapped LEFT, FULL ... USING coalescing the keys, LATERAL right sides.
  LogicalOperatorPtr BindJoin(const TableRef& ref, BindContext& scope);
  // FULL JOIN ... USING: a projection over `join` that adds coalesce(l.k, r.k)
  // per key, which the bare key names then resolve to.
  LogicalOperatorPtr CoalesceUsingColumns(LogicalOperatorPtr join, const BindContext& left_scope,
                                          const BindContext& right_scope, const std::vector<std::string>& columns,
                                          BindContext& scope, uint32_t location);
  // LATERAL (SELECT ...) after `left_scope`'s FROM items (planned as
  // `left`): the subquery bound with those columns visible, decorrelated; its
  // correlation predicates are appended to `conditions`.
  LogicalOperatorPtr BindLateral(const TableRef& ref, const LogicalOperator& left, const BindContext& left_scope,
                                 BindContext& scope, std::vector<BoundExprPtr>& conditions);
  // WITH RECURSIVE (bind_recursive_cte.cpp): a recursive CTE read in FROM,
  // and, inside its recursive part, the CTE reading itself (the working
  // table of the binder `owner` that binds that part).
  LogicalOperatorPtr BindRecursiveCTE(const CommonTableExpression& cte, const std::string& alias,
                                      const std::vector<std::string>& column_aliases, BindContext& scope);
  LogicalOperatorPtr BindRecursiveReference(const CommonTableExpression& cte, Binder& owner, const TableRef& ref,
                                            BindContext& scope);
  // `cte`: the common table expression whose body `query` is, if any.
  LogicalOperatorPtr BindSubqueryRef(const QueryNode& query, const std::string& alias,
                                     const std::vector<std::string>& column_aliases, BindContext& scope,
                                     const CommonTableExpression* cte = nullptr);

  ClientContext& context_;
  Binder* parent_;
  // The scope of the query this binder's subquery sits in: its columns are
  // the outer (correlated) columns the subquery may read.
  const BindContext* outer_scope_ = nullptr;
  // This binder's query read a column of an outer scope.
  bool correlated_ = false;
  bool bound_subquery_expression_ = false;  // set on the outermost binder
  WindowBindState* window_state_ = nullptr;  // set while binding what may hold window functions
  idx_t next_table_index_ = 0;
  std::map<std::string, const CommonTableExpression*> ctes_;  // lower-case name
  // The CTE whose body this binder binds: a CTE met again on the way up the
  // parent chain reads itself, which would otherwise recurse without end.
  const CommonTableExpression* binding_cte_ = nullptr;
  // The plain view whose query this binder binds: it sees no CTE of the
  // query that reads it, and a view met again up the chain reads itself.
  const ViewCatalogEntry* binding_view_ = nullptr;
  // Set on the binder of a recursive CTE's recursive part: the working table
  // its self-reference reads, the names it shows, and how often it is read.
  std::shared_ptr<ChunkCollection> recursive_working_;
  std::vector<std::string> recursive_names_;
  idx_t recursive_references_ = 0;
  // Parsed view definitions, kept while the statement is bound (root binder).
  std::vector<std::unique_ptr<QueryNode>> view_queries_;
  // Root binder of a SELECT (MaterializeRepeatedCTEs): per CTE, its first
  // reference's plan and, from the second reference on, the shared rows.
  struct CTEReferences {
    LogicalOperator* first = nullptr;
    std::vector<ColumnBinding> first_bindings;  // to see it is still that plan
    std::shared_ptr<MaterializedCTE> shared;
  };
  bool materialize_ctes_ = false;
  std::map<const CommonTableExpression*, CTEReferences> cte_references_;
  // `plan` (a CTE reference just bound) as a read of the CTE's shared rows
  // when the CTE was read before; the plan otherwise (bind_table_ref.cpp).
  LogicalOperatorPtr ShareCTE(const CommonTableExpression& cte, LogicalOperatorPtr plan);
};

// explode, explode_outer, posexplode, posexplode_outer, inline (lower case).
bool IsGeneratorFunction(const std::string& name);
// True for FROM UNNEST(...) (a TABLE_FUNCTION ref named unnest).
bool IsUnnestRef(const TableRef& ref);

// Wraps `plan` in a projection that casts its columns to `types` (no-op when equal).
LogicalOperatorPtr CastPlanTo(Binder& binder, LogicalOperatorPtr plan, const std::vector<LogicalType>& types,
                              const std::vector<std::string>& names);

// LIMIT/OFFSET value: a constant non-negative integer; -1 when absent or NULL.
int64_t BindLimitValue(Binder& binder, const ParsedExpression* expr, const char* what);

// The LIMIT and OFFSET of `node` on a new LIMIT operator over `plan`. A scalar
// subquery (LIMIT (SELECT ...)) is kept as an expression for when the plan runs.
LogicalOperatorPtr BindLimit(Binder& binder, const QueryNode& node, LogicalOperatorPtr plan);

// The LIMIT/OFFSET (`what`) a constant gives: -1 for NULL; BinderError when negative.
int64_t LimitValueOf(const Value& value, const char* what);

// Splits AND trees into their conjuncts.
void SplitConjunctions(BoundExprPtr expr, std::vector<BoundExprPtr>& out);
// The AND of `conjuncts`: null when there are none, the one itself when one.
BoundExprPtr Conjunction(std::vector<BoundExprPtr> conjuncts);

}  // namespace lakestream
