// CREATE [OR REPLACE] [PERSISTENT | TEMPORARY] SECRET [IF NOT EXISTS] name (TYPE t, key value, ...)
// DROP [PERSISTENT | TEMPORARY] SECRET [IF EXISTS] name
// SHOW SECRETS
// (parse_secret.cpp), and the same for `lakestream serve`'s users, kept as
// secrets of type pg_user (parse_user.cpp, docs/server.md):
// CREATE USER [IF NOT EXISTS] name [WITH] option...   option := PASSWORD 'p' | READ ONLY | READ WRITE
// ALTER USER name [WITH] option...
// DROP USER [IF EXISTS] name
// SHOW USERS
// (executed by main/secret/secret_executor.cpp).
#pragma once

#include <optional>

#include "parser/ast.hpp"

namespace lakestream {

enum class SecretAction : uint8_t { CREATE, ALTER, DROP, SHOW };

struct SecretStatement : SQLStatement {
  SecretStatement() : SQLStatement(StatementType::SECRET) {}
  SecretAction action = SecretAction::CREATE;
  std::string name;
  // PERSISTENT (true), TEMPORARY (false) or neither said (nullopt): CREATE
  // then makes a temporary secret, DROP removes whichever exists.
  std::optional<bool> persistent;
  bool or_replace = false;
  bool if_not_exists = false;
  bool if_exists = false;
  PropertyList options;  // with TYPE and SCOPE among them, as written
  // Written as CREATE/ALTER/DROP USER or SHOW USERS: options are TYPE pg_user,
  // PASSWORD and ROLE; ALTER changes only the options given.
  bool user = false;
};

}  // namespace lakestream
