#include "storage/parquet/parquet_reader.hpp"

#include "common/file_system.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "storage/parquet/parquet_codec.hpp"
#include "storage/parquet/parquet_encoding.hpp"
#include "storage/parquet/parquet_limits.hpp"
#include "storage/parquet/parquet_metadata.hpp"
#include "storage/parquet/parquet_schema.hpp"

namespace lakestream {

using namespace parquet;  // NOLINT

namespace {

constexpr int64_t kJulianEpoch = 2440588;

// Memory image of the file: mmap'ed or owned.
struct FileImage {
  const uint8_t* data = nullptr;
  size_t size = 0;
  void* map = nullptr;
  std::string owned;
  ~FileImage() {
    if (map) munmap(map, size);
  }
};

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
  uint8_t* Get(size_t size) {
    flip_ ^= 1;
    if (capacity_[flip_] < size) {
      // Not value-initialised: every byte handed out is written before it is read.
      buffers_[flip_].reset(new uint8_t[size]);
      capacity_[flip_] = size;
    }
    return buffers_[flip_].get();
  }

  // A buffer of `size` bytes in the heap of a VARCHAR vector, for a page whose
  // strings the decoded vectors point into (they reference that heap). A
  // pooled heap is reused once no vector references it any more.
  uint8_t* GetForStrings(size_t size, Vector*& owner) {
    Vector* reusable = nullptr;
    for (auto& v : string_pages_) {
      if (!v->HeapShared()) {
        reusable = v.get();
        break;
      }
    }
    if (!reusable) {
      // Every pooled heap is still referenced: the oldest is left to its
      // references and a fresh vector takes its place in the pool.
      if (string_pages_.size() >= kStringPagePool) string_pages_.erase(string_pages_.begin());
      string_pages_.push_back(std::make_unique<Vector>(LogicalType(TypeId::VARCHAR), 1));
      reusable = string_pages_.back().get();
    }
    reusable->Heap().Recycle();
    owner = reusable;
    return reinterpret_cast<uint8_t*>(reusable->Heap().Allocate(std::max<size_t>(size, 1)));
  }

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
  Status Read(uint32_t n, uint16_t* defs, uint16_t* reps, Vector& dst, idx_t dst_offset, uint32_t& nonnull) {
    nonnull = 0;
    while (n > 0) {
      if (values_left_ == 0) LS_RETURN_NOT_OK(NextPage());
      uint32_t k = static_cast<uint32_t>(std::min<int64_t>(n, values_left_));
      uint32_t nn = k;
      if (leaf_.max_rep > 0) LS_RETURN_NOT_OK(ReadLevels(rep_dec_, rep_pre_, rep_pre_pos_, reps, k, leaf_.max_rep));
      if (leaf_.max_def > 0) {
        const uint16_t md = static_cast<uint16_t>(leaf_.max_def);
        if (def_pre_.empty() && def_dec_.SkipRun(k, md)) {
          // All k values present (a column without NULLs has one such run per page).
          std::fill_n(defs, k, md);
        } else {
          LS_RETURN_NOT_OK(ReadLevels(def_dec_, def_pre_, def_pre_pos_, defs, k, leaf_.max_def));
          nn = 0;
          for (uint32_t i = 0; i < k; i++) nn += defs[i] == md;
        }
      }
      if (dst_offset + nn > dst.Capacity()) dst.Resize(std::max<idx_t>(dst_offset + nn, dst.Capacity() * 2));
      LS_RETURN_NOT_OK(DecodeDense(nn, dst, dst_offset));
      dst_offset += nn;
      nonnull += nn;
      if (defs) defs += k;
      if (reps) reps += k;
      n -= k;
      values_left_ -= k;
    }
    return Status::OK();
  }

 private:
  Status Corrupt(const std::string& what) {
    return Status::Corruption(file_ + ": corrupt Parquet column '" + leaf_.path + "': " + what);
  }

  Status ReadLevels(RleBpDecoder& dec, std::vector<uint16_t>& pre, size_t& pre_pos, uint16_t* out, uint32_t k,
                    int max_level) {
    if (!pre.empty() || pre_pos > 0) {
      if (pre.size() - pre_pos < k) return Corrupt("too few levels");
      std::memcpy(out, pre.data() + pre_pos, k * sizeof(uint16_t));
      pre_pos += k;
    } else if (dec.GetBatch(out, k) != k) {
      return Corrupt("too few repetition/definition levels in page");
    }
    uint16_t mx = 0;
    for (uint32_t i = 0; i < k; i++) mx = std::max(mx, out[i]);
    if (mx > max_level) return Corrupt("level out of range");
    return Status::OK();
  }

  // Sets up a level decoder for a v1 page; advances p.
  Status InitLevelsV1(Encoding enc, int max_level, int64_t num_values, const uint8_t*& p, const uint8_t* end,
                      RleBpDecoder& dec, std::vector<uint16_t>& pre, size_t& pre_pos) {
    int width = BitWidth(static_cast<uint64_t>(max_level));
    pre.clear();
    pre_pos = 0;
    if (enc == Encoding::RLE) {
      if (end - p < 4) return Corrupt("truncated level length");
      uint32_t len = Load<uint32_t>(p);
      p += 4;
      if (len > static_cast<uint64_t>(end - p)) return Corrupt("level length past the end of the page");
      dec.Reset(p, len, width);
      p += len;
    } else if (enc == Encoding::BIT_PACKED) {
      uint64_t bytes = (static_cast<uint64_t>(num_values) * width + 7) / 8;
      if (bytes > static_cast<uint64_t>(end - p)) return Corrupt("bit-packed levels past the end of the page");
      pre.resize(num_values);
      // BIT_PACKED levels are packed most significant bit first.
      for (int64_t i = 0; i < num_values; i++) {
        uint16_t v = 0;
        for (int b = 0; b < width; b++) {
          uint64_t bit = static_cast<uint64_t>(i) * width + b;
          v = static_cast<uint16_t>((v << 1) | ((p[bit / 8] >> (7 - bit % 8)) & 1));
        }
        pre[i] = v;
      }
      p += bytes;
    } else {
      return Status::NotSupported(file_ + ": level encoding " + std::to_string(static_cast<int>(enc)) +
                                  " in column '" + leaf_.path + "'");
    }
    return Status::OK();
  }

  // Returns a buffer of `size` bytes that lives as long as the values decoded
  // from it need it (in a heap that output vectors reference for strings).
  uint8_t* PageBuffer(size_t size, bool for_strings) {
    if (for_strings) return scratch_.GetForStrings(size, page_heap_);
    return scratch_.Get(size);
  }

