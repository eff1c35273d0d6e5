// WITH RECURSIVE r AS (<anchor> UNION [ALL] <recursive part>): the anchor is
// bound as usual; the recursive part reads r as a CHUNK_GET over a working
// table that the RECURSIVE_CTE operator (execution/operator/
// physical_recursive_cte.hpp) refills with the rows each run adds. A CTE of a
// WITH RECURSIVE that does not read itself is an ordinary CTE.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"

namespace lakestream {

LogicalOperatorPtr Binder::BindRecursiveReference(const CommonTableExpression& cte, Binder& owner, const TableRef& ref,
                                                  BindContext& scope) {
  if (!owner.recursive_working_) {
    throw BinderError("recursive CTE \"" + cte.name + "\" reads itself outside its recursive part; write it as <anchor> "
                      "UNION [ALL] <recursive part>, where only the part after the last UNION reads " + cte.name);
  }
  if (ref.version_as_of || ref.timestamp_as_of) {
    throw BinderError("Time travel (VERSION/TIMESTAMP AS OF) applies to tables, not to the CTE " + cte.name);
  }
  for (Binder* b = this; b != &owner; b = b->parent_) {
    if (b->binding_cte_ && b->binding_cte_ != &cte) {
      throw NotImplementedError("mutual recursion between the CTEs \"" + b->binding_cte_->name + "\" and \"" + cte.name +
                                "\" (each reads the other); a recursive CTE may read itself and CTEs that do not read it: "
                                "merge them into one recursive CTE");
    }
    if (b->outer_scope_) {
      throw NotImplementedError("recursive CTE \"" + cte.name + "\" read inside a subquery expression (IN, EXISTS or a "
                                "scalar subquery) of its recursive part; join " + cte.name + " in FROM instead");
    }
  }
  if (++owner.recursive_references_ > 1) {
    throw NotImplementedError("recursive CTE \"" + cte.name + "\" read more than once in its recursive part (non-linear "
                              "recursion); read it once and join the other tables to it");
  }
  auto get = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
  get->table_index = NextTableIndex();
  get->collection = owner.recursive_working_;
  BindEntry entry;
  entry.alias = ref.alias.empty() ? cte.name : ref.alias;
  entry.names = owner.recursive_names_;
  for (idx_t i = 0; i < ref.column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = ref.column_aliases[i];
  entry.types = get->collection->Types();
  entry.bindings = get->GetBindings();
  scope.Add(std::move(entry));
  return get;
}

LogicalOperatorPtr Binder::BindRecursiveCTE(const CommonTableExpression& cte, const std::string& alias,
                                            const std::vector<std::string>& column_aliases, BindContext& scope) {
  const QueryNode& body = *cte.query;
  bool is_union = body.type == QueryNodeType::SET_OPERATION_NODE &&
                  (body.set_op == SetOperationType::UNION_ALL || body.set_op == SetOperationType::UNION);
  // Not of the recursive form: an ordinary CTE (reading itself is then an error).
  if (!is_union) return BindSubqueryRef(body, alias, column_aliases, scope, &cte);
  if (!body.order_by.empty() || body.limit || body.offset) {
    throw NotImplementedError("ORDER BY / LIMIT on the body of recursive CTE \"" + cte.name +
                              "\"; put them on the query that reads " + cte.name);
  }
  Binder anchor_binder(context_, this);
  anchor_binder.binding_cte_ = &cte;
  BoundQuery anchor = anchor_binder.BindQuery(*body.left);
  if (cte.column_aliases.size() > anchor.names.size()) {
    throw BinderError("CTE " + cte.name + " names " + std::to_string(cte.column_aliases.size()) +
                      " columns but its query has " + std::to_string(anchor.names.size()));
  }
  std::vector<std::string> self_names = anchor.names;
  for (idx_t i = 0; i < cte.column_aliases.size(); i++) self_names[i] = cte.column_aliases[i];

  Binder term_binder(context_, this);
  term_binder.binding_cte_ = &cte;
  term_binder.recursive_working_ = std::make_shared<ChunkCollection>(anchor.types);
  term_binder.recursive_names_ = self_names;
  BoundQuery term = term_binder.BindQuery(*body.right);
  // It never reads itself: an ordinary UNION, bound again as such.
  if (term_binder.recursive_references_ == 0) return BindSubqueryRef(body, alias, column_aliases, scope, &cte);
  if (term.types.size() != anchor.types.size()) {
    throw BinderError("the two parts of recursive CTE \"" + cte.name + "\" have " + std::to_string(anchor.types.size()) +
                      " and " + std::to_string(term.types.size()) + " columns; give both parts the same columns");
  }
  auto op = std::make_unique<LogicalOperator>(LogicalOperatorType::RECURSIVE_CTE);
  op->table_index = NextTableIndex();
  op->table_name = cte.name;
  op->union_types = anchor.types;
  op->collection = term_binder.recursive_working_;
  op->recursive_distinct = body.set_op == SetOperationType::UNION;
  op->children.push_back(std::move(anchor.plan));
  // Rows of the recursive part take the anchor's column types, as in Postgres.
  op->children.push_back(CastPlanTo(*this, std::move(term.plan), anchor.types, self_names));

  BindEntry entry;
  entry.alias = alias;
  entry.names = self_names;
  for (idx_t i = 0; i < column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = column_aliases[i];
  entry.types = anchor.types;
  entry.bindings = op->GetBindings();
  scope.Add(std::move(entry));
  return op;
}

}  // namespace lakestream
