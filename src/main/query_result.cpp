#include <stdexcept>

#include "common/exception.hpp"
#include "common/vector.hpp"
#include "lakestream/result.hpp"
#include "main/public_value.hpp"

namespace lakestream {

struct QueryResult::Impl {
  bool has_error = false;
  std::string error;
  ExceptionType error_type = ExceptionType::INTERNAL;
  std::vector<std::string> warnings;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<ColumnType> public_types;
  std::vector<std::unique_ptr<DataChunk>> chunks;
  idx_t row_count = 0;
  idx_t next_chunk = 0;  // FetchChunk's position
};

QueryResult::QueryResult(std::vector<std::string> names, std::vector<LogicalType> types)
    : impl_(std::make_unique<Impl>()) {
  impl_->names = std::move(names);
  impl_->types = std::move(types);
  for (auto& type : impl_->types) impl_->public_types.push_back(ValueConverter::ToPublic(type));
}

QueryResult::~QueryResult() = default;

std::unique_ptr<QueryResult> QueryResult::FromError(ExceptionType type, std::string message) {
  auto result = std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{});
  result->impl_->has_error = true;
  result->impl_->error_type = type;
  result->impl_->error = std::move(message);
  return result;
}

bool QueryResult::HasError() const { return impl_->has_error; }
const std::string& QueryResult::GetError() const { return impl_->error; }
ExceptionType QueryResult::GetErrorType() const { return impl_->error_type; }
ErrorKind QueryResult::GetErrorKind() const {
  return impl_->has_error ? ToErrorKind(impl_->error_type) : ErrorKind::NONE;
}
const std::vector<std::string>& QueryResult::Warnings() const { return impl_->warnings; }
void QueryResult::AddWarning(std::string warning) { impl_->warnings.push_back(std::move(warning)); }
const std::vector<std::string>& QueryResult::Names() const { return impl_->names; }
const std::vector<LogicalType>& QueryResult::Types() const { return impl_->types; }
const std::vector<ColumnType>& QueryResult::ColumnTypes() const { return impl_->public_types; }
idx_t QueryResult::ColumnCount() const { return impl_->types.size(); }
idx_t QueryResult::RowCount() const { return impl_->row_count; }
const std::vector<std::unique_ptr<DataChunk>>& QueryResult::Chunks() const { return impl_->chunks; }

Value QueryResult::GetEngineValue(idx_t column, idx_t row) const {
  if (column >= ColumnCount()) {
    throw InvalidInputError("column " + std::to_string(column) + " is out of range of the result (" +
                            std::to_string(ColumnCount()) + " columns)");
  }
  for (auto& chunk : impl_->chunks) {
    if (row < chunk->size()) return chunk->GetValue(column, row);
    row -= chunk->size();
  }
  throw InvalidInputError("row " + std::to_string(row) + " is out of range of the result");
}

SqlValue QueryResult::GetValue(idx_t column, idx_t row) const {
  if (column >= ColumnCount() || row >= RowCount()) {
    throw std::out_of_range("cell (column " + std::to_string(column) + ", row " + std::to_string(row) +
                            ") is outside the result's " + std::to_string(ColumnCount()) + " columns and " +
                            std::to_string(RowCount()) + " rows");
  }
  return ValueConverter::ToPublic(GetEngineValue(column, row));
}

std::unique_ptr<ResultChunk> QueryResult::FetchChunk() {
  if (impl_->next_chunk >= impl_->chunks.size()) return nullptr;
  return GetChunk(impl_->next_chunk++);
}

idx_t QueryResult::ChunkCount() const { return impl_->chunks.size(); }

idx_t QueryResult::ChunkRowCount(idx_t index) const {
  return index < impl_->chunks.size() ? impl_->chunks[index]->size() : 0;
}

std::unique_ptr<ResultChunk> QueryResult::GetChunk(idx_t index) const {
  if (index >= impl_->chunks.size()) {
    throw std::out_of_range("chunk " + std::to_string(index) + " is outside the result's " +
                            std::to_string(impl_->chunks.size()) + " chunks");
  }
  const DataChunk& chunk = *impl_->chunks[index];
  std::vector<std::vector<SqlValue>> columns(chunk.ColumnCount());
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) {
    columns[c].reserve(chunk.size());
    for (idx_t r = 0; r < chunk.size(); r++) columns[c].push_back(ValueConverter::ToPublic(chunk.GetValue(c, r)));
  }
  return std::make_unique<ResultChunk>(std::move(columns), chunk.size());
}

void QueryResult::Append(std::unique_ptr<DataChunk> chunk) {
  if (chunk->size() == 0) return;
  impl_->row_count += chunk->size();
  impl_->chunks.push_back(std::move(chunk));
}

std::string QueryResult::ToString() const {
  if (impl_->has_error) return impl_->error;
  std::string out;
  for (auto& chunk : impl_->chunks) out += chunk->ToString();
  return out;
}

}  // namespace lakestream
