// The C++ side of bench/python: how long the public C++ API takes to run the
// query whose result the Python package turns into a pandas DataFrame.
//
//   lakestream_bench_python ROWS REPS
//
// Builds the table of bench/python/python_bench.py's to_pandas query (same
// SQL), then runs `SELECT * FROM t` once untimed and REPS times timed, each
// until Connection::Query returns the materialized result. Prints one line
// per run, "kind rep seconds rows checksum" (kind warmup or query), with the
// checksum the Python side computes from its DataFrame (column sums, read
// through ColumnView and not timed).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lakestream.hpp"

namespace {

std::string Checksum(const lakestream::QueryResult& result) {
  int64_t a = 0, b = 0;
  double c = 0;
  int64_t d = 0;
  for (lakestream::idx_t chunk = 0; chunk < result.ChunkCount(); chunk++) {
    lakestream::ColumnView va(result, chunk, 0), vb(result, chunk, 1), vc(result, chunk, 2), vd(result, chunk, 3);
    for (lakestream::idx_t r = 0; r < va.RowCount(); r++) {
      a += va.Bigints()[r];
      b += vb.Integers()[r];
      c += vc.Doubles()[r];
      d += vd.Bigints()[r];
    }
  }
  return "rows:" + std::to_string(result.RowCount()) + ",sums:" + std::to_string(a) + "/" + std::to_string(b) + "/" +
         std::to_string(static_cast<int64_t>(c * 2)) + "/" + std::to_string(d);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ROWS REPS\n", argv[0]);
    return 2;
  }
  long long rows = std::atoll(argv[1]);
  int reps = std::atoi(argv[2]);
  lakestream::Database db;
  lakestream::Connection con(db);
  // Keep in step with TO_PANDAS_LOAD in python_bench.py.
  auto load = con.Query(
      "CREATE TABLE t AS SELECT range AS a, CAST(range % 1000 AS INTEGER) AS b, CAST(range AS DOUBLE) * 0.5 AS c, "
      "range * 7 AS d FROM range(" + std::to_string(rows) + ")");
  if (load->HasError()) {
    std::fprintf(stderr, "%s\n", load->GetError().c_str());
    return 1;
  }
  for (int rep = 0; rep <= reps; rep++) {
    auto start = std::chrono::steady_clock::now();
    auto result = con.Query("SELECT * FROM t");
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result->HasError()) {
      std::fprintf(stderr, "%s\n", result->GetError().c_str());
      return 1;
    }
    std::printf("%s\t%d\t%.6f\t%llu\t%s\n", rep == 0 ? "warmup" : "query", rep, seconds,
                static_cast<unsigned long long>(result->RowCount()), Checksum(*result).c_str());
    std::fflush(stdout);
  }
  return 0;
}
