// Value and level encodings: RLE/bit-packed hybrid (levels, dictionary ids),
// DELTA_BINARY_PACKED, and the encoders the writer uses. Decoders never read
// past their buffer; on malformed input they report failure (return fewer
// values than asked / false) instead of reading garbage.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lakestream::parquet {

inline bool ReadUleb(const uint8_t*& p, const uint8_t* end, uint64_t& out) {
  out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= end) return false;
    uint8_t b = *p++;
    out |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

inline bool ReadZigzag(const uint8_t*& p, const uint8_t* end, int64_t& out) {
  uint64_t u;
  if (!ReadUleb(p, end, u)) return false;
  out = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return true;
}

inline void WriteUleb(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

inline int BitWidth(uint64_t max_value) {
  int w = 0;
  while (max_value) {
    w++;
    max_value >>= 1;
  }
  return w;
}

// Unpacks `count` values of `width` bits (LSB first) starting at bit 0 of `in`.
// The caller guarantees (count * width + 7) / 8 bytes are readable.
template <class T>
inline void BitUnpack(const uint8_t* in, int width, T* out, uint32_t count) {
  if (width == 0) {
    for (uint32_t i = 0; i < count; i++) out[i] = 0;
    return;
  }
  const uint64_t mask = width >= 64 ? ~0ULL : ((1ULL << width) - 1);
  uint64_t bit = 0;
  size_t nbytes = (static_cast<size_t>(count) * width + 7) / 8;
  for (uint32_t i = 0; i < count; i++, bit += width) {
    size_t byte = bit >> 3;
    int shift = static_cast<int>(bit & 7);
    uint64_t word = 0;
    size_t avail = nbytes - byte;
    if (avail >= 8) {
      std::memcpy(&word, in + byte, 8);
    } else {
      std::memcpy(&word, in + byte, avail);
    }
    uint64_t v = word >> shift;
    if (shift + width > 64) {
      uint8_t extra = byte + 8 < nbytes ? in[byte + 8] : 0;
      v |= static_cast<uint64_t>(extra) << (64 - shift);
    }
    out[i] = static_cast<T>(v & mask);
  }
}

// RLE / bit-packed hybrid decoder (bit width <= 32).
class RleBpDecoder {
 public:
  RleBpDecoder() = default;
  RleBpDecoder(const uint8_t* data, size_t size, int bit_width) { Reset(data, size, bit_width); }
  void Reset(const uint8_t* data, size_t size, int bit_width) {
    p_ = data;
    end_ = data + size;
    width_ = bit_width;
    rle_left_ = bp_left_ = 0;
    failed_ = bit_width < 0 || bit_width > 32;
  }
  bool failed() const { return failed_; }

  // Decodes up to `n` values; returns how many were decoded (< n only on
  // malformed or exhausted input).
  template <class T>
  uint32_t GetBatch(T* out, uint32_t n) {
    uint32_t done = 0;
    while (done < n) {
      if (rle_left_ > 0) {
        uint32_t k = std::min<uint64_t>(rle_left_, n - done);
        T v = static_cast<T>(rle_value_);
        for (uint32_t i = 0; i < k; i++) out[done + i] = v;
        rle_left_ -= k;
        done += k;
      } else if (bp_left_ > 0) {
        uint32_t k = std::min<uint64_t>(bp_left_, n - done);
        // Values are read from the packed run starting at bp_index_.
        UnpackFromRun(out + done, k);
        bp_left_ -= k;
        done += k;
      } else if (!NextRun()) {
        break;
      }
    }
    return done;
  }

  // Skips the next `n` values when they all lie in one RLE run of `value`
  // and returns true; otherwise consumes nothing and returns false. Lets a
  // reader skip materialising the levels of a page without NULLs.
  bool SkipRun(uint32_t n, uint32_t value) {
    if (rle_left_ == 0 && bp_left_ == 0 && !NextRun()) return false;
    if (bp_left_ > 0 || rle_left_ < n || rle_value_ != value) return false;
    rle_left_ -= n;
    return true;
  }

 private:
  template <class T>
  void UnpackFromRun(T* out, uint32_t k) {
    // Decode in groups of 8 via a small buffer to keep alignment simple.
    while (k > 0) {
      if (buf_pos_ == buf_len_) {
        uint32_t group = static_cast<uint32_t>(std::min<uint64_t>(bp_in_run_, 64));
        BitUnpack<uint32_t>(bp_ptr_, width_, buf_, group);
        bp_ptr_ += static_cast<size_t>(group) * width_ / 8;  // group is a multiple of 8
        bp_in_run_ -= group;
        buf_pos_ = 0;
        buf_len_ = group;
      }
      uint32_t m = std::min<uint32_t>(k, buf_len_ - buf_pos_);
      for (uint32_t i = 0; i < m; i++) out[i] = static_cast<T>(buf_[buf_pos_ + i]);
      buf_pos_ += m;
      out += m;
      k -= m;
    }
  }

  bool NextRun() {
    if (failed_ || p_ >= end_) return false;
    uint64_t header;
    if (!ReadUleb(p_, end_, header)) return Fail();
    if (header & 1) {
      uint64_t groups = header >> 1;
      if (groups == 0) return Fail();
      uint64_t bytes = groups * static_cast<uint64_t>(width_);
      if (groups > (1ULL << 40) || bytes > static_cast<uint64_t>(end_ - p_)) {
        // Truncated final run: allowed by the spec if padded values are unused;
        // decode what is there.
        uint64_t avail_groups = width_ == 0 ? groups : static_cast<uint64_t>(end_ - p_) / width_;
        if (avail_groups == 0 && width_ != 0) return Fail();
        groups = std::min(groups, avail_groups);
        bytes = groups * width_;
      }
      bp_ptr_ = p_;
      bp_left_ = bp_in_run_ = groups * 8;
      buf_pos_ = buf_len_ = 0;
      p_ += bytes;
    } else {
      uint64_t count = header >> 1;
      int nbytes = (width_ + 7) / 8;
      if (static_cast<size_t>(end_ - p_) < static_cast<size_t>(nbytes)) return Fail();
      uint64_t v = 0;
      for (int i = 0; i < nbytes; i++) v |= static_cast<uint64_t>(p_[i]) << (8 * i);
      p_ += nbytes;
      rle_value_ = v;
      rle_left_ = count;
      if (count == 0) return NextRun();
    }
    return true;
  }
  bool Fail() {
    failed_ = true;
    return false;
  }

  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  int width_ = 0;
  bool failed_ = false;
  uint64_t rle_left_ = 0, rle_value_ = 0;
  uint64_t bp_left_ = 0, bp_in_run_ = 0;
  const uint8_t* bp_ptr_ = nullptr;
  uint32_t buf_[64];
  uint32_t buf_pos_ = 0, buf_len_ = 0;
};

// DELTA_BINARY_PACKED: decodes a whole stream into `out`. `max_values` bounds
// the output (the page's value count). Returns false on malformed input.
// `consumed` receives the number of bytes used.
bool DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, uint64_t max_values, std::vector<int64_t>& out,
                             size_t& consumed);

// RLE/bit-packed hybrid encoder for the writer.
void RleBpEncode(const uint32_t* values, size_t n, int bit_width, std::string& out);
void RleBpEncode(const uint8_t* values, size_t n, int bit_width, std::string& out);

}  // namespace lakestream::parquet
