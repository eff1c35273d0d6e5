// Decoding of one Parquet column chunk, page by page, into engine Vectors
// (ParquetReader's inner loop). The chunk's bytes come from the caller: a
// memory-mapped file, a buffer, or the ranges fetched from object storage
// (parquet_remote_source.hpp); they must stay valid while the reader lives.
// Decoded values never point into those bytes (strings are copied into
// heaps that the output vectors reference), so the caller may drop them once
// the chunk is read.
//
//   PageScratch scratch;                  // per leaf, reused across row groups
//   ColumnChunkReader r(path, leaf, codec, begin, end, scratch);
//   while (r.HasMorePages()) ... r.Read(n, defs, reps, values, offset, nonnull) ...
//
// Errors: Status::Corruption whose message starts with the file's path and
// names the column; NotSupported for an unknown encoding or codec. Input is
// untrusted: no read leaves [begin, end) or a decompressed page.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/vector.hpp"
#include "storage/parquet/parquet_encoding.hpp"
#include "storage/parquet/parquet_metadata.hpp"
#include "storage/parquet/parquet_schema.hpp"

namespace lakestream::parquet {

template <class T>
inline T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

inline hugeint_t BigEndianToHugeint(const uint8_t* p, size_t len) {
  if (len == 0) return 0;
  if (len > 16) {
    p += len - 16;
    len = 16;
  }
  unsigned __int128 v = (p[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = 0; i < len; i++) v = (v << 8) | p[i];
  return static_cast<hugeint_t>(v);
}

inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

// Milliseconds past the microsecond range (about +-292,000 years) wrap, as in
// other readers, instead of being undefined behaviour.
inline int64_t MillisToMicros(int64_t millis) { return static_cast<int64_t>(static_cast<uint64_t>(millis) * 1000); }

// Decompression buffers of one leaf column, kept across its column chunks:
// a reader per row group would otherwise allocate, zero and fault in fresh
// pages for every chunk (a tenth of a full scan's time). Two buffers, used in
// turn, so the previous page stays readable while the next is inflated.
class PageScratch {
 public:
  uint8_t* Get(size_t size);

  // A buffer of `size` bytes in the heap of a VARCHAR vector, for a page whose
  // strings the decoded vectors point into (they reference that heap). A
  // pooled heap is reused once no vector references it any more.
  uint8_t* GetForStrings(size_t size, Vector*& owner);

 private:
  static constexpr size_t kStringPagePool = 4;
  std::vector<std::unique_ptr<Vector>> string_pages_;
  std::unique_ptr<uint8_t[]> buffers_[2];
  size_t capacity_[2] = {0, 0};
  int flip_ = 0;
};


// Reads the values of one column chunk page by page.
class ColumnChunkReader {
 public:
  ColumnChunkReader(const std::string& file, const LeafDesc& leaf, Codec codec, const uint8_t* begin,
                    const uint8_t* end, PageScratch& scratch)
      : file_(file), leaf_(leaf), codec_(codec), pos_(begin), end_(end), scratch_(scratch) {}

  bool HasMorePages() const { return values_left_ > 0 || pos_ < end_; }
  int64_t values_left() const { return values_left_; }

  // Reads `n` level entries; defs/reps (may be null when the leaf has no such
  // levels) receive the levels, and the non-NULL values are decoded densely
  // into dst starting at dst_offset. `nonnull` receives their number.
  Status Read(uint32_t n, uint16_t* defs, uint16_t* reps, Vector& dst, idx_t dst_offset, uint32_t& nonnull);

 private:
  Status Corrupt(const std::string& what) {
    return Status::Corruption(file_ + ": corrupt Parquet column '" + leaf_.path + "': " + what);
  }

  Status ReadLevels(RleBpDecoder& dec, std::vector<uint16_t>& pre, size_t& pre_pos, uint16_t* out, uint32_t k,
                    int max_level);

  // Sets up a level decoder for a v1 page; advances p.
  Status InitLevelsV1(Encoding enc, int max_level, int64_t num_values, const uint8_t*& p, const uint8_t* end,
                      RleBpDecoder& dec, std::vector<uint16_t>& pre, size_t& pre_pos);

  // Returns a buffer of `size` bytes that lives as long as the values decoded
  // from it need it (in a heap that output vectors reference for strings).
  uint8_t* PageBuffer(size_t size, bool for_strings) {
    if (for_strings) return scratch_.GetForStrings(size, page_heap_);
    return scratch_.Get(size);
  }

  Status NextPage();

  Status Inflate(const uint8_t* comp, size_t comp_len, size_t raw_len, bool strings, const uint8_t*& out);

  Status InitValues(Encoding enc, const uint8_t* data, const uint8_t* dend, int64_t num_values);

  template <class T>
  void Gather(const uint32_t* ids, uint32_t m, T* out);

  Status DecodeDense(uint32_t m, Vector& dst, idx_t off);

  Status Need(size_t bytes) {
    if (bytes > static_cast<size_t>(vend_ - vp_)) return Corrupt("values past the end of the page");
    return Status::OK();
  }

  Status DecodePlain(uint32_t m, Vector& dst, idx_t off);

  const std::string& file_;
  const LeafDesc& leaf_;
  Codec codec_;
  const uint8_t* pos_;
  const uint8_t* end_;
  int64_t values_left_ = 0;
  RleBpDecoder def_dec_, rep_dec_, ids_;
  std::vector<uint16_t> def_pre_, rep_pre_;
  size_t def_pre_pos_ = 0, rep_pre_pos_ = 0;
  const uint8_t* vp_ = nullptr;
  const uint8_t* vend_ = nullptr;
  int bool_bit_ = 0;
  bool dict_mode_ = false;
  std::unique_ptr<Vector> dict_;
  uint32_t dict_size_ = 0;
  Vector* page_heap_ = nullptr;  // in scratch_'s pool: the current page's strings
  PageScratch& scratch_;
  std::vector<uint8_t> plain_alt_;
  std::vector<uint32_t> id_buf_;
};


}  // namespace lakestream::parquet
