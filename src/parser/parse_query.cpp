// Queries: WITH, SELECT, VALUES, set operations, ORDER BY / LIMIT, and the
// FROM clause (tables, time travel, table functions, STREAM(...), joins).
#include "common/exception.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

bool HasOrderOrLimit(const QueryNode& node) { return !node.order_by.empty() || node.limit || node.offset; }

// SELECT * FROM (<node>): used when a parenthesised query that already has
// its own ORDER BY/LIMIT gets another one, so neither is lost.
std::unique_ptr<QueryNode> WrapInSelectStar(std::unique_ptr<QueryNode> node) {
  auto wrapper = std::make_unique<QueryNode>(QueryNodeType::SELECT_NODE);
  wrapper->location = node->location;
  wrapper->select_list.push_back(std::make_unique<ParsedExpression>(ExpressionType::STAR, node->location));
  auto from = std::make_unique<TableRef>(TableRefType::SUBQUERY);
  from->location = node->location;
  from->height = node->height + 1;
  from->subquery = std::move(node);
  wrapper->height = from->height + 1;  // the caller's Finish checks it
  wrapper->from = std::move(from);
  return wrapper;
}

}  // namespace

std::unique_ptr<QueryNode> ParserImpl::ParseQuery() {
  DepthGuard guard(*this);
  uint32_t location = Peek().offset;
  std::vector<CommonTableExpression> ctes;
  if (AcceptKeyword("WITH")) {
    bool recursive = AcceptKeyword("RECURSIVE");
    do {
      CommonTableExpression cte;
      cte.recursive = recursive;
      cte.name = ParseIdentifier("a name for the common table expression");
      if (IsOp("(")) cte.column_aliases = ParseIdentifierList("a column name");
      ExpectKeyword("AS");
      AcceptKeyword("MATERIALIZED");
      ExpectOp("(");
      cte.query = ParseQuery();
      ExpectOp(")");
      ctes.push_back(std::move(cte));
    } while (AcceptOp(","));
  }
  auto node = ParseSetOperation();
  if (IsKeyword("ORDER") || IsKeyword("LIMIT") || IsKeyword("OFFSET")) {
    if (HasOrderOrLimit(*node)) node = WrapInSelectStar(std::move(node));
    ParseOrderLimit(*node);
  }
  if (!ctes.empty()) {
    if (!node->ctes.empty()) node = WrapInSelectStar(std::move(node));
    node->ctes = std::move(ctes);
    node->location = location;
  }
  Finish(*node);
  return node;
}

// Precedence as in the SQL standard, Spark and DuckDB: INTERSECT binds
// tighter than UNION and EXCEPT (MINUS), which associate to the left.
std::unique_ptr<QueryNode> ParserImpl::ParseSetOperation() {
  auto left = ParseIntersection();
  while (IsKeyword("UNION") || IsKeyword("EXCEPT") || IsKeyword("MINUS")) left = MakeSetOperation(std::move(left), false);
  return left;
}

std::unique_ptr<QueryNode> ParserImpl::ParseIntersection() {
  auto left = ParseQueryTerm();
  while (IsKeyword("INTERSECT")) left = MakeSetOperation(std::move(left), true);
  return left;
}

// Consumes `op [ALL | DISTINCT] <operand>` after `left`.
std::unique_ptr<QueryNode> ParserImpl::MakeSetOperation(std::unique_ptr<QueryNode> left, bool intersect) {
  const Token& op = Next();
  std::string op_name = ToUpperAscii(op.text);
  bool all = AcceptKeyword("ALL");
  if (!all) AcceptKeyword("DISTINCT");
  if (IsKeyword("BY") && IsKeyword("NAME", 1)) {
    ErrorAt(Peek().offset, "not supported yet: " + op_name + " BY NAME (list the columns in the same order on both sides)");
  }
  auto node = std::make_unique<QueryNode>(QueryNodeType::SET_OPERATION_NODE);
  node->location = left->location;
  if (op_name == "UNION") {
    node->set_op = all ? SetOperationType::UNION_ALL : SetOperationType::UNION;
  } else if (intersect) {
    node->set_op = all ? SetOperationType::INTERSECT_ALL : SetOperationType::INTERSECT;
  } else {  // EXCEPT, or MINUS as Spark and Oracle spell it
    node->set_op = all ? SetOperationType::EXCEPT_ALL : SetOperationType::EXCEPT;
  }
  node->left = std::move(left);
  node->right = intersect ? ParseQueryTerm() : ParseIntersection();
  Finish(*node);
  return node;
}

