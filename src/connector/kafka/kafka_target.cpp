// The Kafka SinkWriter: an idempotent producer plus the resume scan.
#include "connector/kafka/kafka_producer.hpp"
#include "connector/kafka/kafka_tail.hpp"
#include "connector/sink_target.hpp"

namespace lakestream {

namespace {

// Metadata and resume reads give up after this long; deliveries wait for the
// producer's message.timeout.ms instead.
constexpr int kKafkaRequestTimeoutMs = 10000;

class KafkaTarget : public SinkWriter {
 public:
  KafkaTarget(SinkOptions options, std::string sink_id, std::string source)
      : options_(std::move(options)), sink_id_(std::move(sink_id)), source_(std::move(source)) {}

  Status Resume(const SinkState& state, bool continuing) override {
    std::vector<int64_t> start_offsets = state.partition_offsets.value_or(std::vector<int64_t>());
    if (continuing && producer_ && start_offsets.size() == committed_offsets_.size() &&
        start_offsets == committed_offsets_) {
      // Our previous pass recorded this position and nobody delivered since:
      // the topic holds nothing of ours past it, and the resume scan (a
      // consumer's connection and fetches, most of a pass's latency) is not needed.
      return Status::OK();
    }
    if (!producer_) {
      auto partitions = KafkaTopicPartitions(options_, kKafkaRequestTimeoutMs);
      if (!partitions.ok()) return partitions.status();
      auto producer = KafkaProducer::Open(options_, sink_id_, source_, partitions.value());
      if (!producer.ok()) return producer.status();
      producer_ = producer.take();
      producer_->SetWaitCallback([this](const std::string& error) {
        if (on_wait_) on_wait_(error);
      });
      if (options_.transactional) LS_RETURN_NOT_OK(producer_->InitTransactions());
    }
    auto tails = ReadSinkTail(options_, sink_id_, producer_->Partitions(), start_offsets, kKafkaRequestTimeoutMs);
    if (!tails.ok()) return tails.status();
    tails_ = tails.take();
    cached_version_ = cached_seq_ = -1;
    committed_offsets_ = start_offsets;
    committed_offsets_.resize(producer_->Partitions(), -1);
    return Status::OK();
  }

  // AlreadyDelivered and Write ask for the same message in turn: the
  // partition (a murmur2 of the key) is computed once per (version, seq).
  int32_t PartitionOf(const SinkMessage& m) {
    if (m.version == cached_version_ && m.seq == cached_seq_) return cached_partition_;
    int32_t n = producer_->Partitions();
    cached_partition_ = m.has_key ? KafkaPartition(m.key, n) : KafkaPartitionForVersion(m.version, n);
    cached_version_ = m.version;
    cached_seq_ = m.seq;
    return cached_partition_;
  }

  bool AlreadyDelivered(const SinkMessage& m) override {
    const PartitionTail& tail = tails_[PartitionOf(m)];
    if (tail.version < 0 || IdentityAfter(m.version, m.seq, tail.version, tail.seq)) return false;
    skipped_++;
    return true;
  }

  Status Write(const SinkMessage& m) override { return producer_->Produce(m, PartitionOf(m)); }
  Status Flush() override { return producer_->Flush(); }

  void RecordProgress(SinkState& state) override {
    // Where the next resume scan starts: past our acknowledged messages, or
    // where the previous scan found the partition's end.
    std::vector<int64_t> offsets = producer_->AckedOffsets();
    for (size_t p = 0; p < offsets.size(); p++) {
      int64_t known = p < committed_offsets_.size() ? committed_offsets_[p] : -1;
      if (offsets[p] < known) offsets[p] = known;
    }
    committed_offsets_ = offsets;
    state.partition_offsets = offsets;
  }

  Status BeginVersion() override { return options_.transactional ? producer_->BeginTransaction() : Status::OK(); }
  Status EndVersion() override { return options_.transactional ? producer_->CommitTransaction() : Status::OK(); }
  bool CommitsEachVersion() const override { return options_.transactional; }

 private:
  SinkOptions options_;
  std::string sink_id_;
  std::string source_;
  std::unique_ptr<KafkaProducer> producer_;
  std::vector<PartitionTail> tails_;
  std::vector<int64_t> committed_offsets_;
  int64_t cached_version_ = -1;
  int64_t cached_seq_ = -1;
  int32_t cached_partition_ = 0;
};

}  // namespace

Result<std::unique_ptr<SinkWriter>> OpenKafkaTarget(const SinkOptions& options, const std::string& sink_id,
                                                    const std::string& source) {
  return std::unique_ptr<SinkWriter>(new KafkaTarget(options, sink_id, source));
}

}  // namespace lakestream
