// read_kafka('bootstrap:port', 'topic' [, startingOffsets => 'earliest' | 'latest',
//            timeout_ms => 10000, <librdkafka consumer property> => '...']):
// the messages of a Kafka topic as rows
//   key VARCHAR, value VARCHAR, topic VARCHAR, partition INTEGER, offset BIGINT, timestamp TIMESTAMP
// up to each partition's end offset when the query is bound.
//
// In a streaming table (an IngestionScope is set) each partition is read from
// where the table stopped: its next offset is the Delta txn
//   appId = "lakestream.kafka:" topic "/" partition,  version = next offset
// committed with the rows (docs/pipelines.md), so every message lands in the
// table exactly once. The first read starts at startingOffsets (earliest by
// default). Outside a streaming table the whole topic is read.
#include "connector/kafka/read_kafka.hpp"

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <map>

#include "common/exception.hpp"
#include "common/kafka_jaas.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "function/table/ingestion_scope.hpp"
#include "connector/secret_use.hpp"

namespace lakestream {

namespace {

struct KafkaSource {
  std::string bootstrap;
  std::string topic;
  std::map<std::string, std::string> properties;
  // secret => 'name': the kafka secret's properties, resolved at bind (given properties win).
  std::vector<std::pair<std::string, std::string>> credentials;
  int timeout_ms = 10000;
};

struct PartitionRange {
  int32_t partition;
  int64_t start;
  int64_t end;  // exclusive
};

// A consumer handle that is always closed and destroyed.
struct Consumer {
  rd_kafka_t* rk = nullptr;
  ~Consumer() {
    if (rk) {
      rd_kafka_consumer_close(rk);
      rd_kafka_destroy(rk);
    }
  }
};

void OpenConsumer(const KafkaSource& source, Consumer& consumer) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  auto set = [&](const std::string& k, const std::string& v) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      // librdkafka's message quotes the value: left out for a credential.
      bool sensitive = IsSensitiveKey("kafka", k);
      throw InvalidInputError("read_kafka(): property " + k + (sensitive ? "" : " = '" + v + "'") + " is not accepted" +
                              (sensitive ? std::string() : ": " + std::string(errstr)));
    }
  };
  set("bootstrap.servers", source.bootstrap);
  set("log_level", "0");
  // assign() needs no group membership, but librdkafka wants a group id.
  set("group.id", "lakestream-read-kafka");
  set("enable.auto.commit", "false");
  set("enable.partition.eof", "true");
  KafkaProperties given = source.credentials;
  given.insert(given.end(), source.properties.begin(), source.properties.end());
  auto expanded = ExpandJaasConfig(given);  // Java's sasl.jaas.config as librdkafka's sasl.* properties
  if (!expanded.ok()) {
    rd_kafka_conf_destroy(conf);
    throw InvalidInputError("read_kafka(): " + expanded.status().message());
  }
  for (auto& [k, v] : expanded.value()) set(k, v);
  consumer.rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
  if (!consumer.rk) throw IOError(std::string("read_kafka(): cannot create a Kafka consumer: ") + errstr);
}

int32_t PartitionCount(const KafkaSource& source, Consumer& consumer) {
  rd_kafka_topic_t* topic = rd_kafka_topic_new(consumer.rk, source.topic.c_str(), nullptr);
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(consumer.rk, 0, topic, &metadata, source.timeout_ms);
  rd_kafka_topic_destroy(topic);
  if (err) {
    throw IOError("read_kafka('" + source.bootstrap + "', '" + source.topic + "'): cannot reach the broker (" +
                  rd_kafka_err2str(err) + "); check bootstrap.servers and that the broker runs");
  }
  int32_t count = 0;
  rd_kafka_resp_err_t topic_err = RD_KAFKA_RESP_ERR_NO_ERROR;
  if (metadata->topic_cnt == 1) {
    count = metadata->topics[0].partition_cnt;
    topic_err = metadata->topics[0].err;
  }
  rd_kafka_metadata_destroy(metadata);
  if (topic_err || count == 0) {
    throw InvalidInputError("read_kafka('" + source.bootstrap + "', '" + source.topic + "'): the topic does not exist (" +
                            std::string(rd_kafka_err2str(topic_err)) + "); create it first");
  }
  return count;
}

std::string KafkaAppId(const KafkaSource& source, int32_t partition) {
  // Not the bootstrap list: it changes when brokers are added or move (as Spark keys offsets by topic-partition).
  return "lakestream.kafka:" + source.topic + "/" + std::to_string(partition);
}

