#include "storage/parquet/parquet_column_reader.hpp"

#include <algorithm>

#include "storage/parquet/parquet_codec.hpp"
#include "storage/parquet/parquet_limits.hpp"

namespace lakestream::parquet {

namespace {
constexpr int64_t kJulianEpoch = 2440588;
}  // namespace

uint8_t* PageScratch::Get(size_t size) {
  flip_ ^= 1;
  if (capacity_[flip_] < size) {
    // Not value-initialised: every byte handed out is written before it is read.
    buffers_[flip_].reset(new uint8_t[size]);
    capacity_[flip_] = size;
  }
  return buffers_[flip_].get();
}

uint8_t* PageScratch::GetForStrings(size_t size, Vector*& owner) {
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

Status ColumnChunkReader::Read(uint32_t n, uint16_t* defs, uint16_t* reps, Vector& dst, idx_t dst_offset, uint32_t& nonnull) {
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

Status ColumnChunkReader::ReadLevels(RleBpDecoder& dec, std::vector<uint16_t>& pre, size_t& pre_pos, uint16_t* out, uint32_t k,
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

Status ColumnChunkReader::InitLevelsV1(Encoding enc, int max_level, int64_t num_values, const uint8_t*& p, const uint8_t* end,
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

Status ColumnChunkReader::NextPage() {
  while (true) {
    if (pos_ >= end_) return Corrupt("ran out of pages before the row group's last row");
    TReader r(pos_, static_cast<size_t>(end_ - pos_));
    PageHeader ph;
    if (!ReadPageHeader(r, ph)) return Corrupt("bad page header (" + r.error() + ")");
    pos_ += r.consumed();
    if (ph.compressed_page_size < 0 || ph.compressed_page_size > end_ - pos_)
      return Corrupt("page size " + std::to_string(ph.compressed_page_size) + " past the end of the column chunk");
    if (ph.uncompressed_page_size < 0 || static_cast<uint64_t>(ph.uncompressed_page_size) > kMaxPageBytes)
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

Status ColumnChunkReader::Inflate(const uint8_t* comp, size_t comp_len, size_t raw_len, bool strings, const uint8_t*& out) {
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

Status ColumnChunkReader::InitValues(Encoding enc, const uint8_t* data, const uint8_t* dend, int64_t num_values) {
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
        if (total > kMaxPageBytes) return Corrupt("DELTA_BYTE_ARRAY page expands too much");
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
void ColumnChunkReader::Gather(const uint32_t* ids, uint32_t m, T* out) {
  const T* d = dict_->GetData<T>();
  for (uint32_t i = 0; i < m; i++) out[i] = d[ids[i]];
}

Status ColumnChunkReader::DecodeDense(uint32_t m, Vector& dst, idx_t off) {
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

Status ColumnChunkReader::DecodePlain(uint32_t m, Vector& dst, idx_t off) {
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

}  // namespace lakestream::parquet
