// Rough timing of the Parquet writer and reader (not a test): 10M rows of
// (BIGINT, DOUBLE, VARCHAR of 16 chars, DATE), ZSTD, written then scanned.
// The same data as test/parquet/duckdb_bench.mjs generates in DuckDB:
//   a = i, b = i * 0.5, s = 'user_' || lpad(((i * 7919) % 10000000)::VARCHAR, 11, '0'),
//   d = DATE '2000-01-01' + (i % 10000)
//
//   g++ -std=gnu++20 -O2 -Isrc src/common/{cast,date,decimal,exception,status,types,value,vector}.cpp \
//     src/storage/parquet/*.cpp test/parquet/bench_parquet.cpp -lzstd -lsnappy -llz4 -lz -o /tmp/bench_parquet
//   /tmp/bench_parquet /tmp/ls_bench.parquet [rows]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/date.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"

using namespace lakestream;  // NOLINT

static double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  std::string path = argc > 1 ? argv[1] : "/tmp/ls_bench.parquet";
  idx_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10'000'000;
  std::vector<LogicalType> types = {TypeId::BIGINT, TypeId::DOUBLE, TypeId::VARCHAR, TypeId::DATE};
  date_t base = Date::FromCivil(2000, 1, 1);
  // Generate all chunks first so that only the writer is timed.
  std::vector<DataChunk> chunks;
  for (idx_t start = 0; start < n; start += STANDARD_VECTOR_SIZE) {
    DataChunk c;
    c.Initialize(types);
    idx_t cnt = std::min<idx_t>(STANDARD_VECTOR_SIZE, n - start);
    char buf[32];
    for (idx_t k = 0; k < cnt; k++) {
      idx_t i = start + k;
      c.data[0].GetData<int64_t>()[k] = static_cast<int64_t>(i);
      c.data[1].GetData<double>()[k] = i * 0.5;
      std::snprintf(buf, sizeof(buf), "user_%011llu", static_cast<unsigned long long>((i * 7919) % 10000000));
      c.data[2].GetData<string_t>()[k] = c.data[2].AddString(buf);
      c.data[3].GetData<date_t>()[k] = base + static_cast<date_t>(i % 10000);
    }
    c.SetCardinality(cnt);
    chunks.push_back(std::move(c));
  }
  double t0 = Now();
  auto w = ParquetWriter::Create(path, {"a", "b", "s", "d"}, types);
  if (!w.ok()) return std::fprintf(stderr, "%s\n", w.status().ToString().c_str()), 1;
  for (auto& c : chunks)
    if (!w.value()->Append(c).ok()) return 1;
  auto info = w.value()->Finish();
  double t1 = Now();
  if (!info.ok()) return 1;
  chunks.clear();
  double best_scan = 1e9;
  int64_t checksum = 0;
  for (int rep = 0; rep < 3; rep++) {
    double s0 = Now();
    auto r = ParquetReader::Open(path);
    if (!r.ok()) return 1;
    auto& reader = *r.value();
    if (!reader.Scan({0, 1, 2, 3}).ok()) return 1;
    DataChunk c;
    c.Initialize(reader.ProjectedTypes());
    idx_t rows = 0;
    while (true) {
      Status s = reader.ReadChunk(c);
      if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
      if (c.size() == 0) break;
      rows += c.size();
      checksum += c.data[0].GetData<int64_t>()[0] + c.data[2].GetData<string_t>()[0].size() + c.data[3].GetData<date_t>()[0];
    }
    best_scan = std::min(best_scan, Now() - s0);
    if (rows != n) return std::fprintf(stderr, "rows %llu\n", (unsigned long long)rows), 1;
  }
  std::printf("{\"engine\":\"lakestream\",\"rows\":%llu,\"write_s\":%.3f,\"scan_s\":%.3f,\"file_bytes\":%llu,\"checksum\":%lld}\n",
              static_cast<unsigned long long>(n), t1 - t0, best_scan, static_cast<unsigned long long>(info.value().file_size),
              static_cast<long long>(checksum));
  return 0;
}
