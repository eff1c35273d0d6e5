#include "lakestream/column_view.hpp"

#include <stdexcept>

#include "common/decimal.hpp"
#include "common/vector.hpp"
#include "main/public_value.hpp"

namespace lakestream {

ColumnView::ColumnView(const QueryResult& result, idx_t chunk, idx_t column) {
  const auto& chunks = result.Chunks();
  if (chunk >= chunks.size() || column >= result.ColumnCount()) {
    throw std::out_of_range("ColumnView(chunk " + std::to_string(chunk) + ", column " + std::to_string(column) +
                            ") is outside the result's " + std::to_string(chunks.size()) + " chunks and " +
                            std::to_string(result.ColumnCount()) + " columns");
  }
  Init(result, *chunks[chunk], column);
}

ColumnView::ColumnView(const QueryResult& result, idx_t column) {
  const DataChunk* chunk = result.CurrentChunk();
  if (chunk == nullptr) {
    throw std::out_of_range("ColumnView(column " + std::to_string(column) +
                            "): the result has no current chunk; call FetchNext() first and read only while it "
                            "returns true");
  }
  if (column >= result.ColumnCount()) {
    throw std::out_of_range("ColumnView(column " + std::to_string(column) + ") is outside the result's " +
                            std::to_string(result.ColumnCount()) + " columns");
  }
  Init(result, *chunk, column);
}

void ColumnView::Init(const QueryResult& result, const DataChunk& chunk, idx_t column) {
  const Vector& vector = chunk.data[column];
  type_ = &result.ColumnTypes()[column];
  rows_ = chunk.size();
  validity_ = vector.Validity();
  // STRUCT vectors have no buffer of their own; every other type's buffer is
  // the row values in the layout common/types.hpp describes, which the
  // accessors' types match (string_t is std::string_view).
  data_ = vector.GetData<uint8_t>();
  vector_ = &vector;
}

void ColumnView::ThrowWrongKind(TypeKind wanted) const {
  throw std::invalid_argument("ColumnView: the column is " + type_->ToString() + ", not " +
                              ColumnType(wanted).ToString() + "; use the accessor of " + type_->ToString() +
                              " or GetValue()");
}

void ColumnView::GetDecimal(idx_t row, uint64_t* low, int64_t* high) const {
  hugeint_t v = Data<hugeint_t>(TypeKind::DECIMAL)[row];
  *low = static_cast<uint64_t>(v);
  *high = static_cast<int64_t>(v >> 64);
}

double ColumnView::GetDecimalAsDouble(idx_t row) const {
  hugeint_t v = Data<hugeint_t>(TypeKind::DECIMAL)[row];
  return static_cast<double>(v) / static_cast<double>(Decimal::PowerOfTen(type_->scale));
}

SqlValue ColumnView::GetValue(idx_t row) const {
  if (row >= rows_) {
    throw std::out_of_range("ColumnView::GetValue(" + std::to_string(row) + ") is outside the chunk's " +
                            std::to_string(rows_) + " rows");
  }
  return ValueConverter::ToPublic(vector_->GetValue(row));
}

}  // namespace lakestream
