// The lakestream side of a paired benchmark (see docs/benchmarks.md).
//
// A benchmark driver process speaks a line protocol on stdin/stdout, so that
// bench/lib/pairrun can interleave repetitions of lakestream and its peer while
// both keep their data loaded in memory:
//
//   run <label> <sql-file> [<result-file>]
//                            runs every statement of the file; replies
//                            "ok <seconds> <rows> <checksum>" (the result of the
//                            last statement) or "error <message>"; with a
//                            result file, also writes the result there (untimed,
//                            see WriteResult) for answer checks that need the
//                            values, not only the checksum (bench/tpch)
//   version                  replies "ok <version string>"
//   quit                     exits
//
// <seconds> covers Connection::Query until the result is fully materialised;
// the checksum is computed afterwards and is not timed. The checksum is the
// same function as in bench/lib/duckdb_server.mjs: every value rendered as
// text (DOUBLE/DECIMAL as round(x * 1000)), joined by '|' per row, hashed
// with a polynomial hash mod 1e9+7, and the row hashes summed mod 1e9+7, so
// row order does not matter.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/result.hpp"

namespace lakestream_bench {

constexpr uint64_t kMod = 1000000007ULL;

inline std::string CanonicalValue(const lakestream::SqlValue& v) {
  using lakestream::TypeKind;
  if (v.IsNull()) return "NULL";
  switch (v.Type().kind) {
    case TypeKind::DOUBLE:
    case TypeKind::DECIMAL:
      return std::to_string(std::llround(v.AsDouble() * 1000.0));
    case TypeKind::BOOLEAN:
      return v.GetBoolean() ? "true" : "false";
    case TypeKind::INTEGER:
    case TypeKind::BIGINT:
      return std::to_string(v.AsBigint());
    case TypeKind::VARCHAR:
      return v.GetString();
    default:
      return v.ToString();
  }
}

inline std::string Checksum(const lakestream::QueryResult& result) {
  uint64_t total = 0;
  for (lakestream::idx_t row = 0; row < result.RowCount(); row++) {
    uint64_t h = 0;
    for (lakestream::idx_t col = 0; col < result.ColumnCount(); col++) {
      std::string text = CanonicalValue(result.GetValue(col, row));
      if (col > 0) h = (h * 31 + '|') % kMod;
      for (unsigned char c : text) h = (h * 31 + c) % kMod;
    }
    total = (total + h) % kMod;
  }
  return "rows:" + std::to_string(result.RowCount()) + ",hash:" + std::to_string(total);
}

// The result as text, one row a line, values separated by tabs: NULL as
// "NULL", DOUBLE with 17 significant digits, DECIMAL exactly, other values as
// CanonicalValue. bench/lib/duckdb_server.mjs writes the same form.
inline bool WriteResult(const lakestream::QueryResult& result, const std::string& path) {
  std::ofstream out(path);
  for (lakestream::idx_t row = 0; row < result.RowCount(); row++) {
    for (lakestream::idx_t col = 0; col < result.ColumnCount(); col++) {
      if (col > 0) out << '\t';
      lakestream::SqlValue v = result.GetValue(col, row);
      if (v.IsNull()) {
        out << "NULL";
      } else if (v.Type().kind == lakestream::TypeKind::DOUBLE) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v.AsDouble());
        out << buf;
      } else if (v.Type().kind == lakestream::TypeKind::DECIMAL) {
        out << v.ToString();
      } else {
        out << CanonicalValue(v);
      }
    }
    out << '\n';
  }
  return static_cast<bool>(out);
}

inline std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

// A benchmark's own commands: handles `cmd` (the rest of the line in `in`)
// and writes its reply line, or returns false for an unknown command.
using ExtraCommands = std::function<bool(lakestream::Connection&, const std::string& cmd, std::istringstream& in)>;

// Runs the protocol until "quit" or end of input. `setup` (optional) runs once
// on the connection before the first command, for benchmark-specific settings.
// `path`: a database directory ("" = in memory, or the directory named by
// LAKESTREAM_BENCH_DB: tables then live on disk as Delta tables, for data
// that does not fit in memory). `extra`: commands beyond run / version / quit.
inline int Serve(const std::function<void(lakestream::Connection&)>& setup = {}, const std::string& path = "",
                 const ExtraCommands& extra = {}) {
  const char* on_disk = std::getenv("LAKESTREAM_BENCH_DB");
  lakestream::Database db(path.empty() && on_disk != nullptr ? std::string(on_disk) : path);
  lakestream::Connection con(db);
  if (setup) setup(con);
  // LAKESTREAM_BENCH_MEMORY_LIMIT='500MB': SET memory_limit (bench/tpch/driver's BENCH_MEMORY_LIMIT).
  if (const char* limit = std::getenv("LAKESTREAM_BENCH_MEMORY_LIMIT")) {
    auto result = con.Query(std::string("SET memory_limit = '") + limit + "'");
    if (result->HasError()) {
      std::cerr << "bench server: SET memory_limit = '" << limit << "': " << result->GetError() << std::endl;
      return 1;
    }
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "quit") break;
    if (cmd == "version") {
      std::cout << "ok lakestream " << LAKESTREAM_VERSION << std::endl;
      continue;
    }
    if (cmd != "run" && extra && extra(con, cmd, in)) continue;
    if (cmd != "run") {
      std::cout << "error unknown command: " << OneLine(line) << std::endl;
      continue;
    }
    std::string label, path, result_path;
    in >> label >> path >> result_path;
    std::ifstream file(path);
    if (!file) {
      std::cout << "error cannot read " << path << std::endl;
      continue;
    }
    std::stringstream sql;
    sql << file.rdbuf();
    auto start = std::chrono::steady_clock::now();
    auto result = con.Query(sql.str());
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result->HasError()) {
      std::cout << "error " << label << ": " << OneLine(result->GetError()) << std::endl;
      continue;
    }
    if (!result_path.empty() && !WriteResult(*result, result_path)) {
      std::cout << "error " << label << ": cannot write " << result_path << std::endl;
      continue;
    }
    std::cout << "ok " << seconds << " " << result->RowCount() << " " << Checksum(*result) << std::endl;
  }
  return 0;
}

}  // namespace lakestream_bench
