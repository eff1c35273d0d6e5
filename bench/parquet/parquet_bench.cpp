// lakestream side of bench/parquet: serves the bench line protocol
// (bench/lib/bench_server.hpp) over an in-memory database. The driver sends it
// the same SQL as DuckDB (load.sql, then write.sql / scan.sql rendered with
// this system's own file path).
#include "bench_server.hpp"

int main() { return lakestream_bench::Serve(); }
