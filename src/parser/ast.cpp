// ToString and deep copies for the parse tree (ast.hpp).
#include "parser/ast.hpp"

#include "common/exception.hpp"
#include "common/stack_depth.hpp"

namespace lakestream {

const char* ExpressionTypeToString(ExpressionType type) {
  switch (type) {
    case ExpressionType::CONSTANT: return "CONSTANT";
    case ExpressionType::COLUMN_REF: return "COLUMN_REF";
    case ExpressionType::STAR: return "STAR";
    case ExpressionType::FUNCTION: return "FUNCTION";
    case ExpressionType::CAST: return "CAST";
    case ExpressionType::CASE: return "CASE";
    case ExpressionType::COMPARE_EQ: return "COMPARE_EQ";
    case ExpressionType::COMPARE_NE: return "COMPARE_NE";
    case ExpressionType::COMPARE_LT: return "COMPARE_LT";
    case ExpressionType::COMPARE_LE: return "COMPARE_LE";
    case ExpressionType::COMPARE_GT: return "COMPARE_GT";
    case ExpressionType::COMPARE_GE: return "COMPARE_GE";
    case ExpressionType::COMPARE_DISTINCT_FROM: return "COMPARE_DISTINCT_FROM";
    case ExpressionType::COMPARE_NOT_DISTINCT_FROM: return "COMPARE_NOT_DISTINCT_FROM";
    case ExpressionType::AND: return "AND";
    case ExpressionType::OR: return "OR";
    case ExpressionType::NOT: return "NOT";
    case ExpressionType::NEGATE: return "NEGATE";
    case ExpressionType::ADD: return "ADD";
    case ExpressionType::SUBTRACT: return "SUBTRACT";
    case ExpressionType::MULTIPLY: return "MULTIPLY";
    case ExpressionType::DIVIDE: return "DIVIDE";
    case ExpressionType::MODULO: return "MODULO";
    case ExpressionType::CONCAT: return "CONCAT";
    case ExpressionType::IS_NULL: return "IS_NULL";
    case ExpressionType::IS_NOT_NULL: return "IS_NOT_NULL";
    case ExpressionType::IS_TRUE: return "IS_TRUE";
    case ExpressionType::IS_FALSE: return "IS_FALSE";
    case ExpressionType::IS_NOT_TRUE: return "IS_NOT_TRUE";
    case ExpressionType::IS_NOT_FALSE: return "IS_NOT_FALSE";
    case ExpressionType::IN_LIST: return "IN_LIST";
    case ExpressionType::NOT_IN_LIST: return "NOT_IN_LIST";
    case ExpressionType::BETWEEN: return "BETWEEN";
    case ExpressionType::NOT_BETWEEN: return "NOT_BETWEEN";
    case ExpressionType::LIKE: return "LIKE";
    case ExpressionType::NOT_LIKE: return "NOT_LIKE";
    case ExpressionType::ILIKE: return "ILIKE";
    case ExpressionType::NOT_ILIKE: return "NOT_ILIKE";
    case ExpressionType::SUBQUERY_SCALAR: return "SUBQUERY_SCALAR";
    case ExpressionType::SUBQUERY_IN: return "SUBQUERY_IN";
    case ExpressionType::SUBQUERY_NOT_IN: return "SUBQUERY_NOT_IN";
    case ExpressionType::SUBQUERY_EXISTS: return "SUBQUERY_EXISTS";
    case ExpressionType::SUBQUERY_NOT_EXISTS: return "SUBQUERY_NOT_EXISTS";
    case ExpressionType::SUBQUERY_ANY: return "SUBQUERY_ANY";
    case ExpressionType::SUBQUERY_ALL: return "SUBQUERY_ALL";
    case ExpressionType::PARAMETER: return "PARAMETER";
    case ExpressionType::SUBSCRIPT: return "SUBSCRIPT";
    case ExpressionType::FIELD_ACCESS: return "FIELD_ACCESS";
    case ExpressionType::LAMBDA: return "LAMBDA";
  }
  return "UNKNOWN";
}

const char* ObjectTypeToString(ObjectType type) {
  switch (type) {
    case ObjectType::TABLE: return "table";
    case ObjectType::VIEW: return "view";
    case ObjectType::MATERIALIZED_VIEW: return "materialized view";
    case ObjectType::STREAMING_TABLE: return "streaming table";
    case ObjectType::STREAM: return "stream";
    case ObjectType::SINK: return "sink";
  }
  return "object";
}

std::string QualifiedName::ToString() const {
  std::string result;
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) result += '.';
    result += parts[i];
  }
  return result;
}