  Status NextPage() {
    while (true) {
      if (pos_ >= end_) return Corrupt("ran out of pages before the row group's last row");
      TReader r(pos_, static_cast<size_t>(end_ - pos_));
      PageHeader ph;
      if (!ReadPageHeader(r, ph)) return Corrupt("bad page header (" + r.error() + ")");
      pos_ += r.consumed();
      if (ph.compressed_page_size < 0 || ph.compressed_page_size > end_ - pos_)
        return Corrupt("page size " + std::to_string(ph.compressed_page_size) + " past the end of the column chunk");
      if (ph.uncompressed_page_size < 0 || static_cast<uint64_t>(ph.uncompressed_page_size) > ParquetReader::kMaxPageBytes)
        return Corrupt("bad uncompressed page size " + std::to_string(ph.uncompressed_page_size));
      const uint8_t* comp = pos_;
      size_t comp_len = static_cast<size_t>(ph.compressed_page_size);
      size_t raw_len = static_cast<size_t>(ph.uncompressed_page_size);
      pos_ += comp_len;
      bool strings = leaf_.conv == Conv::STR;
      if (ph.type == PageType::DICTIONARY_PAGE) {
        if (!ph.dictionary_page_header) return Corrupt("dictionary page without header");
        const uint8_t* data;
        LS_RETURN_NOT_OK(Inflate(comp, comp_len, raw_len, strings, data));
        int64_t n = ph.dictionary_page_header->num_values;
        if (n < 0 || static_cast<uint64_t>(n) > raw_len) return Corrupt("bad dictionary size");
        dict_ = std::make_unique<Vector>(leaf_.type, std::max<int64_t>(n, 1));
        if (page_heap_ && strings) dict_->AddHeapReference(*page_heap_);
        vp_ = data;
        vend_ = data + raw_len;
        bool_bit_ = 0;
        LS_RETURN_NOT_OK(DecodePlain(static_cast<uint32_t>(n), *dict_, 0));
        dict_size_ = static_cast<uint32_t>(n);
        continue;
      }
      if (ph.type != PageType::DATA_PAGE && ph.type != PageType::DATA_PAGE_V2) continue;  // index pages etc.
      const uint8_t* data;
      const uint8_t* dend;
      Encoding enc;
      int64_t num_values;
      if (ph.type == PageType::DATA_PAGE) {
        if (!ph.data_page_header) return Corrupt("data page without header");
        auto& h = *ph.data_page_header;
        num_values = h.num_values;
        enc = h.encoding;
        if (num_values < 0 || num_values > kMaxPageValues) return Corrupt("bad page value count");
        LS_RETURN_NOT_OK(Inflate(comp, comp_len, raw_len, strings, data));
        dend = data + raw_len;
        if (leaf_.max_rep > 0)
          LS_RETURN_NOT_OK(InitLevelsV1(h.repetition_level_encoding, leaf_.max_rep, num_values, data, dend, rep_dec_,
                                        rep_pre_, rep_pre_pos_));
        if (leaf_.max_def > 0)
          LS_RETURN_NOT_OK(InitLevelsV1(h.definition_level_encoding, leaf_.max_def, num_values, data, dend, def_dec_,
                                        def_pre_, def_pre_pos_));
      } else {
        if (!ph.data_page_header_v2) return Corrupt("data page v2 without header");
        auto& h = *ph.data_page_header_v2;
        num_values = h.num_values;
        enc = h.encoding;
        if (num_values < 0 || num_values > kMaxPageValues) return Corrupt("bad page value count");
        int64_t rl = h.repetition_levels_byte_length, dl = h.definition_levels_byte_length;
        if (rl < 0 || dl < 0 || rl + dl > static_cast<int64_t>(comp_len) || rl + dl > static_cast<int64_t>(raw_len))
          return Corrupt("level lengths past the end of the page");
        // Levels are stored uncompressed in front of the (maybe compressed) values.
        size_t lv = static_cast<size_t>(rl + dl);
        bool compressed = h.is_compressed && codec_ != Codec::UNCOMPRESSED;
        uint8_t* buf = PageBuffer(raw_len, strings);
        if (lv) std::memcpy(buf, comp, lv);
        if (compressed) {
          if (!CodecSupported(codec_))
            return Status::NotSupported(file_ + ": compression codec " + CodecName(codec_) + " is not supported");
          if (!Decompress(codec_, comp + lv, comp_len - lv, buf + lv, raw_len - lv)) return Corrupt("page does not decompress");
        } else {
          if (comp_len != raw_len) return Corrupt("uncompressed page sizes disagree");
          if (raw_len > lv) std::memcpy(buf + lv, comp + lv, raw_len - lv);
        }
        rep_pre_.clear();
        def_pre_.clear();
        rep_pre_pos_ = def_pre_pos_ = 0;
        rep_dec_.Reset(buf, rl, BitWidth(leaf_.max_rep));
        def_dec_.Reset(buf + rl, dl, BitWidth(leaf_.max_def));
        data = buf + lv;
        dend = buf + raw_len;
      }
      LS_RETURN_NOT_OK(InitValues(enc, data, dend, num_values));
      values_left_ = num_values;
      if (num_values > 0) return Status::OK();
    }
  }

  Status Inflate(const uint8_t* comp, size_t comp_len, size_t raw_len, bool strings, const uint8_t*& out) {
    if (codec_ == Codec::UNCOMPRESSED && !strings) {
      if (comp_len != raw_len) return Corrupt("uncompressed page sizes disagree");
      out = comp;
      return Status::OK();
    }
    if (!CodecSupported(codec_))
      return Status::NotSupported(file_ + ": compression codec " + CodecName(codec_) + " is not supported");
    uint8_t* buf = PageBuffer(raw_len, strings);
    if (!Decompress(codec_, comp, comp_len, buf, raw_len)) return Corrupt("page does not decompress");
    out = buf;
    return Status::OK();
  }

