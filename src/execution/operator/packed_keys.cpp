#include "execution/operator/packed_keys.hpp"

#include <cmath>
#include <cstring>

namespace lakestream {

void GrowPackedKeySlots(std::vector<PackedKeySlot>& slots, uint64_t& mask) {
  std::vector<PackedKeySlot> grown(slots.size() * 2);
  uint64_t new_mask = grown.size() - 1;
  for (const PackedKeySlot& slot : slots) {
    if (!slot.id) continue;
    uint64_t pos = HashPackedKey(slot.key) & new_mask;
    while (grown[pos].id) pos = (pos + 1) & new_mask;
    grown[pos] = slot;
  }
  slots = std::move(grown);
  mask = new_mask;
}

static idx_t FixedWidth(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return 1;
    case TypeId::INTEGER:
    case TypeId::DATE: return 4;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::DOUBLE: return 8;
    case TypeId::DECIMAL: return type.width() <= 18 ? 8 : 0;
    default: return 0;
  }
}

bool KeyPacker::Plan(const std::vector<LogicalType>& types) {
  constexpr idx_t kBytes = sizeof(uint64_t) * 2;
  columns_.clear();
  if (types.empty() || types.size() > 32) return false;
  idx_t fixed = 0, strings = 0;
  for (auto& t : types) {
    if (t.id() == TypeId::VARCHAR) {
      strings++;
    } else if (idx_t width = FixedWidth(t)) {
      fixed += width;
    } else {
      return false;
    }
  }
  if (fixed > kBytes) return false;
  idx_t share = strings ? (kBytes - fixed) / strings : 0;
  if (strings && share < 2) return false;
  idx_t offset = 0;
  for (auto& t : types) {
    idx_t width = t.id() == TypeId::VARCHAR ? share : FixedWidth(t);
    columns_.push_back(Column{t.id(), offset, width});
    offset += width;
  }
  return true;
}

// Writes `value`'s bytes at `offset` of each valid row's key; NULL rows get
// `bit` in their null mask instead.
template <class T, class CONVERT>
static void PackFixed(const Vector& v, idx_t count, idx_t offset, uint32_t bit, PackedKey* keys, CONVERT convert) {
  const T* data = v.GetData<T>();
  const uint8_t* valid = v.Validity();
  for (idx_t i = 0; i < count; i++) {
    if (!valid[i]) {
      keys[i].nulls |= bit;
      continue;
    }
    auto value = convert(data[i]);
    std::memcpy(reinterpret_cast<uint8_t*>(&keys[i]) + offset, &value, sizeof(value));
  }
}

// Copies N bytes from `in` to out + at, advancing both.
template <size_t N>
static inline void CopyPiece(uint8_t* out, size_t& at, const char*& in) {
  std::memcpy(out + at, in, N);
  at += N;
  in += N;
}

static bool PackStrings(const Vector& v, idx_t count, idx_t offset, idx_t width, uint32_t bit, PackedKey* keys) {
  const string_t* data = v.GetData<string_t>();
  const uint8_t* valid = v.Validity();
  for (idx_t i = 0; i < count; i++) {
    if (!valid[i]) {
      keys[i].nulls |= bit;
      continue;
    }
    const size_t size = data[i].size();
    if (size >= width) return false;
    uint8_t* out = reinterpret_cast<uint8_t*>(&keys[i]) + offset;
    out[0] = static_cast<uint8_t>(size);
    // Fixed-size pieces: a memcpy of a variable size is a call per row.
    const char* in = data[i].data();
    size_t at = 1;
    if (size & 8) CopyPiece<8>(out, at, in);
    if (size & 4) CopyPiece<4>(out, at, in);
    if (size & 2) CopyPiece<2>(out, at, in);
    if (size & 1) CopyPiece<1>(out, at, in);
  }
  return true;
}

bool KeyPacker::Pack(const DataChunk& chunk, idx_t count, PackedKey* keys) const {
  std::fill_n(keys, count, PackedKey{});
  auto same = [](auto x) { return x; };
  for (idx_t c = 0; c < columns_.size(); c++) {
    const Vector& v = chunk.data[c];
    const Column& col = columns_[c];
    const uint32_t bit = 1U << c;
    switch (col.type) {
      case TypeId::BOOLEAN:
        PackFixed<bool>(v, count, col.offset, bit, keys, [](bool b) { return static_cast<uint8_t>(b ? 1 : 0); });
        break;
      case TypeId::INTEGER:
      case TypeId::DATE: PackFixed<int32_t>(v, count, col.offset, bit, keys, same); break;
      case TypeId::BIGINT:
      case TypeId::TIMESTAMP:
      case TypeId::TIMESTAMP_NTZ: PackFixed<int64_t>(v, count, col.offset, bit, keys, same); break;
      case TypeId::DECIMAL:
        PackFixed<hugeint_t>(v, count, col.offset, bit, keys, [](hugeint_t x) { return static_cast<int64_t>(x); });
        break;
      case TypeId::DOUBLE:
        // The equality the other paths use: -0.0 = 0.0, and NaN = NaN.
        PackFixed<double>(v, count, col.offset, bit, keys, [](double d) { return std::isnan(d) ? NAN : d + 0.0; });
        break;
      case TypeId::VARCHAR:
        if (!PackStrings(v, count, col.offset, col.width, bit, keys)) return false;
        break;
      default: return false;
    }
  }
  return true;
}

}  // namespace lakestream
