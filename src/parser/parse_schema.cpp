// CREATE SCHEMA, DROP SCHEMA and USE (docs/sql-schemas.md).
#include "parser/parser_impl.hpp"

namespace lakestream {

bool ParserImpl::IsSchemaStatement() {
  if (IsKeyword("USE")) return true;
  if (!IsKeyword("CREATE") && !IsKeyword("DROP")) return false;
  return IsKeyword("SCHEMA", 1) || IsKeyword("DATABASE", 1);
}

std::unique_ptr<SQLStatement> ParserImpl::ParseSchemaStatement() {
  auto statement = std::make_unique<SchemaStatement>();
  if (AcceptKeyword("USE")) {
    statement->action = SchemaAction::USE;
    if (!AcceptKeyword("SCHEMA")) AcceptKeyword("DATABASE");
    statement->name = ParseQualifiedName("a schema name");
    return statement;
  }
  if (AcceptKeyword("CREATE")) {
    statement->action = SchemaAction::CREATE;
  } else {
    ExpectKeyword("DROP");
    statement->action = SchemaAction::DROP;
  }
  if (!AcceptKeyword("SCHEMA")) ExpectKeyword("DATABASE");
  if (statement->action == SchemaAction::CREATE) {
    statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  } else {
    statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
  }
  statement->name = ParseQualifiedName("a schema name");
  if (statement->action == SchemaAction::DROP) {
    if (AcceptKeyword("CASCADE")) {
      statement->cascade = true;
    } else {
      AcceptKeyword("RESTRICT");  // the default: refused while the schema holds objects
    }
  }
  return statement;
}

}  // namespace lakestream