namespace {

const char* BinaryOperator(ExpressionType type) {
  switch (type) {
    case ExpressionType::COMPARE_EQ: return " = ";
    case ExpressionType::COMPARE_NE: return " <> ";
    case ExpressionType::COMPARE_LT: return " < ";
    case ExpressionType::COMPARE_LE: return " <= ";
    case ExpressionType::COMPARE_GT: return " > ";
    case ExpressionType::COMPARE_GE: return " >= ";
    case ExpressionType::COMPARE_DISTINCT_FROM: return " IS DISTINCT FROM ";
    case ExpressionType::COMPARE_NOT_DISTINCT_FROM: return " IS NOT DISTINCT FROM ";
    case ExpressionType::ADD: return " + ";
    case ExpressionType::SUBTRACT: return " - ";
    case ExpressionType::MULTIPLY: return " * ";
    case ExpressionType::DIVIDE: return " / ";
    case ExpressionType::MODULO: return " % ";
    case ExpressionType::CONCAT: return " || ";
    case ExpressionType::LIKE: return " LIKE ";
    case ExpressionType::NOT_LIKE: return " NOT LIKE ";
    case ExpressionType::ILIKE: return " ILIKE ";
    case ExpressionType::NOT_ILIKE: return " NOT ILIKE ";
    default: return nullptr;
  }
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string result;
  for (size_t i = 0; i < names.size(); i++) {
    if (i) result += '.';
    result += names[i];
  }
  return result;
}

std::vector<ExprPtr> CopyList(const std::vector<ExprPtr>& list) {
  std::vector<ExprPtr> result;
  result.reserve(list.size());
  for (auto& e : list) result.push_back(e ? e->Copy() : nullptr);
  return result;
}

}  // namespace

