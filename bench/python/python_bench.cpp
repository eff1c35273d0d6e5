// The C++ side of bench/python's to_pandas: how long the public C++ API takes
// to run the query whose result the Python package turns into a DataFrame.
// Speaks the line protocol of bench/lib/bench_server.hpp (version / run
// LABEL FILE / quit) so that bench/run alternates its repetitions with the
// Python side's (python_bench.py serve). <seconds> covers Connection::Query
// until the materialized result is returned; the result is freed after the
// timing. The checksum (per column: the sum of an integer column, the sum of
// a DOUBLE column times 2 rounded, the same formula as python_bench.py)
// is read through ColumnView, untimed.
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "lakestream.hpp"

namespace {

std::string Checksum(const lakestream::QueryResult& result) {
  std::string out = "rows:" + std::to_string(result.RowCount());
  for (lakestream::idx_t c = 0; c < result.ColumnCount(); c++) {
    int64_t integral = 0;
    double real = 0;
    for (lakestream::idx_t chunk = 0; chunk < result.ChunkCount(); chunk++) {
      lakestream::ColumnView v(result, chunk, c);
      for (lakestream::idx_t r = 0; r < v.RowCount(); r++) {
        if (!v.IsValid(r)) continue;
        switch (v.Type().kind) {
          case lakestream::TypeKind::INTEGER: integral += v.Integers()[r]; break;
          case lakestream::TypeKind::BIGINT: integral += v.Bigints()[r]; break;
          case lakestream::TypeKind::DOUBLE: real += v.Doubles()[r]; break;
          default: break;
        }
      }
    }
    bool is_double = result.ColumnTypes()[c].kind == lakestream::TypeKind::DOUBLE;
    out += "/" + std::to_string(is_double ? std::llround(real * 2) : integral);
  }
  return out;
}

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  return s;
}

}  // namespace

int main() {
  lakestream::Database db;
  lakestream::Connection con(db);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd, label, path;
    in >> cmd;
    if (cmd == "quit") break;
    if (cmd == "version") {
      std::cout << "ok lakestream C++ API " << LAKESTREAM_VERSION << std::endl;
      continue;
    }
    if (cmd != "run") {
      std::cout << "error unknown command: " << OneLine(line) << std::endl;
      continue;
    }
    in >> label >> path;
    std::ifstream file(path);
    std::stringstream sql;
    sql << file.rdbuf();
    double seconds = 0;
    std::string reply;
    {
      auto start = std::chrono::steady_clock::now();
      auto result = con.Query(sql.str());
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      reply = result->HasError() ? "error " + label + ": " + OneLine(result->GetError())
                                 : "ok " + std::to_string(seconds) + " " + std::to_string(result->RowCount()) + " " +
                                       Checksum(*result);
    }
    std::cout << reply << std::endl;
  }
  return 0;
}
