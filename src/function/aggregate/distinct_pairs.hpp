// The (group, value) pairs already seen by count(DISTINCT x), sum(DISTINCT x)
// and avg(DISTINCT x): one open-addressing hash table for every group of an
// aggregate, so a new pair costs one probe and no allocation.
//
// Values of up to 8 bytes (integers, DATE, TIMESTAMP, DOUBLE after
// normalizing: -0.0 is 0.0, every NaN one NaN) live in a 16-byte slot with
// their group; DECIMAL and INTERVAL ('1 month' is '30 days') in a 32-byte one;
// strings and nested values are encoded
// (EncodeKey) into an arena the slot points into. (A set per group of encoded
// strings, the first implementation, allocated per value and was 10x
// DuckDB's time on ClickBench's COUNT(DISTINCT UserID).)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/types.hpp"
#include "common/vector.hpp"

namespace lakestream {

class DistinctPairs {
 public:
  // `type`: the aggregate's input type; the vectors' own type decides (they
  // are the same type in every call).
  explicit DistinctPairs(const LogicalType& type);

  // Adds (group, input[row]) for a valid row; true when the pair is new.
  bool Insert(uint32_t group, const Vector& input, idx_t row);
  // Adds every pair of `other` (same value type), its group g becoming
  // targets[g]; calls on_new(target group) for each pair new here.
  template <class OnNew>
  void Merge(const DistinctPairs& other, const uint32_t* targets, OnNew&& on_new) {
    if (other.used_ == 0) return;
    SetType(other.type_);
    for (const NarrowSlot& s : other.narrow_) {
      if (s.group != kEmpty && InsertNarrow(targets[s.group], s.value)) on_new(targets[s.group]);
    }
    for (const Slot& s : other.slots_) {
      if (s.group == kEmpty) continue;
      const uint32_t group = targets[s.group];
      if (inline_) {
        if (InsertInline(group, s.lo, s.hi)) on_new(group);
      } else if (InsertBytes(group, std::string_view(other.arena_.data() + s.lo, s.length))) {
        on_new(group);
      }
    }
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct NarrowSlot {
    uint64_t value = 0;
    uint32_t group = kEmpty;
  };
  struct Slot {
    uint64_t hash = 0;
    uint64_t lo = 0;  // inline: the value's low 8 bytes; else the offset in arena_
    uint64_t hi = 0;  // inline: the high 8 bytes
    uint32_t group = kEmpty;
    uint32_t length = 0;  // not inline: the encoded length
  };

  void SetType(TypeId type);
  bool InsertNarrow(uint32_t group, uint64_t value);
  void GrowNarrow();
  bool InsertInline(uint32_t group, uint64_t lo, uint64_t hi);
  bool InsertBytes(uint32_t group, std::string_view bytes);
  // The slot of (group, hash) satisfying `equal`, or the empty slot to fill.
  template <class EQUAL>
  Slot& Probe(uint64_t hash, uint32_t group, EQUAL&& equal);
  void Grow();

  TypeId type_;
  bool inline_;
  std::vector<NarrowSlot> narrow_;  // values of up to 8 bytes (else empty)
  std::vector<Slot> slots_;          // the others (empty while narrow_ is used)
  uint64_t mask_ = 0;
  idx_t used_ = 0;
  std::string arena_;
  std::string scratch_;
};

}  // namespace lakestream
