// SinkEncoder: turns the changes of one source version into messages in the
// sink's format (append, upsert or debezium; docs/sinks.md has the grammar).
//
//   append    value = the row as a JSON object; no key unless 'key' is set.
//             A change that is not an insert is an error (InvalidInputError
//             naming the source, version and operation) unless on_change=skip,
//             which counts and skips it.
//   upsert    key = the key columns; value = the new row; delete = tombstone.
//   debezium  value = {"before","after","op","ts_ms","source"}; a delete is
//             followed by a tombstone unless tombstones=false.
//   raw       per inserted row: value = the text of the VARCHAR column
//             `value` ('value.columns' may name another), NULL -> a null
//             payload; key = the text of the VARCHAR column `key` ('key' may
//             name another) when there is one, NULL -> no key. Like append
//             for updates and deletes (error, or skipped with on_change=skip).
//
// Keys follow Kafka Connect's converters: a key of one VARCHAR, INTEGER or
// BIGINT column is the value's text (StringConverter), and a NULL there is a
// message without a key, in every format; any other key is a JSON object of
// the key columns (JsonConverter), NULL fields included.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/json_writer.hpp"
#include "connector/sink_message.hpp"
#include "connector/sink_options.hpp"

namespace lakestream {

struct SinkSchema {
  std::string source;  // the source's name, for headers and messages
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<idx_t> key_columns;    // may be empty (append)
  std::vector<idx_t> value_columns;  // every column unless 'value.columns'
};

// Resolves key and value columns against the source's columns. Throws
// InvalidInputError naming the sink and the column for an unknown column, or
// when upsert/debezium has no key (no 'key' option and no primary key), or
// when raw finds no VARCHAR value column, a non-VARCHAR key, or a Spark
// `partition`/`headers` column it cannot honour.
SinkSchema ResolveSinkSchema(const std::string& sink_name, const SinkOptions& options, const std::string& source,
                             const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                             const std::vector<std::string>& primary_key);

class SinkEncoder {
 public:
  SinkEncoder(const SinkOptions& options, SinkSchema schema);

  // Encodes the changes of `version` (committed at `commit_ts`, micros) in
  // order, calling `emit` once per message with seq 0, 1, ... Returns the
  // number of changes skipped (append with on_change=skip). Validates the
  // whole version before emitting anything, so an error leaves no partial version.
  // `first_seq`: the seq of the first message, for a version encoded in
  // parts (a snapshot read chunk by chunk: one message per row, in order).
  int64_t EncodeVersion(int64_t version, timestamp_t commit_ts, const std::vector<ChangeRow>& rows,
                        const std::function<void(SinkMessage&)>& emit, int64_t first_seq = 0);

  // Appends the key of a row as it is sent (see above) and sets
  // m.has_key and m.key_is_object; a NULL single-column key appends nothing.
  void EncodeKey(const DataChunk& chunk, idx_t row, SinkMessage& m) const;

 private:
  void EncodeRow(const DataChunk& chunk, idx_t row, std::string& out) const;
  // EncodeRow for rows whose value columns are all BOOLEAN, INTEGER, BIGINT,
  // DECIMAL or VARCHAR: written into a stack buffer, then appended once.
  // False (nothing written) when a column has another type or the row may
  // not fit the buffer.
  bool EncodeFlatRow(const DataChunk& chunk, idx_t row, std::string& out) const;
  void EncodeDebezium(const ChangeRow* before, const ChangeRow* after, const char* op, int64_t version,
                      timestamp_t commit_ts, std::string& out) const;

  SinkOptions options_;
  SinkSchema schema_;
  JsonOptions json_;
  std::vector<std::string> value_names_;
  std::vector<std::string> value_prefixes_;
  bool flat_values_ = true;  // every value column has a type EncodeFlatRow writes
  size_t fixed_row_bound_ = 0;  // the prefixes, braces and non-VARCHAR values at their longest  // "{\"name\":" for the first column, ",\"name\":" after it
  std::string source_json_;  // the source name as a JSON string
};

}  // namespace lakestream