// Reads the ranges into rows of the read_kafka schema.
void ReadRanges(const KafkaSource& source, const std::vector<PartitionRange>& ranges, ChunkCollection& out) {
  std::vector<PartitionRange> open;
  for (auto& r : ranges) {
    if (r.start < r.end) open.push_back(r);
  }
  if (open.empty()) return;
  Consumer consumer;
  OpenConsumer(source, consumer);
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(static_cast<int>(open.size()));
  for (auto& r : open) rd_kafka_topic_partition_list_add(assignment, source.topic.c_str(), r.partition)->offset = r.start;
  rd_kafka_resp_err_t err = rd_kafka_assign(consumer.rk, assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (err) throw IOError("read_kafka(): cannot read topic " + source.topic + ": " + rd_kafka_err2str(err));
  std::map<int32_t, int64_t> end;
  for (auto& r : open) end[r.partition] = r.end;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(source.timeout_ms);
  DataChunk chunk;
  chunk.Initialize(out.Types());
  idx_t row = 0;
  auto flush = [&]() {
    chunk.SetCardinality(row);
    if (row > 0) out.Append(chunk);
    chunk.Reset();
    row = 0;
  };
  while (!end.empty()) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw IOError("read_kafka(): timed out reading " + source.topic + " from " + source.bootstrap +
                    "; raise timeout_ms or check the broker");
    }
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer.rk, 100);
    if (!m) continue;
    auto it = end.find(m->partition);
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      if (it != end.end()) end.erase(it);
    } else if (m->err) {
      std::string message = rd_kafka_message_errstr(m);
      rd_kafka_message_destroy(m);
      throw IOError("read_kafka(): cannot read topic " + source.topic + ": " + message);
    } else if (it != end.end() && m->offset < it->second) {
      chunk.SetValue(0, row, m->key ? Value(std::string(static_cast<const char*>(m->key), m->key_len)) : Value(LogicalType(TypeId::VARCHAR)));
      chunk.SetValue(1, row, m->payload ? Value(std::string(static_cast<const char*>(m->payload), m->len)) : Value(LogicalType(TypeId::VARCHAR)));
      chunk.SetValue(2, row, Value(source.topic));
      chunk.SetValue(3, row, Value::INTEGER(m->partition));
      chunk.SetValue(4, row, Value::BIGINT(m->offset));
      int64_t ts = rd_kafka_message_timestamp(m, nullptr);
      chunk.SetValue(5, row, ts >= 0 ? Value::TIMESTAMP(ts * 1000) : Value(LogicalType(TypeId::TIMESTAMP)));
      if (++row == STANDARD_VECTOR_SIZE) flush();
      if (m->offset + 1 >= it->second) end.erase(it);
    }
    rd_kafka_message_destroy(m);
  }
  flush();
}

TableFunctionBinding BindReadKafka(ClientContext& context, const std::vector<Value>& args,
                                   const std::vector<std::string>& names) {
  if (args.size() < 2 || !names[0].empty() || !names[1].empty() || args[0].type().id() != TypeId::VARCHAR ||
      args[1].type().id() != TypeId::VARCHAR || args[0].IsNull() || args[1].IsNull()) {
    throw BinderError("read_kafka() takes the bootstrap servers and the topic, e.g. read_kafka('localhost:9092', 'orders')");
  }
  KafkaSource source;
  source.bootstrap = args[0].GetString();
  source.topic = args[1].GetString();
  context.Database().AccessPolicy().CheckNetwork("the Kafka broker " + source.bootstrap, "read_kafka");
  bool latest = false;
  for (idx_t i = 2; i < args.size(); i++) {
    if (names[i].empty()) throw BinderError("read_kafka() options are named: name => value");
    std::string value = args[i].ToString();
    if (names[i] == "startingoffsets") {
      std::string v = StringUtil::Lower(value);
      if (v != "earliest" && v != "latest") throw BinderError("read_kafka() startingOffsets must be 'earliest' or 'latest'");
      latest = v == "latest";
    } else if (names[i] == "secret") {
      source.credentials = KafkaSecretProperties(context, value, "read_kafka()");
    } else if (names[i] == "timeout_ms") {
      source.timeout_ms = static_cast<int>(args[i].AsBigint());
    } else {
      // A streaming table keeps its query in catalog.json: a credential there would be stored in clear.
      if (context.ingestion_scope && IsSensitiveKey("kafka", names[i])) {
        throw BinderError("read_kafka(): '" + names[i] + "' given inline in a streaming table would be stored with the "
                          "table's definition; CREATE PERSISTENT SECRET name (TYPE kafka, '" + names[i] +
                          "' '...') and pass secret => 'name' instead");
      }
      source.properties[names[i]] = value;  // a librdkafka consumer property (checked when the consumer is made)
    }
  }
  IngestionScope* scope = context.ingestion_scope;
  Consumer consumer;
  OpenConsumer(source, consumer);
  int32_t partitions = PartitionCount(source, consumer);
  std::vector<PartitionRange> ranges;
  for (int32_t p = 0; p < partitions; p++) {
    int64_t low = 0, high = 0;
    rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(consumer.rk, source.topic.c_str(), p, &low, &high, source.timeout_ms);
    if (err) throw IOError("read_kafka(): cannot read the offsets of " + source.topic + " [" + std::to_string(p) + "]: " + rd_kafka_err2str(err));
    int64_t start = low;
    if (scope) {
      std::string app = KafkaAppId(source, p);
      auto stored = scope->TxnVersion(app);
      start = stored ? std::max(*stored, low) : (latest ? high : low);
      // The offsets move with the rows, even where this run reads nothing yet (latest).
      if (!stored || *stored < high) scope->stream_offsets.emplace_back(app, high);
    }
    ranges.push_back({p, start, high});
  }
  TableFunctionBinding binding;
  binding.names = {"key", "value", "topic", "partition", "offset", "timestamp"};
  binding.types = {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::INTEGER, TypeId::BIGINT, TypeId::TIMESTAMP};
  auto types = binding.types;
  std::shared_ptr<int64_t> counter = scope ? scope->rows_read : std::make_shared<int64_t>(0);
  binding.factory = [source, ranges, types, counter](const std::vector<idx_t>& projected) {
    ChunkCollection rows(types);
    ReadRanges(source, ranges, rows);
    *counter += static_cast<int64_t>(rows.Count());
    auto shared = std::make_shared<const ChunkCollection>(std::move(rows));
    return MakeCollectionSource(shared, projected, "READ_KAFKA");
  };
  return binding;
}

}  // namespace

void RegisterKafkaTableFunctions(TableFunctionRegistry& registry) {
  registry.Register("read_kafka", [](ClientContext& context, const std::string&, const std::vector<Value>& arguments,
                                     const std::vector<std::string>& argument_names) {
    return BindReadKafka(context, arguments, argument_names);
  });
}

}  // namespace lakestream
