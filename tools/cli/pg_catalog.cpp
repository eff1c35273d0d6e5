#include "pg_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

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

// SET [SESSION | LOCAL] name {= | TO} value, SET TIME ZONE value, SET NAMES value.
std::unique_ptr<QueryResult> AnswerSet(const std::string& sql, const std::string& norm, SessionSettings& settings,
                                       std::string* tag) {
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

// psql's \dt [pattern]: tables from SHOW TABLES, filtered by the pattern psql
// turned into a regular expression.
std::unique_ptr<QueryResult> AnswerListTables(Connection& connection, const std::string& sql,
                                              const SessionSettings& settings) {
  static const RE2 kPattern(R"(c\.relname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)')");
  std::string pattern;
  std::unique_ptr<RE2> filter;
  if (RE2::PartialMatch(sql, kPattern, &pattern)) filter = RelnameFilter(pattern);
  auto tables = connection.Query("SHOW TABLES");
  if (tables->HasError()) return tables;
  std::vector<std::vector<SqlValue>> rows;
  for (idx_t r = 0; r < tables->RowCount(); r++) {
    std::string name = tables->GetValue(0, r).ToString();
    if (filter && !RE2::PartialMatch(name, *filter)) continue;
    rows.push_back({SqlValue::Varchar("public"), SqlValue::Varchar(name), SqlValue::Varchar("table"),
                    SqlValue::Varchar(settings.All().at("session_authorization"))});
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a[1].GetString() < b[1].GetString(); });
  return MakeTableResult({"Schema", "Name", "Type", "Owner"},
                         {TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::VARCHAR, TypeKind::VARCHAR}, rows);
}

// Tables get the oids 16384, 16385, ... in name order, as psql's \d looks
// them up by oid after finding them by name.
constexpr int64_t kFirstTableOid = 16384;

std::vector<std::string> TableNames(Connection& connection) {
  auto tables = connection.Query("SHOW TABLES");
  std::vector<std::string> names;
  if (tables->HasError()) return names;
  for (idx_t r = 0; r < tables->RowCount(); r++) names.push_back(tables->GetValue(0, r).ToString());
  std::sort(names.begin(), names.end());
  return names;
}

std::string TableOfOid(Connection& connection, const std::string& oid_text) {
  auto names = TableNames(connection);
  int64_t index = std::strtoll(oid_text.c_str(), nullptr, 10) - kFirstTableOid;
  if (index < 0 || index >= static_cast<int64_t>(names.size())) return "";
  return names[static_cast<size_t>(index)];
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
  static const RE2 kByName(R"(c\.relname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)')");
  static const RE2 kByOid(R"([a-z_.]+ = '(\d+)')");
  std::string pattern;
  if (norm.rfind("select c.oid, n.nspname, c.relname from pg_catalog.pg_class c", 0) == 0 &&
      RE2::PartialMatch(sql, kByName, &pattern)) {
    std::unique_ptr<RE2> filter = RelnameFilter(pattern);
    auto names = TableNames(connection);
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < names.size(); i++) {
      if (RE2::PartialMatch(names[i], *filter)) rows.push_back({std::to_string(kFirstTableOid + static_cast<int64_t>(i)), "public", names[i]});
    }
    return Strings({"oid", "nspname", "relname"}, rows);
  }
  std::string oid;
  if (!RE2::PartialMatch(sql, kByOid, &oid)) return nullptr;
  std::string table = TableOfOid(connection, oid);
  if (norm.rfind("select c.relchecks, c.relkind", 0) == 0) {
    std::vector<std::vector<std::string>> rows;
    if (!table.empty()) rows.push_back({"0", "r", "f", "f", "f", "f", "f", "f", "f", "", "0", "", "p", "d", "heap"});
    return Strings({"relchecks", "relkind", "relhasindex", "relhasrules", "relhastriggers", "relrowsecurity",
                    "relforcerowsecurity", "relhasoids", "relispartition", "reloptions", "reltablespace", "reloftype",
                    "relpersistence", "relreplident", "amname"},
                   rows);
  }
  if (norm.rfind("select a.attname,", 0) == 0 && norm.find("from pg_catalog.pg_attribute a") != std::string::npos) {
    std::vector<std::vector<std::string>> rows;
    if (!table.empty()) {
      auto described = connection.Query("DESCRIBE " + QuoteIdentifier(table));
      if (described->HasError()) return described;
      for (idx_t r = 0; r < described->RowCount(); r++) {
        std::string nullable = described->GetValue(2, r).ToString();
        rows.push_back({described->GetValue(0, r).ToString(), PgTypeName(described->GetValue(1, r).ToString()), "",
                        nullable == "NO" ? "t" : "f", "", "", ""});
      }
    }
    return Strings({"attname", "format_type", "default", "attnotnull", "attcollation", "attidentity", "attgenerated"},
                   rows);
  }
  if (norm.find("pg_catalog.") != std::string::npos) return Strings({"none"}, {});
  return nullptr;
}

}  // namespace

std::unique_ptr<QueryResult> AnswerClientQuery(Connection& connection, const std::string& sql,
                                               SessionSettings& settings, std::string* tag) {
  std::string norm = Normalize(sql);
  if (norm.rfind("set ", 0) == 0) return AnswerSet(sql, norm, settings, tag);
  if (norm.rfind("show ", 0) == 0) {
    std::string name = norm.substr(5);
    if (name == "time zone") name = "timezone";
    if (settings.All().count(name) == 0) return nullptr;
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
      norm.find("pg_table_is_visible") != std::string::npos && norm.find("as \"owner\"") != std::string::npos) {
    auto result = AnswerListTables(connection, sql, settings);
    if (!result->HasError()) *tag = "SELECT " + std::to_string(result->RowCount());
    return result;
  }
  // psql's \l: the one database this server serves, under the name the client connected with.
  if (norm.rfind("select d.datname as \"name\"", 0) == 0 && norm.find("from pg_catalog.pg_database d") != std::string::npos) {
    *tag = "SELECT 1";
    return Strings({"Name", "Owner", "Encoding", "Collate", "Ctype", "Access privileges"},
                   {{settings.All().at("database"), settings.All().at("session_authorization"), "UTF8", "C", "C", ""}});
  }
  // psql's \dn: one schema.
  if (norm.rfind("select n.nspname as \"name\"", 0) == 0 && norm.find("from pg_catalog.pg_namespace n") != std::string::npos) {
    *tag = "SELECT 1";
    return Strings({"Name", "Owner"}, {{"public", settings.All().at("session_authorization")}});
  }
  if (norm.find("pg_catalog.") != std::string::npos) {
    auto result = AnswerDescribe(connection, sql, norm);
    if (result && !result->HasError()) *tag = "SELECT " + std::to_string(result->RowCount());
    return result;
  }
  return nullptr;
}

}  // namespace lakestream::pg
