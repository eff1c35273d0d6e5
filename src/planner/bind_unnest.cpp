// Generators: explode / posexplode / explode_outer / posexplode_outer in a
// SELECT list (Spark) and UNNEST(x) in FROM (DuckDB, Postgres), both bound
// to an UNNEST operator (execution/operator/physical_unnest.hpp).
//
// Spark's rules kept: one generator per SELECT list, not nested inside an
// expression; a list gives `col` (posexplode: `pos`, `col`), a map `key`,
// `value`; `explode(x) AS name` names the element column. The generator runs
// after WHERE and before GROUP BY, as Spark's Generate does.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"

namespace lakestream {

bool IsGeneratorFunction(const std::string& name) {
  return name == "explode" || name == "explode_outer" || name == "posexplode" || name == "posexplode_outer" ||
         name == "inline" || name == "inline_outer" || name == "json_tuple" || name == "stack";
}

bool IsUnnestRef(const TableRef& ref) {
  if (ref.type != TableRefType::TABLE_FUNCTION || !ref.function) return false;
  std::string name = StringUtil::Lower(ref.function->function_name);
  return name == "unnest" || name == "explode" || name == "explode_outer" || name == "posexplode" ||
         name == "posexplode_outer";
}

// The generator a FROM item or a join of one runs: `outer` for LEFT JOIN /
// LATERAL VIEW OUTER.
static std::string GeneratorName(const TableRef& ref, bool outer) {
  std::string name = StringUtil::Lower(ref.function->function_name);
  bool has_outer = name.size() > 6 && name.substr(name.size() - 6) == "_outer";
  return outer && !has_outer ? name + "_outer" : name;
}

// json_tuple(json, 'k1', 'k2', ...) makes one row per row: it is the
// columns c0, c1, ... = json_tuple_field(json, 'k1'), ... (Spark's names).
static std::unique_ptr<QueryNode> RewriteJsonTuple(const QueryNode& node, idx_t at) {
  const ParsedExpression& call = *node.select_list[at];
  if (call.children.size() < 2) {
    throw BinderError("json_tuple() takes a JSON string and one or more field names: json_tuple(json, 'a', 'b')");
  }
  auto copy = node.Copy();
  std::vector<ExprPtr> fields;
  for (idx_t i = 1; i < call.children.size(); i++) {
    auto field = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, call.location);
    field->function_name = "json_tuple_field";
    field->children.push_back(call.children[0]->Copy());
    field->children.push_back(call.children[i]->Copy());
    field->arg_names.assign(2, "");
    field->alias = "c" + std::to_string(i - 1);
    fields.push_back(std::move(field));
  }
  if (!call.alias.empty() && fields.size() == 1) fields[0]->alias = call.alias;
  auto& list = copy->select_list;
  list.erase(list.begin() + static_cast<std::ptrdiff_t>(at));
  list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), std::make_move_iterator(fields.begin()),
              std::make_move_iterator(fields.end()));
  return copy;
}

std::unique_ptr<QueryNode> Binder::RewriteGenerators(const QueryNode& node) {
  const ParsedExpression* generator = nullptr;
  idx_t at = 0;
  for (idx_t i = 0; i < node.select_list.size(); i++) {
    const auto& e = node.select_list[i];
    if (e->type != ExpressionType::FUNCTION || !IsGeneratorFunction(StringUtil::Lower(e->function_name))) continue;
    if (generator) {
      throw BinderError("only one generator is allowed per SELECT list, found " + generator->ToString() + " and " +
                        e->ToString() + "; apply the second in an outer query");
    }
    generator = e.get();
    at = i;
  }
  if (!generator) return nullptr;
  std::string name = StringUtil::Lower(generator->function_name);
  if (name == "json_tuple") return RewriteJsonTuple(node, at);
  if (name == "inline" || name == "inline_outer" || name == "stack") {
    throw NotImplementedError(name + "() (use explode() / posexplode())");
  }
  auto copy = node.Copy();
  std::string alias = "__generator_" + std::to_string(generator_count_++);
  auto star = std::make_unique<ParsedExpression>(ExpressionType::STAR, generator->location);
  star->names = {alias};
  copy->select_list[at] = std::move(star);
  auto call = generator->Copy();
  pending_generators_.push_back({copy.get(), std::move(call), alias});
  return copy;
}

LogicalOperatorPtr Binder::BindPendingGenerators(const QueryNode& node, LogicalOperatorPtr plan, BindContext& scope) {
  for (auto it = pending_generators_.begin(); it != pending_generators_.end(); ++it) {
    if (it->node != &node) continue;
    ExprPtr call = std::move(it->call);
    std::string alias = it->alias;
    pending_generators_.erase(it);
    std::vector<std::string> names;
    if (!call->alias.empty()) names.push_back(call->alias);
    BindContext argument_scope = scope;
    return BindUnnest(*call, StringUtil::Lower(call->function_name), std::move(plan), argument_scope, alias, names, scope);
  }
  return plan;
}

