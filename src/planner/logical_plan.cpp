#include "planner/logical_plan.hpp"

#include <algorithm>

#include "common/exception.hpp"

namespace lakestream {

std::vector<ColumnBinding> LogicalOperator::GetBindings() const {
  std::vector<ColumnBinding> bindings;
  switch (type) {
    case LogicalOperatorType::GET:
    case LogicalOperatorType::SOURCE:
    case LogicalOperatorType::STREAM_GET:
      for (idx_t c : column_ids) bindings.push_back({table_index, c});
      if (emit_row_ids) bindings.push_back({table_index, ROW_ID_COLUMN});
      return bindings;
    case LogicalOperatorType::CHUNK_GET:
      for (idx_t i = 0; i < collection->Types().size(); i++) bindings.push_back({table_index, i});
      return bindings;
    case LogicalOperatorType::PROJECTION:
      for (idx_t i = 0; i < expressions.size(); i++) bindings.push_back({table_index, i});
      return bindings;
    case LogicalOperatorType::UNION:
    case LogicalOperatorType::SET_OPERATION:
    case LogicalOperatorType::RECURSIVE_CTE:
      for (idx_t i = 0; i < union_types.size(); i++) bindings.push_back({table_index, i});
      return bindings;
    case LogicalOperatorType::AGGREGATE:
      for (idx_t i = 0; i < expressions.size(); i++) bindings.push_back({table_index, i});
      for (idx_t i = 0; i < aggregates.size(); i++) bindings.push_back({aggregate_index, i});
      return bindings;
    case LogicalOperatorType::JOIN: {
      bindings = children[0]->GetBindings();
      if (join_type == LogicalJoinType::SEMI || join_type == LogicalJoinType::ANTI) return bindings;
      if (join_type == LogicalJoinType::MARK) {
        bindings.push_back({table_index, 0});
        return bindings;
      }
      auto right = children[1]->GetBindings();
      bindings.insert(bindings.end(), right.begin(), right.end());
      return bindings;
    }
    case LogicalOperatorType::WINDOW:
      bindings = children[0]->GetBindings();
      for (idx_t i = 0; i < windows.size(); i++) bindings.push_back({table_index, i});
      return bindings;
    case LogicalOperatorType::FILTER:
    case LogicalOperatorType::ORDER:
    case LogicalOperatorType::LIMIT: return children[0]->GetBindings();
    case LogicalOperatorType::UNNEST:
      bindings = children[0]->GetBindings();
      for (idx_t i = 0; i < source_types.size(); i++) bindings.push_back({table_index, i});
      return bindings;
  }
  throw InternalError("GetBindings: unknown operator");
}

std::vector<LogicalType> LogicalOperator::GetTypes() const {
  std::vector<LogicalType> types;
  switch (type) {
    case LogicalOperatorType::GET:
    case LogicalOperatorType::SOURCE:
    case LogicalOperatorType::STREAM_GET:
      for (idx_t c : column_ids) types.push_back(source_types[c]);
      if (emit_row_ids) types.push_back(TypeId::BIGINT);
      return types;
    case LogicalOperatorType::CHUNK_GET: return collection->Types();
    case LogicalOperatorType::PROJECTION:
      for (auto& e : expressions) types.push_back(e->return_type);
      return types;
    case LogicalOperatorType::UNION:
    case LogicalOperatorType::SET_OPERATION:
    case LogicalOperatorType::RECURSIVE_CTE: return union_types;
    case LogicalOperatorType::AGGREGATE:
      for (auto& e : expressions) types.push_back(e->return_type);
      for (auto& a : aggregates) types.push_back(a.signature.return_type);
      return types;
    case LogicalOperatorType::JOIN: {
      types = children[0]->GetTypes();
      if (join_type == LogicalJoinType::SEMI || join_type == LogicalJoinType::ANTI) return types;
      if (join_type == LogicalJoinType::MARK) {
        types.emplace_back(TypeId::BOOLEAN);
        return types;
      }
      auto right = children[1]->GetTypes();
      types.insert(types.end(), right.begin(), right.end());
      return types;
    }
    case LogicalOperatorType::WINDOW:
      types = children[0]->GetTypes();
      for (auto& w : windows) types.push_back(w.return_type);
      return types;
    case LogicalOperatorType::FILTER:
    case LogicalOperatorType::ORDER:
    case LogicalOperatorType::LIMIT: return children[0]->GetTypes();
    case LogicalOperatorType::UNNEST:
      types = children[0]->GetTypes();
      types.insert(types.end(), source_types.begin(), source_types.end());
      return types;
  }
  throw InternalError("GetTypes: unknown operator");
}

static const char* OperatorName(LogicalOperatorType type) {
  switch (type) {
    case LogicalOperatorType::GET: return "GET";
    case LogicalOperatorType::CHUNK_GET: return "CHUNK_GET";
    case LogicalOperatorType::SOURCE: return "SOURCE";
    case LogicalOperatorType::FILTER: return "FILTER";
    case LogicalOperatorType::PROJECTION: return "PROJECTION";
    case LogicalOperatorType::AGGREGATE: return "AGGREGATE";
    case LogicalOperatorType::JOIN: return "JOIN";
    case LogicalOperatorType::ORDER: return "ORDER";
    case LogicalOperatorType::LIMIT: return "LIMIT";
    case LogicalOperatorType::UNION: return "UNION";
    case LogicalOperatorType::STREAM_GET: return "STREAM_GET";
    case LogicalOperatorType::SET_OPERATION: return "SET_OPERATION";
    case LogicalOperatorType::WINDOW: return "WINDOW";
    case LogicalOperatorType::UNNEST: return "UNNEST";
    case LogicalOperatorType::RECURSIVE_CTE: return "RECURSIVE_CTE";
  }
  return "?";
}

std::string LogicalOperator::ToString(int indent) const {
  std::string s(static_cast<size_t>(indent) * 2, ' ');
  s += OperatorName(type);
  if (type == LogicalOperatorType::GET || type == LogicalOperatorType::STREAM_GET) s += " " + table_name;
  s += "\n";
  for (auto& c : children) s += c->ToString(indent + 1);
  return s;
}

std::set<idx_t> TablesOf(const LogicalOperator& op) {
  std::set<idx_t> tables;
  for (auto& b : op.GetBindings()) tables.insert(b.table_index);
  return tables;
}

bool SubsetOf(const std::set<idx_t>& a, const std::set<idx_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

}  // namespace lakestream
