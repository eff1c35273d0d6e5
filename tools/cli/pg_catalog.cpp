#include "pg_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <re2/re2.h>

#include "lakestream/tools.hpp"
#include "pg_format.hpp"

namespace lakestream::pg {

const char* const kServerVersion = "16.0 (lakestream)";

SessionSettings::SessionSettings(const std::string& user, bool read_only) {
  values_ = {{"server_version", kServerVersion},
             {"server_version_num", "160000"},
             {"server_encoding", "UTF8"},
             {"client_encoding", "UTF8"},
             {"datestyle", "ISO, MDY"},
             {"intervalstyle", "postgres"},
             {"timezone", "UTC"},
             {"integer_datetimes", "on"},
             {"standard_conforming_strings", "on"},
             {"application_name", ""},
             {"extra_float_digits", "1"},
             {"search_path", "public"},
             {"is_superuser", "off"},
             {"session_authorization", user},
             {"default_transaction_read_only", read_only ? "on" : "off"},
             {"transaction_read_only", read_only ? "on" : "off"},
             {"transaction_isolation", "read committed"},
             {"max_identifier_length", "63"},
             {"statement_timeout", "0"},
             {"client_min_messages", "notice"},
             {"bytea_output", "hex"},
             {"lc_messages", "C"},
             {"lc_monetary", "C"},
             {"lc_numeric", "C"},
             {"lc_time", "C"},
             {"lock_timeout", "0"},
             {"idle_in_transaction_session_timeout", "0"},
             {"jit", "off"},
             {"database", ""}};
}

std::map<std::string, std::string> SessionSettings::Reported() const {
  static const std::pair<const char*, const char*> kReported[] = {
      {"server_version", "server_version"},
      {"server_encoding", "server_encoding"},
      {"client_encoding", "client_encoding"},
      {"datestyle", "DateStyle"},
      {"intervalstyle", "IntervalStyle"},
      {"timezone", "TimeZone"},
      {"integer_datetimes", "integer_datetimes"},
      {"standard_conforming_strings", "standard_conforming_strings"},
      {"application_name", "application_name"},
      {"is_superuser", "is_superuser"},
      {"session_authorization", "session_authorization"},
      {"default_transaction_read_only", "default_transaction_read_only"}};
  std::map<std::string, std::string> out;
  for (auto& [lower, spelled] : kReported) out[spelled] = values_.at(lower);
  return out;
}

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Lower case, whitespace runs as one space, no trailing ';' or space.
std::string Normalize(const std::string& sql) {
  std::string out;
  for (char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

std::string Unquote(std::string v) {
  v.erase(0, v.find_first_not_of(" \t\n\r"));
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return v;
}

std::unique_ptr<QueryResult> OneValue(const std::string& name, const std::string& value) {
  return MakeTableResult({name}, {TypeKind::VARCHAR}, {{SqlValue::Varchar(value)}});
}

std::unique_ptr<QueryResult> NoRows() { return MakeTableResult({}, {}, {}); }

std::string PgSchemaName(const std::string& schema) { return schema == "main" ? "public" : schema; }

// SET search_path: the engine resolves unqualified names in one schema (USE),
// so the path's first schema that exists becomes the current one ("$user"
// and pg_catalog are skipped, public is main). A path naming several
// existing schemas, or none, is refused: names would resolve elsewhere than
// the client means. Returns the path as SHOW search_path gives it.
std::string UseSearchPath(Connection& connection, const std::string& path) {
  std::vector<std::string> names;
  size_t start = 0;
  for (size_t comma = 0; comma != std::string::npos; start = comma + 1) {
    comma = path.find(',', start);
    std::string name = Unquote(path.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!name.empty() && name != "$user" && Lower(name) != "pg_catalog") names.push_back(name);
  }
  auto schemas = connection.Query("SHOW SCHEMAS");
  std::vector<std::string> existing;
  for (auto& name : names) {
    std::string schema = Lower(name) == "public" ? "main" : name;
    for (idx_t r = 0; !schemas->HasError() && r < schemas->RowCount(); r++) {
      if (schemas->GetValue(0, r).ToString() == schema) existing.push_back(schema);
    }
  }
  if (existing.empty()) {
    throw SqlError("3F000", "search_path " + path + " names no existing schema; create it first (CREATE SCHEMA " +
                                (names.empty() ? std::string("s") : names[0]) + ") or list one of SHOW SCHEMAS");
  }
  if (existing.size() > 1) {
    throw SqlError("0A000", "not supported yet: a search_path of several schemas (" + path +
                                "): lakestream resolves unqualified names in one schema; SET search_path = " +
                                PgSchemaName(existing[0]) + " and qualify the others' names (" +
                                PgSchemaName(existing[1]) + ".t)");
  }
  auto used = connection.Query("USE " + QuoteIdentifier(existing[0]));
  if (used->HasError()) throw SqlError(SqlStateOf(used->GetErrorKind(), used->GetError()), used->GetError());
  return PgSchemaName(existing[0]);
}

// SET [SESSION | LOCAL] name {= | TO} value, SET TIME ZONE value, SET NAMES value.
std::unique_ptr<QueryResult> AnswerSet(Connection& connection, const std::string& sql, const std::string& norm,
                                       SessionSettings& settings, std::string* tag) {
  // RE2, not std::regex: client text is untrusted, and RE2 matches in linear time without recursion.
  static const RE2 kSet(R"((?i)^\s*set\s+(?:session\s+|local\s+)?([a-z_][a-z0-9_.]*|time\s+zone|names)\s*(?:=|\s+to\s+|\s+)(.*)$)");
  if (norm.rfind("set session characteristics", 0) == 0 || norm.rfind("set transaction", 0) == 0) {
    *tag = "SET";
    return NoRows();
  }
  std::string raw_name, raw_value;
  if (!RE2::FullMatch(sql, kSet, &raw_name, &raw_value)) return nullptr;
  std::string name = Lower(raw_name);
  if (name.rfind("time", 0) == 0) name = "timezone";
  if (name == "names") name = "client_encoding";
  if (settings.All().count(name) == 0) return nullptr;  // a lakestream setting: the engine's
  std::string value = Unquote(raw_value);
  if (name == "client_encoding" && Lower(value) != "utf8" && Lower(value) != "utf-8" && Lower(value) != "unicode") {
    throw SqlError("0A000", "not supported yet: client_encoding " + value +
                               " (lakestream serve speaks UTF8 only); set the client's encoding to UTF8");
  }
  if (name == "search_path") value = UseSearchPath(connection, Unquote(raw_value));
  settings[name] = value;
  *tag = "SET";
  return NoRows();
}

// The regular expression psql made of a \dt / \d pattern, compiled by RE2:
// the pattern is the client's, so a bad one is an error of the statement,
// and none can take more than linear time.
std::unique_ptr<RE2> RelnameFilter(const std::string& pattern) {
  auto filter = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!filter->ok()) throw SqlError("2201B", "invalid regular expression " + pattern + ": " + filter->error());
  return filter;
}

// A table, view or materialized view of some schema, as the pg_catalog
// answers show it: the default schema `main` is Postgres's `public`.
struct Relation {
  std::string schema;  // as shown ("public" for main)
  std::string name;
  std::string type;    // "table", "view", "materialized view"
  std::string key;     // the name to give the engine (DESCRIBE), quoted
  std::string definition;  // a view's SQL
};

// The schemas, as shown, sorted (public for main).
std::vector<std::string> SchemaNames(Connection& connection) {
  auto schemas = connection.Query("SHOW SCHEMAS");
  std::vector<std::string> names;
  if (schemas->HasError()) return names;
  for (idx_t r = 0; r < schemas->RowCount(); r++) names.push_back(PgSchemaName(schemas->GetValue(0, r).ToString()));
  std::sort(names.begin(), names.end());
  return names;
}

// Every relation of every schema, sorted by (schema, name): the i-th gets
// the oid 16384 + i, as psql's \d looks a relation up by oid after finding
// it by name.
std::vector<Relation> Relations(Connection& connection) {
  std::vector<Relation> out;
  auto schemas = connection.Query("SHOW SCHEMAS");
  if (schemas->HasError()) return out;
  for (idx_t s = 0; s < schemas->RowCount(); s++) {
    std::string schema = schemas->GetValue(0, s).ToString();
    std::string in = " IN " + QuoteIdentifier(schema);
    std::map<std::string, std::pair<std::string, std::string>> kinds;  // name -> (kind, a view's definition)
    auto views = connection.Query("SHOW VIEWS" + in);
    for (idx_t r = 0; !views->HasError() && r < views->RowCount(); r++) {
      kinds[views->GetValue(0, r).ToString()] = {views->GetValue(1, r).ToString(), views->GetValue(2, r).ToString()};
    }
    auto tables = connection.Query("SHOW TABLES" + in);
    for (idx_t r = 0; !tables->HasError() && r < tables->RowCount(); r++) {
      kinds.emplace(tables->GetValue(0, r).ToString(), std::make_pair("table", ""));
    }
    for (auto& [name, kind] : kinds) {
      std::string key = schema == "main" ? QuoteIdentifier(name) : QuoteIdentifier(schema) + "." + QuoteIdentifier(name);
      out.push_back({PgSchemaName(schema), name, kind.first, key, kind.second});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Relation& a, const Relation& b) { return std::tie(a.schema, a.name) < std::tie(b.schema, b.name); });
  return out;
}

// The session's current schema as shown (USE s; public for main).
std::string CurrentSchemaName(Connection& connection) {
  auto current = connection.Query("SELECT current_schema()");
  if (current->HasError() || current->RowCount() == 0) return "public";
  return PgSchemaName(current->GetValue(0, 0).ToString());
}

// The regular expression psql made of a pattern for `column` (n.nspname,
// c.relname), or null when the query does not filter on it.
std::unique_ptr<RE2> PatternOf(const std::string& sql, const std::string& column) {
  RE2 pattern(RE2::QuoteMeta(column) + R"( OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)')");
  std::string text;
  if (!RE2::PartialMatch(sql, pattern, &text)) return nullptr;
  return RelnameFilter(text);
}

// The relations a psql list query (\dt, \dv, \dm, \d, \d name) asks for: its
// relkinds, its schema and name patterns, and without a schema pattern only
// the relations of the current schema (pg_table_is_visible), as Postgres
// shows those of the search path.
std::vector<Relation> Matching(Connection& connection, const std::string& sql, const std::string& norm) {
  std::unique_ptr<RE2> schema_filter = PatternOf(sql, "n.nspname");
  std::unique_ptr<RE2> name_filter = PatternOf(sql, "c.relname");
  bool visible_only = norm.find("pg_table_is_visible") != std::string::npos;
  std::string current = visible_only ? CurrentSchemaName(connection) : "";
  std::set<std::string> kinds;
  static const RE2 kRelkinds(R"(c\.relkind in \(([^)]*)\))");
  std::string list;
  bool any_kind = !RE2::PartialMatch(norm, kRelkinds, &list);
  if (list.find("'r'") != std::string::npos || list.find("'p'") != std::string::npos) kinds.insert("table");
  if (list.find("'v'") != std::string::npos) kinds.insert("view");
  if (list.find("'m'") != std::string::npos) kinds.insert("materialized view");
  std::vector<Relation> out;
  for (auto& relation : Relations(connection)) {
    if (!any_kind && !kinds.count(relation.type)) continue;
    if (visible_only && relation.schema != current) continue;
    if (schema_filter && !RE2::PartialMatch(relation.schema, *schema_filter)) continue;
    if (name_filter && !RE2::PartialMatch(relation.name, *name_filter)) continue;
    out.push_back(relation);
  }
  return out;
}

// psql's \dt, \dv, \dm, \d [pattern]: Schema, Name, Type, Owner.
std::unique_ptr<QueryResult> AnswerListRelations(Connection& connection, const std::string& sql, const std::string& norm,
                                                 const SessionSettings& settings) {
  std::vector<std::vector<SqlValue>> rows;
  for (auto& relation : Matching(connection, sql, norm)) {
    rows.push_back({SqlValue::Varchar(relation.schema), SqlValue::Varchar(relation.name), SqlValue::Varchar(relation.type),
                    SqlValue::Varchar(settings.All().at("session_authorization"))});
  }
  return MakeTableResult({"Schema", "Name", "Type", "Owner"},
                         {TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::VARCHAR}, rows);
}

constexpr int64_t kFirstTableOid = 16384;

std::optional<Relation> RelationOfOid(Connection& connection, const std::string& oid_text) {
  auto relations = Relations(connection);
  int64_t index = std::strtoll(oid_text.c_str(), nullptr, 10) - kFirstTableOid;
  if (index < 0 || index >= static_cast<int64_t>(relations.size())) return std::nullopt;
  return relations[static_cast<size_t>(index)];
}

// Whether row `row` of a DESCRIBE result is a NOT NULL column (a view's
// DESCRIBE has no `null` column: its columns may hold NULL).
bool NotNull(const QueryResult& described, idx_t row) {
  return described.ColumnCount() > 2 && described.GetValue(2, row).ToString() == "NO";
}

// lakestream's type spelling (DESCRIBE) as Postgres's format_type() spells it.
std::string PgTypeName(const std::string& type) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"BOOLEAN", "boolean"},  {"INTEGER", "integer"}, {"BIGINT", "bigint"},
      {"DOUBLE", "double precision"}, {"VARCHAR", "text"}, {"DATE", "date"},
      {"TIMESTAMP", "timestamp with time zone"}, {"TIMESTAMP_NTZ", "timestamp without time zone"},
      {"INTERVAL", "interval"}};
  for (auto& [ours, theirs] : kNames) {
    if (type == ours) return theirs;
  }
  if (type.rfind("DECIMAL", 0) == 0) return "numeric" + type.substr(7);
  return "json";  // STRUCT, LIST, MAP are sent as JSON text
}

