#include "parser/table_ref_visitor.hpp"

#include <set>
#include <string>

#include "common/string_util.hpp"

namespace lakestream {

namespace {

using Visit = std::function<void(const TableRef&)>;

void WalkQuery(const QueryNode& node, std::set<std::string> ctes, const Visit& visit);

void WalkExpression(const ParsedExpression& expr, const std::set<std::string>& ctes, const Visit& visit) {
  if (expr.subquery) WalkQuery(*expr.subquery, ctes, visit);
  for (auto& child : expr.children) {
    if (child) WalkExpression(*child, ctes, visit);
  }
}

void WalkRef(const TableRef& ref, const std::set<std::string>& ctes, const Visit& visit) {
  switch (ref.type) {
    case TableRefType::BASE_TABLE:
      if (ref.name.parts.size() == 1 && ctes.count(StringUtil::Lower(ref.name.parts[0]))) return;
      visit(ref);
      return;
    case TableRefType::SUBQUERY:
      if (ref.subquery) WalkQuery(*ref.subquery, ctes, visit);
      return;
    case TableRefType::JOIN:
      if (ref.left) WalkRef(*ref.left, ctes, visit);
      if (ref.right) WalkRef(*ref.right, ctes, visit);
      if (ref.condition) WalkExpression(*ref.condition, ctes, visit);
      return;
    case TableRefType::TABLE_FUNCTION:
      visit(ref);
      return;
  }
}

void WalkQuery(const QueryNode& node, std::set<std::string> ctes, const Visit& visit) {
  for (auto& cte : node.ctes) {
    if (cte.query) WalkQuery(*cte.query, ctes, visit);
    ctes.insert(StringUtil::Lower(cte.name));
  }
  if (node.from) WalkRef(*node.from, ctes, visit);
  if (node.left) WalkQuery(*node.left, ctes, visit);
  if (node.right) WalkQuery(*node.right, ctes, visit);
  for (auto* list : {&node.select_list, &node.group_by}) {
    for (auto& e : *list) {
      if (e) WalkExpression(*e, ctes, visit);
    }
  }
  if (node.where) WalkExpression(*node.where, ctes, visit);
  if (node.having) WalkExpression(*node.having, ctes, visit);
}

}  // namespace

void VisitTableRefs(const QueryNode& node, const std::function<void(const TableRef&)>& visit) { WalkQuery(node, {}, visit); }

}  // namespace lakestream
