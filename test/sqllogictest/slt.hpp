// lakestream's sqllogictest runner: DuckDB's .test format, run against the
// public C++ API (Database, Connection, QueryResult).
//
// Supported records (blank lines separate records; '#' lines between records
// are comments):
//   statement ok|error|maybe [expected message part]
//   <sql lines>
//   [----
//    <expected message part, may span lines>]       (error/maybe only)
//
//   query <type letters> [rowsort|valuesort|nosort] [label]
//   <sql lines>
//   ----
//   <expected rows: values separated by tabs; NULL, (empty), true/false>
//
//   require <feature>      unknown feature -> the whole file is skipped
//   load <dir> [readonly]  reopen on a database directory (__TEST_DIR__ = a
//                          fresh temp dir per file, removed afterwards)
//   restart                reopen the current database (in memory: empty again)
//   loop <var> <from> <to> / foreach <var> <v1> <v2> ... / endloop
//                          ${var} substituted in SQL, expectations and paths
//   mode skip / mode unskip, halt, skipif <engine> / onlyif <engine>
//                          (this engine is "lakestream"), sleep (ignored)
//
// Results compare as text: Value::ToString for every cell, NULL as NULL, an
// empty string as (empty). The count of type letters must equal the result's
// column count; the letters themselves are not checked (as in DuckDB).
#pragma once

#include <string>
#include <vector>

namespace lakestream::slt {

enum class RecordKind {
  STATEMENT_OK,
  STATEMENT_ERROR,
  STATEMENT_MAYBE,
  QUERY,
  REQUIRE,
  LOAD,
  RESTART,
  LOOP,
  ENDLOOP,
  MODE_SKIP,
  MODE_UNSKIP,
  HALT,
  NOOP,  // sleep and other commands that need no action here
};

enum class SortMode { NONE, ROW, VALUE };

struct Record {
  RecordKind kind = RecordKind::NOOP;
  int line = 0;                        // 1-based line of the record's first line
  bool skip = false;                   // skipif/onlyif said not to run it
  std::string sql;                     // statement / query text (newlines kept)
  std::string types;                   // query: type letters
  SortMode sort = SortMode::NONE;      // query
  bool has_expected = false;           // a ---- line was present
  std::vector<std::string> expected;   // query rows / error message lines
  std::string argument;                // require feature, load path
  bool read_only = false;              // load ... readonly
  std::string loop_var;                // loop/foreach
  std::vector<std::string> loop_values;
  size_t loop_end = 0;                 // LOOP: index of the matching ENDLOOP
};

struct TestFile {
  std::string path;
  std::vector<Record> records;
};

// Parses the file at `path`. Returns false and sets `error` ("file:line:
// message") when the file cannot be read or holds a malformed record.
bool ParseTestFile(const std::string& path, TestFile& file, std::string& error);

struct RunOptions {
  bool verbose = false;    // print every record as it runs
  bool fail_fast = false;  // stop a file at its first failure
};

struct FileSummary {
  int queries = 0;
  int statements = 0;
  int failed = 0;
  int skipped = 0;
  bool skipped_file = false;  // require of a feature we do not have
  std::string skip_reason;
};

// Runs one parsed file in a fresh in-memory database, printing failures to
// stdout as it goes.
FileSummary RunTestFile(const TestFile& file, const RunOptions& options);

}  // namespace lakestream::slt
