#include "connector/sink_options.hpp"

#include <librdkafka/rdkafka.h>

#include <cerrno>
#include <cstdlib>

#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/kafka_jaas.hpp"
#include "common/string_util.hpp"
#include "common/secret/secret.hpp"

namespace lakestream {

const char* SinkFormatToString(SinkFormat format) {
  switch (format) {
    case SinkFormat::APPEND: return "append";
    case SinkFormat::UPSERT: return "upsert";
    case SinkFormat::DEBEZIUM: return "debezium";
    case SinkFormat::RAW: return "raw";
  }
  return "?";
}

static std::vector<std::string> SplitColumns(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text + ",") {
    if (c == ',') {
      size_t b = current.find_first_not_of(" \t");
      size_t e = current.find_last_not_of(" \t");
      if (b != std::string::npos) out.push_back(current.substr(b, e - b + 1));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  return out;
}

static bool ParseBool(const SinkCatalogEntry& sink, const std::string& key, const std::string& value) {
  std::string v = StringUtil::Lower(value);
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw InvalidInputError("Sink " + sink.name + ": option '" + key + "' must be 'true' or 'false', not '" + value + "'");
}

// Does librdkafka know this producer property? Tried on a scratch
// configuration, so a typo is reported at CREATE SINK rather than at run time.
static void CheckKafkaProperty(const SinkCatalogEntry& sink, const std::string& key, const std::string& value) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  // An env('NAME') value is read at use: only the property name is checked now.
  bool env = EnvReferenceName(value).has_value();
  rd_kafka_conf_res_t res = rd_kafka_conf_set(conf, key.c_str(), env ? "" : value.c_str(), errstr, sizeof(errstr));
  rd_kafka_conf_destroy(conf);
  if (res == RD_KAFKA_CONF_UNKNOWN) {
    throw InvalidInputError("Sink " + sink.name + ": unknown option '" + key +
                            "': it is neither a sink option (format, topic, key, value.columns, on_change, tombstones, "
                            "start, transactional, decimal.format, secret, create_topic, topic.partitions, topic.replication.factor) "
                            "nor a librdkafka property; check the spelling");
  }
  if (res != RD_KAFKA_CONF_OK && !env) {
    // librdkafka's message quotes the value: left out for a credential.
    throw InvalidInputError("Sink " + sink.name + ": bad value for Kafka property '" + key + "'" +
                            (IsSensitiveKey("kafka", key) ? std::string() : ": " + std::string(errstr)));
  }
}

static std::string Trim(const std::string& text) {
  size_t b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return text.substr(b, text.find_last_not_of(" \t") - b + 1);
}

static int32_t ParseTopicCount(const SinkCatalogEntry& sink, const std::string& key, const std::string& value, int64_t low,
                               int64_t high, const std::string& allowed) {
  std::string text = Trim(value);
  char* end = nullptr;
  errno = 0;
  long long n = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || *end != '\0' || n < low || n > high) {
    throw InvalidInputError("Sink " + sink.name + ": option '" + key + "' must be a whole number, " + allowed + ", not '" +
                            value + "'");
  }
  return static_cast<int32_t>(n);
}

static SinkStart ParseStart(const SinkCatalogEntry& sink, const std::string& value) {
  SinkStart start;
  std::string v = StringUtil::Lower(Trim(value));
  if (v == "latest") return start;
  if (v == "earliest") {
    start.kind = SinkStartKind::EARLIEST;
    return start;
  }
  if (StringUtil::StartsWith(v, "version ")) {
    std::string number = Trim(v.substr(8));
    char* end = nullptr;
    errno = 0;
    long long n = number.empty() ? -1 : std::strtoll(number.c_str(), &end, 10);
    if (!number.empty() && errno == 0 && *end == '\0' && n >= 0) {
      start.kind = SinkStartKind::VERSION;
      start.version = n;
      return start;
    }
  } else if (StringUtil::StartsWith(v, "timestamp ")) {
    timestamp_t ts;
    if (Timestamp::TryParse(Trim(Trim(value).substr(10)), ts)) {
      start.kind = SinkStartKind::TIMESTAMP;
      start.timestamp = ts;
      return start;
    }
  }
  throw InvalidInputError("Sink " + sink.name + ": option 'start' must be 'latest' (changes after this statement), "
                          "'earliest' (the current rows first, as inserts), 'version N' (changes of version N and "
                          "after, N >= 0) or 'timestamp YYYY-MM-DD[ HH:MM:SS]' (changes committed at or after it), "
                          "not '" + value + "'");
}

std::string SinkOptions::EncodingSignature() const {
  std::string out = SinkFormatToString(format);
  out += "|key=" + StringUtil::Join(key_columns, ",") + "|value=" + StringUtil::Join(value_columns, ",");
  out += skip_changes ? "|skip" : "|error";
  out += tombstones ? "|tombstones" : "|no-tombstones";
  out += decimal_as_string ? "|decimal-string" : "|decimal-number";
  return out;
}

