#include "connector/kafka/kafka_producer.hpp"

#include <librdkafka/rdkafka.h>

#include <charconv>
#include <chrono>
#include <cstring>

namespace lakestream {

int32_t KafkaPartition(const std::string& key, int32_t partitions) {
  // MurmurHash2 (32-bit, seed 0x9747b28c) as Kafka's DefaultPartitioner uses it.
  const uint32_t m = 0x5bd1e995;
  const int r = 24;
  uint32_t length = static_cast<uint32_t>(key.size());
  uint32_t h = 0x9747b28c ^ length;
  const auto* data = reinterpret_cast<const unsigned char*>(key.data());
  uint32_t i = 0;
  for (; i + 4 <= length; i += 4) {
    uint32_t k = static_cast<uint32_t>(data[i]) | static_cast<uint32_t>(data[i + 1]) << 8 |
                 static_cast<uint32_t>(data[i + 2]) << 16 | static_cast<uint32_t>(data[i + 3]) << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  switch (length - i) {
    case 3: h ^= static_cast<uint32_t>(data[i + 2]) << 16; [[fallthrough]];
    case 2: h ^= static_cast<uint32_t>(data[i + 1]) << 8; [[fallthrough]];
    case 1:
      h ^= data[i];
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>((h & 0x7fffffff) % static_cast<uint32_t>(partitions));
}

int32_t KafkaPartitionForVersion(int64_t version, int32_t partitions) {
  return static_cast<int32_t>(static_cast<uint64_t>(version) % static_cast<uint64_t>(partitions));
}

// Applies the user's properties to a fresh configuration.
static Status MakeConf(const SinkOptions& options, rd_kafka_conf_t** out) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  for (auto& [k, v] : options.kafka_properties) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status::InvalidArgument("Kafka property '" + k + "': " + errstr);
    }
  }
  // librdkafka's own log lines would interleave with the shell's output; errors reach us through callbacks.
  rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof(errstr));
  *out = conf;
  return Status::OK();
}

Result<int32_t> KafkaTopicPartitions(const SinkOptions& options, int timeout_ms) {
  rd_kafka_conf_t* conf = nullptr;
  LS_RETURN_NOT_OK(MakeConf(options, &conf));
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) return Status::InvalidArgument(std::string("cannot create a Kafka client: ") + errstr);
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &metadata, timeout_ms);
  Result<int32_t> result = Status::NotFound("topic " + options.topic + " does not exist on " + options.bootstrap_servers);
  if (err) {
    result = Status::IOError("cannot reach the Kafka brokers " + options.bootstrap_servers + ": " + rd_kafka_err2str(err));
  } else {
    for (int i = 0; i < metadata->topic_cnt; i++) {
      const auto& t = metadata->topics[i];
      if (options.topic != t.topic) continue;
      if (t.err) {
        result = Status::IOError("topic " + options.topic + ": " + rd_kafka_err2str(t.err));
      } else {
        result = static_cast<int32_t>(t.partition_cnt);
      }
    }
    rd_kafka_metadata_destroy(metadata);
  }
  rd_kafka_destroy(rk);
  return result;
}

Status CreateKafkaTopic(const SinkOptions& options, int timeout_ms) {
  rd_kafka_conf_t* conf = nullptr;
  LS_RETURN_NOT_OK(MakeConf(options, &conf));
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) return Status::InvalidArgument(std::string("cannot create a Kafka client: ") + errstr);
  rd_kafka_NewTopic_t* topic =
      rd_kafka_NewTopic_new(options.topic.c_str(), options.topic_partitions, options.topic_replication, errstr, sizeof(errstr));
  if (!topic) {
    rd_kafka_destroy(rk);
    return Status::InvalidArgument("cannot create topic " + options.topic + ": " + errstr);
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  rd_kafka_AdminOptions_t* admin = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
  rd_kafka_AdminOptions_set_request_timeout(admin, timeout_ms, errstr, sizeof(errstr));
  rd_kafka_CreateTopics(rk, &topic, 1, admin, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, timeout_ms + 1000);
  Status status = Status::IOError("creating topic " + options.topic + " on " + options.bootstrap_servers +
                                  " got no answer within " + std::to_string(timeout_ms / 1000) + " s");
  if (event) {
    if (rd_kafka_event_error(event)) {
      status = Status::IOError("creating topic " + options.topic + " on " + options.bootstrap_servers + " failed: " +
                               rd_kafka_event_error_string(event));
    } else {
      size_t count = 0;
      const rd_kafka_topic_result_t** results =
          rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event), &count);
      status = Status::OK();
      for (size_t i = 0; i < count; i++) {
        rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) continue;
        const char* why = rd_kafka_topic_result_error_string(results[i]);
        status = Status::IOError("the broker refused to create topic " + options.topic + " (" +
                                 std::to_string(options.topic_partitions) + " partitions, replication factor " +
                                 std::to_string(options.topic_replication) + "): " + (why ? why : rd_kafka_err2str(err)));
      }
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_AdminOptions_destroy(admin);
  rd_kafka_NewTopic_destroy(topic);
  rd_kafka_queue_destroy(queue);
  rd_kafka_destroy(rk);
  return status;
}

