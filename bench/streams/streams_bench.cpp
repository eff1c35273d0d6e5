// lakestream side of bench/streams (see bench/streams/driver): the bench line
// protocol of bench/lib/bench_server.hpp over a database directory, where
// table streams live.
//
//   lakestream_bench_streams DB_DIR
#include <iostream>

#include "bench_server.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: lakestream_bench_streams DB_DIR\n";
    return 2;
  }
  return lakestream_bench::Serve({}, argv[1]);
}
