// KafkaProducer: the sink's librdkafka producer, with Status errors.
//
// Always idempotent (enable.idempotence=true, acks=all): per partition the
// broker keeps our messages in order, without duplicates from internal
// retries and without gaps, so what a partition holds from one producer is a
// prefix of what was sent to it. Resume (kafka_tail.hpp) relies on that.
// Messages go to the partition the caller computes (KafkaPartition), never to
// librdkafka's random choice, so a resend lands where the original did.
//
// Every message carries the headers
//   lakestream.table    the source's name
//   lakestream.version  the source commit version (decimal text)
//   lakestream.seq      the index of the message within that version
//   lakestream.sink     the sink's id (unique per CREATE SINK)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "connector/sink_message.hpp"
#include "connector/sink_options.hpp"

struct rd_kafka_s;
struct rd_kafka_topic_s;

namespace lakestream {

// Kafka's default partitioner for a keyed message (murmur2 of the key bytes,
// as the Java client and librdkafka's murmur2 partitioners compute it).
int32_t KafkaPartition(const std::string& key, int32_t partitions);
// For messages without a key: all of a version's messages in one partition.
int32_t KafkaPartitionForVersion(int64_t version, int32_t partitions);

// Reads the topic's partition count from the broker (all-topics metadata, so
// brokers that create topics on demand do not create it). NotFound names the
// topic when the broker does not have it; IOError when it is unreachable.
Result<int32_t> KafkaTopicPartitions(const SinkOptions& options, int timeout_ms);
// Creates options.topic with options.topic_partitions partitions and
// options.topic_replication replicas (CreateTopics, as kafka-topics
// --create). OK when it exists already (another creator won); the broker's
// refusal (not authorised, too many replicas, ...) as an IOError naming it.
Status CreateKafkaTopic(const SinkOptions& options, int timeout_ms);

class KafkaProducer {
 public:
  // Called while the producer waits on the broker (about every 200 ms) with
  // the current transport error ("" when none): how an outage reaches SHOW SINKS.
  using WaitCallback = std::function<void(const std::string& error)>;

  static Result<std::unique_ptr<KafkaProducer>> Open(const SinkOptions& options, const std::string& sink_id,
                                                     const std::string& source, int32_t partitions);
  ~KafkaProducer();

  void SetWaitCallback(WaitCallback callback) { on_wait_ = std::move(callback); }
  // Queues one message (blocking, and serving delivery reports, while the
  // local queue is full). Fails only for a fatal producer error.
  Status Produce(const SinkMessage& message, int32_t partition);
  // Waits until every queued message is acknowledged or has failed. The first
  // failure (a timeout after message.timeout.ms, a fatal error) is returned.
  Status Flush();
  // Kafka transactions ('transactional' = 'true'); InitTransactions once, then
  // one Begin/Commit pair per source version.
  Status InitTransactions();
  Status BeginTransaction();
  Status CommitTransaction();

  // Per partition: one past the highest offset acknowledged for our messages
  // (-1 where none was), so a later resume scan can start there.
  std::vector<int64_t> AckedOffsets();
  int32_t Partitions() const { return partitions_; }
  // The current transport error, "" when the broker answers.
  std::string TransportError();

 private:
  KafkaProducer() = default;
  friend struct KafkaProducerCallbacks;
  Status PendingFailure();
  void Wait(int timeout_ms);

  // Produce() serves delivery reports (rd_kafka_poll) once per this many messages.
  static constexpr int kProducesPerPoll = 64;
  int produced_since_poll_ = 0;
  rd_kafka_s* rk_ = nullptr;
  rd_kafka_topic_s* topic_ = nullptr;
  std::string source_;
  std::string sink_id_;
  int32_t partitions_ = 1;
  bool transactional_ = false;
  WaitCallback on_wait_;
  std::mutex mutex_;  // guards the members below (delivery reports run on the polling thread, errors on others)
  std::string failure_;
  std::string transport_error_;
  std::vector<int64_t> acked_offsets_;
};

}  // namespace lakestream
