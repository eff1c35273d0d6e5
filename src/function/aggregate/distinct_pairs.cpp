#include "function/aggregate/distinct_pairs.hpp"

#include <cmath>
#include <cstring>
#include <functional>

#include "common/exception.hpp"
#include "common/interval.hpp"
#include "common/vector_operations.hpp"

namespace lakestream {

namespace {

inline uint64_t HashPair(uint32_t group, uint64_t value_hash) { return MixHash(value_hash ^ (uint64_t{group} * 0x9e3779b97f4a7c15ULL)); }

bool IsNarrow(TypeId type) {
  switch (type) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::DATE:
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DOUBLE: return true;
    default: return false;
  }
}

bool IsInline(TypeId type) {
  switch (type) {
    case TypeId::BOOLEAN:
    case TypeId::INTEGER:
    case TypeId::DATE:
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DECIMAL:
    case TypeId::DOUBLE:
    case TypeId::INTERVAL: return true;
    default: return false;
  }
}

}  // namespace

DistinctPairs::DistinctPairs(const LogicalType& type) : type_(type.id()), inline_(IsInline(type.id())) {
  if (IsNarrow(type_)) {
    narrow_.resize(64);
  } else {
    slots_.resize(64);
  }
  mask_ = 63;
}

void DistinctPairs::SetType(TypeId type) {
  if (type == type_) return;
  // Before the first pair only: every pair of one table has one encoding.
  if (used_ != 0) throw InternalError("DistinctPairs: values of two types in one DISTINCT aggregate");
  type_ = type;
  inline_ = IsInline(type);
  narrow_.clear();
  slots_.clear();
  if (IsNarrow(type_)) {
    narrow_.resize(64);
  } else {
    slots_.resize(64);
  }
  mask_ = 63;
}

void DistinctPairs::GrowNarrow() {
  std::vector<NarrowSlot> old(narrow_.size() * 2);
  old.swap(narrow_);
  mask_ = narrow_.size() - 1;
  for (const NarrowSlot& s : old) {
    if (s.group == kEmpty) continue;
    uint64_t i = HashPair(s.group, s.value) & mask_;
    while (narrow_[i].group != kEmpty) i = (i + 1) & mask_;
    narrow_[i] = s;
  }
}

bool DistinctPairs::InsertNarrow(uint32_t group, uint64_t value) {
  if ((used_ + 1) * 2 > narrow_.size()) GrowNarrow();
  for (uint64_t i = HashPair(group, value) & mask_;; i = (i + 1) & mask_) {
    NarrowSlot& s = narrow_[i];
    if (s.group == kEmpty) {
      s.value = value;
      s.group = group;
      used_++;
      return true;
    }
    if (s.value == value && s.group == group) return false;
  }
}

template <class EQUAL>
DistinctPairs::Slot& DistinctPairs::Probe(uint64_t hash, uint32_t group, EQUAL&& equal) {
  for (uint64_t i = hash & mask_;; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.group == kEmpty || (s.hash == hash && s.group == group && equal(s))) return s;
  }
}

void DistinctPairs::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.group == kEmpty) continue;
    uint64_t i = s.hash & mask_;
    while (slots_[i].group != kEmpty) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

bool DistinctPairs::InsertInline(uint32_t group, uint64_t lo, uint64_t hi) {
  if (!narrow_.empty()) return InsertNarrow(group, lo);
  if ((used_ + 1) * 2 > slots_.size()) Grow();
  const uint64_t hash = HashPair(group, MixHash(lo) ^ hi);
  Slot& s = Probe(hash, group, [&](const Slot& x) { return x.lo == lo && x.hi == hi; });
  if (s.group != kEmpty) return false;
  s.hash = hash;
  s.group = group;
  s.lo = lo;
  s.hi = hi;
  used_++;
  return true;
}

bool DistinctPairs::InsertBytes(uint32_t group, std::string_view bytes) {
  if ((used_ + 1) * 2 > slots_.size()) Grow();
  const uint64_t hash = HashPair(group, std::hash<std::string_view>()(bytes));
  Slot& s = Probe(hash, group, [&](const Slot& x) {
    // An empty value may have a null data pointer, which memcmp must not get.
    return x.length == bytes.size() &&
           (bytes.empty() || std::memcmp(arena_.data() + x.lo, bytes.data(), bytes.size()) == 0);
  });
  if (s.group != kEmpty) return false;
  s.hash = hash;
  s.group = group;
  s.lo = arena_.size();
  s.length = static_cast<uint32_t>(bytes.size());
  arena_.append(bytes);
  used_++;
  return true;
}

bool DistinctPairs::Insert(uint32_t group, const Vector& input, idx_t row) {
  if (input.GetType().id() != type_) SetType(input.GetType().id());
  switch (type_) {
    case TypeId::BOOLEAN: return InsertInline(group, input.GetData<bool>()[row] ? 1 : 0, 0);
    case TypeId::INTEGER:
    case TypeId::DATE: return InsertInline(group, static_cast<uint64_t>(input.GetData<int32_t>()[row]), 0);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return InsertInline(group, static_cast<uint64_t>(input.GetData<int64_t>()[row]), 0);
    case TypeId::DOUBLE: {
      double d = input.GetData<double>()[row];
      if (d == 0.0) d = 0.0;
      if (std::isnan(d)) d = NAN;
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return InsertInline(group, bits, 0);
    }
    case TypeId::DECIMAL:
    case TypeId::INTERVAL: {
      const hugeint_t v = type_ == TypeId::DECIMAL ? input.GetData<hugeint_t>()[row]
                                                   : Interval::Normalize(input.GetData<interval_t>()[row]);
      const auto u = static_cast<unsigned __int128>(v);
      return InsertInline(group, static_cast<uint64_t>(u), static_cast<uint64_t>(u >> 64));
    }
    case TypeId::VARCHAR: {
      const string_t s = input.GetData<string_t>()[row];
      return InsertBytes(group, std::string_view(s.data(), s.size()));
    }
    default:
      scratch_.clear();
      EncodeKey(input, row, scratch_);
      return InsertBytes(group, scratch_);
  }
}

}  // namespace lakestream
