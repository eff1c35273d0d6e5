// lakestream side of bench/aggregate: serves the bench line protocol
// (bench/lib/bench_server.hpp) over an in-memory database. The SQL it runs
// (load.sql, groupby.sql, join.sql in this directory) is the same text DuckDB
// runs, rendered for each size by bench/aggregate/driver.
#include "bench_server.hpp"

int main() { return lakestream_bench::Serve(); }