struct KafkaProducerCallbacks {
  static void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
    auto* self = static_cast<KafkaProducer*>(opaque);
    std::lock_guard<std::mutex> guard(self->mutex_);
    if (message->err) {
      if (self->failure_.empty()) {
        self->failure_ = std::string("delivery to ") + rd_kafka_topic_name(message->rkt) + " failed: " + rd_kafka_err2str(message->err);
      }
      return;
    }
    if (message->partition >= 0 && message->partition < static_cast<int32_t>(self->acked_offsets_.size())) {
      int64_t& next = self->acked_offsets_[message->partition];
      if (message->offset + 1 > next) next = message->offset + 1;
    }
    self->transport_error_.clear();
  }
  static void OnError(rd_kafka_t* rk, int err, const char* reason, void* opaque) {
    auto* self = static_cast<KafkaProducer*>(opaque);
    std::lock_guard<std::mutex> guard(self->mutex_);
    if (err == RD_KAFKA_RESP_ERR__FATAL) {
      char fatal[512];
      rd_kafka_fatal_error(rk, fatal, sizeof(fatal));
      if (self->failure_.empty()) self->failure_ = std::string("fatal Kafka producer error: ") + fatal;
      return;
    }
    self->transport_error_ = std::string(rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err))) + ": " + reason;
  }
};

Result<std::unique_ptr<KafkaProducer>> KafkaProducer::Open(const SinkOptions& options, const std::string& sink_id,
                                                           const std::string& source, int32_t partitions) {
  std::unique_ptr<KafkaProducer> self(new KafkaProducer());
  self->source_ = source;
  self->sink_id_ = sink_id;
  self->partitions_ = partitions;
  self->transactional_ = options.transactional;
  self->acked_offsets_.assign(partitions, -1);
  rd_kafka_conf_t* conf = nullptr;
  LS_RETURN_NOT_OK(MakeConf(options, &conf));
  char errstr[512];
  auto set = [&](const char* k, const std::string& v) { return rd_kafka_conf_set(conf, k, v.c_str(), errstr, sizeof(errstr)); };
  // Exactly-once needs these whatever the user set.
  set("enable.idempotence", "true");
  set("acks", "all");
  if (options.transactional) set("transactional.id", "lakestream-sink-" + sink_id);
  rd_kafka_conf_set_opaque(conf, self.get());
  rd_kafka_conf_set_dr_msg_cb(conf, KafkaProducerCallbacks::OnDelivery);
  rd_kafka_conf_set_error_cb(conf, KafkaProducerCallbacks::OnError);
  self->rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!self->rk_) return Status::InvalidArgument(std::string("cannot create the Kafka producer: ") + errstr);
  self->topic_ = rd_kafka_topic_new(self->rk_, options.topic.c_str(), nullptr);
  if (!self->topic_) return Status::IOError("cannot open topic " + options.topic);
  return self;
}

KafkaProducer::~KafkaProducer() {
  if (topic_) rd_kafka_topic_destroy(topic_);
  if (rk_) {
    // Messages still queued were not acknowledged, so progress does not
    // count them; dropping them here is safe (they are sent again).
    rd_kafka_purge(rk_, RD_KAFKA_PURGE_F_QUEUE);
    rd_kafka_flush(rk_, 2000);
    rd_kafka_destroy(rk_);
  }
}

