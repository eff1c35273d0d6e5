#include "connector/kafka/kafka_tail.hpp"

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstring>

namespace lakestream {

static bool HeaderText(rd_kafka_headers_t* headers, const char* name, std::string& out) {
  const void* value = nullptr;
  size_t size = 0;
  if (rd_kafka_header_get_last(headers, name, &value, &size) != RD_KAFKA_RESP_ERR_NO_ERROR || !value) return false;
  out.assign(static_cast<const char*>(value), size);
  return true;
}

static bool ParseInt(const std::string& text, int64_t& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtoll(text.c_str(), &end, 10);
  return end && *end == '\0';
}

Result<std::vector<PartitionTail>> ReadSinkTail(const SinkOptions& options, const std::string& sink_id, int32_t partitions,
                                                const std::vector<int64_t>& start_offsets, int timeout_ms) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  for (auto& [k, v] : options.kafka_properties) {
    // Producer-only properties mean nothing to a consumer; connection and security ones are shared.
    rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof(errstr));
  }
  rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof(errstr));
  // assign() needs no group membership, but librdkafka wants a group id for a consumer.
  rd_kafka_conf_set(conf, "group.id", ("lakestream-sink-resume-" + sink_id).c_str(), errstr, sizeof(errstr));
  rd_kafka_conf_set(conf, "enable.auto.commit", "false", errstr, sizeof(errstr));
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", errstr, sizeof(errstr));
  rd_kafka_conf_set(conf, "isolation.level", options.transactional ? "read_committed" : "read_uncommitted", errstr,
                    sizeof(errstr));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
  if (!rk) return Status::InvalidArgument(std::string("cannot create a Kafka consumer: ") + errstr);

  std::vector<PartitionTail> tails(partitions);
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(partitions);
  int open_partitions = 0;
  Status status;
  for (int32_t p = 0; p < partitions; p++) {
    int64_t low = 0, high = 0;
    rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(rk, options.topic.c_str(), p, &low, &high, timeout_ms);
    if (err) {
      status = Status::IOError("cannot read the end offsets of " + options.topic + " [" + std::to_string(p) +
                               "] from " + options.bootstrap_servers + ": " + rd_kafka_err2str(err));
      break;
    }
    tails[p].end_offset = high;
    int64_t start = p < static_cast<int32_t>(start_offsets.size()) && start_offsets[p] > low ? start_offsets[p] : low;
    if (start >= high) continue;
    rd_kafka_topic_partition_list_add(assignment, options.topic.c_str(), p)->offset = start;
    open_partitions++;
  }
  if (status.ok() && open_partitions > 0) {
    rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment);
    if (err) status = Status::IOError(std::string("cannot read topic ") + options.topic + ": " + rd_kafka_err2str(err));
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::vector<bool> done(partitions, false);
  std::string text;
  while (status.ok() && open_partitions > 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      status = Status::IOError("timed out reading the end of topic " + options.topic + " from " + options.bootstrap_servers);
      break;
    }
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (!m) continue;
    int32_t p = m->partition;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      if (p >= 0 && p < partitions && !done[p]) {
        done[p] = true;
        open_partitions--;
      }
    } else if (m->err) {
      status = Status::IOError(std::string("cannot read topic ") + options.topic + ": " + rd_kafka_message_errstr(m));
    } else if (p >= 0 && p < partitions) {
      rd_kafka_headers_t* headers = nullptr;
      int64_t version = 0, seq = 0;
      if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR && HeaderText(headers, "lakestream.sink", text) &&
          text == sink_id && HeaderText(headers, "lakestream.version", text) && ParseInt(text, version) &&
          HeaderText(headers, "lakestream.seq", text) && ParseInt(text, seq)) {
        PartitionTail& tail = tails[p];
        tail.messages++;
        if (version > tail.version || (version == tail.version && seq > tail.seq)) {
          tail.version = version;
          tail.seq = seq;
        }
      }
      if (m->offset + 1 >= tails[p].end_offset && !done[p]) {
        done[p] = true;
        open_partitions--;
      }
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_topic_partition_list_destroy(assignment);
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  if (!status.ok()) return status;
  return tails;
}

}  // namespace lakestream
