// SinkOptions: the WITH (...) of CREATE SINK, checked and typed.
//
// lakestream's own options (format, topic, key, value.columns, on_change,
// tombstones, start, transactional, decimal.format) are taken out; for Kafka
// sinks every other key (with a leading "kafka." removed) must be a property
// librdkafka knows (bootstrap.servers, security.protocol, sasl.*, ssl.*, ...)
// and is passed to the producer as-is. Keys compare case-insensitively.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

enum class SinkFormat : uint8_t { APPEND, UPSERT, DEBEZIUM };
const char* SinkFormatToString(SinkFormat format);

struct SinkOptions {
  bool kafka = true;  // false: INTO FILE
  SinkFormat format = SinkFormat::APPEND;
  std::string topic;
  std::string bootstrap_servers;
  std::vector<std::string> key_columns;    // 'key'; empty: the source's primary key
  std::vector<std::string> value_columns;  // 'value.columns'; empty: every column
  bool skip_changes = false;               // 'on_change' = 'skip' (append only)
  bool tombstones = true;                  // debezium: a tombstone after each delete
  bool start_earliest = false;             // 'start' = 'earliest'
  bool transactional = false;
  bool decimal_as_string = true;           // 'decimal.format' = 'string' | 'number'
  // librdkafka properties, in the order given.
  std::vector<std::pair<std::string, std::string>> kafka_properties;
};

// Parses `sink.options`. Throws InvalidInputError naming the sink and the
// option for an unknown key or a bad value, with the accepted values.
SinkOptions ParseSinkOptions(const SinkCatalogEntry& sink);

}  // namespace lakestream
