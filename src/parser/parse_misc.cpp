// SHOW, DESCRIBE, COPY, REFRESH, RUN SINK, OPTIMIZE, VACUUM, SET,
// transactions and EXPLAIN.
#include <cstdio>

#include "common/time_zone.hpp"
#include "common/exception.hpp"
#include "common/sql_identifier.hpp"
#include "common/string_util.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

std::unique_ptr<SQLStatement> ParserImpl::ParseShow() {
  ExpectKeyword("SHOW");
  auto statement = std::make_unique<ShowStatement>();
  if (AcceptKeyword("SCHEMAS") || AcceptKeyword("DATABASES")) {
    statement->show_type = ShowType::SCHEMAS;
  } else if (AcceptKeyword("TABLES")) {
    statement->show_type = ShowType::TABLES;
  } else if (AcceptKeyword("STREAMS") || AcceptKeywords({"TABLE", "STREAMS"})) {
    statement->show_type = ShowType::STREAMS;
  } else if (AcceptKeyword("SINKS")) {
    statement->show_type = ShowType::SINKS;
  } else if (AcceptKeywords({"MATERIALIZED", "VIEWS"})) {
    statement->show_type = ShowType::MATERIALIZED_VIEWS;
  } else if (AcceptKeyword("VIEWS")) {
    statement->show_type = ShowType::VIEWS;
  } else if (AcceptKeyword("TBLPROPERTIES") || AcceptKeyword("PROPERTIES")) {
    statement->show_type = ShowType::TBLPROPERTIES;
    statement->name = ParseQualifiedName("a table name");
  } else if (AcceptKeyword("COLUMNS")) {
    statement->show_type = ShowType::COLUMNS;
    if (!AcceptKeyword("FROM") && !AcceptKeyword("IN")) SyntaxError(Peek(), "expected FROM or IN after SHOW COLUMNS");
    statement->name = ParseQualifiedName("a table name");
  } else {
    SyntaxError(Peek(), "expected TABLES, STREAMS, SINKS, MATERIALIZED VIEWS, VIEWS, TBLPROPERTIES or COLUMNS");
  }
  // SHOW TABLES IN s / FROM s: the objects of schema s.
  if (statement->name.parts.empty() && statement->show_type != ShowType::SCHEMAS && (AcceptKeyword("IN") || AcceptKeyword("FROM"))) {
    statement->schema = ParseQualifiedName("a schema name");
  }
  // SHOW TABLES LIKE '...': not needed yet, but say so clearly.
  if (IsKeyword("LIKE") || (statement->name.parts.empty() && (IsKeyword("IN") || IsKeyword("FROM")))) {
    ErrorAt(Peek().offset, "not supported yet: SHOW ... " + ToUpperAscii(Peek().text));
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseDescribe() {
  Next();  // DESCRIBE / DESC
  auto statement = std::make_unique<DescribeStatement>();
  if (IsQueryStart() || IsOp("(")) {
    statement->describe_type = DescribeType::QUERY;
    statement->query = ParseQuery();
    return statement;
  }
  // A keyword counts only when a name follows it, so a table called
  // `history` can still be described with DESCRIBE history.
  auto kind_then_name = [&](const char* keyword) { return IsKeyword(keyword) && IsIdentifierLike(1); };
  if (kind_then_name("HISTORY")) {
    Next();
    statement->describe_type = DescribeType::HISTORY;
    statement->name = ParseQualifiedName("a table name");
    if (AcceptKeyword("LIMIT")) statement->limit = ParseIntegerLiteral("the LIMIT");
    return statement;
  }
  if (kind_then_name("DETAIL")) {
    Next();
    statement->describe_type = DescribeType::DETAIL;
  } else if (IsKeyword("TABLE") && IsKeyword("STREAM", 1) && IsIdentifierLike(2)) {
    Next();
    Next();
    statement->describe_type = DescribeType::STREAM;
  } else if (kind_then_name("STREAM")) {
    Next();
    statement->describe_type = DescribeType::STREAM;
  } else if (IsKeyword("MATERIALIZED") && IsKeyword("VIEW", 1)) {
    Next();
    Next();
    statement->describe_type = DescribeType::MATERIALIZED_VIEW;
  } else if (kind_then_name("SINK")) {
    Next();
    statement->describe_type = DescribeType::SINK;
  } else {
    if (kind_then_name("TABLE") || kind_then_name("EXTENDED") || kind_then_name("FORMATTED")) Next();
    statement->describe_type = DescribeType::TABLE;
  }
  statement->name = ParseQualifiedName("a name");
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCopy() {
  ExpectKeyword("COPY");
  auto statement = std::make_unique<CopyStatement>();
  if (IsKeyword("INTO")) ErrorAt(Peek().offset, "not supported yet: COPY INTO (use INSERT INTO ... SELECT * FROM read_files(...))");
  if (AcceptOp("(")) {
    statement->query = ParseQuery();
    ExpectOp(")");
    ExpectKeyword("TO");
  } else {
    statement->table = ParseQualifiedName("a table name");
    if (AcceptKeyword("FROM")) {
      statement->is_from = true;
    } else {
      ExpectKeyword("TO");
      // COPY t TO ...: the same as COPY (SELECT * FROM t) TO ...
      auto node = std::make_unique<QueryNode>(QueryNodeType::SELECT_NODE);
      node->location = statement->table.location;
      node->select_list.push_back(std::make_unique<ParsedExpression>(ExpressionType::STAR, statement->table.location));
      auto from = std::make_unique<TableRef>(TableRefType::BASE_TABLE);
      from->location = statement->table.location;
      from->name = statement->table;
      node->from = std::move(from);
      statement->query = std::move(node);
    }
  }
  statement->path = ParseStringLiteral("the file path");
  // (FORMAT parquet, COMPRESSION zstd) and/or WITH (...): both are option lists.
  while (true) {
    if (IsOp("(")) {
      auto options = ParsePropertyList(true);
      statement->options.insert(statement->options.end(), options.begin(), options.end());
    } else if (IsKeyword("WITH") && IsOp("(", 1)) {
      Next();
      auto options = ParsePropertyList(true);
      statement->options.insert(statement->options.end(), options.begin(), options.end());
    } else {
      break;
    }
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseRefresh() {
  ExpectKeyword("REFRESH");
  auto statement = std::make_unique<RefreshStatement>();
  if (!AcceptKeywords({"MATERIALIZED", "VIEW"}) && !AcceptKeywords({"LIVE", "TABLE"}) &&
      !AcceptKeywords({"STREAMING", "TABLE"})) {
    AcceptKeyword("TABLE");
  }
  statement->name = ParseQualifiedName("a view name");
  statement->full = AcceptKeyword("FULL");
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseRun() {
  ExpectKeyword("RUN");
  ExpectKeyword("SINK");
  auto statement = std::make_unique<RunSinkStatement>();
  statement->name = ParseQualifiedName("a sink name");
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseOptimize() {
  ExpectKeyword("OPTIMIZE");
  auto statement = std::make_unique<OptimizeStatement>();
  AcceptKeyword("TABLE");
  statement->table = ParseQualifiedName("a table name");
  if (IsKeyword("ZORDER") || IsKeyword("WHERE")) ErrorAt(Peek().offset, "not supported yet: OPTIMIZE ... " + ToUpperAscii(Peek().text));
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseVacuum() {
  ExpectKeyword("VACUUM");
  auto statement = std::make_unique<VacuumStatement>();
  AcceptKeyword("TABLE");
  statement->table = ParseQualifiedName("a table name");
  while (true) {
    if (AcceptKeyword("RETAIN")) {
      const Token& t = Peek();
      if (t.type != TokenType::NUMBER) SyntaxError(t, "expected the number of hours after RETAIN");
      Next();
      statement->retain_hours = std::stod(t.text);
      if (!AcceptKeyword("HOURS") && !AcceptKeyword("HOUR")) SyntaxError(Peek(), "expected HOURS after the retention");
    } else if (AcceptKeywords({"DRY", "RUN"})) {
      statement->dry_run = true;
    } else {
      break;
    }
  }
  return statement;
}

// SET TIME ZONE becomes the Spark setting spark.sql.session.timeZone; LOCAL
// sets it to a value no zone name can be (docs/sql-time.md).
std::unique_ptr<SQLStatement> ParserImpl::ParseSetTimeZone() {
  auto statement = std::make_unique<SetStatement>();
  statement->name = kSessionTimeZoneSetting;
  if (AcceptKeyword("LOCAL")) {
    statement->value = kSessionTimeZoneLocal;
    return statement;
  }
  if (!IsKeyword("INTERVAL")) {
    if (Peek().type != TokenType::STRING) {
      SyntaxError(Peek(), "expected a zone after SET TIME ZONE: LOCAL, a string such as 'America/New_York' or "
                          "'+05:30', or INTERVAL '+05:30' HOUR TO MINUTE");
    }
    statement->value = Next().text;
    return statement;
  }
  // INTERVAL '+05:30' HOUR TO MINUTE, INTERVAL 5 HOURS, INTERVAL '-8' HOUR ...
  const Token& start = Next();
  bool negative = AcceptOp("-");
  const Token& t = Peek();
  if (t.type != TokenType::STRING && t.type != TokenType::NUMBER) {
    SyntaxError(t, "expected the offset after SET TIME ZONE INTERVAL, e.g. INTERVAL '+05:30' HOUR TO MINUTE");
  }
  std::string text = Next().text;
  std::string unit = IsIdentifierLike() ? ToUpperAscii(Next().text) : "HOUR";
  if (!unit.empty() && unit.back() == 'S') unit.pop_back();
  std::string to_unit;
  if (AcceptKeyword("TO")) {
    if (!IsIdentifierLike()) SyntaxError(Peek(), "expected MINUTE or SECOND after TO");
    to_unit = ToUpperAscii(Next().text);
  }
  std::string body = text;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = negative != (body[0] == '-');
    body.erase(0, 1);
  }
  long parts[3] = {0, 0, 0};
  int count = 0;
  size_t pos = 0;
  while (count < 3) {
    size_t end = body.find(':', pos);
    std::string part = body.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (part.empty() || part.size() > 2 || part.find_first_not_of("0123456789") != std::string::npos) {
      ErrorAt(start.offset, "SET TIME ZONE INTERVAL '" + text + "': expected hours[:minutes[:seconds]], e.g. '+05:30'");
    }
    parts[count++] = std::stol(part);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  long seconds = 0;
  bool ok = true;
  if (unit == "HOUR" && to_unit.empty() && count == 1) seconds = parts[0] * 3600;
  else if (unit == "MINUTE" && to_unit.empty() && count == 1) seconds = parts[0] * 60;
  else if (unit == "SECOND" && to_unit.empty() && count == 1) seconds = parts[0];
  else if (unit == "HOUR" && to_unit == "MINUTE" && count == 2) seconds = parts[0] * 3600 + parts[1] * 60;
  else if (unit == "HOUR" && to_unit == "SECOND" && count == 3) seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  else ok = false;
  if (!ok) {
    ErrorAt(start.offset, "SET TIME ZONE INTERVAL '" + text + "' " + unit + (to_unit.empty() ? "" : " TO " + to_unit) +
                              ": use INTERVAL 'hh' HOUR, INTERVAL 'hh:mm' HOUR TO MINUTE or INTERVAL 'hh:mm:ss' HOUR TO SECOND");
  }
  if (seconds > int64_t{18} * 3600 || (count > 1 && (parts[1] > 59 || parts[2] > 59))) {
    ErrorAt(start.offset, "SET TIME ZONE INTERVAL '" + text + "': the offset must be between -18:00 and +18:00");
  }
  char buf[32];
  snprintf(buf, sizeof(buf), "%c%02ld:%02ld", negative ? '-' : '+', seconds / 3600, (seconds / 60) % 60);
  statement->value = buf;
  if (seconds % 60) statement->value += ":" + std::string(seconds % 60 < 10 ? "0" : "") + std::to_string(seconds % 60);
  return statement;
}

// SET name = value, and DuckDB's other spellings of it: PRAGMA name = value,
// PRAGMA name(value), SET GLOBAL/SESSION name = value; RESET name.
std::unique_ptr<SQLStatement> ParserImpl::ParseSet() {
  bool pragma = AcceptKeyword("PRAGMA");
  bool reset = !pragma && AcceptKeyword("RESET");
  if (!pragma && !reset) ExpectKeyword("SET");
  if (!pragma && !reset && IsKeyword("TIME") && IsKeyword("ZONE", 1)) {
    Next();
    Next();
    return ParseSetTimeZone();
  }
  // One setting per database here, so the scope words change nothing.
  if (!pragma && (IsKeyword("GLOBAL") || IsKeyword("SESSION")) && IsIdentifierLike(1)) Next();
  auto statement = std::make_unique<SetStatement>();
  if (Peek().type == TokenType::STRING) {
    statement->name = Next().text;
  } else {
    if (!IsIdentifierLike()) SyntaxError(Peek(), "expected a setting name");
    statement->name = Next().text;
    while (IsOp(".") && IsIdentifierLike(1)) {
      Next();
      statement->name += "." + Next().text;
    }
  }
  if (reset) {
    statement->reset = true;
    return statement;
  }
  if (pragma && AcceptOp("(")) {
    statement->value = ParsePropertyValue();
    if (!AcceptOp(")")) SyntaxError(Peek(), "expected ')' after the PRAGMA's value");
    return statement;
  }
  if (!AcceptOp("=") && !AcceptKeyword("TO")) SyntaxError(Peek(), "expected '=' or TO after the setting name");
  if (AcceptOp("[")) {
    statement->is_list = true;
    if (AcceptOp("]")) return statement;
    do {
      if (Peek().type != TokenType::STRING) SyntaxError(Peek(), "expected a string in the setting's list, e.g. ['/data/in']");
      statement->list.push_back(Next().text);
    } while (AcceptOp(","));
    if (!AcceptOp("]")) SyntaxError(Peek(), "expected ',' or ']' in the setting's list");
    return statement;
  }
  statement->value = ParsePropertyValue();
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseTransaction() {
  auto statement = std::make_unique<TransactionStatement>();
  if (AcceptKeyword("BEGIN")) {
    statement->transaction_type = TransactionType::BEGIN;
    if (!AcceptKeyword("TRANSACTION")) AcceptKeyword("WORK");
  } else if (AcceptKeyword("START")) {
    statement->transaction_type = TransactionType::BEGIN;
    ExpectKeyword("TRANSACTION");
  } else if (AcceptKeyword("COMMIT")) {
    statement->transaction_type = TransactionType::COMMIT;
    if (!AcceptKeyword("TRANSACTION")) AcceptKeyword("WORK");
  } else {
    Next();  // ROLLBACK / ABORT
    statement->transaction_type = TransactionType::ROLLBACK;
    if (!AcceptKeyword("TRANSACTION")) AcceptKeyword("WORK");
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseExplain() {
  ExpectKeyword("EXPLAIN");
  auto statement = std::make_unique<ExplainStatement>();
  statement->analyze = AcceptKeyword("ANALYZE");
  uint32_t begin = Peek().offset;
  if (IsKeyword("EXPLAIN")) SyntaxError(Peek());
  statement->statement = ParseStatement();
  statement->statement->location = begin;
  statement->statement->text = SourceText(begin, PreviousEnd());
  return statement;
}

}  // namespace lakestream

namespace lakestream {

// SUMMARIZE t / SUMMARIZE SELECT ... (DuckDB's) is SELECT * FROM
// summarize('<query text>') (main/statement/summarize.hpp); the query is
// parsed here so that a syntax error points into this statement.
std::unique_ptr<SQLStatement> ParserImpl::ParseSummarize() {
  uint32_t location = Next().offset;  // SUMMARIZE
  std::string query_text;
  if (IsQueryStart() || IsOp("(")) {
    uint32_t begin = Peek().offset;
    ParseQuery();
    query_text = SourceText(begin, PreviousEnd());
  } else {
    QualifiedName name = ParseQualifiedName("a table name or a query");
    std::vector<std::string> quoted;
    for (auto& part : name.parts) quoted.push_back(QuoteSqlIdentifier(part));
    query_text = "SELECT * FROM " + StringUtil::Join(quoted, ".");
  }
  auto call = std::make_unique<ParsedExpression>(ExpressionType::FUNCTION, location);
  call->function_name = "summarize";
  auto argument = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, location);
  argument->value = Value::VARCHAR(query_text);
  call->children.push_back(std::move(argument));
  auto ref = std::make_unique<TableRef>(TableRefType::TABLE_FUNCTION);
  ref->location = location;
  ref->function = std::move(call);
  auto node = std::make_unique<QueryNode>(QueryNodeType::SELECT_NODE);
  node->location = location;
  node->select_list.push_back(std::make_unique<ParsedExpression>(ExpressionType::STAR, location));
  node->from = std::move(ref);
  auto statement = std::make_unique<SelectStatement>();
  statement->node = std::move(node);
  return statement;
}

}  // namespace lakestream
