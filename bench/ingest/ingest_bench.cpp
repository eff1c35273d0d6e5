// lakestream side of bench/ingest: serves the bench line protocol
// (bench/lib/bench_server.hpp) over a database directory (BENCH_DB_DIR, so the
// streaming table is a Delta table on disk, as in a pipeline). The driver
// sends it lakestream.sql rendered with the landing folder.
#include <cstdlib>

#include "bench_server.hpp"

int main() {
  const char* dir = std::getenv("BENCH_DB_DIR");
  return lakestream_bench::Serve({}, dir ? dir : "");
}