LogicalOperatorPtr Binder::BindUnnest(const ParsedExpression& call, const std::string& function, LogicalOperatorPtr input,
                                      const BindContext& argument_scope, const std::string& alias,
                                      const std::vector<std::string>& column_aliases, BindContext& scope) {
  if (call.children.size() != 1 || call.star_argument) {
    throw BinderError(function + "() takes one ARRAY or MAP argument, e.g. " + function + "(arr)");
  }
  auto collection = BindExpression(*call.children[0], argument_scope, (function + "()").c_str());
  const LogicalType& type = collection->return_type;
  if (type.id() == TypeId::SQLNULL) {
    collection = AddCast(std::move(collection), LogicalType::List(TypeId::VARCHAR));
  } else if (type.id() != TypeId::LIST && type.id() != TypeId::MAP) {
    throw BinderError(function + "() expects an ARRAY or a MAP, but " + call.children[0]->ToString() + " is " +
                      type.ToString() + (type.id() == TypeId::VARCHAR ? "; parse JSON text first with from_json(s, 'ARRAY<...>')" : ""));
  }
  bool is_map = collection->return_type.id() == TypeId::MAP;
  auto op = std::make_unique<LogicalOperator>(LogicalOperatorType::UNNEST);
  op->table_index = NextTableIndex();
  op->unnest_outer = function.size() > 6 && function.substr(function.size() - 6) == "_outer";
  op->unnest_position = function.rfind("pos", 0) == 0;
  bool from_clause = function.rfind("unnest", 0) == 0;
  std::vector<std::string> names;
  if (op->unnest_position) {
    names.emplace_back("pos");
    op->source_types.emplace_back(TypeId::INTEGER);
  }
  if (is_map) {
    names.emplace_back("key");
    names.emplace_back("value");
    for (auto& [n, t] : collection->return_type.ListChild().children()) op->source_types.push_back(t);
  } else {
    names.emplace_back(from_clause ? "unnest" : "col");
    op->source_types.push_back(collection->return_type.ListChild());
  }
  if (!from_clause && column_aliases.size() == 1 && names.size() - (op->unnest_position ? 1 : 0) != 1) {
    throw BinderError(function + "() of a MAP gives two columns, key and value: rename them in an outer query "
                      "(SELECT key AS k, value AS v FROM (SELECT " + function + "(m) FROM t))");
  }
  if (column_aliases.size() > names.size()) {
    throw BinderError(function + "() gives " + std::to_string(names.size()) + " columns but " +
                      std::to_string(column_aliases.size()) + " names were given");
  }
  if (!from_clause && column_aliases.size() == 1) {
    names.back() = column_aliases[0];
  } else {
    for (idx_t i = 0; i < column_aliases.size(); i++) names[i] = column_aliases[i];
  }
  op->expressions.push_back(std::move(collection));
  op->children.push_back(std::move(input));
  BindEntry entry;
  entry.alias = alias;
  entry.names = names;
  entry.types = op->source_types;
  for (idx_t i = 0; i < names.size(); i++) entry.bindings.push_back({op->table_index, i});
  scope.Add(std::move(entry));
  return op;
}

LogicalOperatorPtr Binder::BindUnnestRef(const TableRef& ref, BindContext& scope) {
  auto row = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
  row->table_index = NextTableIndex();
  row->collection = MakeSingleRow();
  BindContext empty;
  std::string name = GeneratorName(ref, false);
  return BindUnnest(*ref.function, name, std::move(row), empty, ref.alias.empty() ? name : ref.alias,
                    ref.column_aliases, scope);
}

LogicalOperatorPtr Binder::BindUnnestJoin(const TableRef& ref, BindContext& scope) {
  bool left_join = ref.join_type == JoinType::LEFT;
  if (ref.join_type != JoinType::INNER && ref.join_type != JoinType::CROSS && !left_join) {
    throw NotImplementedError("RIGHT/FULL JOIN UNNEST(...) (use CROSS JOIN UNNEST, or LEFT JOIN UNNEST(...) ON TRUE)");
  }
  BindContext left_scope;
  auto left = BindTableRef(*ref.left, left_scope);
  const TableRef& unnest = *ref.right;
  BindContext both = left_scope;
  std::string name = GeneratorName(unnest, left_join);
  auto plan = BindUnnest(*unnest.function, name, std::move(left), left_scope,
                         unnest.alias.empty() ? StringUtil::Lower(unnest.function->function_name) : unnest.alias,
                         unnest.column_aliases, both);
  if (ref.condition) {
    auto condition = BindExpression(*ref.condition, both, "JOIN ... ON");
    bool always = condition->IsConstant() && !condition->value.IsNull() && condition->return_type.id() == TypeId::BOOLEAN &&
                  condition->value.GetBoolean();
    if (!always) {
      if (left_join) throw NotImplementedError("LEFT JOIN UNNEST(...) with an ON condition other than TRUE");
      if (condition->return_type.id() != TypeId::BOOLEAN) {
        throw BinderError("JOIN condition must be a BOOLEAN expression, but " + ref.condition->ToString() + " is " +
                          condition->return_type.ToString());
      }
      auto filter = std::make_unique<LogicalOperator>(LogicalOperatorType::FILTER);
      SplitConjunctions(std::move(condition), filter->expressions);
      filter->children.push_back(std::move(plan));
      plan = std::move(filter);
    }
  }
  if (!ref.using_columns.empty()) throw BinderError("JOIN UNNEST(...) USING (...) is not valid: use ON or CROSS JOIN");
  scope.Merge(both);
  return plan;
}

}  // namespace lakestream
