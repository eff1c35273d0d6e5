// DML: INSERT, UPDATE, DELETE, TRUNCATE, MERGE INTO.
#include "common/exception.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

std::unique_ptr<SQLStatement> ParserImpl::ParseInsert() {
  ExpectKeyword("INSERT");
  auto statement = std::make_unique<InsertStatement>();
  if (AcceptKeyword("OVERWRITE")) {
    statement->overwrite = true;
  } else {
    ExpectKeyword("INTO");
  }
  AcceptKeyword("TABLE");
  statement->table = ParseQualifiedName("a table name");
  // (cols) vs (SELECT ...): a column list never starts with a query keyword.
  if (IsOp("(") && !IsQueryStart(1) && !IsOp("(", 1)) statement->columns = ParseIdentifierList("a column name");
  // Spark / Databricks: INSERT INTO t BY NAME <query> matches the query's
  // columns to t's by name; t's other columns take their defaults.
  if (IsKeyword("BY") && IsKeyword("NAME", 1)) {
    if (!statement->columns.empty()) ErrorAt(Peek().offset, "INSERT takes a column list or BY NAME, not both");
    Next();
    Next();
    statement->by_name = true;
  }
  if (IsKeyword("DEFAULT") && IsKeyword("VALUES", 1)) ErrorAt(Peek().offset, "not supported yet: DEFAULT VALUES");
  if (!IsQueryStart() && !IsOp("(")) SyntaxError(Peek(), "expected VALUES or a query");
  statement->query = ParseQuery();
  return statement;
}