  Status InitValues(Encoding enc, const uint8_t* data, const uint8_t* dend, int64_t num_values) {
    bool_bit_ = 0;
    vp_ = data;
    vend_ = dend;
    dict_mode_ = false;
    bool strings = leaf_.conv == Conv::STR;
    auto phys = leaf_.physical;
    switch (enc) {
      case Encoding::PLAIN: return Status::OK();
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY: {
        if (!dict_) return Corrupt("dictionary-encoded page without a dictionary page");
        if (dend - data < 1) {
          if (num_values == 0) return Status::OK();
          // All values may be NULL: an empty value section is fine until used.
          ids_.Reset(data, 0, 0);
          dict_mode_ = true;
          return Status::OK();
        }
        int width = data[0];
        if (width > 32) return Corrupt("bad dictionary index bit width");
        ids_.Reset(data + 1, dend - data - 1, width);
        dict_mode_ = true;
        return Status::OK();
      }
      case Encoding::RLE: {
        if (phys != PhysicalType::BOOLEAN) break;
        if (dend - data < 4) return Corrupt("truncated RLE boolean page");
        uint32_t len = Load<uint32_t>(data);
        if (len > static_cast<uint64_t>(dend - data - 4)) return Corrupt("RLE length past the page");
        RleBpDecoder d(data + 4, len, 1);
        plain_alt_.assign((num_values + 7) / 8, 0);
        std::vector<uint8_t> bits(num_values);
        uint32_t got = d.GetBatch(bits.data(), static_cast<uint32_t>(num_values));
        for (uint32_t i = 0; i < got; i++) plain_alt_[i / 8] |= static_cast<uint8_t>((bits[i] & 1) << (i % 8));
        vp_ = plain_alt_.data();
        vend_ = vp_ + (got + 7) / 8;
        return Status::OK();
      }
      case Encoding::DELTA_BINARY_PACKED: {
        if (phys != PhysicalType::INT32 && phys != PhysicalType::INT64) break;
        std::vector<int64_t> vals;
        size_t used;
        if (!DecodeDeltaBinaryPacked(data, dend - data, num_values, vals, used)) return Corrupt("bad DELTA_BINARY_PACKED data");
        size_t w = phys == PhysicalType::INT32 ? 4 : 8;
        plain_alt_.resize(vals.size() * w);
        for (size_t i = 0; i < vals.size(); i++) {
          if (w == 4) {
            int32_t v = static_cast<int32_t>(vals[i]);
            std::memcpy(plain_alt_.data() + i * 4, &v, 4);
          } else {
            std::memcpy(plain_alt_.data() + i * 8, &vals[i], 8);
          }
        }
        vp_ = plain_alt_.data();
        vend_ = vp_ + plain_alt_.size();
        return Status::OK();
      }
      case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      case Encoding::DELTA_BYTE_ARRAY: {
        if (phys != PhysicalType::BYTE_ARRAY && phys != PhysicalType::FIXED_LEN_BYTE_ARRAY) break;
        std::vector<int64_t> prefix, lens;
        size_t used = 0;
        const uint8_t* p = data;
        if (enc == Encoding::DELTA_BYTE_ARRAY) {
          if (!DecodeDeltaBinaryPacked(p, dend - p, num_values, prefix, used)) return Corrupt("bad DELTA_BYTE_ARRAY prefixes");
          p += used;
        }
        if (!DecodeDeltaBinaryPacked(p, dend - p, num_values, lens, used)) return Corrupt("bad DELTA_LENGTH_BYTE_ARRAY lengths");
        p += used;
        if (enc == Encoding::DELTA_BYTE_ARRAY && prefix.size() != lens.size()) return Corrupt("prefix/suffix counts differ");
        // Rebuild as PLAIN (4-byte length + bytes) so the common path decodes it.
        uint64_t total = 0;
        uint64_t prev_len = 0;
        for (size_t i = 0; i < lens.size(); i++) {
          if (lens[i] < 0 || static_cast<uint64_t>(lens[i]) > static_cast<uint64_t>(dend - p)) return Corrupt("bad string length");
          uint64_t pre = prefix.empty() ? 0 : static_cast<uint64_t>(prefix[i]);
          if (!prefix.empty() && (prefix[i] < 0 || pre > prev_len)) return Corrupt("bad DELTA_BYTE_ARRAY prefix");
          prev_len = pre + lens[i];
          total += 4 + prev_len;
          if (total > ParquetReader::kMaxPageBytes) return Corrupt("DELTA_BYTE_ARRAY page expands too much");
        }
        uint8_t* out = PageBuffer(total, strings);
        uint8_t* o = out;
        const uint8_t* prev = nullptr;
        uint64_t sum = 0;
        for (size_t i = 0; i < lens.size(); i++) {
          uint64_t pre = prefix.empty() ? 0 : static_cast<uint64_t>(prefix[i]);
          uint32_t len = static_cast<uint32_t>(pre + lens[i]);
          sum += lens[i];
          if (sum > static_cast<uint64_t>(dend - p)) return Corrupt("string bytes past the end of the page");
          std::memcpy(o, &len, 4);
          if (pre) std::memcpy(o + 4, prev, pre);
          std::memcpy(o + 4 + pre, p + (sum - lens[i]), lens[i]);
          prev = o + 4;
          o += 4 + len;
        }
        if (leaf_.physical == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
          // Strip lengths back to fixed-width layout.
          uint8_t* w = out;
          const uint8_t* rd = out;
          for (size_t i = 0; i < lens.size(); i++) {
            uint32_t len = Load<uint32_t>(rd);
            if (len != static_cast<uint32_t>(leaf_.type_length)) return Corrupt("FIXED_LEN_BYTE_ARRAY length mismatch");
            std::memmove(w, rd + 4, len);
            w += len;
            rd += 4 + len;
          }
          o = w;
        }
        vp_ = out;
        vend_ = o;
        return Status::OK();
      }
      case Encoding::BYTE_STREAM_SPLIT: {
        size_t w = 0;
        switch (phys) {
          case PhysicalType::INT32:
          case PhysicalType::FLOAT: w = 4; break;
          case PhysicalType::INT64:
          case PhysicalType::DOUBLE: w = 8; break;
          case PhysicalType::FIXED_LEN_BYTE_ARRAY: w = leaf_.type_length; break;
          default: break;
        }
        if (w == 0) break;
        size_t bytes = dend - data;
        size_t n = bytes / w;
        uint8_t* out = PageBuffer(n * w, strings);
        for (size_t i = 0; i < n; i++)
          for (size_t b = 0; b < w; b++) out[i * w + b] = data[b * n + i];
        vp_ = out;
        vend_ = out + n * w;
        return Status::OK();
      }
      default: break;
    }
    return Status::NotSupported(file_ + ": encoding " + std::to_string(static_cast<int>(enc)) + " in column '" +
                                leaf_.path + "' is not supported");
  }

  template <class T>
  void Gather(const uint32_t* ids, uint32_t m, T* out) {
    const T* d = dict_->GetData<T>();
    for (uint32_t i = 0; i < m; i++) out[i] = d[ids[i]];
  }

  Status DecodeDense(uint32_t m, Vector& dst, idx_t off) {
    if (m == 0) return Status::OK();
    if (!dict_mode_) return DecodePlain(m, dst, off);
    if (id_buf_.size() < m) id_buf_.resize(m);
    if (ids_.GetBatch(id_buf_.data(), m) != m) return Corrupt("too few dictionary indices");
    uint32_t mx = 0;
    for (uint32_t i = 0; i < m; i++) mx = std::max(mx, id_buf_[i]);
    if (mx >= dict_size_) return Corrupt("dictionary index out of range");
    switch (leaf_.type.PhysicalSize()) {
      case 1: Gather(id_buf_.data(), m, dst.GetData<uint8_t>() + off); break;
      case 4: Gather(id_buf_.data(), m, dst.GetData<uint32_t>() + off); break;
      case 8: Gather(id_buf_.data(), m, dst.GetData<uint64_t>() + off); break;
      case 16:
        if (leaf_.conv == Conv::STR) {
          Gather(id_buf_.data(), m, dst.GetData<string_t>() + off);
          dst.AddHeapReference(*dict_);
        } else {
          Gather(id_buf_.data(), m, dst.GetData<hugeint_t>() + off);
        }
        break;
      default: return Corrupt("unexpected value width");
    }
    return Status::OK();
  }

