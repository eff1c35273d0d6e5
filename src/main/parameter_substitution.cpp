#include "main/parameter_substitution.hpp"

#include <string>

#include "common/exception.hpp"

namespace lakestream {

namespace {

class Substitution {
 public:
  explicit Substitution(const std::vector<Value>& values) : values_(values) {}

  void Expr(ExprPtr& expr) {
    if (!expr) return;
    if (expr->parameter_index != 0) {
      // PARAMETER, or the constant a previous execution put there.
      expr->type = ExpressionType::CONSTANT;
      expr->value = values_[expr->parameter_index - 1];
      return;
    }
    for (auto& child : expr->children) Expr(child);
    if (expr->subquery) Query(*expr->subquery);
  }

  void Query(QueryNode& node) {
    for (auto& cte : node.ctes) {
      if (cte.query) Query(*cte.query);
    }
    for (auto& e : node.select_list) Expr(e);
    if (node.from) Table(*node.from);
    Expr(node.where);
    for (auto& e : node.group_by) Expr(e);
    Expr(node.having);
    if (node.left) Query(*node.left);
    if (node.right) Query(*node.right);
    for (auto& row : node.values) {
      for (auto& e : row) Expr(e);
    }
    for (auto& item : node.order_by) Expr(item.expression);
    Expr(node.limit);
    Expr(node.offset);
  }

  void Table(TableRef& ref) {
    if (ref.subquery) Query(*ref.subquery);
    if (ref.left) Table(*ref.left);
    if (ref.right) Table(*ref.right);
    Expr(ref.condition);
    Expr(ref.function);
  }

  void Set(std::vector<SetClause>& set) {
    for (auto& clause : set) Expr(clause.value);
  }

  void Statement(SQLStatement& statement) {
    switch (statement.type) {
      case StatementType::SELECT: Query(*static_cast<SelectStatement&>(statement).node); return;
      case StatementType::EXPLAIN: Statement(*static_cast<ExplainStatement&>(statement).statement); return;
      case StatementType::INSERT: {
        auto& insert = static_cast<InsertStatement&>(statement);
        if (insert.query) Query(*insert.query);
        return;
      }
      case StatementType::UPDATE: {
        auto& update = static_cast<UpdateStatement&>(statement);
        Set(update.set);
        if (update.from) Table(*update.from);
        Expr(update.where);
        return;
      }
      case StatementType::DELETE: {
        auto& del = static_cast<DeleteStatement&>(statement);
        if (del.using_source) Table(*del.using_source);
        Expr(del.where);
        return;
      }
      case StatementType::MERGE: {
        auto& merge = static_cast<MergeStatement&>(statement);
        if (merge.source) Table(*merge.source);
        Expr(merge.condition);
        for (auto& clause : merge.clauses) {
          Expr(clause.condition);
          Set(clause.set);
          for (auto& e : clause.insert_values) Expr(e);
        }
        return;
      }
      case StatementType::CREATE_TABLE: {
        auto& create = static_cast<CreateTableStatement&>(statement);
        for (auto& column : create.columns) {
          if (column.default_value && Contains(*column.default_value)) {
            throw InvalidInputError("a parameter cannot stand in a column default (column \"" + column.name +
                                    "\"): the default is stored as SQL text; write the value literally");
          }
        }
        if (create.as_query) Query(*create.as_query);
        return;
      }
      case StatementType::DESCRIBE: {
        auto& describe = static_cast<DescribeStatement&>(statement);
        if (describe.query) Query(*describe.query);
        return;
      }
      case StatementType::COPY: {
        auto& copy = static_cast<CopyStatement&>(statement);
        if (copy.query) Query(*copy.query);
        return;
      }
      default:
        // Views, streaming tables, streams and sinks store their SQL text and
        // run it later, when no parameter values exist any more; the other
        // statements take names and options, which parameters cannot replace.
        throw InvalidInputError("parameters (? or $1, ...) cannot be used in this statement (\"" + statement.text +
                                "\"): " +
                                (statement.type == StatementType::CREATE_VIEW
                                     ? "a view's definition is stored as SQL text; write the values literally"
                                     : "parameters stand only for values in SELECT, INSERT, UPDATE, DELETE, "
                                       "MERGE, CREATE TABLE ... AS, DESCRIBE and COPY"));
    }
  }

 private:
  static bool Contains(const ParsedExpression& expr) {
    if (expr.parameter_index != 0) return true;
    for (auto& child : expr.children) {
      if (child && Contains(*child)) return true;
    }
    return false;
  }

  const std::vector<Value>& values_;
};

}  // namespace

void SubstituteParameters(SQLStatement& statement, const std::vector<Value>& values) {
  uint32_t expected = statement.parameter_count;
  if (values.size() < expected) {
    throw InvalidInputError(
        "parameter $" + std::to_string(values.size() + 1) + " has no value: the statement takes " +
        std::to_string(expected) + (expected == 1 ? " parameter" : " parameters") + " and " +
        std::to_string(values.size()) + (values.size() == 1 ? " was" : " were") +
        " given; pass one value per parameter (Connection::Query(sql, params) or PreparedStatement::Execute(params))");
  }
  if (values.size() > expected) {
    throw InvalidInputError("the statement takes " + std::to_string(expected) +
                            (expected == 1 ? " parameter" : " parameters") + " but " + std::to_string(values.size()) +
                            " values were given; pass exactly one value per ? or $n");
  }
  if (expected == 0) return;
  Substitution(values).Statement(statement);
}

}  // namespace lakestream
