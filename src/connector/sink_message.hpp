// One message a sink delivers, and the changes it is made from.
//
// A message is identified by (version, seq): the source commit version whose
// change it carries and its index among that version's messages. Encoding is
// deterministic, so re-reading a version yields the same messages with the
// same identities; that is what lets a restarted sink skip what the topic
// already holds (sink_runner.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "common/vector.hpp"
#include "storage/change_set.hpp"

namespace lakestream {

// "insert", "update", "delete", ... for messages (the kinds: storage/change_set.hpp).
const char* ChangeKindToString(ChangeKind kind);

// One changed row: row `row` of `chunk` (the source's columns first).
struct ChangeRow {
  const DataChunk* chunk;
  idx_t row;
  ChangeKind kind;
};

struct SinkMessage {
  bool has_key = false;         // false: a message without a key (a NULL key)
  bool key_is_object = false;   // the key is a JSON object (several key columns), not a value's text
  std::string key;
  bool has_value = false;  // false: a tombstone (null value)
  std::string value;
  int64_t version = 0;
  int64_t seq = 0;
};

// Total order of message identities.
inline bool IdentityAfter(int64_t version, int64_t seq, int64_t other_version, int64_t other_seq) {
  return version > other_version || (version == other_version && seq > other_seq);
}

}  // namespace lakestream