  Status Need(size_t bytes) {
    if (bytes > static_cast<size_t>(vend_ - vp_)) return Corrupt("values past the end of the page");
    return Status::OK();
  }

  Status DecodePlain(uint32_t m, Vector& dst, idx_t off) {
    switch (leaf_.conv) {
      case Conv::BOOL: {
        uint64_t bits = static_cast<uint64_t>(bool_bit_) + m;
        LS_RETURN_NOT_OK(Need((bits + 7) / 8));
        bool* out = dst.GetData<bool>() + off;
        for (uint32_t i = 0; i < m; i++) {
          uint64_t b = bool_bit_ + i;
          out[i] = (vp_[b >> 3] >> (b & 7)) & 1;
        }
        vp_ += (bool_bit_ + m) / 8;
        bool_bit_ = static_cast<int>((bool_bit_ + m) % 8);
        return Status::OK();
      }
      case Conv::COPY4:
        LS_RETURN_NOT_OK(Need(4ULL * m));
        if (m > 0) std::memcpy(dst.GetData<int32_t>() + off, vp_, 4ULL * m);  // vp_ may be null for an empty page
        vp_ += 4ULL * m;
        return Status::OK();
      case Conv::COPY8:
        LS_RETURN_NOT_OK(Need(8ULL * m));
        if (m > 0) std::memcpy(dst.GetData<int64_t>() + off, vp_, 8ULL * m);
        vp_ += 8ULL * m;
        return Status::OK();
      case Conv::I32_TO_I64:
      case Conv::U32_TO_I64:
      case Conv::I32_MILLIS_TO_MICROS: {
        LS_RETURN_NOT_OK(Need(4ULL * m));
        int64_t* out = dst.GetData<int64_t>() + off;
        for (uint32_t i = 0; i < m; i++) {
          int32_t v = Load<int32_t>(vp_ + 4ULL * i);
          out[i] = leaf_.conv == Conv::U32_TO_I64 ? static_cast<int64_t>(static_cast<uint32_t>(v))
                   : leaf_.conv == Conv::I32_MILLIS_TO_MICROS ? static_cast<int64_t>(v) * 1000
                                                               : v;
        }
        vp_ += 4ULL * m;
        return Status::OK();
      }
      case Conv::FLOAT_TO_DOUBLE: {
        LS_RETURN_NOT_OK(Need(4ULL * m));
        double* out = dst.GetData<double>() + off;
        for (uint32_t i = 0; i < m; i++) out[i] = Load<float>(vp_ + 4ULL * i);
        vp_ += 4ULL * m;
        return Status::OK();
      }
      case Conv::I64_MILLIS_TO_MICROS:
      case Conv::I64_NANOS_TO_MICROS: {
        LS_RETURN_NOT_OK(Need(8ULL * m));
        int64_t* out = dst.GetData<int64_t>() + off;
        bool millis = leaf_.conv == Conv::I64_MILLIS_TO_MICROS;
        for (uint32_t i = 0; i < m; i++) {
          int64_t v = Load<int64_t>(vp_ + 8ULL * i);
          out[i] = millis ? MillisToMicros(v) : FloorDiv(v, 1000);
        }
        vp_ += 8ULL * m;
        return Status::OK();
      }
      case Conv::INT96_TO_TS: {
        LS_RETURN_NOT_OK(Need(12ULL * m));
        int64_t* out = dst.GetData<int64_t>() + off;
        for (uint32_t i = 0; i < m; i++) {
          int64_t nanos = Load<int64_t>(vp_ + 12ULL * i);
          int32_t day = Load<int32_t>(vp_ + 12ULL * i + 8);
          out[i] = static_cast<int64_t>(static_cast<uint64_t>(day - kJulianEpoch) * 86400000000ULL) + FloorDiv(nanos, 1000);
        }
        vp_ += 12ULL * m;
        return Status::OK();
      }
      case Conv::I32_DEC: {
        LS_RETURN_NOT_OK(Need(4ULL * m));
        hugeint_t* out = dst.GetData<hugeint_t>() + off;
        for (uint32_t i = 0; i < m; i++) out[i] = Load<int32_t>(vp_ + 4ULL * i);
        vp_ += 4ULL * m;
        return Status::OK();
      }
      case Conv::I64_DEC: {
        LS_RETURN_NOT_OK(Need(8ULL * m));
        hugeint_t* out = dst.GetData<hugeint_t>() + off;
        for (uint32_t i = 0; i < m; i++) out[i] = Load<int64_t>(vp_ + 8ULL * i);
        vp_ += 8ULL * m;
        return Status::OK();
      }
      case Conv::BIN_DEC: {
        hugeint_t* out = dst.GetData<hugeint_t>() + off;
        if (leaf_.physical == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
          size_t w = leaf_.type_length;
          LS_RETURN_NOT_OK(Need(w * m));
          for (uint32_t i = 0; i < m; i++) out[i] = BigEndianToHugeint(vp_ + w * i, w);
          vp_ += w * m;
        } else {
          for (uint32_t i = 0; i < m; i++) {
            LS_RETURN_NOT_OK(Need(4));
            uint32_t len = Load<uint32_t>(vp_);
            vp_ += 4;
            LS_RETURN_NOT_OK(Need(len));
            out[i] = BigEndianToHugeint(vp_, len);
            vp_ += len;
          }
        }
        return Status::OK();
      }
      case Conv::STR: {
        string_t* out = dst.GetData<string_t>() + off;
        if (leaf_.physical == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
          size_t w = leaf_.type_length;
          LS_RETURN_NOT_OK(Need(w * m));
          for (uint32_t i = 0; i < m; i++) out[i] = string_t(reinterpret_cast<const char*>(vp_ + w * i), w);
          vp_ += w * m;
        } else {
          const uint8_t* p = vp_;
          const uint8_t* e = vend_;
          for (uint32_t i = 0; i < m; i++) {
            if (e - p < 4) return Corrupt("string length past the end of the page");
            uint32_t len = Load<uint32_t>(p);
            p += 4;
            if (len > static_cast<size_t>(e - p)) return Corrupt("string past the end of the page");
            out[i] = string_t(reinterpret_cast<const char*>(p), len);
            p += len;
          }
          vp_ = p;
        }
        if (page_heap_) dst.AddHeapReference(*page_heap_);
        return Status::OK();
      }
    }
    return Corrupt("unknown conversion");
  }

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

// All levels and values of one leaf of a nested column in a row group.
struct LeafData {
  std::vector<uint16_t> def, rep;
  std::unique_ptr<Vector> values;
  idx_t count = 0;  // non-NULL values
  idx_t pos = 0, vpos = 0;
};

template <class T>
void Spread(T* data, uint8_t* valid, const uint16_t* defs, uint16_t max_def, uint32_t k, uint32_t nn) {
  int64_t j = static_cast<int64_t>(nn) - 1;
  for (int64_t i = static_cast<int64_t>(k) - 1; i >= 0; i--) {
    if (defs[i] == max_def) {
      data[i] = data[j--];
      valid[i] = 1;
    } else {
      data[i] = T();
      valid[i] = 0;
    }
  }
}

}  // namespace

struct ParquetReader::Impl {
  std::string path;
  FileImage file;
  FileMetaData md;
  ParquetSchema schema;
  std::vector<std::string> names;
  std::vector<LogicalType> types;

