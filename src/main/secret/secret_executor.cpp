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
  if (secret.type != "kafka" && secret.type != "s3") {
    throw InvalidInputError("Secret " + secret.name + ": unknown TYPE '" + secret.type + "'; the types are kafka and s3");
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
    if (secret.type == "s3") {
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

}  // namespace

std::unique_ptr<QueryResult> ExecuteSecretStatement(ClientContext& context, SQLStatement& raw) {
  auto& statement = static_cast<SecretStatement&>(raw);
  SecretManager& secrets = context.Database().Secrets();
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