std::unique_ptr<QueryResult> Strings(const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows) {
  std::vector<ColumnType> types(names.size(), TypeKind::VARCHAR);
  std::vector<std::vector<SqlValue>> values;
  for (auto& row : rows) {
    values.emplace_back();
    for (auto& cell : row) values.back().push_back(SqlValue::Varchar(cell));
  }
  return MakeTableResult(names, types, values);
}

// The queries psql 15's \d TABLE sends, in order: the table by name, its
// properties by oid, its columns by oid; the rest (indexes, policies,
// publications, inheritance, ...) have no lakestream counterpart and answer
// no rows.
std::unique_ptr<QueryResult> AnswerDescribe(Connection& connection, const std::string& sql, const std::string& norm) {
  static const RE2 kByOid(R"([a-z_.]+ = '(\d+)')");
  if (norm.rfind("select c.oid, n.nspname, c.relname from pg_catalog.pg_class c", 0) == 0 &&
      norm.find("c.relname operator(pg_catalog.~)") != std::string::npos) {
    std::vector<std::vector<std::string>> rows;
    auto all = Relations(connection);
    for (auto& relation : Matching(connection, sql, norm)) {
      size_t index = 0;
      while (index < all.size() && (all[index].schema != relation.schema || all[index].name != relation.name)) index++;
      rows.push_back({std::to_string(kFirstTableOid + static_cast<int64_t>(index)), relation.schema, relation.name});
    }
    return Strings({"oid", "nspname", "relname"}, rows);
  }
  // \d+ of a view: its definition.
  static const RE2 kViewDefinition(R"(^select pg_catalog\.pg_get_viewdef\('(\d+)')");
  std::string oid;
  if (RE2::PartialMatch(norm, kViewDefinition, &oid)) {
    std::optional<Relation> view = RelationOfOid(connection, oid);
    std::vector<std::vector<std::string>> rows;
    if (view) rows.push_back({view->definition});
    return Strings({"pg_get_viewdef"}, rows);
  }
  if (!RE2::PartialMatch(sql, kByOid, &oid)) return nullptr;
  std::optional<Relation> relation = RelationOfOid(connection, oid);
  std::string table = relation ? relation->key : "";
  if (norm.rfind("select c.relchecks, c.relkind", 0) == 0) {
    std::vector<std::vector<std::string>> rows;
    if (relation) {
      // psql heads the listing "Table", "View" or "Materialized view" by relkind.
      std::string relkind = relation->type == "view" ? "v" : relation->type == "materialized view" ? "m" : "r";
      rows.push_back({"0", relkind, "f", "f", "f", "f", "f", "f", "f", "", "0", "", "p", "d", relkind == "v" ? "" : "heap"});
    }
    return Strings({"relchecks", "relkind", "relhasindex", "relhasrules", "relhastriggers", "relrowsecurity",
                    "relforcerowsecurity", "relhasoids", "relispartition", "reloptions", "reltablespace", "reloftype",
                    "relpersistence", "relreplident", "amname"},
                   rows);
  }
  if (norm.rfind("select a.attname,", 0) == 0 && norm.find("from pg_catalog.pg_attribute a") != std::string::npos) {
    // \d+ asks for more columns after these, in this order, each only for some relkinds: psql reads them by position.
    std::vector<std::string> names = {"attname", "format_type", "default", "attnotnull", "attcollation", "attidentity",
                                      "attgenerated"};
    for (const char* verbose : {"attstorage", "attcompression", "attstattarget"}) {
      if (norm.find(std::string("a.") + verbose) != std::string::npos) names.emplace_back(verbose);
    }
    if (norm.find("col_description(") != std::string::npos) names.emplace_back("description");
    std::vector<std::vector<std::string>> rows;
    if (!table.empty()) {
      auto described = connection.Query("DESCRIBE " + table);
      if (described->HasError()) return described;
      for (idx_t r = 0; r < described->RowCount(); r++) {
        std::string type = PgTypeName(described->GetValue(1, r).ToString());
        std::vector<std::string> row = {described->GetValue(0, r).ToString(), type, "", NotNull(*described, r) ? "t" : "f",
                                        "", "", ""};
        for (size_t c = row.size(); c < names.size(); c++) {
          // Variable-length types are stored "extended" in Postgres, fixed-length ones "plain".
          bool varlena = type == "text" || type == "json" || type.rfind("numeric", 0) == 0;
          row.emplace_back(names[c] == "attstorage" ? (varlena ? "x" : "p") : "");
        }
        rows.push_back(std::move(row));
      }
    }
    return Strings(names, rows);
  }

  if (norm.find("pg_catalog.") != std::string::npos) return Strings({"none"}, {});
  return nullptr;
}

