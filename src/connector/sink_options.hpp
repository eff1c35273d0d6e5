// SinkOptions: the WITH (...) of CREATE SINK, checked and typed.
//
// lakestream's own options (format, topic, key, value.columns, on_change,
// tombstones, start, transactional, decimal.format) are taken out; for Kafka
// sinks every other key (with a leading "kafka." removed) must be a property
// librdkafka knows (bootstrap.servers, security.protocol, sasl.*, ssl.*, ...)
// and is passed to the producer as-is. Keys compare case-insensitively.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

// RAW sends two columns' text as they are (Spark's Kafka sink): value = the
// `value` column (or the one 'value.columns' names), key = the `key` column
// (or the one 'key' names) when there is one; see sink_encoder.hpp.
enum class SinkFormat : uint8_t { APPEND, UPSERT, DEBEZIUM, RAW };
const char* SinkFormatToString(SinkFormat format);

// 'start': where a new sink (or one repositioned by CREATE OR REPLACE / ALTER
// SINK with 'start' given) begins. For a table or materialized view only.
//   latest          changes committed after the statement
//   earliest        the rows as of the statement first (as inserts), then changes
//   version N       changes of versions N, N+1, ... (N may be the next version)
//   timestamp TS    changes of the first version committed at or after TS
enum class SinkStartKind : uint8_t { LATEST, EARLIEST, VERSION, TIMESTAMP };
struct SinkStart {
  SinkStartKind kind = SinkStartKind::LATEST;
  int64_t version = -1;     // VERSION
  timestamp_t timestamp = 0;  // TIMESTAMP (micros, UTC)
};

struct SinkOptions {
  bool kafka = true;  // false: INTO FILE
  SinkFormat format = SinkFormat::APPEND;
  std::string topic;
  std::string bootstrap_servers;
  std::vector<std::string> key_columns;    // 'key'; empty: the source's primary key
  std::vector<std::string> value_columns;  // 'value.columns'; empty: every column
  bool skip_changes = false;               // 'on_change' = 'skip' (append and raw only)
  bool tombstones = true;                  // debezium: a tombstone after each delete
  SinkStart start;                         // 'start' (default latest)
  bool start_given = false;                // 'start' appears in the options
  bool transactional = false;
  bool decimal_as_string = true;           // 'decimal.format' = 'string' | 'number'
  // 'create_topic' = 'true': a missing topic is created at CREATE SINK with
  // 'topic.partitions' partitions (default 1) and 'topic.replication.factor'
  // replicas (default -1: the broker's default.replication.factor).
  bool create_topic = false;
  int32_t topic_partitions = 1;
  int32_t topic_replication = -1;
  // Debezium/upsert/append with the same columns and types write the same
  // bytes for a change: the options that shape a message (format, key,
  // value.columns, on_change, tombstones, decimal.format), as text.
  std::string EncodingSignature() const;
  // 'secret': the kafka secret whose properties (credentials) the sink uses,
  // resolved when the broker is contacted (connector/secret_use.hpp).
  std::string secret_name;
  // librdkafka properties, in the order given; a value may be an env('NAME')
  // reference, read at use (WithSinkCredentials).
  std::vector<std::pair<std::string, std::string>> kafka_properties;
};

// Parses `sink.options`. Throws InvalidInputError naming the sink and the
// option for an unknown key or a bad value, with the accepted values.
SinkOptions ParseSinkOptions(const SinkCatalogEntry& sink);

// `sink.options` parsed once: sets sink.parsed_options (DefineSink calls it
// for every new definition, so CREATE and ALTER SINK validate) and returns it.
const SinkOptions& ReparseSinkOptions(const SinkCatalogEntry& sink);
// sink.parsed_options, parsed on first use for a sink loaded from the
// catalog. Throws as ParseSinkOptions does.
std::shared_ptr<const SinkOptions> ParsedSinkOptions(const SinkCatalogEntry& sink);

}  // namespace lakestream
