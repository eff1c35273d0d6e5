// lakestream side of bench/views (see bench/views/driver): the bench line
// protocol of bench/lib/bench_server.hpp over the database directory DB_DIR,
// where materialized views live.
//
//   lakestream_bench_views DB_DIR
#include <iostream>

#include "bench_server.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: lakestream_bench_views DB_DIR\n";
    return 2;
  }
  return lakestream_bench::Serve({}, argv[1]);
}
