// CREATE / DROP SECRET, SHOW SECRETS, lakestream_secrets() and which_secret().
#include <algorithm>
#include <cctype>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table_function.hpp"
#include "common/secret/secret.hpp"
#include "connector/secret_use.hpp"
#include "main/secret/secret_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "parser/secret_statement.hpp"
#include "transaction/client_context.hpp"
#include "lakestream/scram.hpp"

namespace lakestream {

namespace {

const std::vector<std::string> kS3Keys = {"key_id",   "secret",  "region", "session_token", "endpoint",
                                         "url_style", "use_ssl", "allow_unsafe_rename"};

void CheckSecretName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 128 && !StringUtil::StartsWith(StringUtil::Lower(name), "__sink_");
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok) {
    throw InvalidInputError("Secret name '" + name + "' is not allowed: use letters, digits and '_' (at most 128), "
                            "not starting with __sink_ (the names of the secrets sinks keep their credentials in)");
  }
}

// A server user (CREATE USER, docs/server.md) is a secret of this type whose
// values are its SCRAM verifier (never the password) and its role.
const char* const kUserType = "pg_user";

std::string UserWhat(const std::string& name) { return "User " + name; }

// PASSWORD becomes the verifier ('SCRAM-SHA-256$...' given as the password
// is taken as one, as PostgreSQL does); ROLE is read_only or read_write.
std::pair<std::string, std::string> UserValue(const std::string& name, const std::string& key, const std::string& value) {
  if (key == "password") {
    if (value.empty()) {
      throw InvalidInputError(UserWhat(name) + ": the password is empty; give one (PASSWORD '...')");
    }
    if (StringUtil::StartsWith(value, "SCRAM-SHA-256$")) {
      if (!ParseScramVerifier(value)) {
        throw InvalidInputError(UserWhat(name) + ": the password looks like a SCRAM verifier but is malformed; "
                                "expected SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, as "
                                "`lakestream serve --scram-verifier` prints");
      }
      return {"verifier", value};
    }
    return {"verifier", FormatScramVerifier(MakeScramVerifier(value))};
  }
  if (key == "role") {
    std::string role = StringUtil::Lower(value);
    if (role != "read_only" && role != "read_write") {
      throw InvalidInputError(UserWhat(name) + ": unknown ROLE '" + value + "'; the roles are read_only and read_write");
    }
    return {"role", role};
  }
  throw InvalidInputError(UserWhat(name) + ": unknown pg_user key '" + key +
                          "'; a user takes PASSWORD and ROLE ('read_only' or 'read_write')");
}

void CheckUser(const SecretStatement& statement, Secret& secret) {
  if (!secret.scope.empty()) throw InvalidInputError(UserWhat(secret.name) + ": a user has no SCOPE; remove it");
  bool has_password = false;
  bool has_role = false;
  for (auto& [k, v] : secret.values) {
    has_password = has_password || k == "verifier";
    has_role = has_role || k == "role";
  }
  if (!has_password && statement.action == SecretAction::CREATE) {
    throw InvalidInputError(UserWhat(secret.name) + ": no password; write CREATE USER " + secret.name +
                            " PASSWORD '...' (clients log in by SCRAM-SHA-256)");
  }
  if (!has_role && statement.action == SecretAction::CREATE) secret.values.emplace_back("role", "read_write");
}

Secret BuildSecret(const SecretStatement& statement) {
  Secret secret;
  secret.name = statement.name;
  secret.persistent = statement.persistent.value_or(false);  // DuckDB: temporary unless PERSISTENT
  for (auto& [key, value] : statement.options) {
    if (StringUtil::CIEquals(key, "type")) secret.type = StringUtil::Lower(value);
  }
  if (secret.type.empty()) {
    throw InvalidInputError("Secret " + secret.name + ": TYPE is missing; write CREATE SECRET " + secret.name +
                            " (TYPE kafka, 'sasl.username' '...', 'sasl.password' '...') or (TYPE s3, KEY_ID '...', "
                            "SECRET '...')");
  }
  if (secret.type != "kafka" && secret.type != "s3" && secret.type != kUserType) {
    throw InvalidInputError("Secret " + secret.name + ": unknown TYPE '" + secret.type +
                            "'; the types are kafka, s3 and pg_user");
  }
  for (auto& [raw_key, value] : statement.options) {
    std::string key = StringUtil::Lower(raw_key);
    if (key == "type") continue;
    if (key == "scope") {
      secret.scope.push_back(value);
      continue;
    }
    for (auto& [k, v] : secret.values) {
      if (StringUtil::CIEquals(k, raw_key)) {
        throw InvalidInputError("Secret " + secret.name + ": '" + raw_key + "' is given twice; keep one");
      }
    }
    if (secret.type == kUserType) {
      secret.values.emplace_back(UserValue(secret.name, key, value));
    } else if (secret.type == "s3") {
      if (std::find(kS3Keys.begin(), kS3Keys.end(), key) == kS3Keys.end()) {
        throw InvalidInputError("Secret " + secret.name + ": unknown s3 key '" + raw_key + "'; s3 secrets take " +
                                StringUtil::Join(kS3Keys, ", ") + " and scope");
      }
      secret.values.emplace_back(key, value);
    } else {
      CheckKafkaCredential("Secret " + secret.name, raw_key, value);
      secret.values.emplace_back(raw_key, value);
    }
  }
  if (secret.type == kUserType) CheckUser(statement, secret);
  return secret;
}

