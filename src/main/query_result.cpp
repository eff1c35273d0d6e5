#include "lakestream/result.hpp"

#include <sstream>

namespace lakestream {

QueryResult::QueryResult(std::vector<std::string> names, std::vector<LogicalType> types)
    : names_(std::move(names)), types_(std::move(types)) {}

std::unique_ptr<QueryResult> QueryResult::FromError(ExceptionType type, std::string message) {
  auto result = std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{});
  result->has_error_ = true;
  result->error_type_ = type;
  result->error_ = std::move(message);
  return result;
}

Value QueryResult::GetValue(idx_t column, idx_t row) const {
  for (auto& chunk : chunks_) {
    if (row < chunk->size()) return chunk->GetValue(column, row);
    row -= chunk->size();
  }
  throw InvalidInputError("row " + std::to_string(row) + " is out of range of the result");
}

void QueryResult::Append(std::unique_ptr<DataChunk> chunk) {
  if (chunk->size() == 0) return;
  row_count_ += chunk->size();
  chunks_.push_back(std::move(chunk));
}

std::string QueryResult::ToString() const {
  if (has_error_) return error_;
  std::string out;
  for (auto& chunk : chunks_) out += chunk->ToString();
  return out;
}

}  // namespace lakestream