// A table of text columns (and ordinal_position as BIGINT) for the
// information_schema answers.
ColumnarTable TextTable(const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows) {
  ColumnarTable table;
  for (size_t c = 0; c < names.size(); c++) {
    if (names[c] == "ordinal_position") {
      std::vector<int64_t> values;
      values.reserve(rows.size());
      for (auto& row : rows) values.push_back(std::strtoll(row[c].c_str(), nullptr, 10));
      table.AddBigints(names[c], values.data(), nullptr, values.size());
      continue;
    }
    std::vector<std::string_view> values;
    values.reserve(rows.size());
    for (auto& row : rows) values.emplace_back(row[c]);
    table.AddStrings(names[c], values.data(), nullptr, values.size());
  }
  return table;
}

// information_schema.<name> -> the table registered for it on the session's connection.
constexpr const char* kInformationSchemaPrefix = "__pg_information_schema_";

}  // namespace

std::string WithInformationSchema(Connection& connection, const std::string& sql, const SessionSettings& settings) {
  static const RE2 kName(
      R"((?i)\binformation_schema\s*\.\s*(schemata|tables|columns|views|table_constraints|key_column_usage)\b)");
  std::set<std::string> wanted;
  re2::StringPiece input(sql);
  std::string name;
  while (RE2::FindAndConsume(&input, kName, &name)) wanted.insert(Lower(name));
  if (wanted.empty()) return sql;
  const std::string& catalog = settings.All().at("database");
  const std::string& owner = settings.All().at("session_authorization");
  if (wanted.count("schemata")) {
    std::vector<std::vector<std::string>> rows;
    for (auto& schema : SchemaNames(connection)) rows.push_back({catalog, schema, owner});
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "schemata",
                             TextTable({"catalog_name", "schema_name", "schema_owner"}, rows));
  }
  std::vector<Relation> relations = Relations(connection);
  if (wanted.count("tables")) {
    std::vector<std::vector<std::string>> rows;
    rows.reserve(relations.size());
    for (auto& r : relations) rows.push_back({catalog, r.schema, r.name, r.type == "table" ? "BASE TABLE" : "VIEW"});
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "tables",
                             TextTable({"table_catalog", "table_schema", "table_name", "table_type"}, rows));
  }
  if (wanted.count("columns")) {
    std::vector<std::vector<std::string>> rows;
    for (auto& r : relations) {
      auto described = connection.Query("DESCRIBE " + r.key);
      for (idx_t c = 0; !described->HasError() && c < described->RowCount(); c++) {
        rows.push_back({catalog, r.schema, r.name, described->GetValue(0, c).ToString(), std::to_string(c + 1),
                        PgTypeName(described->GetValue(1, c).ToString()),
                        NotNull(*described, c) ? "NO" : "YES"});
      }
    }
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "columns",
                             TextTable({"table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
                                        "data_type", "is_nullable"},
                                       rows));
  }
  if (wanted.count("views")) {
    std::vector<std::vector<std::string>> rows;
    for (auto& r : relations) {
      if (r.type != "table") rows.push_back({catalog, r.schema, r.name, r.definition, "NONE", "NO", "NO"});
    }
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "views",
                             TextTable({"table_catalog", "table_schema", "table_name", "view_definition", "check_option",
                                        "is_updatable", "is_insertable_into"},
                                       rows));
  }
  // lakestream tables declare no keys (a pipeline's KEYS belong to its flow): both views are empty, with
  // Postgres's columns, so that the key lookups of BI tools find none instead of failing.
  if (wanted.count("table_constraints")) {
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "table_constraints",
                             TextTable({"constraint_catalog", "constraint_schema", "constraint_name", "table_catalog",
                                        "table_schema", "table_name", "constraint_type", "is_deferrable",
                                        "initially_deferred", "enforced"},
                                       {}));
  }
  if (wanted.count("key_column_usage")) {
    connection.RegisterTable(std::string(kInformationSchemaPrefix) + "key_column_usage",
                             TextTable({"constraint_catalog", "constraint_schema", "constraint_name", "table_catalog",
                                        "table_schema", "table_name", "column_name", "ordinal_position"},
                                       {}));
  }
  std::string rewritten = sql;
  RE2::GlobalReplace(&rewritten, kName, std::string(kInformationSchemaPrefix) + "\\1");
  return rewritten;
}

