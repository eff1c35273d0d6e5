#include <stdexcept>

#include "common/exception.hpp"
#include "common/vector.hpp"
#include "lakestream/result.hpp"
#include "main/public_value.hpp"
#include "main/query_stream.hpp"

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
  // Streaming (SendQuery): the running plan, until it ends.
  std::shared_ptr<QueryStream> stream;
  bool retain = false;
  bool dropped_rows = false;           // chunks were fetched from the stream and not kept
  std::unique_ptr<DataChunk> current;  // FetchNext's chunk when not kept
  const DataChunk* current_view = nullptr;
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
idx_t QueryResult::RowCount() const {
  Materialize();
  return impl_->row_count;
}
const std::vector<std::unique_ptr<DataChunk>>& QueryResult::Chunks() const {
  Materialize();
  return impl_->chunks;
}

bool QueryResult::IsStreaming() const { return impl_->stream != nullptr; }
void QueryResult::RetainFetched(bool retain) { impl_->retain = retain; }
void QueryResult::SetStream(std::shared_ptr<QueryStream> stream) { impl_->stream = std::move(stream); }
const std::shared_ptr<QueryStream>& QueryResult::Stream() const { return impl_->stream; }
const DataChunk* QueryResult::CurrentChunk() const { return impl_->current_view; }

std::unique_ptr<DataChunk> QueryResult::Pull() const {
  Impl& impl = *impl_;
  if (!impl.stream) return nullptr;
  auto chunk = impl.current && !impl.retain ? std::move(impl.current) : std::make_unique<DataChunk>();
  std::string error;
  ExceptionType type = ExceptionType::INTERNAL;
  try {
    if (impl.stream->Pull(*chunk)) return chunk;
  } catch (const Exception& e) {
    type = e.Type();
    error = e.what();
  } catch (const std::bad_alloc&) {
    error = "Out of Memory Error: the statement needed more memory than is available; reduce the data it reads or add LIMIT";
  } catch (const std::exception& e) {
    error = std::string("Internal Error: ") + e.what();
  }
  impl.stream->Close();
  impl.stream.reset();
  if (!error.empty()) {
    impl.has_error = true;
    impl.error_type = type;
    impl.error = std::move(error);
  }
  return nullptr;
}

void QueryResult::Materialize() const {
  Impl& impl = *impl_;
  if (impl.dropped_rows) {
    throw std::logic_error(
        "QueryResult: chunks were already fetched from this streaming result without RetainFetched(true), so its "
        "rows are no longer all available; call RowCount/GetValue/GetChunk before fetching, or use "
        "Connection::Query");
  }
  if (!impl.stream) return;
  while (auto chunk = Pull()) {
    impl.row_count += chunk->size();
    impl.chunks.push_back(std::move(chunk));
  }
}

bool QueryResult::FetchNext() {
  Impl& impl = *impl_;
  impl.current_view = nullptr;
  if (!impl.stream) {
    if (impl.has_error || impl.next_chunk >= impl.chunks.size()) return false;
    impl.current_view = impl.chunks[impl.next_chunk++].get();
    return true;
  }
  auto chunk = Pull();
  if (!chunk) return false;
  if (impl.retain) {
    impl.row_count += chunk->size();
    impl.chunks.push_back(std::move(chunk));
    impl.next_chunk = impl.chunks.size();
    impl.current_view = impl.chunks.back().get();
  } else {
    impl.dropped_rows = true;
    impl.current = std::move(chunk);
    impl.current_view = impl.current.get();
  }
  return true;
}

Value QueryResult::GetEngineValue(idx_t column, idx_t row) const {
  Materialize();
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

static std::unique_ptr<ResultChunk> ToResultChunk(const DataChunk& chunk) {
  std::vector<std::vector<SqlValue>> columns(chunk.ColumnCount());
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) {
    columns[c].reserve(chunk.size());
    for (idx_t r = 0; r < chunk.size(); r++) columns[c].push_back(ValueConverter::ToPublic(chunk.GetValue(c, r)));
  }
  return std::make_unique<ResultChunk>(std::move(columns), chunk.size());
}

std::unique_ptr<ResultChunk> QueryResult::FetchChunk() {
  if (!FetchNext()) return nullptr;
  return ToResultChunk(*impl_->current_view);
}

idx_t QueryResult::ChunkCount() const {
  Materialize();
  return impl_->chunks.size();
}

idx_t QueryResult::ChunkRowCount(idx_t index) const {
  Materialize();
  return index < impl_->chunks.size() ? impl_->chunks[index]->size() : 0;
}

std::unique_ptr<ResultChunk> QueryResult::GetChunk(idx_t index) const {
  Materialize();
  if (index >= impl_->chunks.size()) {
    throw std::out_of_range("chunk " + std::to_string(index) + " is outside the result's " +
                            std::to_string(impl_->chunks.size()) + " chunks");
  }
  return ToResultChunk(*impl_->chunks[index]);
}

void QueryResult::Append(std::unique_ptr<DataChunk> chunk) {
  if (chunk->size() == 0) return;
  impl_->row_count += chunk->size();
  impl_->chunks.push_back(std::move(chunk));
}

std::string QueryResult::ToString() const {
  Materialize();
  if (impl_->has_error) return impl_->error;
  std::string out;
  for (auto& chunk : impl_->chunks) out += chunk->ToString();
  return out;
}

}  // namespace lakestream