std::unique_ptr<QueryNode> ParserImpl::ParseQueryTerm() {
  if (IsKeyword("SELECT")) return ParseSelectNode();
  if (IsKeyword("VALUES")) return ParseValuesNode();
  if (IsOp("(")) {
    Next();
    auto node = ParseQuery();
    if (!AcceptOp(")")) SyntaxError(Peek(), "expected ')'");
    return node;
  }
  if (IsKeyword("WITH")) return ParseQuery();
  SyntaxError(Peek(), "expected SELECT, VALUES or '('");
}

std::unique_ptr<QueryNode> ParserImpl::ParseValuesNode() {
  auto node = std::make_unique<QueryNode>(QueryNodeType::VALUES_NODE);
  node->location = Peek().offset;
  ExpectKeyword("VALUES");
  do {
    ExpectOp("(");
    std::vector<ExprPtr> row;
    do {
      row.push_back(ParseExpression());
    } while (AcceptOp(","));
    if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' in the VALUES row");
    node->values.push_back(std::move(row));
  } while (AcceptOp(","));
  Finish(*node);
  return node;
}

ExprPtr ParserImpl::ParseSelectItem() {
  auto expr = ParseExpression();
  if (expr->type == ExpressionType::STAR) ParseStarModifiers(*expr);
  if (AcceptKeyword("AS")) {
    if (Peek().type == TokenType::STRING) {
      expr->alias = Next().text;  // Spark/Snowflake accept AS 'alias'
    } else if (IsIdentifierLike()) {
      expr->alias = Next().text;  // after AS any word is a name (AS count, AS date)
    } else {
      SyntaxError(Peek(), "expected an alias after AS");
    }
  } else if (expr->type != ExpressionType::STAR && IsIdentifierLike() && !IsReservedWord(Peek())) {
    // No implicit alias after *, so `SELECT * FORM t` points at FORM.
    expr->alias = Next().text;
  }
  if (!expr->alias.empty() && expr->type == ExpressionType::STAR) {
    ErrorAt(expr->location, "a * in the select list cannot have an alias");
  }
  return expr;
}

std::unique_ptr<QueryNode> ParserImpl::ParseSelectNode() {
  auto node = std::make_unique<QueryNode>(QueryNodeType::SELECT_NODE);
  node->location = Peek().offset;
  ExpectKeyword("SELECT");
  if (AcceptKeyword("DISTINCT")) {
    if (IsKeyword("ON")) ErrorAt(Peek().offset, "not supported yet: DISTINCT ON");
    node->distinct = true;
  } else {
    AcceptKeyword("ALL");
  }
  do {
    node->select_list.push_back(ParseSelectItem());
  } while (AcceptOp(","));
  if (AcceptKeyword("FROM")) node->from = ParseTableRef();
  if (AcceptKeyword("WHERE")) node->where = ParseExpression();
  if (IsKeyword("GROUP")) {
    Next();
    ExpectKeyword("BY");
    if (AcceptKeyword("ALL")) {
      node->group_by_all = true;
    } else {
      ParseGroupBy(*node);
    }
  }
  if (AcceptKeyword("HAVING")) node->having = ParseExpression();
  // WINDOW and QUALIFY in either order (Databricks writes QUALIFY first, DuckDB WINDOW).
  for (int i = 0; i < 2; i++) {
    if (node->windows.empty() && AcceptKeyword("WINDOW")) ParseWindowClause(*node);
    if (!node->qualify && AcceptKeyword("QUALIFY")) node->qualify = ParseExpression();
  }
  Finish(*node);
  return node;
}

