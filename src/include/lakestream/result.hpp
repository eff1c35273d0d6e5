// QueryResult: the fully materialised result of one statement, or its error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/exception.hpp"
#include "common/vector.hpp"

namespace lakestream {

class QueryResult {
 public:
  // A successful result.
  QueryResult(std::vector<std::string> names, std::vector<LogicalType> types);
  // A failed statement.
  static std::unique_ptr<QueryResult> FromError(ExceptionType type, std::string message);

  bool HasError() const { return has_error_; }
  // The full message, e.g. "Catalog Error: Table with name orders does not exist! ...".
  const std::string& GetError() const { return error_; }
  ExceptionType GetErrorType() const { return error_type_; }

  // Warnings: things the statement's caller should know although the
  // statement itself succeeded (or failed for another reason), e.g. that a
  // materialized view could not be refreshed after the statement committed,
  // or that a view read is behind its sources. Each is one full sentence
  // naming the object and the fix; the shell prints them to stderr.
  const std::vector<std::string>& Warnings() const { return warnings_; }
  void AddWarning(std::string warning) { warnings_.push_back(std::move(warning)); }

  const std::vector<std::string>& Names() const { return names_; }
  const std::vector<LogicalType>& Types() const { return types_; }
  idx_t ColumnCount() const { return types_.size(); }
  idx_t RowCount() const { return row_count_; }

  // Row access across chunks (O(number of chunks) per call; fine for results people read).
  Value GetValue(idx_t column, idx_t row) const;
  const std::vector<std::unique_ptr<DataChunk>>& Chunks() const { return chunks_; }

  // Appends a chunk (the engine fills results through this).
  void Append(std::unique_ptr<DataChunk> chunk);

  // Tab-separated text of every row (for tests and debugging).
  std::string ToString() const;

 private:
  bool has_error_ = false;
  std::string error_;
  ExceptionType error_type_ = ExceptionType::INTERNAL;
  std::vector<std::string> warnings_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
  std::vector<std::unique_ptr<DataChunk>> chunks_;
  idx_t row_count_ = 0;
};

}  // namespace lakestream
