// CREATE / DROP SECRET, SHOW SECRETS and the table functions
// lakestream_secrets() and which_secret() (docs/secrets.md).
#pragma once

#include <memory>

namespace lakestream {

class ClientContext;
class QueryResult;
class TableFunctionRegistry;
struct SQLStatement;

std::unique_ptr<QueryResult> ExecuteSecretStatement(ClientContext& context, SQLStatement& raw);
void RegisterSecretTableFunctions(TableFunctionRegistry& registry);
// Does the statement change the database folder (a PERSISTENT secret)?
bool SecretStatementWrites(const SQLStatement& raw);

}  // namespace lakestream