Value ScopeValue(const Secret& s) { return Value(StringUtil::Join(s.scope, ",")); }

// DuckDB's secret_string: name=...;type=...;key=value;... with sensitive values redacted.
std::string SecretString(const Secret& s) {
  std::string out = "name=" + s.name + ";type=" + s.type;
  for (auto& [k, v] : s.values) out += ";" + k + "=" + ShownValue(s.type, k, v);
  return out;
}

const std::vector<std::string> kListNames = {"name", "type", "persistent", "storage", "scope", "owner", "secret_string"};
const std::vector<LogicalType> kListTypes = {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::BOOLEAN, TypeId::VARCHAR,
                                             TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR};

std::vector<Value> ListRow(const Secret& s) {
  return {Value(s.name),          Value(s.type),
          Value::BOOLEAN(s.persistent), Value(s.persistent ? "local_file" : "memory"),
          ScopeValue(s),          s.owner_sink.empty() ? Value(LogicalType(TypeId::VARCHAR)) : Value(s.owner_sink),
          Value(SecretString(s))};
}

TableFunctionBinding RowsBinding(std::vector<std::string> names, std::vector<LogicalType> types,
                                 const std::vector<std::vector<Value>>& rows, const std::string& name) {
  ChunkCollection collection(types);
  DataChunk chunk;
  chunk.Initialize(types);
  idx_t n = 0;
  for (auto& row : rows) {
    for (idx_t c = 0; c < row.size(); c++) chunk.SetValue(c, n, row[c]);
    if (++n == STANDARD_VECTOR_SIZE) {
      chunk.SetCardinality(n);
      collection.Append(chunk);
      chunk.Reset();
      n = 0;
    }
  }
  chunk.SetCardinality(n);
  if (n > 0) collection.Append(chunk);
  auto shared = std::make_shared<const ChunkCollection>(std::move(collection));
  TableFunctionBinding binding;
  binding.names = std::move(names);
  binding.types = std::move(types);
  binding.factory = [shared, name](const std::vector<idx_t>& projected) {
    return MakeCollectionSource(shared, projected, name);
  };
  return binding;
}

const std::vector<std::string> kUserNames = {"name", "read_only", "persistent", "storage"};
const std::vector<LogicalType> kUserTypes = {TypeId::VARCHAR, TypeId::BOOLEAN, TypeId::BOOLEAN, TypeId::VARCHAR};

std::vector<std::vector<Value>> UserRows(SecretManager& secrets) {
  std::vector<std::vector<Value>> rows;
  for (auto& s : secrets.List()) {
    if (s.type != kUserType) continue;
    bool read_only = false;
    for (auto& [k, v] : s.values) read_only = read_only || (k == "role" && v == "read_only");
    rows.push_back({Value(s.name), Value::BOOLEAN(read_only), Value::BOOLEAN(s.persistent),
                    Value(s.persistent ? "local_file" : "memory")});
  }
  return rows;
}

std::optional<Secret> FindUser(SecretManager& secrets, const std::string& name) {
  auto found = secrets.Find(name);
  if (found && found->type != kUserType) {
    throw CatalogError("Secret " + found->name + " is a " + found->type + " secret, not a user; a user and a secret " +
                       "may not share a name: pick another user name");
  }
  return found;
}

// CREATE / ALTER / DROP USER, SHOW USERS. A user is persistent in a database
// folder (every process that serves it knows the user), temporary in memory.
std::unique_ptr<QueryResult> ExecuteUserStatement(SecretManager& secrets, SecretStatement& statement) {
  if (statement.action == SecretAction::SHOW) return MakeRowsResult(kUserNames, kUserTypes, UserRows(secrets));
  auto existing = FindUser(secrets, statement.name);
  if (statement.action == SecretAction::DROP) {
    if (existing) {
      secrets.Drop(statement.name, std::nullopt);
    } else if (!statement.if_exists) {
      throw CatalogError(UserWhat(statement.name) + " does not exist; SHOW USERS lists the users (DROP USER IF EXISTS " +
                         "ignores a missing one)");
    }
    return MakeEmptyResult();
  }
  CheckSecretName(statement.name);
  Secret secret = BuildSecret(statement);
  if (statement.action == SecretAction::ALTER) {
    if (!existing) {
      throw CatalogError(UserWhat(statement.name) + " does not exist; CREATE USER " + statement.name +
                         " PASSWORD '...' makes it");
    }
    if (secret.values.empty()) {
      throw InvalidInputError("ALTER USER " + statement.name + " changes nothing; give PASSWORD '...', READ ONLY or "
                              "READ WRITE");
    }
    Secret altered = *existing;
    for (auto& [k, v] : secret.values) {
      bool replaced = false;
      for (auto& [ek, ev] : altered.values) {
        if (ek == k) {
          ev = v;
          replaced = true;
        }
      }
      if (!replaced) altered.values.emplace_back(k, v);
    }
    secrets.Create(altered, true);
    return MakeEmptyResult();
  }
  if (existing) {
    if (statement.if_not_exists) return MakeEmptyResult();
    throw CatalogError(UserWhat(existing->name) + " already exists; ALTER USER " + existing->name +
                       " PASSWORD '...' changes its password (DROP USER " + existing->name + " removes it)");
  }
  secret.persistent = !secrets.StoreDir().empty();
  secrets.Create(secret, false);
  return MakeEmptyResult();
}

}  // namespace

