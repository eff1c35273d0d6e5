// ColumnarTable: an application's own columns (a pandas DataFrame, numpy
// arrays, a C++ program's vectors) copied once into the engine's layout, for
// one connection's statements to read by name, as DuckDB reads a registered
// DataFrame (Connection::RegisterTable, Connection::SetReplacementScan).
//
//   lakestream::ColumnarTable t;
//   t.AddBigints("id", ids.data(), nullptr, ids.size());           // no NULLs
//   t.AddStrings("name", names.data(), valid.data(), names.size());  // valid[r] == 0: NULL
//   con.RegisterTable("people", std::move(t));
//   con.Query("SELECT count(*) FROM people");
//
// Each Add* call copies its column (the caller's buffers may be freed after
// it returns) and appends it after the columns added before. `validity`, when
// not null, holds one byte per row: 1 for a value, 0 for NULL (the value slot
// of a NULL row is ignored). The first column sets the row count; a later
// column of another length, or a name given twice (case-insensitively), throws
// std::invalid_argument naming the column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "lakestream/value.hpp"

namespace lakestream {

class ColumnarTable {
 public:
  ColumnarTable();
  ~ColumnarTable();
  ColumnarTable(ColumnarTable&&) noexcept;
  ColumnarTable& operator=(ColumnarTable&&) noexcept;
  ColumnarTable(const ColumnarTable&) = delete;
  ColumnarTable& operator=(const ColumnarTable&) = delete;

  idx_t RowCount() const;
  idx_t ColumnCount() const;

  void AddBooleans(const std::string& name, const bool* values, const uint8_t* validity, idx_t rows);
  void AddIntegers(const std::string& name, const int32_t* values, const uint8_t* validity, idx_t rows);
  void AddBigints(const std::string& name, const int64_t* values, const uint8_t* validity, idx_t rows);
  void AddDoubles(const std::string& name, const double* values, const uint8_t* validity, idx_t rows);
  // DATE: days since 1970-01-01.
  void AddDates(const std::string& name, const int32_t* days, const uint8_t* validity, idx_t rows);
  // TIMESTAMP (an instant, microseconds since the epoch, UTC), or with
  // `without_time_zone` TIMESTAMP_NTZ (a wall clock's micros read as if UTC).
  void AddTimestamps(const std::string& name, const int64_t* micros, const uint8_t* validity, idx_t rows,
                     bool without_time_zone = false);
  // VARCHAR: each row's bytes (UTF-8 text); the bytes are copied.
  void AddStrings(const std::string& name, const std::string_view* values, const uint8_t* validity, idx_t rows);

 private:
  friend struct ConnectionAccess;  // engine side (main/connection_access.hpp)
  struct Columns;
  std::unique_ptr<Columns> columns_;
};

}  // namespace lakestream