  // Scan state.
  std::vector<std::unique_ptr<PageScratch>> page_scratch;  // per leaf; outlives the chunk readers in cols
  struct ColumnState {
    idx_t column;
    const ENode* node;
    std::unique_ptr<ColumnChunkReader> flat;
    std::vector<LeafData> leaves;  // nested: indexed by leaf - node->leaf_begin
  };
  std::vector<ColumnState> cols;
  // Narrowed copies of struct columns (ScanProjected) that `cols` point at.
  std::vector<std::unique_ptr<ENode>> narrowed;
  std::vector<ParquetFilter> filters;
  bool scanning = false;
  idx_t next_rg = 0;
  int64_t rows_left = 0;
  idx_t skipped = 0;
  std::vector<uint16_t> def_scratch;
  std::string nested_error;

  Status Corrupt(const std::string& m) const { return Status::Corruption(path + ": corrupt Parquet file: " + m); }

  Status ParseFooter() {
    const uint8_t* d = file.data;
    size_t n = file.size;
    if (n < 12) return Corrupt("file of " + std::to_string(n) + " bytes is too small to be Parquet");
    if (std::memcmp(d, "PAR1", 4) != 0) return Corrupt("bad magic at the start (not a Parquet file)");
    if (std::memcmp(d + n - 4, "PAR1", 4) != 0) {
      if (std::memcmp(d + n - 4, "PARE", 4) == 0) return Status::NotSupported(path + ": encrypted Parquet files are not supported");
      return Corrupt("bad magic at the end (truncated file?)");
    }
    uint32_t footer_len = Load<uint32_t>(d + n - 8);
    if (footer_len > n - 12) return Corrupt("footer length " + std::to_string(footer_len) + " past the start of the file");
    TReader r(d + n - 8 - footer_len, footer_len);
    if (!ReadFileMetaData(r, md)) return Corrupt("bad footer (" + r.error() + ")");
    LS_RETURN_NOT_OK(BuildSchema(path, md.schema, schema));
    for (auto& c : schema.columns) {
      names.push_back(c->name);
      types.push_back(c->type);
    }
    size_t data_end = n - 8 - footer_len;
    int64_t total = 0;
    for (auto& rg : md.row_groups) {
      if (rg.num_rows < 0) return Corrupt("negative row count in a row group");
      if (rg.columns.size() != schema.leaves.size())
        return Corrupt("row group has " + std::to_string(rg.columns.size()) + " column chunks, schema has " +
                       std::to_string(schema.leaves.size()) + " leaf columns");
      for (size_t i = 0; i < rg.columns.size(); i++) {
        auto& cc = rg.columns[i];
        if (!cc.file_path.empty()) return Status::NotSupported(path + ": column chunks in other files are not supported");
        if (!cc.meta_data) return Corrupt("column chunk without metadata");
        auto& m = *cc.meta_data;
        if (m.type != schema.leaves[i].physical) return Corrupt("column '" + schema.leaves[i].path + "' has a type other than its schema's");
        int64_t start = ChunkStart(m);
        if (start < 4 || m.total_compressed_size < 0 || static_cast<uint64_t>(start) > data_end ||
            static_cast<uint64_t>(m.total_compressed_size) > data_end - start)
          return Corrupt("column chunk of '" + schema.leaves[i].path + "' lies outside the data area");
      }
      if (__builtin_add_overflow(total, rg.num_rows, &total)) return Corrupt("row count overflows");
    }
    if (md.num_rows < 0) return Corrupt("negative row count");
    return Status::OK();
  }

  static int64_t ChunkStart(const ColumnMetaData& m) {
    int64_t start = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start)
      start = *m.dictionary_page_offset;
    return start;
  }

  std::unique_ptr<ColumnChunkReader> ChunkReader(idx_t rg, idx_t leaf) {
    auto& m = *md.row_groups[rg].columns[leaf].meta_data;
    int64_t start = ChunkStart(m);
    if (page_scratch.size() <= leaf) page_scratch.resize(schema.leaves.size());
    if (!page_scratch[leaf]) page_scratch[leaf] = std::make_unique<PageScratch>();
    return std::make_unique<ColumnChunkReader>(path, schema.leaves[leaf], m.codec, file.data + start,
                                               file.data + start + m.total_compressed_size, *page_scratch[leaf]);
  }

  // Stats decoding.
  Value StatValue(const LeafDesc& leaf, const std::string& b) const {
    auto size_is = [&](size_t s) { return b.size() == s; };
    switch (leaf.conv) {
      case Conv::BOOL: if (size_is(1)) return Value::BOOLEAN(b[0] != 0); break;
      case Conv::COPY4:
        if (!size_is(4)) break;
        if (leaf.type.id() == TypeId::DATE) return Value::DATE(Load<int32_t>(reinterpret_cast<const uint8_t*>(b.data())));
        return Value::INTEGER(Load<int32_t>(reinterpret_cast<const uint8_t*>(b.data())));
      case Conv::COPY8: {
        if (!size_is(8)) break;
        auto p = reinterpret_cast<const uint8_t*>(b.data());
        if (leaf.type.id() == TypeId::DOUBLE) return Value::DOUBLE(Load<double>(p));
        if (leaf.type.id() == TypeId::TIMESTAMP) return Value::TIMESTAMP(Load<int64_t>(p));
        if (leaf.type.id() == TypeId::TIMESTAMP_NTZ) return Value::TIMESTAMP_NTZ(Load<int64_t>(p));
        return Value::BIGINT(Load<int64_t>(p));
      }
      case Conv::U32_TO_I64:
        if (size_is(4)) return Value::BIGINT(Load<uint32_t>(reinterpret_cast<const uint8_t*>(b.data())));
        break;
      case Conv::FLOAT_TO_DOUBLE:
        if (size_is(4)) return Value::DOUBLE(Load<float>(reinterpret_cast<const uint8_t*>(b.data())));
        break;
      case Conv::I64_MILLIS_TO_MICROS:
        if (size_is(8)) {
          int64_t v = MillisToMicros(Load<int64_t>(reinterpret_cast<const uint8_t*>(b.data())));
          return leaf.type.id() == TypeId::TIMESTAMP_NTZ ? Value::TIMESTAMP_NTZ(v) : Value::TIMESTAMP(v);
        }
        break;
      case Conv::I64_NANOS_TO_MICROS:
        if (size_is(8)) {
          int64_t v = FloorDiv(Load<int64_t>(reinterpret_cast<const uint8_t*>(b.data())), 1000);
          if (leaf.type.id() == TypeId::TIMESTAMP_NTZ) return Value::TIMESTAMP_NTZ(v);
          return leaf.type.id() == TypeId::TIMESTAMP ? Value::TIMESTAMP(v) : Value::BIGINT(v);
        }
        break;
      case Conv::I32_DEC:
        if (size_is(4))
          return Value::DECIMAL(Load<int32_t>(reinterpret_cast<const uint8_t*>(b.data())), leaf.type.width(), leaf.type.scale());
        break;
      case Conv::I64_DEC:
        if (size_is(8))
          return Value::DECIMAL(Load<int64_t>(reinterpret_cast<const uint8_t*>(b.data())), leaf.type.width(), leaf.type.scale());
        break;
      case Conv::BIN_DEC:
        if (b.size() <= 16)
          return Value::DECIMAL(BigEndianToHugeint(reinterpret_cast<const uint8_t*>(b.data()), b.size()),
                                leaf.type.width(), leaf.type.scale());
        break;
      case Conv::STR: return Value::VARCHAR(b);
      default: break;
    }
    return Value(leaf.type);
  }

