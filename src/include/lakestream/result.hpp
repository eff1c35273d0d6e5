// QueryResult: the result of one statement (its rows, or its error).
//
//   auto result = con.Query("SELECT id, price FROM orders");
//   if (result->HasError()) std::cerr << result->GetError();
//   for (idx_t r = 0; r < result->RowCount(); r++) result->GetValue(1, r).ToString();
//   while (auto chunk = result->FetchChunk()) { ... chunk->GetValue(0, i) ... }
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lakestream/value.hpp"

namespace lakestream {

// What kind of error ended a statement.
enum class ErrorKind : uint8_t {
  NONE = 0,
  PARSER,           // the SQL text does not parse
  BINDER,           // a name or type does not resolve
  CATALOG,          // an object does not exist or exists already
  CONSTRAINT,       // NOT NULL, a key
  CONFLICT,         // another writer committed first
  CONVERSION,       // a cast or a literal that does not fit
  IO,               // a file or the network
  CORRUPTION,       // a file is damaged
  NOT_IMPLEMENTED,  // a planned feature
  INVALID_INPUT,    // bad arguments, including parameters
  INTERNAL,         // a bug
  INTERRUPTED,      // Connection::Interrupt stopped the statement
};

// Engine types named by the engine-side members below. Applications never
// need them: the members above those cover every use.
class DataChunk;
class QueryStream;
class LogicalType;
class Value;
enum class ExceptionType;

// Up to kChunkRows rows of a result (FetchChunk).
class ResultChunk {
 public:
  ResultChunk(std::vector<std::vector<SqlValue>> columns, idx_t rows)
      : columns_(std::move(columns)), rows_(rows) {}
  idx_t RowCount() const { return rows_; }
  idx_t ColumnCount() const { return columns_.size(); }
  const SqlValue& GetValue(idx_t column, idx_t row) const { return columns_.at(column).at(row); }

 private:
  std::vector<std::vector<SqlValue>> columns_;
  idx_t rows_;
};

class QueryResult {
 public:
  ~QueryResult();
  QueryResult(const QueryResult&) = delete;
  QueryResult& operator=(const QueryResult&) = delete;

  bool HasError() const;
  // The full message, e.g. "Catalog Error: Table with name orders does not exist! ...".
  const std::string& GetError() const;
  ErrorKind GetErrorKind() const;  // NONE for a result without error

  // Warnings: things the caller should know although the statement itself
  // succeeded (or failed for another reason), e.g. that a materialized view
  // could not be refreshed after the statement committed, or that a view
  // read is behind its sources. Each is one full sentence naming the object
  // and the fix; the shell prints them to stderr.
  const std::vector<std::string>& Warnings() const;

  const std::vector<std::string>& Names() const;
  const std::vector<ColumnType>& ColumnTypes() const;
  idx_t ColumnCount() const;

  // ---- Streaming (Connection::SendQuery). A streaming result holds its
  // SELECT's running plan and produces rows as they are fetched; see
  // Connection::SendQuery for the contract. True until a fetch finds the
  // end or fails (an error, Interrupt(), or the stream was invalidated by
  // another statement on its connection), or random access materialized it.
  bool IsStreaming() const;
  // Keep (true) each chunk FetchChunk/FetchNext pulls from a streaming
  // result, so that the random access members below stay available and
  // cover every row: for readers that convert rows as they arrive and may be
  // asked for them again later. Off by default (then the engine holds one
  // chunk at a time). Call before the first fetch.
  void RetainFetched(bool retain);

  // ---- Random access. On a streaming result each of these first fetches
  // every remaining row into the result (the result is materialized from
  // then on, and the stream ends). When chunks were already fetched from the
  // stream without RetainFetched, those rows are gone: these members then
  // throw std::logic_error saying so. An error while materializing (e.g.
  // Interrupt()) becomes the result's error (HasError) and the rows are the
  // ones read before it.
  idx_t RowCount() const;
  // One cell as a typed value. Throws std::out_of_range for a column or row
  // past the end. O(number of chunks) per call: to read many rows, use
  // FetchChunk.
  SqlValue GetValue(idx_t column, idx_t row) const;

  // The rows chunk by chunk, in order: each call returns the next chunk (at
  // most 2048 rows), nullptr after the last or when an error ended a
  // streaming result (HasError() then tells). Independent of GetValue().
  // On a materialized result this bounds the converted values held at once,
  // not the engine's memory; on a streaming result it also bounds the
  // engine's.
  std::unique_ptr<ResultChunk> FetchChunk();
  // FetchChunk without converting the values: moves to the next chunk and
  // returns true, or false after the last (or on an error, see HasError()).
  // ColumnView(result, column) reads the chunk it moved to, until the next
  // call. Shares FetchChunk's position.
  bool FetchNext();
  // Random access to the same chunks (const; FetchChunk's position stays).
  idx_t ChunkCount() const;
  idx_t ChunkRowCount(idx_t index) const;
  std::unique_ptr<ResultChunk> GetChunk(idx_t index) const;

  // Tab-separated text of every row, or the error (for tests and debugging).
  std::string ToString() const;

  // ---- Engine side: members naming engine types (declared above, defined in
  // engine headers). Code outside the engine cannot call them.
  QueryResult(std::vector<std::string> names, std::vector<LogicalType> types);
  static std::unique_ptr<QueryResult> FromError(ExceptionType type, std::string message);
  ExceptionType GetErrorType() const;
  const std::vector<LogicalType>& Types() const;
  Value GetEngineValue(idx_t column, idx_t row) const;
  const std::vector<std::unique_ptr<DataChunk>>& Chunks() const;
  // Appends a chunk (the engine fills results through this).
  void Append(std::unique_ptr<DataChunk> chunk);
  void AddWarning(std::string warning);
  // Makes this a streaming result pulling from `stream`.
  void SetStream(std::shared_ptr<QueryStream> stream);
  const std::shared_ptr<QueryStream>& Stream() const;
  // The chunk the last FetchNext moved to; nullptr before the first or after the last.
  const DataChunk* CurrentChunk() const;

 private:
  struct Impl;
  // The next chunk of a streaming result, or nullptr at the end or on an
  // error (then recorded as the result's error).
  std::unique_ptr<DataChunk> Pull() const;
  void Materialize() const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lakestream