Status KafkaProducer::PendingFailure() {
  std::lock_guard<std::mutex> guard(mutex_);
  if (failure_.empty()) return Status::OK();
  return Status::IOError(failure_);
}

std::string KafkaProducer::TransportError() {
  std::lock_guard<std::mutex> guard(mutex_);
  return transport_error_;
}

std::vector<int64_t> KafkaProducer::AckedOffsets() {
  std::lock_guard<std::mutex> guard(mutex_);
  return acked_offsets_;
}

void KafkaProducer::Wait(int timeout_ms) {
  rd_kafka_poll(rk_, timeout_ms);
  if (on_wait_) on_wait_(TransportError());
}

Status KafkaProducer::Produce(const SinkMessage& message, int32_t partition) {
  char version[24];
  char seq[24];
  auto version_end = std::to_chars(version, version + sizeof(version), message.version).ptr;
  auto seq_end = std::to_chars(seq, seq + sizeof(seq), message.seq).ptr;
  while (true) {
    rd_kafka_headers_t* headers = rd_kafka_headers_new(4);
    rd_kafka_header_add(headers, "lakestream.table", 16, source_.data(), static_cast<ssize_t>(source_.size()));
    rd_kafka_header_add(headers, "lakestream.version", 18, version, version_end - version);
    rd_kafka_header_add(headers, "lakestream.seq", 14, seq, seq_end - seq);
    rd_kafka_header_add(headers, "lakestream.sink", 15, sink_id_.data(), static_cast<ssize_t>(sink_id_.size()));
    rd_kafka_resp_err_t err = rd_kafka_producev(
        rk_, RD_KAFKA_V_RKT(topic_), RD_KAFKA_V_PARTITION(partition),
        RD_KAFKA_V_KEY(message.has_key ? message.key.data() : nullptr, message.has_key ? message.key.size() : 0),
        RD_KAFKA_V_VALUE(message.has_value ? const_cast<char*>(message.value.data()) : nullptr,
                         message.has_value ? message.value.size() : 0),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
    rd_kafka_headers_destroy(headers);
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return Status::IOError(std::string("cannot queue a message for Kafka: ") + rd_kafka_err2str(err));
    }
    // The local queue is full: serve delivery reports until there is room.
    Wait(100);
    LS_RETURN_NOT_OK(PendingFailure());
  }
  // Delivery reports are served as we go so the queue drains steadily: every
  // kProducesPerPoll messages, which serves the reports that arrived
  // meanwhile in one go instead of looking for them after every message.
  if (++produced_since_poll_ >= kProducesPerPoll) {
    produced_since_poll_ = 0;
    rd_kafka_poll(rk_, 0);
  }
  return Status::OK();
}

Status KafkaProducer::Flush() {
  auto last_report = std::chrono::steady_clock::now();
  while (rd_kafka_outq_len(rk_) > 0) {
    rd_kafka_flush(rk_, 200);
    LS_RETURN_NOT_OK(PendingFailure());
    auto now = std::chrono::steady_clock::now();
    if (on_wait_ && now - last_report > std::chrono::milliseconds(200)) {
      last_report = now;
      on_wait_(TransportError());
    }
  }
  rd_kafka_poll(rk_, 0);
  return PendingFailure();
}

static Status TxnStatus(rd_kafka_error_t* error, const char* what) {
  if (!error) return Status::OK();
  std::string message = std::string("Kafka ") + what + " failed: " + rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  return Status::IOError(message);
}

Status KafkaProducer::InitTransactions() { return TxnStatus(rd_kafka_init_transactions(rk_, 30000), "init_transactions"); }
Status KafkaProducer::BeginTransaction() { return TxnStatus(rd_kafka_begin_transaction(rk_), "begin_transaction"); }
Status KafkaProducer::CommitTransaction() {
  LS_RETURN_NOT_OK(TxnStatus(rd_kafka_commit_transaction(rk_, -1), "commit_transaction"));
  return PendingFailure();
}

}  // namespace lakestream