std::unique_ptr<QueryResult> ExecuteSecretStatement(ClientContext& context, SQLStatement& raw) {
  auto& statement = static_cast<SecretStatement&>(raw);
  SecretManager& secrets = context.Database().Secrets();
  if (statement.user) return ExecuteUserStatement(secrets, statement);
  if (statement.action == SecretAction::SHOW) {
    std::vector<std::vector<Value>> rows;
    for (auto& s : secrets.List()) rows.push_back(ListRow(s));
    return MakeRowsResult(kListNames, kListTypes, rows);
  }
  if (statement.action == SecretAction::DROP) {
    // A sink's own secret goes with the sink; one whose sink is gone (a crash between the two) may be dropped.
    auto found = secrets.Find(statement.name);
    if (found && !found->owner_sink.empty() && context.GetCatalog().FindSink(found->owner_sink)) {
      throw InvalidInputError("Secret " + found->name + " holds the credentials of sink " + found->owner_sink +
                              " and goes with it: DROP SINK " + found->owner_sink + ", or ALTER SINK " +
                              found->owner_sink + " SET ('secret' = '<another secret>')");
    }
    if (!secrets.Drop(statement.name, statement.persistent) && !statement.if_exists) {
      std::string kind = !statement.persistent ? "" : *statement.persistent ? " as a persistent secret" : " as a temporary secret";
      throw CatalogError("Secret " + statement.name + " does not exist" + kind +
                         "; SHOW SECRETS lists the secrets (use DROP SECRET IF EXISTS to ignore a missing one)");
    }
    return MakeEmptyResult();
  }
  CheckSecretName(statement.name);
  Secret secret = BuildSecret(statement);
  if (auto existing = secrets.Find(statement.name)) {
    if (statement.if_not_exists) return MakeEmptyResult();
    if (existing->persistent != secret.persistent) {
      throw CatalogError("Secret " + existing->name + " already exists as a " +
                         (existing->persistent ? "persistent" : "temporary") + " secret; DROP SECRET " +
                         existing->name + " first or pick another name");
    }
  }
  secrets.Create(secret, statement.or_replace);
  return MakeEmptyResult();
}

bool SecretStatementWrites(const SQLStatement& raw) {
  auto& statement = static_cast<const SecretStatement&>(raw);
  if (statement.action == SecretAction::SHOW) return false;
  if (statement.user) return true;  // users of a database folder are persistent
  // DROP SECRET without a kind may remove a persistent one.
  return statement.persistent.value_or(statement.action == SecretAction::DROP);
}

void RegisterSecretTableFunctions(TableFunctionRegistry& registry) {
  registry.Register("lakestream_secrets", [](ClientContext& context, const std::string&, const std::vector<Value>& args,
                                             const std::vector<std::string>&) {
    if (!args.empty()) throw BinderError("lakestream_secrets() takes no arguments");
    std::vector<std::vector<Value>> rows;
    for (auto& s : context.Database().Secrets().List()) rows.push_back(ListRow(s));
    return RowsBinding(kListNames, kListTypes, rows, "LAKESTREAM_SECRETS");
  });
  registry.Register("lakestream_users", [](ClientContext& context, const std::string&, const std::vector<Value>& args,
                                           const std::vector<std::string>&) {
    if (!args.empty()) throw BinderError("lakestream_users() takes no arguments");
    return RowsBinding(kUserNames, kUserTypes, UserRows(context.Database().Secrets()), "LAKESTREAM_USERS");
  });
  registry.Register("which_secret", [](ClientContext& context, const std::string&, const std::vector<Value>& args,
                                       const std::vector<std::string>& names) {
    if (args.size() != 2 || !names[0].empty() || !names[1].empty() || args[0].IsNull() || args[1].IsNull() ||
        args[0].type().id() != TypeId::VARCHAR || args[1].type().id() != TypeId::VARCHAR) {
      throw BinderError("which_secret() takes a path or server and a secret type, e.g. "
                        "which_secret('s3://bucket/file.parquet', 's3')");
    }
    std::vector<std::vector<Value>> rows;
    if (auto s = context.Database().Secrets().Which(args[0].GetString(), StringUtil::Lower(args[1].GetString()))) {
      rows.push_back({Value(s->name), Value::BOOLEAN(s->persistent), Value(s->persistent ? "local_file" : "memory")});
    }
    return RowsBinding({"name", "persistent", "storage"}, {TypeId::VARCHAR, TypeId::BOOLEAN, TypeId::VARCHAR}, rows,
                       "WHICH_SECRET");
  });
}

}  // namespace lakestream
