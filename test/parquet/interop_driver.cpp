// Driver for duckdb_interop.mjs.
//   interop_driver write <dir>   writes <dir>/<codec>.parquet (every flat type, NULLs)
//   interop_driver read <file>   prints every row, one line each, values in a
//                                canonical text form, tab-separated
// Canonical form: NULL; true/false; integers; doubles as %.17g; strings raw;
// DATE as days since 1970-01-01; TIMESTAMP and TIMESTAMP_NTZ as microseconds; DECIMAL as text.
#include <cstdio>
#include <string>

#include "common/decimal.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"

using namespace lakestream;  // NOLINT

static std::string Canon(const Value& v) {
  if (v.IsNull()) return "NULL";
  char buf[64];
  switch (v.type().id()) {
    case TypeId::BOOLEAN: return v.GetBoolean() ? "true" : "false";
    case TypeId::INTEGER: return std::to_string(v.GetInteger());
    case TypeId::BIGINT: return std::to_string(v.GetBigint());
    case TypeId::DOUBLE: std::snprintf(buf, sizeof(buf), "%.17g", v.GetDouble()); return buf;
    case TypeId::DATE: return std::to_string(v.GetDate());
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return std::to_string(v.GetTimestamp());  // DuckDB's TIMESTAMP reads as NTZ
    case TypeId::DECIMAL: return Decimal::ToString(v.GetHugeint(), v.type().scale());
    default: return v.ToString();
  }
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::string cmd = argv[1];
  if (cmd == "write") {
    std::vector<LogicalType> types = {TypeId::BOOLEAN, TypeId::INTEGER, TypeId::BIGINT, TypeId::DOUBLE,
                                      TypeId::VARCHAR, TypeId::DATE, TypeId::TIMESTAMP, LogicalType::Decimal(9, 2),
                                      LogicalType::Decimal(18, 3), LogicalType::Decimal(38, 6)};
    std::vector<std::string> names = {"b", "i", "l", "d", "s", "dt", "ts", "dec9", "dec18", "dec38"};
    const char* codecs[] = {"uncompressed", "snappy", "gzip", "zstd", "lz4"};
    for (const char* cn : codecs) {
      ParquetWriterOptions opt;
      ParquetCodecFromName(cn, opt.codec);
      opt.page_size = 4096;
      opt.row_group_rows = 3000;
      auto w = ParquetWriter::Create(std::string(argv[2]) + "/" + cn + ".parquet", names, types, opt);
      if (!w.ok()) return std::fprintf(stderr, "%s\n", w.status().ToString().c_str()), 1;
      DataChunk c;
      c.Initialize(types);
      for (int base = 0; base < 10000; base += 2048) {
        c.Reset();
        int cnt = std::min(2048, 10000 - base);
        for (int k = 0; k < cnt; k++) {
          int64_t i = base + k;
          c.SetValue(0, k, Value::BOOLEAN(i % 3 == 0));
          c.SetValue(1, k, Value::INTEGER(static_cast<int32_t>(i * 7 - 30000)));
          c.SetValue(2, k, Value::BIGINT(i * 1000000007LL - 5));
          c.SetValue(3, k, Value::DOUBLE(i / 7.0 - 100));
          c.SetValue(4, k, Value("str " + std::to_string(i % 97) + (i % 5 == 0 ? " ünï 日本" : "")));
          c.SetValue(5, k, Value::DATE(static_cast<date_t>(i - 5000)));
          c.SetValue(6, k, Value::TIMESTAMP(i * 86400123456LL - 1000000000000LL));
          c.SetValue(7, k, Value::DECIMAL(i * 13 - 7000, 9, 2));
          c.SetValue(8, k, Value::DECIMAL(i * 1000003 - 1, 18, 3));
          c.SetValue(9, k, Value::DECIMAL(static_cast<hugeint_t>(i) * 1000000000000000000LL * 1000 - 3, 38, 6));
          for (int col = 0; col < 10; col++)
            if ((i + col) % 11 == 0) c.data[col].SetValid(k, false);
        }
        c.SetCardinality(cnt);
        if (!w.value()->Append(c).ok()) return 1;
      }
      if (!w.value()->Finish().ok()) return 1;
    }
    return 0;
  }
  auto r = ParquetReader::Open(argv[2]);
  if (!r.ok()) return std::fprintf(stderr, "%s\n", r.status().ToString().c_str()), 1;
  auto& reader = *r.value();
  std::vector<idx_t> ids;
  for (idx_t i = 0; i < reader.ColumnNames().size(); i++) ids.push_back(i);
  if (!reader.Scan(ids).ok()) return 1;
  DataChunk c;
  c.Initialize(reader.ProjectedTypes());
  std::string out;
  while (true) {
    Status s = reader.ReadChunk(c);
    if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
    if (c.size() == 0) break;
    for (idx_t row = 0; row < c.size(); row++) {
      for (idx_t col = 0; col < c.ColumnCount(); col++) {
        if (col) out.push_back('\t');
        out += Canon(c.GetValue(col, row));
      }
      out.push_back('\n');
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
