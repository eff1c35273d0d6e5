// ColumnView: one column of one result chunk read in place, without a
// SqlValue per cell. For bindings and bulk readers that convert many values
// (the Python package builds its objects and numpy arrays from it).
//
//   while (result->FetchNext()) {                              // any result
//     lakestream::ColumnView ids(*result, 0);                  // column 0 of this chunk
//     ...
//   }
//   for (lakestream::idx_t c = 0; c < result->ChunkCount(); c++) {  // a materialized result
//     lakestream::ColumnView ids(*result, c, 0);              // a BIGINT column
//     const int64_t* values = ids.Bigints();
//     for (lakestream::idx_t r = 0; r < ids.RowCount(); r++)
//       if (ids.IsValid(r)) sum += values[r];
//   }
#pragma once

#include <cstdint>
#include <string_view>

#include "lakestream/result.hpp"
#include "lakestream/value.hpp"

namespace lakestream {

class Vector;  // engine type (common/vector.hpp)

class ColumnView {
 public:
  // Column `column` of chunk `chunk` (0 <= chunk < ChunkCount()). Throws
  // std::out_of_range for a chunk or column past the end. The view points
  // into the result: it is valid while the QueryResult lives.
  ColumnView(const QueryResult& result, idx_t chunk, idx_t column);
  // Column `column` of the chunk the last QueryResult::FetchNext() moved to
  // (the way to read a streaming result, Connection::SendQuery). Throws
  // std::out_of_range when there is none (before the first FetchNext, or
  // after it returned false) or for a column past the end. Valid until the
  // next FetchNext/FetchChunk on the result.
  ColumnView(const QueryResult& result, idx_t column);

  const ColumnType& Type() const { return *type_; }
  idx_t RowCount() const { return rows_; }

  // One byte per row: 1 for a value, 0 for NULL. The value slot of a NULL
  // row holds an unspecified value of the right type.
  const uint8_t* Validity() const { return validity_; }
  bool IsValid(idx_t row) const { return validity_[row] != 0; }

  // The values of a fixed-width column, RowCount() of them. Each accessor
  // checks the column's kind and throws std::invalid_argument naming both
  // kinds when it differs.
  const bool* Booleans() const { return Data<bool>(TypeKind::BOOLEAN); }
  const int32_t* Integers() const { return Data<int32_t>(TypeKind::INTEGER); }
  const int64_t* Bigints() const { return Data<int64_t>(TypeKind::BIGINT); }
  const double* Doubles() const { return Data<double>(TypeKind::DOUBLE); }
  const int32_t* Dates() const { return Data<int32_t>(TypeKind::DATE); }            // days since 1970-01-01
  // TIMESTAMP: microseconds since the epoch, UTC; TIMESTAMP_NTZ: the wall
  // clock's microseconds read as if UTC.
  const int64_t* Timestamps() const {
    return Data<int64_t>(type_->kind == TypeKind::TIMESTAMP_NTZ ? TypeKind::TIMESTAMP_NTZ : TypeKind::TIMESTAMP);
  }
  // VARCHAR: each row's bytes (UTF-8 text, or binary data), pointing into the
  // result's memory.
  const std::string_view* Strings() const { return Data<std::string_view>(TypeKind::VARCHAR); }

  // DECIMAL: row's unscaled value (the value times 10^Type().scale) as the
  // two halves of a 128-bit two's complement integer, (high << 64) | low.
  // Throws std::invalid_argument for another kind.
  void GetDecimal(idx_t row, uint64_t* low, int64_t* high) const;
  // DECIMAL: row's value as the nearest double.
  double GetDecimalAsDouble(idx_t row) const;

  // Any column (the only way for STRUCT, LIST and MAP): row's value.
  SqlValue GetValue(idx_t row) const;

 private:
  template <class T>
  const T* Data(TypeKind kind) const {
    if (type_->kind != kind) ThrowWrongKind(kind);
    return static_cast<const T*>(data_);
  }
  [[noreturn]] void ThrowWrongKind(TypeKind wanted) const;
  void Init(const QueryResult& result, const DataChunk& chunk, idx_t column);

  const ColumnType* type_;
  idx_t rows_;
  const uint8_t* validity_;
  const void* data_;
  const Vector* vector_;
};

}  // namespace lakestream