std::unique_ptr<QueryResult> AnswerClientQuery(Connection& connection, const std::string& sql,
                                               SessionSettings& settings, std::string* tag) {
  std::string norm = Normalize(sql);
  if (norm.rfind("set ", 0) == 0) return AnswerSet(connection, sql, norm, settings, tag);
  if (norm.rfind("show ", 0) == 0) {
    std::string name = norm.substr(5);
    if (name == "time zone") name = "timezone";
    if (settings.All().count(name) == 0) return nullptr;
    if (name == "search_path") settings["search_path"] = CurrentSchemaName(connection);  // USE s changes it too
    *tag = "SHOW";
    return OneValue(name, settings.All().at(name));
  }
  if (norm == "select version()" || norm == "select pg_catalog.version()") {
    *tag = "SELECT 1";
    return OneValue("version", std::string("PostgreSQL ") + kServerVersion + ", lakestream " + LAKESTREAM_VERSION +
                                   " speaking the PostgreSQL wire protocol");
  }
  static const RE2 kCurrentSetting(R"(^select (?:pg_catalog\.)?current_setting\('([a-z_]+)'\)$)");
  std::string setting;
  if (norm.find("current_setting(") != std::string::npos && RE2::FullMatch(norm, kCurrentSetting, &setting) &&
      settings.All().count(setting)) {
    *tag = "SELECT 1";
    return OneValue("current_setting", settings.All().at(setting));
  }
  if (norm == "discard all" || norm.rfind("reset ", 0) == 0 || norm.rfind("deallocate ", 0) == 0) {
    *tag = LeadingKeywords(sql, 1);
    return NoRows();
  }
  if (norm.find("from pg_catalog.pg_class c") != std::string::npos && norm.find("c.relkind in (") != std::string::npos &&
      norm.find("as \"owner\"") != std::string::npos) {
    auto result = AnswerListRelations(connection, sql, norm, settings);
    if (!result->HasError()) *tag = "SELECT " + std::to_string(result->RowCount());
    return result;
  }
  // psql's \l: the one database this server serves, under the name the client connected with.
  if (norm.rfind("select d.datname as \"name\"", 0) == 0 && norm.find("from pg_catalog.pg_database d") != std::string::npos) {
    *tag = "SELECT 1";
    return Strings({"Name", "Owner", "Encoding", "Collate", "Ctype", "Access privileges"},
                   {{settings.All().at("database"), settings.All().at("session_authorization"), "UTF8", "C", "C", ""}});
  }
  // psql's \dn [pattern]: every schema (main as public).
  if (norm.rfind("select n.nspname as \"name\"", 0) == 0 && norm.find("from pg_catalog.pg_namespace n") != std::string::npos) {
    std::unique_ptr<RE2> filter = PatternOf(sql, "n.nspname");
    std::vector<std::vector<std::string>> rows;
    for (auto& schema : SchemaNames(connection)) {
      if (!filter || RE2::PartialMatch(schema, *filter)) rows.push_back({schema, settings.All().at("session_authorization")});
    }
    *tag = "SELECT " + std::to_string(rows.size());
    return Strings({"Name", "Owner"}, rows);
  }
  // psql's \dn and \d ask for publications: lakestream has none.
  if (norm.rfind("select pubname", 0) == 0 && norm.find("from pg_catalog.pg_publication p") != std::string::npos) {
    *tag = "SELECT 0";
    return Strings({"pubname"}, {});
  }
  if (norm.find("pg_catalog.") != std::string::npos) {
    auto result = AnswerDescribe(connection, sql, norm);
    if (result && !result->HasError()) *tag = "SELECT " + std::to_string(result->RowCount());
    return result;
  }
  return nullptr;
}

}  // namespace lakestream::pg
