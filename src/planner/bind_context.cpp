#include <functional>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "planner/binder.hpp"

namespace lakestream {

void BindContext::Add(BindEntry entry) {
  for (auto& e : entries_) {
    if (!entry.alias.empty() && StringUtil::CIEquals(e.alias, entry.alias)) {
      throw BinderError("Duplicate alias \"" + entry.alias +
                        "\" in FROM: give one of the tables another alias (e.g. FROM t AS a JOIN t AS b)");
    }
  }
  entries_.push_back(std::move(entry));
}

void BindContext::Merge(const BindContext& other) {
  for (auto& e : other.entries_) Add(e);
}

BoundExprPtr BindContext::Resolve(const std::vector<std::string>& names, bool optional) const {
  const std::string& column = names.back();
  std::string qualifier = names.size() >= 2 ? names[names.size() - 2] : "";
  const BindEntry* found_entry = nullptr;
  idx_t found_index = 0;
  int matches = 0;
  for (auto& entry : entries_) {
    if (!qualifier.empty() && !StringUtil::CIEquals(entry.alias, qualifier)) continue;
    for (idx_t i = 0; i < entry.names.size(); i++) {
      if (qualifier.empty() && entry.IsMerged(i)) continue;
      if (StringUtil::CIEquals(entry.names[i], column)) {
        if (!found_entry || found_entry != &entry) matches++;
        found_entry = &entry;
        found_index = i;
        break;
      }
    }
  }
  if (matches > 1) {
    throw BinderError("Ambiguous reference to column name \"" + column +
                      "\": it exists in more than one table; qualify it, e.g. t." + column);
  }
  if (!found_entry) {
    if (optional) return nullptr;
    std::string full = StringUtil::Join(names, ".");
    if (!qualifier.empty()) {
      bool qualifier_known = false;
      for (auto& e : entries_) qualifier_known |= StringUtil::CIEquals(e.alias, qualifier);
      if (!qualifier_known) {
        throw BinderError("Referenced table \"" + qualifier + "\" not found in FROM (in column " + full + ")");
      }
    }
    std::vector<std::string> candidates;
    for (auto& e : entries_) {
      for (auto& n : e.names) candidates.push_back(n);
    }
    std::string message = "Referenced column \"" + full + "\" not found in FROM clause!";
    std::string hint = StringUtil::ClosestMatch(column, candidates);
    if (!hint.empty()) {
      message += " Did you mean \"" + hint + "\"?";
    } else if (!candidates.empty()) {
      message += " Candidates: " + StringUtil::Join(candidates, ", ");
    }
    throw BinderError(message);
  }
  return MakeBindingRef(found_entry->bindings[found_index], found_entry->types[found_index], found_entry->names[found_index]);
}

std::vector<std::pair<std::string, BoundExprPtr>> BindContext::ExpandStar(const std::vector<std::string>& qualifier) const {
  std::vector<std::pair<std::string, BoundExprPtr>> result;
  bool matched = false;
  for (auto& entry : entries_) {
    if (!qualifier.empty() && !StringUtil::CIEquals(entry.alias, qualifier.back())) continue;
    matched = true;
    for (idx_t i = 0; i < entry.names.size(); i++) {
      if (qualifier.empty() && entry.IsMerged(i)) continue;
      result.emplace_back(entry.names[i], MakeBindingRef(entry.bindings[i], entry.types[i], entry.names[i]));
    }
  }
  if (!qualifier.empty() && !matched) {
    throw BinderError("Referenced table \"" + qualifier.back() + "\" not found in FROM (in " + qualifier.back() + ".*)");
  }
  if (qualifier.empty() && entries_.empty()) {
    throw BinderError("SELECT * needs a FROM clause: name the table to read, e.g. SELECT * FROM t");
  }
  return result;
}

std::string BindContext::ColumnKey(const ColumnBinding& binding) {
  // Not an unquoted identifier, so written names do not look like it.
  return "#" + std::to_string(binding.table_index) + "." + std::to_string(binding.column_index);
}

// Text that tells two queries apart where ParsedExpression::ToString does
// not (it prints every subquery as "(SELECT ...)"): two queries get the same
// key only when written the same way (names as written, not resolved).
static void AppendQueryKey(const QueryNode* query, std::string& out);

static void AppendExpressionKey(const ParsedExpression* expr, std::string& out) {
  if (!expr) {
    out += "_;";
    return;
  }
  out += expr->ToString() + ";";
  std::function<void(const ParsedExpression&)> subqueries = [&](const ParsedExpression& e) {
    if (e.subquery) AppendQueryKey(e.subquery.get(), out);
    for (auto& c : e.children) {
      if (c) subqueries(*c);
    }
  };
  subqueries(*expr);
}

static void AppendTableKey(const TableRef* ref, std::string& out) {
  if (!ref) {
    out += "_;";
    return;
  }
  out += "{ref " + std::to_string(static_cast<int>(ref->type)) + " " + ref->name.ToString() + " " + ref->alias + " " +
         StringUtil::Join(ref->column_aliases, ",") + " " + std::to_string(static_cast<int>(ref->join_type)) + " " +
         StringUtil::Join(ref->using_columns, ",") + (ref->natural ? " natural" : "") + (ref->lateral ? " lateral" : "") +
         (ref->version_as_of ? " v" + std::to_string(*ref->version_as_of) : "") +
         (ref->timestamp_as_of ? " ts" + *ref->timestamp_as_of : "") + ";";
  AppendQueryKey(ref->subquery.get(), out);
  AppendTableKey(ref->left.get(), out);
  AppendTableKey(ref->right.get(), out);
  AppendExpressionKey(ref->condition.get(), out);
  AppendExpressionKey(ref->function.get(), out);
  out += "}";
}

static void AppendQueryKey(const QueryNode* query, std::string& out) {
  if (!query) {
    out += "_;";
    return;
  }
  out += "{query " + std::to_string(static_cast<int>(query->type)) + " " + std::to_string(static_cast<int>(query->set_op)) +
         (query->distinct ? " distinct" : "") + (query->group_by_all ? " group_by_all" : "") + ";";
  for (auto& cte : query->ctes) {
    out += "cte " + cte.name + " " + StringUtil::Join(cte.column_aliases, ",") + (cte.recursive ? " recursive" : "");
    AppendQueryKey(cte.query.get(), out);
  }
  for (auto& e : query->select_list) {
    AppendExpressionKey(e.get(), out);
    if (e) out += "as " + e->alias + ";";
  }
  AppendTableKey(query->from.get(), out);
  AppendExpressionKey(query->where.get(), out);
  for (auto& e : query->group_by) AppendExpressionKey(e.get(), out);
  for (auto& set : query->grouping_sets) {
    out += "set";
    for (auto g : set) out += " " + std::to_string(g);
    out += ";";
  }
  AppendExpressionKey(query->having.get(), out);
  AppendExpressionKey(query->qualify.get(), out);
  for (auto& [name, spec] : query->windows) out += "window " + name + " " + (spec ? spec->ToString() : "") + ";";
  AppendQueryKey(query->left.get(), out);
  AppendQueryKey(query->right.get(), out);
  for (auto& row : query->values) {
    for (auto& e : row) AppendExpressionKey(e.get(), out);
    out += "row;";
  }
  for (auto& o : query->order_by) {
    AppendExpressionKey(o.expression.get(), out);
    out += std::string(o.descending ? "desc" : "asc") + (o.nulls_first ? (*o.nulls_first ? " first" : " last") : "") + ";";
  }
  AppendExpressionKey(query->limit.get(), out);
  AppendExpressionKey(query->offset.get(), out);
  out += "}";
}

// Rewrites the column names in `expr` (not in its subqueries) into keys.
static void CanonicalizeNames(ParsedExpression& expr, const BindContext& scope) {
  if (expr.type == ExpressionType::COLUMN_REF) {
    BoundExprPtr ref;
    try {
      ref = scope.Resolve(expr.names, true);
    } catch (const BinderError&) {
      ref = nullptr;  // ambiguous: binding it says so
    }
    if (ref) {
      expr.names = {BindContext::ColumnKey(ref->binding)};
    } else {
      for (auto& n : expr.names) n = StringUtil::Lower(n);
    }
    return;
  }
  if (expr.type == ExpressionType::FUNCTION) expr.function_name = StringUtil::Lower(expr.function_name);
  for (auto& c : expr.children) CanonicalizeNames(*c, scope);
  if (expr.subquery) {
    // Every subquery prints as "(SELECT ...)": the key spells the query out.
    ParsedExpression placeholder(ExpressionType::COLUMN_REF, expr.location);
    std::string key = "#subquery " + expr.ToString() + " ";
    AppendQueryKey(expr.subquery.get(), key);
    placeholder.names = {std::move(key)};
    expr = std::move(placeholder);
  }
}

std::string BindContext::ExpressionKey(const ParsedExpression& expr) const {
  auto copy = expr.Copy();
  copy->alias.clear();
  CanonicalizeNames(*copy, *this);
  return copy->ToString();
}

void BindContext::MarkMerged(const std::string& name) {
  for (auto& entry : entries_) {
    for (idx_t i = 0; i < entry.names.size(); i++) {
      if (!StringUtil::CIEquals(entry.names[i], name)) continue;
      entry.merged.resize(entry.names.size(), false);
      entry.merged[i] = true;
    }
  }
}

BoundExprPtr Conjunction(std::vector<BoundExprPtr> conjuncts) {
  if (conjuncts.empty()) return nullptr;
  if (conjuncts.size() == 1) return std::move(conjuncts[0]);
  auto e = std::make_unique<BoundExpression>(BoundExpressionType::AND, TypeId::BOOLEAN);
  e->children = std::move(conjuncts);
  return e;
}

void SplitConjunctions(BoundExprPtr expr, std::vector<BoundExprPtr>& out) {
  if (expr->type == BoundExpressionType::AND) {
    for (auto& c : expr->children) SplitConjunctions(std::move(c), out);
    return;
  }
  out.push_back(std::move(expr));
}

}  // namespace lakestream