OrderByItem ParserImpl::ParseOrderByItem() {
  OrderByItem item;
  item.expression = ParseExpression();
  if (AcceptKeyword("DESC")) {
    item.descending = true;
  } else {
    AcceptKeyword("ASC");
  }
  if (AcceptKeyword("NULLS")) {
    if (AcceptKeyword("FIRST")) {
      item.nulls_first = true;
    } else if (AcceptKeyword("LAST")) {
      item.nulls_first = false;
    } else {
      SyntaxError(Peek(), "expected FIRST or LAST after NULLS");
    }
  }
  return item;
}

void ParserImpl::ParseOrderLimit(QueryNode& node) {
  if (IsKeyword("ORDER")) {
    Next();
    ExpectKeyword("BY");
    do {
      node.order_by.push_back(ParseOrderByItem());
    } while (AcceptOp(","));
  }
  // LIMIT n [OFFSET m], OFFSET m [LIMIT n], and LIMIT m, n (MySQL) are all common.
  for (int i = 0; i < 2; i++) {
    if (!node.limit && IsKeyword("LIMIT")) {
      Next();
      if (AcceptKeyword("ALL")) continue;
      node.limit = ParseExpression();
      if (!node.offset && AcceptOp(",")) {
        node.offset = std::move(node.limit);
        node.limit = ParseExpression();
      }
    } else if (!node.offset && IsKeyword("OFFSET")) {
      Next();
      node.offset = ParseExpression();
      if (!AcceptKeyword("ROWS")) AcceptKeyword("ROW");
    }
  }
}

// ------------------------------------------------------------------ FROM

std::unique_ptr<TableRef> ParserImpl::ParseTableRef() {
  DepthGuard guard(*this);
  auto left = ParseTableRefPrimary();
  while (true) {
    uint32_t location = Peek().offset;
    JoinType join_type;
    bool needs_condition = true;
    bool natural = false;
    if (AcceptOp(",")) {
      join_type = JoinType::CROSS;
      needs_condition = false;
    } else if (AcceptKeywords({"CROSS", "JOIN"})) {
      join_type = JoinType::CROSS;
      needs_condition = false;
    } else if (IsKeyword("JOIN") || IsKeyword("INNER") || IsKeyword("LEFT") || IsKeyword("RIGHT") || IsKeyword("FULL") ||
               IsKeyword("NATURAL") || ((IsKeyword("SEMI") || IsKeyword("ANTI")) && IsKeyword("JOIN", 1))) {
      natural = AcceptKeyword("NATURAL");
      join_type = JoinType::INNER;
      if (AcceptKeyword("INNER")) {
        join_type = JoinType::INNER;
      } else if (IsKeyword("SEMI") || IsKeyword("ANTI")) {
        join_type = EqualsIgnoreCase(Next().text, "SEMI") ? JoinType::SEMI : JoinType::ANTI;
      } else if (IsKeyword("LEFT") || IsKeyword("RIGHT") || IsKeyword("FULL")) {
        const Token& side = Next();
        join_type = EqualsIgnoreCase(side.text, "LEFT")    ? JoinType::LEFT
                    : EqualsIgnoreCase(side.text, "RIGHT") ? JoinType::RIGHT
                                                           : JoinType::FULL;
        if (IsKeyword("SEMI") || IsKeyword("ANTI")) {
          if (join_type != JoinType::LEFT) {
            ErrorAt(Peek().offset, "not supported yet: " + ToUpperAscii(side.text) + " " + ToUpperAscii(Peek().text) +
                                       " JOIN (swap the tables and write LEFT " + ToUpperAscii(Peek().text) + " JOIN)");
          }
          join_type = EqualsIgnoreCase(Next().text, "SEMI") ? JoinType::SEMI : JoinType::ANTI;
        } else {
          AcceptKeyword("OUTER");
        }
      }
      ExpectKeyword("JOIN");
      if (natural && (join_type == JoinType::SEMI || join_type == JoinType::ANTI)) {
        ErrorAt(location, "not supported yet: NATURAL SEMI/ANTI JOIN (write the USING (columns) list)");
      }
      needs_condition = !natural;
    } else if (IsKeyword("LATERAL") && IsKeyword("VIEW", 1)) {
      left = ParseLateralView(std::move(left));  // parse_nested.cpp
      continue;
    } else {
      return left;
    }
    auto join = std::make_unique<TableRef>(TableRefType::JOIN);
    join->location = location;
    join->join_type = join_type;
    join->natural = natural;
    join->left = std::move(left);
    join->right = ParseTableRefPrimary();
    if (needs_condition) {
      if (AcceptKeyword("ON")) {
        join->condition = ParseExpression();
      } else if (AcceptKeyword("USING")) {
        join->using_columns = ParseIdentifierList("a column name");
      } else if (join_type != JoinType::INNER) {
        SyntaxError(Peek(), "expected ON or USING after the joined table");
      }
    } else if (natural && (IsKeyword("ON") || IsKeyword("USING"))) {
      ErrorAt(Peek().offset, "a NATURAL join takes no ON or USING: it matches every column both sides name");
    }
    Finish(*join);
    left = std::move(join);
  }
}