  // Might `ref` be non-NULL in some row of `rg`? A field is NULL wherever its
  // struct is, so a field leaf that is NULL in every row says no. Only leaves
  // that do not repeat are judged (a list leaf's null_count is per element).
  bool MayHoldValues(idx_t rg, const ParquetColumnRef& ref) const {
    if (ref.column >= schema.columns.size()) return true;
    const ENode* n = schema.columns[ref.column].get();
    if (!ref.field.empty()) {
      const ENode* child = nullptr;
      if (n->kind == ENode::STRUCT)
        for (auto& c : n->children)
          if (c->name == ref.field) child = c.get();
      n = child;
    }
    if (!n || n->kind != ENode::LEAF || schema.leaves[n->leaf].max_rep != 0) return true;
    auto& m = md.row_groups[rg].columns[n->leaf].meta_data;
    if (!m || !m->statistics || !m->statistics->null_count) return true;
    return *m->statistics->null_count != m->num_values || m->num_values == 0;
  }

  bool RowGroupCanMatch(idx_t rg) const {
    for (auto& f : filters) {
      if (f.op == CompareOp::kAnyNotNull) {
        bool any = f.any_not_null.empty();
        for (const auto& ref : f.any_not_null) any = any || MayHoldValues(rg, ref);
        if (!any) return false;
        continue;
      }
      if (f.column >= schema.columns.size()) continue;
      if (f.value.IsNull()) continue;
      const ENode& n = *schema.columns[f.column];
      if (n.kind != ENode::LEAF) continue;
      ParquetColumnStats st = Stats(rg, f.column);
      int64_t rows = md.row_groups[rg].num_rows;
      if (st.null_count && *st.null_count == rows && rows > 0) return false;  // all NULL: no comparison is true
      if (st.min.IsNull() || st.max.IsNull()) continue;
      try {
        Value v = f.value.type() == n.type ? f.value : f.value.CastAs(n.type);
        if (n.type.id() == TypeId::DOUBLE &&
            (std::isnan(st.min.GetDouble()) || std::isnan(st.max.GetDouble()) || std::isnan(v.GetDouble())))
          continue;
        int cmin = v.Compare(st.min), cmax = v.Compare(st.max);
        switch (f.op) {
          case CompareOp::kEqual: if (cmin < 0 || cmax > 0) return false; break;
          case CompareOp::kLess: if (cmin <= 0) return false; break;        // v <= min: no x < v
          case CompareOp::kLessEqual: if (cmin < 0) return false; break;
          case CompareOp::kGreater: if (cmax >= 0) return false; break;     // v >= max: no x > v
          case CompareOp::kGreaterEqual: if (cmax > 0) return false; break;
          case CompareOp::kAnyNotNull: break;  // handled above
        }
      } catch (...) {
        continue;
      }
    }
    return true;
  }

  ParquetColumnStats Stats(idx_t rg, idx_t column) const {
    ParquetColumnStats out;
    if (rg >= md.row_groups.size() || column >= schema.columns.size()) return out;
    const ENode& n = *schema.columns[column];
    out.min = out.max = Value(n.type);
    if (n.kind != ENode::LEAF) return out;
    const LeafDesc& leaf = schema.leaves[n.leaf];
    auto& m = md.row_groups[rg].columns[n.leaf].meta_data;
    if (!m || !m->statistics) return out;
    auto& s = *m->statistics;
    out.null_count = s.null_count;
    if (s.min_value && s.max_value) {
      out.min = StatValue(leaf, *s.min_value);
      out.max = StatValue(leaf, *s.max_value);
    } else if (s.min && s.max && !leaf.unsigned_int && leaf.physical != PhysicalType::BYTE_ARRAY &&
               leaf.physical != PhysicalType::FIXED_LEN_BYTE_ARRAY && leaf.physical != PhysicalType::INT96) {
      out.min = StatValue(leaf, *s.min);
      out.max = StatValue(leaf, *s.max);
    }
    if (out.min.IsNull() || out.max.IsNull()) out.min = out.max = Value(n.type);
    return out;
  }

  static void CollectLeaves(const ENode& node, std::vector<idx_t>& out) {
    if (node.kind == ENode::LEAF) out.push_back(node.leaf);
    for (auto& c : node.children) CollectLeaves(*c, out);
  }

  Status OpenRowGroup(idx_t rg) {
    rows_left = md.row_groups[rg].num_rows;
    std::vector<idx_t> leaf_ids;
    for (auto& cs : cols) {
      const ENode& node = *cs.node;
      cs.flat.reset();
      cs.leaves.clear();
      if (node.kind == ENode::LEAF && schema.leaves[node.leaf].max_rep == 0) {
        cs.flat = ChunkReader(rg, node.leaf);
        continue;
      }
      // A narrowed struct spans leaves it does not use: those stay empty.
      cs.leaves.resize(node.leaf_end - node.leaf_begin);
      leaf_ids.clear();
      CollectLeaves(node, leaf_ids);
      for (idx_t l : leaf_ids) {
        LeafData& ld = cs.leaves[l - node.leaf_begin];
        const LeafDesc& desc = schema.leaves[l];
        auto reader = ChunkReader(rg, l);
        // Sized for the chunk's level count (its values are at most that many)
        // so the values are not copied on every doubling; capped, as the
        // footer's count is only a claim.
        int64_t expected = std::clamp<int64_t>(md.row_groups[rg].columns[l].meta_data->num_values, 64, 1 << 20);
        ld.values = std::make_unique<Vector>(desc.type, static_cast<idx_t>(expected));
        ld.def.reserve(static_cast<size_t>(expected));
        // Repetition levels only exist under a list or map; elsewhere every
        // entry starts a row and none are stored.
        const bool reps = desc.max_rep > 0;
        if (reps) ld.rep.reserve(static_cast<size_t>(expected));
        int64_t rows = 0;
        while (reader->HasMorePages()) {
          if (reader->values_left() == 0) {
            // Load the next page (or discover that only non-data pages remain).
            uint32_t dummy;
            uint16_t d0, r0;
            idx_t before = ld.def.size();
            ld.def.push_back(0);
            if (reps) ld.rep.push_back(0);
            Status s = reader->Read(1, &d0, &r0, *ld.values, ld.count, dummy);
            if (!s.ok()) {
              if (s.IsCorruption() && !reader->HasMorePages() && s.message().find("ran out of pages") != std::string::npos) {
                ld.def.resize(before);
                if (reps) ld.rep.resize(before);
                break;
              }
              return s;
            }
            ld.def[before] = desc.max_def > 0 ? d0 : 0;
            if (reps) ld.rep[before] = r0;
            ld.count += dummy;
            continue;
          }
          int64_t k = reader->values_left();
          if (static_cast<int64_t>(ld.def.size()) + k > kMaxNestedEntries)
            return Status::NotSupported(path + ": nested column '" + desc.path + "' has too many values in one row group");
          idx_t base = ld.def.size();
          ld.def.resize(base + k);
          if (reps) ld.rep.resize(base + k);
          uint32_t nn;
          LS_RETURN_NOT_OK(reader->Read(static_cast<uint32_t>(k), desc.max_def > 0 ? ld.def.data() + base : nullptr,
                                        reps ? ld.rep.data() + base : nullptr, *ld.values, ld.count, nn));
          ld.count += nn;
        }
        if (reps) {
          for (auto r : ld.rep) rows += r == 0;
        } else {
          rows = static_cast<int64_t>(ld.def.size());
        }
        if (rows != rows_left)
          return Corrupt("column '" + desc.path + "' has " + std::to_string(rows) + " rows in a row group of " +
                         std::to_string(rows_left));
      }
    }
    return Status::OK();
  }

