#include "parser/parser_impl.hpp"
#include "parser/secret_statement.hpp"

namespace lakestream {

// Looks ahead without consuming: CREATE [OR REPLACE] [PERSISTENT|TEMPORARY]
// SECRET, DROP [PERSISTENT|TEMPORARY] SECRET, SHOW SECRETS.
bool ParserImpl::IsSecretStatement() const {
  size_t k = 1;
  if (IsKeyword("SHOW")) return IsKeyword("SECRETS", 1);
  if (IsKeyword("CREATE")) {
    if (IsKeyword("OR", 1) && IsKeyword("REPLACE", 2)) k = 3;
  } else if (!IsKeyword("DROP")) {
    return false;
  }
  if (IsKeyword("PERSISTENT", k) || IsKeyword("TEMPORARY", k) || IsKeyword("TEMP", k)) k++;
  return IsKeyword("SECRET", k);
}

std::unique_ptr<SQLStatement> ParserImpl::ParseSecretStatement() {
  auto statement = std::make_unique<SecretStatement>();
  if (AcceptKeyword("SHOW")) {
    ExpectKeyword("SECRETS");
    statement->action = SecretAction::SHOW;
    return statement;
  }
  if (AcceptKeyword("DROP")) {
    statement->action = SecretAction::DROP;
  } else {
    ExpectKeyword("CREATE");
    statement->or_replace = AcceptKeywords({"OR", "REPLACE"});
  }
  if (AcceptKeyword("PERSISTENT")) {
    statement->persistent = true;
  } else if (AcceptKeyword("TEMPORARY") || AcceptKeyword("TEMP")) {
    statement->persistent = false;
  }
  ExpectKeyword("SECRET");
  if (statement->action == SecretAction::DROP) {
    statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
    statement->name = ParseIdentifier("a secret name");
    return statement;
  }
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseIdentifier("a secret name");
  if (!IsOp("(")) SyntaxError(Peek(), "expected '(TYPE kafka, ...)' or '(TYPE s3, ...)' after the secret name");
  // DuckDB's form: key value pairs, '=' optional (TYPE s3, KEY_ID 'x').
  statement->options = ParsePropertyList(true);
  return statement;
}

}  // namespace lakestream
