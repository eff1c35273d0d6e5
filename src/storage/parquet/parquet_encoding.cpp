#include "storage/parquet/parquet_encoding.hpp"

#include <algorithm>

namespace lakestream::parquet {

bool DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, uint64_t max_values, std::vector<int64_t>& out,
                             size_t& consumed) {
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  uint64_t block_size, miniblocks, total;
  int64_t first;
  if (!ReadUleb(p, end, block_size) || !ReadUleb(p, end, miniblocks) || !ReadUleb(p, end, total) ||
      !ReadZigzag(p, end, first))
    return false;
  if (block_size == 0 || block_size % 128 != 0 || block_size > (1u << 20) || miniblocks == 0 ||
      block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0)
    return false;
  if (total > max_values) return false;
  out.clear();
  out.reserve(total);
  if (total == 0) {
    consumed = p - data;
    return true;
  }
  uint64_t per_mini = block_size / miniblocks;
  uint64_t last = static_cast<uint64_t>(first);
  out.push_back(first);
  std::vector<uint64_t> buf(per_mini);
  while (out.size() < total) {
    int64_t min_delta;
    if (!ReadZigzag(p, end, min_delta)) return false;
    if (static_cast<uint64_t>(end - p) < miniblocks) return false;
    const uint8_t* widths = p;
    p += miniblocks;
    for (uint64_t m = 0; m < miniblocks && out.size() < total; m++) {
      int w = widths[m];
      if (w > 64) return false;
      size_t bytes = per_mini * w / 8;
      if (static_cast<size_t>(end - p) < bytes) return false;
      BitUnpack<uint64_t>(p, w, buf.data(), static_cast<uint32_t>(per_mini));
      p += bytes;
      for (uint64_t i = 0; i < per_mini && out.size() < total; i++) {
        last += buf[i] + static_cast<uint64_t>(min_delta);
        out.push_back(static_cast<int64_t>(last));
      }
    }
  }
  consumed = p - data;
  return true;
}

namespace {

template <class T>
void EncodeImpl(const T* values, size_t n, int bit_width, std::string& out) {
  int value_bytes = (bit_width + 7) / 8;
  auto run_len = [&](size_t i) {
    size_t j = i + 1;
    while (j < n && values[j] == values[i]) j++;
    return j - i;
  };
  size_t i = 0;
  while (i < n) {
    size_t r = run_len(i);
    if (r >= 8 || bit_width == 0) {
      WriteUleb(out, static_cast<uint64_t>(r) << 1);
      uint64_t v = values[i];
      for (int b = 0; b < value_bytes; b++) out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
      i += r;
      continue;
    }
    size_t start = i;
    while (i < n) {
      i = std::min(n, i + 8);
      if (i < n && run_len(i) >= 8) break;
    }
    size_t count = i - start;
    size_t groups = (count + 7) / 8;
    WriteUleb(out, (static_cast<uint64_t>(groups) << 1) | 1);
    size_t base = out.size();
    out.resize(base + groups * bit_width, 0);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out.data() + base);
    uint64_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t k = 0; k < groups * 8; k++) {
      uint64_t v = start + k < i ? static_cast<uint64_t>(values[start + k]) : 0;
      acc |= v << bits;
      bits += bit_width;
      while (bits >= 8) {
        dst[o++] = static_cast<uint8_t>(acc);
        acc >>= 8;
        bits -= 8;
      }
    }
  }
}

}  // namespace

void RleBpEncode(const uint32_t* values, size_t n, int bit_width, std::string& out) {
  EncodeImpl(values, n, bit_width, out);
}
void RleBpEncode(const uint8_t* values, size_t n, int bit_width, std::string& out) {
  EncodeImpl(values, n, bit_width, out);
}

}  // namespace lakestream::parquet