std::string ParsedExpression::ToString() const {
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to print"));
  auto child = [&](size_t i) { return i < children.size() && children[i] ? children[i]->ToString() : std::string("?"); };
  if (const char* op = BinaryOperator(type)) {
    std::string s = "(" + child(0) + op + child(1);
    if (children.size() > 2) s += " ESCAPE " + child(2);
    return s + ")";
  }
  switch (type) {
    case ExpressionType::CONSTANT:
      return value.ToSQLString();
    case ExpressionType::PARAMETER:
      return "$" + std::to_string(parameter_index);
    case ExpressionType::COLUMN_REF:
      return JoinNames(names);
    case ExpressionType::STAR: {
      std::string s = names.empty() ? "*" : JoinNames(names) + ".*";
      if (!star_exclude.empty()) {
        s += " EXCLUDE (";
        for (size_t i = 0; i < star_exclude.size(); i++) s += (i ? ", " : "") + star_exclude[i];
        s += ")";
      }
      if (!children.empty()) {
        s += " REPLACE (";
        for (size_t i = 0; i < children.size(); i++)
          s += (i ? ", " : "") + children[i]->ToString() + " AS " + children[i]->alias;
        s += ")";
      }
      return s;
    }
    case ExpressionType::FUNCTION: {
      std::string s = function_name + "(";
      if (distinct) s += "DISTINCT ";
      if (star_argument) s += "*";
      size_t arguments = ArgumentCount();
      for (size_t i = 0; i < arguments; i++) {
        if (i) s += ", ";
        if (i < arg_names.size() && !arg_names[i].empty()) s += arg_names[i] + " => ";
        s += child(i);
      }
      std::string order;
      for (size_t k = 0; k < order_count; k++) {
        order += (k ? ", " : " ORDER BY ") + child(arguments + k);
        bool desc = (order_flags[k] & kOrderDesc) != 0;
        bool nulls_first = (order_flags[k] & kOrderNullsFirst) != 0;
        if (desc) order += " DESC";
        if (nulls_first != desc) order += nulls_first ? " NULLS FIRST" : " NULLS LAST";
      }
      if (within_group) {
        s += ") WITHIN GROUP (" + order.substr(1);
      } else {
        s += order;
      }
      s += ")";
      if (has_filter) s += " FILTER (WHERE " + child(children.size() - 1) + ")";
      if (ignore_nulls) s += " IGNORE NULLS";
      if (window) s += " OVER " + window->ToString();
      return s;
    }
    case ExpressionType::CAST:
      return std::string(try_cast ? "TRY_CAST(" : "CAST(") + child(0) + " AS " + cast_type.ToString() + ")";
    case ExpressionType::CASE: {
      std::string s = "CASE";
      size_t pairs = (children.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; i++) s += " WHEN " + child(2 * i) + " THEN " + child(2 * i + 1);
      if (has_else) s += " ELSE " + child(children.size() - 1);
      return s + " END";
    }
    case ExpressionType::AND:
    case ExpressionType::OR: {
      std::string s = "(";
      for (size_t i = 0; i < children.size(); i++) {
        if (i) s += type == ExpressionType::AND ? " AND " : " OR ";
        s += child(i);
      }
      return s + ")";
    }
    case ExpressionType::NOT:
      return "(NOT " + child(0) + ")";
    case ExpressionType::NEGATE:
      return "-" + child(0);
    case ExpressionType::IS_NULL: return "(" + child(0) + " IS NULL)";
    case ExpressionType::IS_NOT_NULL: return "(" + child(0) + " IS NOT NULL)";
    case ExpressionType::IS_TRUE: return "(" + child(0) + " IS TRUE)";
    case ExpressionType::IS_FALSE: return "(" + child(0) + " IS FALSE)";
    case ExpressionType::IS_NOT_TRUE: return "(" + child(0) + " IS NOT TRUE)";
    case ExpressionType::IS_NOT_FALSE: return "(" + child(0) + " IS NOT FALSE)";
    case ExpressionType::IN_LIST:
    case ExpressionType::NOT_IN_LIST: {
      std::string s = "(" + child(0) + (type == ExpressionType::IN_LIST ? " IN (" : " NOT IN (");
      for (size_t i = 1; i < children.size(); i++) {
        if (i > 1) s += ", ";
        s += child(i);
      }
      return s + "))";
    }
    case ExpressionType::BETWEEN:
    case ExpressionType::NOT_BETWEEN:
      return "(" + child(0) + (type == ExpressionType::BETWEEN ? " BETWEEN " : " NOT BETWEEN ") + child(1) +
             " AND " + child(2) + ")";
    // Query nodes have no SQL printer; the placeholder keeps names readable.
    case ExpressionType::SUBQUERY_SCALAR: return "(SELECT ...)";
    case ExpressionType::SUBQUERY_IN: return "(" + child(0) + " IN (SELECT ...))";
    case ExpressionType::SUBQUERY_NOT_IN: return "(" + child(0) + " NOT IN (SELECT ...))";
    case ExpressionType::SUBQUERY_EXISTS: return "EXISTS(SELECT ...)";
    case ExpressionType::SUBQUERY_NOT_EXISTS: return "NOT EXISTS(SELECT ...)";
    case ExpressionType::SUBQUERY_ANY: return "ANY (SELECT ...)";
    case ExpressionType::SUBQUERY_ALL: return "ALL (SELECT ...)";
    case ExpressionType::SUBSCRIPT: return child(0) + "[" + child(1) + "]";
    case ExpressionType::FIELD_ACCESS: return child(0) + "." + (names.empty() ? std::string("?") : names[0]);
    case ExpressionType::LAMBDA: {
      if (names.size() == 1) return names[0] + " -> " + child(0);
      std::string s = "(";
      for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
      return s + ") -> " + child(0);
    }
    default:
      break;
  }
  return ExpressionTypeToString(type);
}

static OrderByItem CopyOrderByItem(const OrderByItem& item) {
  OrderByItem copy;
  copy.expression = item.expression ? item.expression->Copy() : nullptr;
  copy.descending = item.descending;
  copy.nulls_first = item.nulls_first;
  return copy;
}

std::unique_ptr<WindowSpec> WindowSpec::Copy() const {
  auto result = std::make_unique<WindowSpec>();
  result->location = location;
  result->base_name = base_name;
  result->partitions = CopyList(partitions);
  for (auto& item : orders) result->orders.push_back(CopyOrderByItem(item));
  result->has_frame = has_frame;
  result->range = range;
  result->start.boundary = start.boundary;
  result->end.boundary = end.boundary;
  if (start.offset) result->start.offset = start.offset->Copy();
  if (end.offset) result->end.offset = end.offset->Copy();
  result->height = height;
  return result;
}