  void SkipEntries(ColumnState& cs, const ENode& node) {
    for (idx_t l = node.leaf_begin; l < node.leaf_end; l++) cs.leaves[l - cs.node->leaf_begin].pos++;
  }

  // Reads one value of `node` into vec[row]; the parent is known to be present.
  void ReadValue(ColumnState& cs, const ENode& node, Vector& vec, idx_t row, int depth) {
    LeafData& f = cs.leaves[node.leaf_begin - cs.node->leaf_begin];
    if (node.leaf_begin == node.leaf_end || f.pos >= f.def.size()) {
      nested_error = "levels end early";
      vec.SetValid(row, false);
      return;
    }
    int d = f.def[f.pos];
    if (d < node.def_level) {
      vec.SetValid(row, false);
      SkipEntries(cs, node);
      return;
    }
    vec.SetValid(row, true);
    switch (node.kind) {
      case ENode::LEAF: {
        if (f.vpos >= f.count) {
          nested_error = "more defined levels than values";
          vec.SetValid(row, false);
          f.pos++;
          return;
        }
        idx_t w = node.type.PhysicalSize();
        std::memcpy(vec.GetData<uint8_t>() + row * w, f.values->GetData<uint8_t>() + f.vpos * w, w);
        f.vpos++;
        f.pos++;
        return;
      }
      case ENode::STRUCT:
        for (idx_t i = 0; i < node.children.size(); i++) ReadValue(cs, *node.children[i], vec.Child(i), row, depth + 1);
        return;
      case ENode::LIST: {
        idx_t start = vec.ListSize();
        vec.GetData<list_entry_t>()[row] = list_entry_t{start, 0};
        if (d < node.rep_def) {
          SkipEntries(cs, node);
          return;
        }
        Vector& child = vec.Child(0);
        idx_t len = 0;
        while (true) {
          idx_t idx = vec.ListSize();
          if (idx >= child.Capacity()) child.Resize(std::max<idx_t>(idx * 2, STANDARD_VECTOR_SIZE));
          size_t before = f.pos;
          ReadValue(cs, *node.children[0], child, idx, depth + 1);
          vec.SetListSize(idx + 1);
          len++;
          if (f.pos == before) {
            nested_error = "no progress";
            break;
          }
          if (f.pos >= f.def.size() || f.rep[f.pos] != node.rep_level) break;
        }
        vec.GetData<list_entry_t>()[row].length = len;
        return;
      }
    }
  }

  void AttachHeaps(ColumnState& cs, const ENode& node, Vector& vec) {
    if (node.kind == ENode::LEAF) {
      if (node.type.id() == TypeId::VARCHAR) vec.AddHeapReference(*cs.leaves[node.leaf - cs.node->leaf_begin].values);
      return;
    }
    for (idx_t i = 0; i < node.children.size(); i++) AttachHeaps(cs, *node.children[i], vec.Child(i));
  }

