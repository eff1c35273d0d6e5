// The statements Postgres clients send about the server rather than the
// data, answered by `lakestream serve` itself (docs/server.md): SET/SHOW of
// Postgres session settings, version(), and the pg_catalog query behind
// psql's \dt. Everything else goes to the engine.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "lakestream/connection.hpp"
#include "lakestream/result.hpp"

namespace lakestream::pg {

// Postgres settings of one session, by lower-case name (server_version,
// client_encoding, datestyle, timezone, application_name, ...).
class SessionSettings {
 public:
  SessionSettings(const std::string& user, bool read_only);
  // The settings announced by ParameterStatus after authentication, with
  // their Postgres spelling.
  std::map<std::string, std::string> Reported() const;
  const std::map<std::string, std::string>& All() const { return values_; }
  std::string& operator[](const std::string& lower_name) { return values_[lower_name]; }

 private:
  std::map<std::string, std::string> values_;
};

// The server's version() string and server_version setting.
extern const char* const kServerVersion;

// The answer to `sql` when it is one of the statements above, with
// CommandComplete's tag in *tag; nullptr when the engine should run it.
// A SET of a Postgres setting the server cannot honour (a client_encoding
// other than UTF8) throws SqlError.
std::unique_ptr<QueryResult> AnswerClientQuery(Connection& connection, const std::string& sql,
                                               SessionSettings& settings, std::string* tag);

// information_schema.schemata, .tables and .columns (every schema; main as
// public): when `sql` reads them, their rows are registered on `connection`
// (Connection::RegisterTable, a snapshot of the catalog now) and the text
// returned names those tables instead, so the client's own filters, joins and
// order run in the engine. Any other text is returned as it is.
std::string WithInformationSchema(Connection& connection, const std::string& sql, const SessionSettings& settings);

}  // namespace lakestream::pg
