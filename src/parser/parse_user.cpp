// CREATE / ALTER / DROP USER and SHOW USERS: `lakestream serve`'s users,
// which are secrets of type pg_user (parser/secret_statement.hpp).
#include "parser/parser_impl.hpp"
#include "parser/secret_statement.hpp"

namespace lakestream {

bool ParserImpl::IsUserStatement() const {
  if (IsKeyword("SHOW")) return IsKeyword("USERS", 1);
  return (IsKeyword("CREATE") || IsKeyword("ALTER") || IsKeyword("DROP")) && IsKeyword("USER", 1);
}

std::unique_ptr<SQLStatement> ParserImpl::ParseUserStatement() {
  auto statement = std::make_unique<SecretStatement>();
  statement->user = true;
  if (AcceptKeyword("SHOW")) {
    ExpectKeyword("USERS");
    statement->action = SecretAction::SHOW;
    return statement;
  }
  if (AcceptKeyword("DROP")) {
    ExpectKeyword("USER");
    statement->action = SecretAction::DROP;
    statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
    statement->name = ParseIdentifier("a user name");
    return statement;
  }
  if (AcceptKeyword("ALTER")) {
    statement->action = SecretAction::ALTER;
  } else {
    ExpectKeyword("CREATE");
  }
  ExpectKeyword("USER");
  if (statement->action == SecretAction::CREATE) statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseIdentifier("a user name");
  statement->options.emplace_back("type", "pg_user");
  AcceptKeyword("WITH");
  while (!AtStatementEnd()) {
    if (AcceptKeyword("PASSWORD")) {
      statement->options.emplace_back("password", ParseStringLiteral("a password"));
    } else if (AcceptKeywords({"READ", "ONLY"})) {
      statement->options.emplace_back("role", "read_only");
    } else if (AcceptKeywords({"READ", "WRITE"})) {
      statement->options.emplace_back("role", "read_write");
    } else {
      SyntaxError(Peek(), "a user takes PASSWORD 'p', READ ONLY or READ WRITE");
    }
  }
  return statement;
}

}  // namespace lakestream
