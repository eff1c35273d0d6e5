// Resume support: what a topic already holds from one sink.
//
// A crash between the broker's acknowledgement and the sink's progress write
// leaves messages on the topic that the sink's committed progress does not
// count. Before sending again, the sink reads each partition from the offset
// its last progress write recorded (or the partition's start) to its end and
// notes the greatest (version, seq) among messages whose lakestream.sink
// header is this sink's id. Because the idempotent producer keeps each
// partition an in-order prefix of what was sent to it, every message of that
// partition up to that identity is there, and none after it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "connector/sink_options.hpp"

namespace lakestream {

struct PartitionTail {
  int64_t version = -1;  // -1: nothing of ours in the range read
  int64_t seq = -1;
  int64_t end_offset = 0;  // the partition's high watermark when read
  int64_t messages = 0;    // our messages seen
};

// `start_offsets[p]` < 0 means "from the partition's first offset".
// Reads with isolation.level=read_committed when the sink is transactional.
Result<std::vector<PartitionTail>> ReadSinkTail(const SinkOptions& options, const std::string& sink_id, int32_t partitions,
                                                const std::vector<int64_t>& start_offsets, int timeout_ms);

}  // namespace lakestream
