// lakestream side of bench/tpch, and the TPC-H data generator.
//
//   lakestream_bench_tpch generate <scale-factor> <dir>
//       writes <dir>/<table>.parquet for the eight TPC-H tables (tpch_gen.hpp):
//       '|'-separated text first, then typed Parquet through lakestream's
//       read_files + COPY, so lakestream and DuckDB load the same files.
//   lakestream_bench_tpch
//       serves the bench line protocol (bench/lib/bench_server.hpp) over an
//       in-memory database.
//
// LAKESTREAM_BENCH_THREADS=N (set by bench/tpch/driver from BENCH_THREADS)
// runs `SET threads = N` first, for 1 too (the engine's default is every core).
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "bench_server.hpp"
#include "tpch_gen.hpp"

namespace {

// "a BIGINT, b DATE" -> "CAST(_c0 AS BIGINT) AS a, CAST(_c1 AS DATE) AS b": the
// typed columns of a header-less text file read as strings. (read_files'
// schema option matches columns by name, and a header-less file's are _c0...)
std::string CastList(const std::string& schema) {
  std::string out;
  size_t col = 0, pos = 0;
  while (pos < schema.size()) {
    size_t end = schema.find(", ", pos);
    // DECIMAL(15,2) holds a comma but no ", ".
    const std::string item = schema.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    const size_t space = item.find(' ');
    if (!out.empty()) out += ", ";
    out += "CAST(_c" + std::to_string(col++) + " AS " + item.substr(space + 1) + ") AS " + item.substr(0, space);
    pos = end == std::string::npos ? schema.size() : end + 2;
  }
  return out;
}

int Generate(double sf, const std::string& where) {
  std::filesystem::create_directories(where);
  const std::string dir = std::filesystem::absolute(where).string();
  auto start = std::chrono::steady_clock::now();
  tpch::Generator(sf, dir).All();
  auto generated = std::chrono::steady_clock::now();
  lakestream::Database db("");
  lakestream::Connection con(db);
  for (const auto& [table, schema] : tpch::Schemas()) {
    const std::string tbl = dir + "/" + table + ".tbl";
    const std::string parquet = dir + "/" + table + ".parquet";
    auto result = con.Query("COPY (SELECT " + CastList(schema) + " FROM read_files('" + tbl +
                            "', format => 'csv', delimiter => '|', inferColumnTypes => false)) TO '" + parquet +
                            "' (FORMAT parquet, COMPRESSION snappy)");
    if (result->HasError()) {
      std::cerr << "tpch generate: converting " << tbl << " to Parquet failed: " << result->GetError() << std::endl;
      return 1;
    }
    if (std::getenv("TPCH_KEEP_TBL") == nullptr) std::filesystem::remove(tbl);
  }
  auto done = std::chrono::steady_clock::now();
  std::cerr << "tpch generate: SF " << sf << " in " << dir << ": text "
            << std::chrono::duration<double>(generated - start).count() << " s, Parquet "
            << std::chrono::duration<double>(done - generated).count() << " s" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "generate") {
    if (argc != 4) {
      std::cerr << "usage: " << argv[0] << " generate <scale-factor> <dir>" << std::endl;
      return 2;
    }
    try {
      return Generate(std::stod(argv[2]), argv[3]);
    } catch (const std::exception& e) {
      std::cerr << "tpch generate: " << e.what() << std::endl;
      return 1;
    }
  }
  const char* threads = std::getenv("LAKESTREAM_BENCH_THREADS");
  return lakestream_bench::Serve([threads](lakestream::Connection& con) {
    if (threads == nullptr) return;
    auto result = con.Query(std::string("SET threads = ") + threads);
    if (result->HasError()) {
      std::cerr << "lakestream_bench_tpch: SET threads = " << threads << ": " << result->GetError() << std::endl;
      std::exit(1);
    }
  });
}