  Status ReadFlat(ColumnState& cs, Vector& vec, idx_t count) {
    const LeafDesc& leaf = schema.leaves[cs.node->leaf];
    uint32_t nn;
    if (leaf.max_def == 0) {
      LS_RETURN_NOT_OK(cs.flat->Read(static_cast<uint32_t>(count), nullptr, nullptr, vec, 0, nn));
      vec.SetAllValid(count);
      return Status::OK();
    }
    if (def_scratch.size() < count) def_scratch.resize(count);
    LS_RETURN_NOT_OK(cs.flat->Read(static_cast<uint32_t>(count), def_scratch.data(), nullptr, vec, 0, nn));
    if (nn == count) {
      vec.SetAllValid(count);
      return Status::OK();
    }
    uint16_t md = static_cast<uint16_t>(leaf.max_def);
    uint8_t* valid = vec.Validity();
    uint32_t k = static_cast<uint32_t>(count);
    switch (vec.GetType().PhysicalSize()) {
      case 1: Spread(vec.GetData<uint8_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 4: Spread(vec.GetData<uint32_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 8: Spread(vec.GetData<uint64_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 16:
        if (vec.GetType().id() == TypeId::VARCHAR) Spread(vec.GetData<string_t>(), valid, def_scratch.data(), md, k, nn);
        else Spread(vec.GetData<hugeint_t>(), valid, def_scratch.data(), md, k, nn);
        break;
    }
    return Status::OK();
  }
};

ParquetReader::ParquetReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetReader::~ParquetReader() = default;

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  if (IsRemotePath(path)) {
    // Object storage: one GET of the whole object. (Ranged GETs of the
    // footer and the projected column chunks would save bytes on wide
    // tables; FileSystem::ReadRange is there for it.)
    auto bytes = FileSystem::For(path)->ReadFile(path);
    if (!bytes.ok()) return bytes.status();
    return OpenBuffer(path, bytes.take());
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) return Status::NotFound(path + ": no such Parquet file");
    return Status::IOError(path + ": cannot open: " + std::strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return Status::IOError(path + ": cannot stat: " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError(path + ": not a regular file");
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (size > 0) {
    void* m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return Status::IOError(path + ": cannot map: " + std::strerror(e));
    }
    impl->file.map = m;
    impl->file.data = static_cast<const uint8_t*>(m);
  }
  impl->file.size = size;
  ::close(fd);
  LS_RETURN_NOT_OK(impl->ParseFooter());
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenBuffer(const std::string& name, std::string data) {
  auto impl = std::make_unique<Impl>();
  impl->path = name;
  impl->file.owned = std::move(data);
  impl->file.data = reinterpret_cast<const uint8_t*>(impl->file.owned.data());
  impl->file.size = impl->file.owned.size();
  LS_RETURN_NOT_OK(impl->ParseFooter());
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

const std::string& ParquetReader::path() const { return impl_->path; }
const std::vector<std::string>& ParquetReader::ColumnNames() const { return impl_->names; }
const std::vector<LogicalType>& ParquetReader::ColumnTypes() const { return impl_->types; }
int64_t ParquetReader::RowCount() const {
  int64_t total = 0;
  for (auto& rg : impl_->md.row_groups) total += rg.num_rows;
  return total;
}
idx_t ParquetReader::RowGroupCount() const { return impl_->md.row_groups.size(); }
const std::string& ParquetReader::CreatedBy() const { return impl_->md.created_by; }
std::vector<std::pair<std::string, std::string>> ParquetReader::KeyValueMetadata() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& kv : impl_->md.key_value_metadata) out.emplace_back(kv.key, kv.value.value_or(""));
  return out;
}
ParquetColumnStats ParquetReader::ColumnStatistics(idx_t rg, idx_t column) const { return impl_->Stats(rg, column); }
idx_t ParquetReader::RowGroupsSkipped() const { return impl_->skipped; }

Status ParquetReader::Scan(const std::vector<idx_t>& column_ids, const std::vector<ParquetFilter>& filters) {
  auto& im = *impl_;
  im.cols.clear();
  for (idx_t c : column_ids) {
    if (c >= im.schema.columns.size())
      return Status::InvalidArgument(im.path + ": column index " + std::to_string(c) + " out of range (file has " +
                                     std::to_string(im.schema.columns.size()) + " columns)");
    Impl::ColumnState cs;
    cs.column = c;
    cs.node = im.schema.columns[c].get();
    im.cols.push_back(std::move(cs));
  }
  im.filters = filters;
  im.next_rg = 0;
  im.rows_left = 0;
  im.skipped = 0;
  im.scanning = true;
  return Status::OK();
}

namespace {
std::unique_ptr<ENode> CloneNode(const ENode& n) {
  auto c = std::make_unique<ENode>();
  c->kind = n.kind;
  c->type = n.type;
  c->name = n.name;
  c->def_level = n.def_level;
  c->rep_def = n.rep_def;
  c->rep_level = n.rep_level;
  c->leaf = n.leaf;
  c->leaf_begin = n.leaf_begin;
  c->leaf_end = n.leaf_end;
  for (auto& child : n.children) c->children.push_back(CloneNode(*child));
  return c;
}
}  // namespace

Status ParquetReader::ScanProjected(const std::vector<ParquetProjection>& columns,
                                    const std::vector<ParquetFilter>& filters) {
  auto& im = *impl_;
  std::vector<idx_t> ids;
  ids.reserve(columns.size());
  for (const auto& p : columns) ids.push_back(p.column);
  LS_RETURN_NOT_OK(Scan(ids, filters));
  im.narrowed.clear();
  for (idx_t i = 0; i < columns.size(); i++) {
    const auto& fields = columns[i].fields;
    if (fields.empty()) continue;
    const ENode& node = *im.cols[i].node;
    if (node.kind != ENode::STRUCT) {
      im.scanning = false;
      return Status::InvalidArgument(im.path + ": column '" + im.names[columns[i].column] +
                                     "' is not a struct; it has no fields to project");
    }
    auto narrow = std::make_unique<ENode>();
    narrow->kind = ENode::STRUCT;
    narrow->name = node.name;
    narrow->def_level = node.def_level;
    child_list_t kept;
    for (idx_t c = 0; c < node.children.size(); c++) {
      const std::string& name = node.type.children()[c].first;
      if (std::find(fields.begin(), fields.end(), name) == fields.end()) continue;
      kept.emplace_back(name, node.children[c]->type);
      narrow->children.push_back(CloneNode(*node.children[c]));
    }
    if (narrow->children.empty()) {
      im.scanning = false;
      return Status::InvalidArgument(im.path + ": column '" + im.names[columns[i].column] +
                                     "' has none of the projected fields");
    }
    narrow->type = LogicalType::Struct(std::move(kept));
    narrow->leaf_begin = narrow->children.front()->leaf_begin;
    narrow->leaf_end = narrow->children.back()->leaf_end;
    im.cols[i].node = narrow.get();
    im.narrowed.push_back(std::move(narrow));
  }
  return Status::OK();
}

std::vector<LogicalType> ParquetReader::ProjectedTypes() const {
  std::vector<LogicalType> t;
  for (auto& c : impl_->cols) t.push_back(c.node->type);
  return t;
}

Status ParquetReader::ReadChunk(DataChunk& out) {
  auto& im = *impl_;
  out.Reset();
  if (!im.scanning) return Status::InvalidArgument(im.path + ": ReadChunk before Scan");
  if (out.ColumnCount() != im.cols.size())
    return Status::InvalidArgument(im.path + ": DataChunk has " + std::to_string(out.ColumnCount()) +
                                   " columns, the scan projects " + std::to_string(im.cols.size()));
  while (im.rows_left == 0) {
    if (im.next_rg >= im.md.row_groups.size()) {
      im.scanning = false;
      return Status::OK();
    }
    idx_t rg = im.next_rg++;
    if (im.md.row_groups[rg].num_rows == 0) continue;
    if (!im.RowGroupCanMatch(rg)) {
      im.skipped++;
      continue;
    }
    Status s = im.OpenRowGroup(rg);
    if (!s.ok()) {
      im.scanning = false;
      im.rows_left = 0;
      return s;
    }
    if (im.cols.empty()) break;
  }
  idx_t count = static_cast<idx_t>(std::min<int64_t>(im.rows_left, STANDARD_VECTOR_SIZE));
  for (idx_t c = 0; c < im.cols.size(); c++) {
    auto& cs = im.cols[c];
    Vector& vec = out.data[c];
    if (vec.GetType() != cs.node->type)
      return Status::InvalidArgument(im.path + ": DataChunk column " + std::to_string(c) + " has type " +
                                     vec.GetType().ToString() + ", expected " + cs.node->type.ToString());
    if (cs.flat) {
      Status s = im.ReadFlat(cs, vec, count);
      if (!s.ok()) {
        im.scanning = false;
        im.rows_left = 0;
        return s;
      }
    } else {
      im.nested_error.clear();
      im.AttachHeaps(cs, *cs.node, vec);
      for (idx_t r = 0; r < count && im.nested_error.empty(); r++) im.ReadValue(cs, *cs.node, vec, r, 0);
      if (!im.nested_error.empty()) {
        im.scanning = false;
        im.rows_left = 0;
        return im.Corrupt("nested column '" + cs.node->name + "': " + im.nested_error);
      }
    }
  }
  im.rows_left -= count;
  out.SetCardinality(count);
  return Status::OK();
}

}  // namespace lakestream