static std::string BoundToString(const WindowFrameBound& bound) {
  switch (bound.boundary) {
    case WindowBoundary::UNBOUNDED_PRECEDING: return "UNBOUNDED PRECEDING";
    case WindowBoundary::OFFSET_PRECEDING: return (bound.offset ? bound.offset->ToString() : "?") + " PRECEDING";
    case WindowBoundary::CURRENT_ROW: return "CURRENT ROW";
    case WindowBoundary::OFFSET_FOLLOWING: return (bound.offset ? bound.offset->ToString() : "?") + " FOLLOWING";
    case WindowBoundary::UNBOUNDED_FOLLOWING: return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

std::string WindowSpec::ToString() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (!base_name.empty()) add(base_name);
  for (size_t i = 0; i < partitions.size(); i++) add((i ? ", " : "PARTITION BY ") + partitions[i]->ToString());
  for (size_t i = 0; i < orders.size(); i++) {
    std::string item = (i ? ", " : "ORDER BY ") + orders[i].expression->ToString() + (orders[i].descending ? " DESC" : "");
    if (orders[i].nulls_first) item += *orders[i].nulls_first ? " NULLS FIRST" : " NULLS LAST";
    add(item);
  }
  if (has_frame) add(std::string(range ? "RANGE" : "ROWS") + " BETWEEN " + BoundToString(start) + " AND " + BoundToString(end));
  return "(" + s + ")";
}

std::unique_ptr<ParsedExpression> ParsedExpression::Copy() const {
  if (StackNearlyExhausted()) throw InvalidInputError(NestedTooDeeplyMessage("an expression is too deep to copy"));
  auto result = std::make_unique<ParsedExpression>(type, location);
  result->alias = alias;
  result->children = CopyList(children);
  result->value = value;
  result->names = names;
  result->star_exclude = star_exclude;
  result->function_name = function_name;
  result->arg_names = arg_names;
  result->distinct = distinct;
  result->star_argument = star_argument;
  result->cast_type = cast_type;
  result->try_cast = try_cast;
  result->has_else = has_else;
  result->parameter_index = parameter_index;
  result->order_count = order_count;
  result->order_flags = order_flags;
  result->within_group = within_group;
  result->has_filter = has_filter;
  if (subquery) result->subquery = subquery->Copy();
  if (window) result->window = window->Copy();
  result->ignore_nulls = ignore_nulls;
  result->height = height;
  result->expanded_size = expanded_size;
  return result;
}

std::unique_ptr<TableRef> TableRef::Copy() const {
  auto result = std::make_unique<TableRef>(type);
  result->location = location;
  result->alias = alias;
  result->column_aliases = column_aliases;
  result->name = name;
  result->stream_function = stream_function;
  result->stream_options = stream_options;
  result->version_as_of = version_as_of;
  result->timestamp_as_of = timestamp_as_of;
  if (subquery) result->subquery = subquery->Copy();
  if (left) result->left = left->Copy();
  if (right) result->right = right->Copy();
  result->join_type = join_type;
  if (condition) result->condition = condition->Copy();
  result->using_columns = using_columns;
  if (function) result->function = function->Copy();
  result->height = height;
  return result;
}

std::unique_ptr<QueryNode> QueryNode::Copy() const {
  auto result = std::make_unique<QueryNode>(type);
  result->location = location;
  for (auto& cte : ctes) {
    CommonTableExpression copy;
    copy.name = cte.name;
    copy.column_aliases = cte.column_aliases;
    copy.recursive = cte.recursive;
    if (cte.query) copy.query = cte.query->Copy();
    result->ctes.push_back(std::move(copy));
  }
  result->select_list = CopyList(select_list);
  result->distinct = distinct;
  if (from) result->from = from->Copy();
  if (where) result->where = where->Copy();
  result->group_by = CopyList(group_by);
  result->group_by_all = group_by_all;
  result->grouping_sets = grouping_sets;
  if (having) result->having = having->Copy();
  if (qualify) result->qualify = qualify->Copy();
  for (auto& [name, spec] : windows) result->windows.emplace_back(name, spec->Copy());
  result->set_op = set_op;
  if (left) result->left = left->Copy();
  if (right) result->right = right->Copy();
  for (auto& row : values) result->values.push_back(CopyList(row));
  for (auto& item : order_by) result->order_by.push_back(CopyOrderByItem(item));
  if (limit) result->limit = limit->Copy();
  if (offset) result->offset = offset->Copy();
  result->height = height;
  return result;
}

}  // namespace lakestream