bool ParserImpl::ParseTimeTravel(std::optional<int64_t>& version, std::optional<std::string>& timestamp) {
  size_t k = IsKeyword("FOR") ? 1 : 0;
  bool is_version = IsKeyword("VERSION", k);
  bool is_timestamp = IsKeyword("TIMESTAMP", k);
  if (!(is_version || is_timestamp) || !IsKeyword("AS", k + 1) || !IsKeyword("OF", k + 2)) {
    if (k == 1 && (is_version || is_timestamp)) SyntaxError(Peek(k + 1), "expected AS OF");
    return false;
  }
  for (size_t i = 0; i < k + 3; i++) Next();
  if (is_version) {
    version = ParseIntegerLiteral("the version");
  } else {
    timestamp = ParseStringLiteral("the timestamp");
  }
  return true;
}

void ParserImpl::ParseTableAlias(TableRef& ref) {
  if (AcceptKeyword("AS")) {
    ref.alias = ParseIdentifier("an alias");
  } else if (IsIdentifierLike() && !IsReservedWord(Peek(), true)) {
    ref.alias = Next().text;
  } else {
    return;
  }
  if (IsOp("(")) ref.column_aliases = ParseIdentifierList("a column alias");
}

std::unique_ptr<TableRef> ParserImpl::ParseTableRefPrimary() {
  DepthGuard guard(*this);
  uint32_t location = Peek().offset;
  if (IsOp("(")) {
    if (IsQueryStart(1) || IsOp("(", 1)) {
      // (SELECT ...) / (VALUES ...) / ((SELECT ...) UNION ...) with an alias.
      Next();
      auto ref = std::make_unique<TableRef>(TableRefType::SUBQUERY);
      ref->location = location;
      ref->subquery = ParseQuery();
      if (!AcceptOp(")")) SyntaxError(Peek(), "expected ')' after the subquery");
      ParseTableAlias(*ref);
      Finish(*ref);
      return ref;
    }
    // A parenthesised join: (a JOIN b ON ...).
    Next();
    auto ref = ParseTableRef();
    ExpectOp(")");
    if (IsKeyword("AS") || (IsIdentifierLike() && !IsReservedWord(Peek(), true))) {
      ErrorAt(Peek().offset, "an alias for a parenthesised join is not supported; alias the tables inside it");
    }
    return ref;
  }
  if (IsKeyword("LATERAL")) {
    if (!IsOp("(", 1) || !IsQueryStart(2)) {
      ErrorAt(location, "not supported yet: LATERAL other than LATERAL (SELECT ...) alias (a table function or VIEW after LATERAL)");
    }
    Next();
    auto ref = ParseTableRefPrimary();
    ref->lateral = true;
    return ref;
  }
  // STREAM(LIVE.t) / STREAM(t) / STREAM LIVE.t / STREAM t: an incremental read
  // in a pipeline. STREAM read_files(...) / STREAM(read_files(...)): a file
  // source, which a streaming table reads incrementally anyway.
  if (IsKeyword("STREAM") && (IsOp("(", 1) || (IsIdentifierLike(1) && !IsReservedWord(Peek(1), true)))) {
    Next();
    bool parenthesised = AcceptOp("(");
    uint32_t name_at = Peek().offset;
    QualifiedName name = ParseQualifiedName("a table name or a table function");
    std::unique_ptr<TableRef> ref;
    if (IsOp("(")) {
      ref = std::make_unique<TableRef>(TableRefType::TABLE_FUNCTION);
      ref->function = ParseTableFunctionCall(name.ToString(), name_at);
    } else {
      ref = std::make_unique<TableRef>(TableRefType::BASE_TABLE);
      ref->name = std::move(name);
    }
    ref->location = location;
    ref->stream_function = true;
    if (parenthesised) ExpectOp(")");
    // Spark's per-read options: STREAM t WITH (skipChangeCommits = true).
    if (IsKeyword("WITH") && IsOp("(", 1)) {
      Next();
      ref->stream_options = ParsePropertyList(false);
    }
    ParseTableAlias(*ref);
    Finish(*ref);
    return ref;
  }
  // DuckDB's FROM 'orders.parquet' / FROM 'landing/*.json': read_files() of
  // that path, its format from the extension, CSV sniffed as DuckDB does.
  if (Peek().type == TokenType::STRING) {
    auto ref = std::make_unique<TableRef>(TableRefType::TABLE_FUNCTION);
    ref->location = location;
    auto call = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, location);
    call->function_name = "read_files";
    auto path = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, location);
    path->value = Value::VARCHAR(Next().text);
    call->children.push_back(Finish(std::move(path)));
    call->arg_names.emplace_back();
    // DuckDB reads FROM 'file.csv' with a sniffed header and delimiter.
    for (const char* option : {"header", "delimiter"}) {
      auto value = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, location);
      value->value = Value::VARCHAR("auto");
      call->children.push_back(Finish(std::move(value)));
      call->arg_names.emplace_back(option);
    }
    ref->function = Finish(std::move(call));
    ParseTableAlias(*ref);
    Finish(*ref);
    return ref;
  }
  if (IsKeyword("VALUES")) {
    auto ref = std::make_unique<TableRef>(TableRefType::SUBQUERY);
    ref->location = location;
    ref->subquery = ParseValuesNode();
    ParseTableAlias(*ref);
    Finish(*ref);
    return ref;
  }
  if (!IsIdentifierLike() || (Peek().type == TokenType::IDENTIFIER && IsReservedWord(Peek()))) {
    SyntaxError(Peek(), "expected a table name, a table function or a subquery");
  }
  QualifiedName name = ParseQualifiedName("a table name");
  if (IsOp("(")) {
    // Table function: table_changes('t', 2, 5), read_files('dir', format => 'json').
    auto ref = std::make_unique<TableRef>(TableRefType::TABLE_FUNCTION);
    ref->location = location;
    ref->function = ParseTableFunctionCall(name.ToString(), location);
    ParseTableAlias(*ref);
    Finish(*ref);
    return ref;
  }
  auto ref = std::make_unique<TableRef>(TableRefType::BASE_TABLE);
  ref->location = location;
  ref->name = std::move(name);
  // Time travel may come before or after the alias (Delta accepts both orders).
  bool travelled = ParseTimeTravel(ref->version_as_of, ref->timestamp_as_of);
  ParseTableAlias(*ref);
  if (!travelled) ParseTimeTravel(ref->version_as_of, ref->timestamp_as_of);
  return ref;
}

}  // namespace lakestream
