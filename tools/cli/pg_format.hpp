// How `lakestream serve` presents lakestream values and errors to Postgres
// clients (docs/server.md): type OIDs, text output formats, SQLSTATEs and
// command tags.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lakestream/column_view.hpp"
#include "lakestream/result.hpp"
#include "lakestream/value.hpp"

namespace lakestream::pg {

// An error the server itself reports (not the engine's), with its SQLSTATE.
class SqlError : public std::runtime_error {
 public:
  SqlError(std::string sqlstate, const std::string& message)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& SqlState() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// Postgres type OIDs used on the wire.
enum Oid : int32_t {
  kUnspecified = 0,
  kBool = 16,
  kBytea = 17,
  kInt8 = 20,
  kInt2 = 21,
  kInt4 = 23,
  kText = 25,
  kJson = 114,
  kFloat4 = 700,
  kFloat8 = 701,
  kVarchar = 1043,
  kDate = 1082,
  kTimestamp = 1114,
  kTimestamptz = 1184,
  kNumeric = 1700,
};

// The OID a column of `type` is announced as: STRUCT, LIST and MAP are json
// (their values are sent as JSON text); INTERVAL is text (lakestream's
// spelling is not Postgres's).
int32_t OidOf(const ColumnType& type);
// Type size for RowDescription (-1 for variable width).
int16_t TypeSizeOf(int32_t oid);
// Type modifier for RowDescription: numeric(p,s) as Postgres encodes it, else -1.
int32_t TypeModOf(const ColumnType& type);

// Appends the Postgres text output of row `row` of `column` (not NULL):
// booleans t/f, floats shortest round-trip with Infinity/NaN, timestamps
// 'YYYY-MM-DD HH:MM:SS[.ffffff]' (timestamptz with +00: the server's
// TimeZone is UTC), nested values as JSON.
void AppendText(const ColumnView& column, idx_t row, std::string* out);

// Appends the Postgres binary output of row `row` of `column` (not NULL)
// for the OID OidOf announces: big-endian integers and float8, dates and
// timestamps counted from 2000-01-01, numeric in base-10000 digits, json and
// text as their bytes.
void AppendBinary(const ColumnView& column, idx_t row, std::string* out);

// A text (or, for the types noted in docs/server.md, binary) parameter as
// the value the engine binds; `oid` is the type the client declared (0:
// unspecified, bound as VARCHAR and cast by the engine where the statement
// needs another type). Throws std::invalid_argument naming the problem.
SqlValue ParameterValue(int32_t oid, bool binary, const std::string& bytes);

// The SQLSTATE for a failed statement.
std::string SqlStateOf(ErrorKind kind, const std::string& message);

// The leading keywords of a statement, upper-cased ("CREATE TABLE" for
// "create or replace table t ...", "SELECT" for "(select 1)", "WITH" ...).
std::string LeadingKeywords(const std::string& sql, int count);

// What CommandComplete says for a statement whose leading keyword is
// `keyword` (LeadingKeywords(sql, 1)): rows is the rows returned or changed.
// Returns "" when the statement is a query (then "SELECT n").
bool IsRowChangeStatement(const std::string& keyword);
std::string CommandTag(const std::string& sql, const QueryResult& result, int64_t rows);

}  // namespace lakestream::pg