std::vector<SetClause> ParserImpl::ParseSetClauses() {
  std::vector<SetClause> clauses;
  do {
    SetClause clause;
    clause.column = ParseDottedName("a column name");
    if (!AcceptOp("=")) SyntaxError(Peek(), "expected '=' after the column name in SET");
    clause.value = ParseExpression();
    clauses.push_back(std::move(clause));
  } while (AcceptOp(","));
  return clauses;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseUpdate() {
  ExpectKeyword("UPDATE");
  auto statement = std::make_unique<UpdateStatement>();
  statement->table = ParseQualifiedName("a table name");
  if (AcceptKeyword("AS")) {
    statement->alias = ParseIdentifier("an alias");
  } else if (IsIdentifierLike() && !IsReservedWord(Peek(), true)) {
    statement->alias = Next().text;
  }
  ExpectKeyword("SET");
  statement->set = ParseSetClauses();
  // Postgres/DuckDB: UPDATE t SET ... FROM s [, s2] WHERE <join condition>.
  if (AcceptKeyword("FROM")) statement->from = ParseTableRef();
  if (AcceptKeyword("WHERE")) statement->where = ParseExpression();
  return statement;
}

// DELETE FROM t [[AS] alias] [USING source] [WHERE cond], or TRUNCATE [TABLE] t (every row).
std::unique_ptr<SQLStatement> ParserImpl::ParseDelete() {
  if (AcceptKeyword("TRUNCATE")) {
    AcceptKeyword("TABLE");
    auto statement = std::make_unique<DeleteStatement>();
    statement->truncate = true;
    statement->table = ParseQualifiedName("a table name");
    if (IsKeyword("PARTITION")) ErrorAt(Peek().offset, "not supported yet: TRUNCATE TABLE ... PARTITION (use DELETE FROM ... WHERE)");
    return statement;
  }
  ExpectKeyword("DELETE");
  ExpectKeyword("FROM");
  auto statement = std::make_unique<DeleteStatement>();
  statement->table = ParseQualifiedName("a table name");
  if (AcceptKeyword("AS")) {
    statement->alias = ParseIdentifier("an alias");
  } else if (IsIdentifierLike() && !IsReservedWord(Peek(), true)) {
    statement->alias = Next().text;
  }
  // Postgres/DuckDB: DELETE FROM t USING s [, s2] WHERE <join condition>.
  if (AcceptKeyword("USING")) statement->using_source = ParseTableRef();
  if (AcceptKeyword("WHERE")) statement->where = ParseExpression();
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseMerge() {
  ExpectKeyword("MERGE");
  ExpectKeyword("INTO");
  auto statement = std::make_unique<MergeStatement>();
  statement->target = ParseQualifiedName("the target table");
  if (AcceptKeyword("AS")) {
    statement->target_alias = ParseIdentifier("an alias");
  } else if (IsIdentifierLike() && !IsReservedWord(Peek(), true)) {
    statement->target_alias = Next().text;
  }
  ExpectKeyword("USING");
  statement->source = ParseTableRefPrimary();
  ExpectKeyword("ON");
  statement->condition = ParseExpression();
  if (!IsKeyword("WHEN")) SyntaxError(Peek(), "expected WHEN MATCHED or WHEN NOT MATCHED");
  while (AcceptKeyword("WHEN")) {
    MergeClause clause;
    if (AcceptKeyword("MATCHED")) {
      clause.match = MergeMatch::MATCHED;
    } else if (AcceptKeywords({"NOT", "MATCHED"})) {
      clause.match = MergeMatch::NOT_MATCHED;
      if (AcceptKeywords({"BY", "SOURCE"})) {
        clause.match = MergeMatch::NOT_MATCHED_BY_SOURCE;
      } else {
        AcceptKeywords({"BY", "TARGET"});
      }
    } else {
      SyntaxError(Peek(), "expected MATCHED or NOT MATCHED after WHEN");
    }
    if (AcceptKeyword("AND")) clause.condition = ParseExpression();
    ExpectKeyword("THEN");
    const Token& action = Peek();
    if (AcceptKeyword("UPDATE")) {
      ExpectKeyword("SET");
      if (AcceptOp("*")) {
        clause.action = MergeAction::UPDATE_STAR;
      } else {
        clause.action = MergeAction::UPDATE;
        clause.set = ParseSetClauses();
      }
    } else if (AcceptKeyword("DELETE")) {
      clause.action = MergeAction::DELETE;
    } else if (AcceptKeyword("INSERT")) {
      if (AcceptOp("*")) {
        clause.action = MergeAction::INSERT_STAR;
      } else {
        clause.action = MergeAction::INSERT;
        if (IsOp("(")) {
          ExpectOp("(");
          do {
            // t.a is accepted and reduced to its last part, the target column.
            clause.insert_columns.push_back(ParseDottedName("a column name").back());
          } while (AcceptOp(","));
          ExpectOp(")");
        }
        ExpectKeyword("VALUES");
        ExpectOp("(");
        do {
          clause.insert_values.push_back(ParseExpression());
        } while (AcceptOp(","));
        if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' in the VALUES list");
      }
    } else {
      SyntaxError(action, "expected UPDATE, DELETE or INSERT after THEN");
    }
    bool is_insert = clause.action == MergeAction::INSERT || clause.action == MergeAction::INSERT_STAR;
    if (clause.match == MergeMatch::NOT_MATCHED && !is_insert) {
      ErrorAt(action.offset, "WHEN NOT MATCHED [BY TARGET] only allows INSERT (the row does not exist in the target)");
    }
    if (clause.match != MergeMatch::NOT_MATCHED && is_insert) {
      ErrorAt(action.offset, "INSERT is only allowed in WHEN NOT MATCHED [BY TARGET]; use UPDATE or DELETE here");
    }
    if (clause.match == MergeMatch::NOT_MATCHED_BY_SOURCE && clause.action == MergeAction::UPDATE_STAR) {
      ErrorAt(action.offset, "UPDATE SET * is not allowed in WHEN NOT MATCHED BY SOURCE (there is no source row)");
    }
    statement->clauses.push_back(std::move(clause));
  }
  return statement;
}

}  // namespace lakestream