SinkOptions ParseSinkOptions(const SinkCatalogEntry& sink) {
  SinkOptions options;
  options.kafka = sink.target != "file";
  for (auto& [raw_key, value] : sink.options) {
    std::string key = StringUtil::Lower(raw_key);
    if (key == "format") {
      std::string v = StringUtil::Lower(value);
      if (v == "append") options.format = SinkFormat::APPEND;
      else if (v == "upsert") options.format = SinkFormat::UPSERT;
      else if (v == "debezium") options.format = SinkFormat::DEBEZIUM;
      else if (v == "raw") options.format = SinkFormat::RAW;
      else throw InvalidInputError("Sink " + sink.name + ": unknown format '" + value + "'; use 'append', 'upsert', 'debezium' or 'raw'");
    } else if (key == "secret" && options.kafka) {
      options.secret_name = value;
    } else if (key == "topic") {
      options.topic = value;
    } else if (key == "key") {
      options.key_columns = SplitColumns(value);
    } else if (key == "value.columns") {
      options.value_columns = SplitColumns(value);
    } else if (key == "on_change") {
      std::string v = StringUtil::Lower(value);
      if (v != "skip" && v != "error") {
        throw InvalidInputError("Sink " + sink.name + ": option 'on_change' must be 'error' or 'skip', not '" + value + "'");
      }
      options.skip_changes = v == "skip";
    } else if (key == "tombstones") {
      options.tombstones = ParseBool(sink, raw_key, value);
    } else if (key == "start") {
      options.start = ParseStart(sink, value);
      options.start_given = true;
    } else if (key == "transactional") {
      options.transactional = ParseBool(sink, raw_key, value);
    } else if (key == "create_topic" && options.kafka) {
      options.create_topic = ParseBool(sink, raw_key, value);
    } else if (key == "topic.partitions" && options.kafka) {
      options.topic_partitions = ParseTopicCount(sink, raw_key, value, 1, 1000000, "at least 1");
    } else if (key == "topic.replication.factor" && options.kafka) {
      options.topic_replication = ParseTopicCount(sink, raw_key, value, -1, 32767, "-1 (the broker's default) or at least 1");
      if (options.topic_replication == 0) {
        throw InvalidInputError("Sink " + sink.name + ": option '" + raw_key + "' must be -1 (the broker's default) "
                                "or at least 1, not 0");
      }
    } else if (key == "decimal.format") {
      std::string v = StringUtil::Lower(value);
      if (v != "string" && v != "number") {
        throw InvalidInputError("Sink " + sink.name + ": option 'decimal.format' must be 'string' or 'number', not '" + value + "'");
      }
      options.decimal_as_string = v == "string";
    } else if (!options.kafka) {
      throw InvalidInputError("Sink " + sink.name + ": unknown option '" + raw_key +
                              "' for a FILE sink; file sinks take format, key, value.columns, on_change, tombstones, "
                              "start and decimal.format");
    } else {
      std::string kafka_key = StringUtil::StartsWith(key, "kafka.") ? raw_key.substr(6) : raw_key;
      if (!IsJaasConfigKey(kafka_key)) CheckKafkaProperty(sink, kafka_key, value);  // librdkafka has no JAAS
      if (StringUtil::Lower(kafka_key) == "bootstrap.servers" || StringUtil::Lower(kafka_key) == "metadata.broker.list") {
        options.bootstrap_servers = value;
      }
      options.kafka_properties.emplace_back(kafka_key, value);
    }
  }
  if (options.kafka) {
    // A JAAS line (Java's way to give SASL credentials) must map onto
    // librdkafka's properties; values read from env() are checked at use.
    KafkaProperties known;
    for (auto& [k, v] : options.kafka_properties)
      if (!EnvReferenceName(v)) known.emplace_back(k, v);
    auto expanded = ExpandJaasConfig(known);
    if (!expanded.ok()) throw InvalidInputError("Sink " + sink.name + ": " + expanded.status().message());
    if (options.bootstrap_servers.empty()) {
      throw InvalidInputError("Sink " + sink.name + ": a Kafka sink needs 'bootstrap.servers' = 'host:port[,...]' in WITH (...)");
    }
    if (options.topic.empty()) throw InvalidInputError("Sink " + sink.name + ": a Kafka sink needs 'topic' = '...' in WITH (...)");
    if (!options.create_topic) {
      for (auto& [k, v] : sink.options) {
        if (StringUtil::CIEquals(k, "topic.partitions") || StringUtil::CIEquals(k, "topic.replication.factor")) {
          throw InvalidInputError("Sink " + sink.name + ": option '" + k + "' applies only with 'create_topic' = 'true' "
                                  "(an existing topic keeps its partitions and replicas)");
        }
      }
    }
  }
  bool inserts_only = options.format == SinkFormat::APPEND || options.format == SinkFormat::RAW;
  if (options.skip_changes && !inserts_only) {
    throw InvalidInputError("Sink " + sink.name + ": 'on_change' applies to the 'append' and 'raw' formats only; " +
                            SinkFormatToString(options.format) + " delivers every change");
  }
  if (options.format == SinkFormat::RAW) {
    if (!options.kafka) {
      throw InvalidInputError("Sink " + sink.name + ": the 'raw' format sends Kafka message keys and values as they are "
                              "and is for Kafka sinks only; a FILE sink takes 'append', 'upsert' or 'debezium'");
    }
    if (options.key_columns.size() > 1 || options.value_columns.size() > 1) {
      throw InvalidInputError("Sink " + sink.name + ": the 'raw' format sends one column as the key and one as the value; "
                              "'key' and 'value.columns' name at most one column each (build a single column with "
                              "to_json(struct(...)) or || first)");
    }
  }
  return options;
}

const SinkOptions& ReparseSinkOptions(const SinkCatalogEntry& sink) {
  sink.parsed_options = std::make_shared<const SinkOptions>(ParseSinkOptions(sink));
  return *sink.parsed_options;
}

std::shared_ptr<const SinkOptions> ParsedSinkOptions(const SinkCatalogEntry& sink) {
  if (!sink.parsed_options) ReparseSinkOptions(sink);
  return sink.parsed_options;
}

}  // namespace lakestream
