#include "storage/parquet/parquet_column_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/vector_operations.hpp"
#include "storage/parquet/parquet_codec.hpp"
#include "storage/parquet/parquet_encoding.hpp"
#include "storage/parquet/parquet_limits.hpp"

namespace lakestream {

using namespace parquet;  // NOLINT

namespace {

uint64_t HashBytes(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = MixHash(h ^ w);
  }
  uint64_t tail = 0;
  if (s.size() > i) std::memcpy(&tail, s.data() + i, s.size() - i);  // s.data() may be null when empty
  return MixHash(h ^ tail);
}

uint64_t Hash128(hugeint_t key) {
  auto u = static_cast<unsigned __int128>(key);
  return MixHash(static_cast<uint64_t>(u) ^ MixHash(static_cast<uint64_t>(u >> 64)));
}

}  // namespace

ParquetColumnWriter::ParquetColumnWriter(std::vector<std::string> path, const LogicalType& type, Kind kind,
                                         PhysicalType physical, int flba_len, int max_def, int max_rep, bool dictionary,
                                         size_t dictionary_max_bytes, ParquetColumnSettings* settings)
    : path_(std::move(path)),
      type_(type),
      kind_(kind),
      physical_(physical),
      flba_len_(flba_len),
      max_def_(max_def),
      max_rep_(max_rep),
      settings_(settings),
      dict_enabled_(dictionary),
      dict_max_(dictionary_max_bytes) {
  ResetDict();
}

// ---- the dictionary ----

void ParquetColumnWriter::ResetDict() {
  slots_.assign(1024, 0);
  keys64_.clear();
  keys128_.clear();
  keys_str_.clear();
  arena_.clear();
  arena_used_ = arena_cap_ = 0;
  dict_plain_.clear();
  dict_active_ = dict_enabled_ && kind_ != Kind::BOOL;
}

void ParquetColumnWriter::Grow() {
  std::vector<uint32_t> fresh(slots_.size() * 2, 0);
  size_t mask = fresh.size() - 1;
  for (uint32_t s : slots_) {
    if (!s) continue;
    size_t i = HashOf(s - 1) & mask;
    while (fresh[i]) i = (i + 1) & mask;
    fresh[i] = s;
  }
  slots_.swap(fresh);
}

uint64_t ParquetColumnWriter::HashOf(uint32_t idx) const {
  if (kind_ == Kind::STR) return HashBytes(keys_str_[idx]);
  if (kind_ == Kind::DECFLBA) return Hash128(keys128_[idx]);
  return MixHash(keys64_[idx]);
}

uint32_t ParquetColumnWriter::LookupU64(uint64_t key, size_t value_bytes) {
  size_t mask = slots_.size() - 1;
  size_t i = MixHash(key) & mask;
  while (uint32_t s = slots_[i]) {
    if (keys64_[s - 1] == key) return s - 1;
    i = (i + 1) & mask;
  }
  if (dict_plain_.size() + value_bytes > dict_max_) return UINT32_MAX;
  auto id = static_cast<uint32_t>(keys64_.size());
  keys64_.push_back(key);
  slots_[i] = id + 1;
  dict_plain_.append(reinterpret_cast<const char*>(&key), value_bytes);
  if (keys64_.size() * 2 > slots_.size()) Grow();
  return id;
}

uint32_t ParquetColumnWriter::LookupU128(hugeint_t key) {
  size_t mask = slots_.size() - 1;
  size_t i = Hash128(key) & mask;
  while (uint32_t s = slots_[i]) {
    if (keys128_[s - 1] == key) return s - 1;
    i = (i + 1) & mask;
  }
  if (dict_plain_.size() + flba_len_ > dict_max_) return UINT32_MAX;
  auto id = static_cast<uint32_t>(keys128_.size());
  keys128_.push_back(key);
  slots_[i] = id + 1;
  AppendFlba(dict_plain_, key);
  if (keys128_.size() * 2 > slots_.size()) Grow();
  return id;
}

uint32_t ParquetColumnWriter::LookupStr(std::string_view key) {
  size_t mask = slots_.size() - 1;
  size_t i = HashBytes(key) & mask;
  while (uint32_t s = slots_[i]) {
    if (keys_str_[s - 1] == key) return s - 1;
    i = (i + 1) & mask;
  }
  if (dict_plain_.size() + 4 + key.size() > dict_max_) return UINT32_MAX;
  if (arena_.empty() || arena_used_ + key.size() > arena_cap_) {
    arena_cap_ = std::max<size_t>(key.size(), 64 << 10);
    arena_.push_back(std::make_unique<char[]>(arena_cap_));
    arena_used_ = 0;
  }
  char* p = arena_.back().get() + arena_used_;
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  arena_used_ += key.size();
  auto id = static_cast<uint32_t>(keys_str_.size());
  keys_str_.emplace_back(p, key.size());
  slots_[i] = id + 1;
  auto len = static_cast<uint32_t>(key.size());
  dict_plain_.append(reinterpret_cast<const char*>(&len), 4);
  dict_plain_.append(key.data(), key.size());
  if (keys_str_.size() * 2 > slots_.size()) Grow();
  return id;
}

void ParquetColumnWriter::AppendFlba(std::string& out, hugeint_t v) const {
  // Big-endian two's complement, the low flba_len_ bytes.
  auto u = static_cast<unsigned __int128>(v);
  char bytes[16];
  for (int b = 0; b < 16; b++) bytes[15 - b] = static_cast<char>((u >> (8 * b)) & 0xff);
  out.append(bytes + 16 - flba_len_, static_cast<size_t>(flba_len_));
}

// ---- values ----

template <class T>
void ParquetColumnWriter::UpdateMinMaxI(T x) {
  auto v = static_cast<int64_t>(x);
  if (!has_minmax_) {
    min_i_ = max_i_ = v;
    has_minmax_ = true;
  } else {
    min_i_ = std::min(min_i_, v);
    max_i_ = std::max(max_i_, v);
  }
}

void ParquetColumnWriter::UpdateMinMaxD(double d) {
  if (std::isnan(d)) return;
  if (d == 0) d = 0.0;  // +0 / -0
  if (!has_minmax_) {
    min_d_ = max_d_ = d;
    has_minmax_ = true;
  } else {
    min_d_ = std::min(min_d_, d);
    max_d_ = std::max(max_d_, d);
  }
}

void ParquetColumnWriter::AddValue(const Vector& v, idx_t row) {
  switch (kind_) {
    case Kind::BOOL: {
      bool b = v.GetData<bool>()[row];
      bools_.push_back(b);
      UpdateMinMaxI(static_cast<int64_t>(b));
      return;
    }
    case Kind::I32:
    case Kind::DEC32: {
      int32_t x = kind_ == Kind::I32 ? v.GetData<int32_t>()[row] : static_cast<int32_t>(v.GetData<hugeint_t>()[row]);
      UpdateMinMaxI(x);
      if (dict_active_) {
        uint32_t id = LookupU64(static_cast<uint32_t>(x), 4);
        if (id != UINT32_MAX) {
          ids_.push_back(id);
          ids_plain_ += 4;
          return;
        }
        FallBack();
      }
      plain_.append(reinterpret_cast<const char*>(&x), 4);
      return;
    }
    case Kind::I64:
    case Kind::DEC64:
    case Kind::DOUBLE: {
      int64_t x;
      if (kind_ == Kind::I64) x = v.GetData<int64_t>()[row];
      else if (kind_ == Kind::DEC64) x = static_cast<int64_t>(v.GetData<hugeint_t>()[row]);
      else std::memcpy(&x, v.GetData<double>() + row, 8);
      if (kind_ == Kind::DOUBLE) UpdateMinMaxD(v.GetData<double>()[row]);
      else UpdateMinMaxI(x);
      if (dict_active_) {
        uint32_t id = LookupU64(static_cast<uint64_t>(x), 8);
        if (id != UINT32_MAX) {
          ids_.push_back(id);
          ids_plain_ += 8;
          return;
        }
        FallBack();
      }
      plain_.append(reinterpret_cast<const char*>(&x), 8);
      return;
    }
    case Kind::DECFLBA: {
      hugeint_t x = v.GetData<hugeint_t>()[row];
      if (!has_minmax_) {
        min_h_ = max_h_ = x;
        has_minmax_ = true;
      } else {
        min_h_ = std::min(min_h_, x);
        max_h_ = std::max(max_h_, x);
      }
      if (dict_active_) {
        uint32_t id = LookupU128(x);
        if (id != UINT32_MAX) {
          ids_.push_back(id);
          ids_plain_ += static_cast<size_t>(flba_len_);
          return;
        }
        FallBack();
      }
      AppendFlba(plain_, x);
      return;
    }
    case Kind::STR: {
      string_t s = v.GetData<string_t>()[row];
      if (!has_minmax_) {
        min_s_.assign(s);
        max_s_.assign(s);
        has_minmax_ = true;
      } else {
        if (s < std::string_view(min_s_)) min_s_.assign(s);
        if (s > std::string_view(max_s_)) max_s_.assign(s);
      }
      if (dict_active_) {
        uint32_t id = LookupStr(s);
        if (id != UINT32_MAX) {
          ids_.push_back(id);
          ids_plain_ += 4 + s.size();
          return;
        }
        FallBack();
      }
      auto len = static_cast<uint32_t>(s.size());
      plain_.append(reinterpret_cast<const char*>(&len), 4);
      plain_.append(s.data(), s.size());
      return;
    }
  }
}

// The dictionary is full: finish the current page with dictionary ids, and
// write PLAIN from now on (until the next column chunk).
void ParquetColumnWriter::FallBack() {
  // The value being added goes to the next (PLAIN) page, so the levels of the
  // current entry (already pushed) must move with it.
  uint8_t d = 0, r = 0;
  bool moved = false;
  if (page_entries_ > 0) {
    if (!defs_.empty()) d = defs_.back(), defs_.pop_back();
    if (!reps_.empty()) r = reps_.back(), reps_.pop_back();
    page_entries_--;
    moved = true;
  }
  FlushPage();
  dict_active_ = false;
  if (moved) {
    if (max_def_ > 0) defs_.push_back(d);
    if (max_rep_ > 0) reps_.push_back(r);
    page_entries_++;
  }
}

size_t ParquetColumnWriter::ValueBytes(const Vector& v, idx_t row) const {
  switch (kind_) {
    case Kind::STR: return 4 + v.GetData<string_t>()[row].size();
    case Kind::BOOL: return 1;
    case Kind::I32:
    case Kind::DEC32: return 4;
    case Kind::DECFLBA: return static_cast<size_t>(flba_len_);
    default: return 8;
  }
}

// Ends the page before an entry of `incoming` value bytes when the entry
// would take it past `budget` bytes or kMaxWriterPageValues entries: a
// value larger than the budget gets a page of its own, and no page
// outgrows what the reader accepts (kMaxPageBytes).
void ParquetColumnWriter::MakeRoom(size_t incoming, size_t budget) {
  if (page_entries_ == 0) return;
  if (page_entries_ >= kMaxWriterPageValues || PageBytesEstimate() + incoming > budget) FlushPage();
}

// Pages of nested columns end between rows (ParquetWriter::Append), unless
// one row would take a page past twice the target: its entries then span
// pages, as data pages v1 allow.
void ParquetColumnWriter::AddLevels(int rep, int def, size_t value_bytes) {
  MakeRoom(value_bytes, 2 * settings_->page_size);
  if (max_def_ > 0) defs_.push_back(static_cast<uint8_t>(def));
  if (max_rep_ > 0) reps_.push_back(static_cast<uint8_t>(rep));
  page_entries_++;
  chunk_values_++;
}

void ParquetColumnWriter::AppendFlat(const Vector& v, idx_t offset, idx_t count) {
  const uint8_t* valid = v.Validity();
  const size_t page_size = settings_->page_size;
  // Fixed-width values are checked against the page size once per run of
  // rows that cannot fill the page: a row adds at most its width plus 4
  // estimated bytes (an id's 2, and rounding of levels and booleans).
  const bool strings = kind_ == Kind::STR;
  const size_t row_bytes = strings ? 0 : ValueBytes(v, 0) + 4;
  for (idx_t i = 0; i < count;) {
    idx_t row = offset + i;
    MakeRoom(valid[row] ? ValueBytes(v, row) : 0, page_size);
    idx_t run = 1;
    if (!strings) {
      size_t est = PageBytesEstimate();
      idx_t fit = est < page_size ? (page_size - est) / row_bytes : 0;
      auto entries_left = static_cast<idx_t>(kMaxWriterPageValues - page_entries_ - 1);
      run = std::min(std::max<idx_t>(1, std::min(fit, entries_left)), count - i);
    }
    // The run's rows in stretches of valid rows (values) and NULL rows.
    for (idx_t end = row + run; row < end;) {
      if (!valid[row]) {
        if (max_def_ > 0) defs_.push_back(static_cast<uint8_t>(max_def_ - 1));
        page_entries_++;
        chunk_nulls_++;
        row++;
        continue;
      }
      idx_t stretch = 1;
      while (row + stretch < end && valid[row + stretch]) stretch++;
      AppendRun(v, row, stretch);
      row += stretch;
    }
    i += run;
  }
  chunk_values_ += count;
}

template <class T, class Encode>
void ParquetColumnWriter::AppendFixedRun(const T* data, idx_t row, idx_t count, size_t width, Encode encode) {
  for (idx_t r = row; r < row + count; r++) {
    if (max_def_ > 0) defs_.push_back(static_cast<uint8_t>(max_def_));
    page_entries_++;
    uint64_t key = encode(data[r]);
    if (dict_active_) {
      uint32_t id = LookupU64(key, width);
      if (id != UINT32_MAX) {
        ids_.push_back(id);
        ids_plain_ += width;
        continue;
      }
      FallBack();
    }
    plain_.append(reinterpret_cast<const char*>(&key), width);
  }
}

// Rows [row, row + count) of `v`, all valid: their levels and values, by
// kind outside the loop for the common fixed-width kinds.
void ParquetColumnWriter::AppendRun(const Vector& v, idx_t row, idx_t count) {
  switch (kind_) {
    case Kind::I64: {
      const auto* data = v.GetData<int64_t>();
      for (idx_t r = row; r < row + count; r++) UpdateMinMaxI(data[r]);
      AppendFixedRun(data, row, count, 8, [](int64_t x) { return static_cast<uint64_t>(x); });
      return;
    }
    case Kind::I32: {
      const auto* data = v.GetData<int32_t>();
      for (idx_t r = row; r < row + count; r++) UpdateMinMaxI(data[r]);
      AppendFixedRun(data, row, count, 4, [](int32_t x) { return static_cast<uint64_t>(static_cast<uint32_t>(x)); });
      return;
    }
    case Kind::DEC64: {
      const auto* data = v.GetData<hugeint_t>();
      for (idx_t r = row; r < row + count; r++) UpdateMinMaxI(static_cast<int64_t>(data[r]));
      AppendFixedRun(data, row, count, 8, [](hugeint_t x) { return static_cast<uint64_t>(static_cast<int64_t>(x)); });
      return;
    }
    default:
      for (idx_t r = row; r < row + count; r++) {
        if (max_def_ > 0) defs_.push_back(static_cast<uint8_t>(max_def_));
        page_entries_++;
        AddValue(v, r);
      }
  }
}

// ---- pages ----

// Whether the chunk's first dictionary page should be written PLAIN instead,
// with the dictionary dropped: as parquet-mr decides, when ids plus
// dictionary take at least as many bytes as the PLAIN values (nearly all
// values distinct, e.g. keys, measurements, unique strings). Zstd does not
// win this back: bit-packed ids of distinct values compress worse than
// their PLAIN bytes.
bool ParquetColumnWriter::DictionaryIneffective() const {
  if (used_dict_pages_ || ids_.empty()) return false;
  auto width = static_cast<size_t>(BitWidth(DictCount() > 0 ? DictCount() - 1 : 0));
  size_t dict_bytes = ids_.size() * width / 8 + dict_plain_.size();
  return dict_bytes >= PlainBytesOfIds();
}

size_t ParquetColumnWriter::PlainBytesOfIds() const {
  switch (kind_) {
    case Kind::I32:
    case Kind::DEC32: return ids_.size() * 4;
    case Kind::I64:
    case Kind::DEC64:
    case Kind::DOUBLE: return ids_.size() * 8;
    case Kind::DECFLBA: return ids_.size() * static_cast<size_t>(flba_len_);
    case Kind::STR: {
      size_t n = 0;
      for (uint32_t id : ids_) n += 4 + keys_str_[id].size();
      return n;
    }
    case Kind::BOOL: break;
  }
  return 0;
}

// Rewrites the page's dictionary ids as PLAIN values and stops using the
// dictionary for this column (this chunk and the file's later chunks).
void ParquetColumnWriter::AbandonDictionary() {
  plain_.clear();
  plain_.reserve(PlainBytesOfIds());
  if (kind_ == Kind::STR) {
    for (uint32_t id : ids_) {
      std::string_view v = keys_str_[id];
      auto len = static_cast<uint32_t>(v.size());
      plain_.append(reinterpret_cast<const char*>(&len), 4);
      plain_.append(v.data(), v.size());
    }
  } else {
    // Fixed-width values sit in dict_plain_ in id order (FLBA decimals too).
    size_t w = dict_plain_.size() / std::max<size_t>(DictCount(), 1);
    for (uint32_t id : ids_) plain_.append(dict_plain_.data() + id * w, w);
  }
  ids_.clear();
  ids_plain_ = 0;
  dict_enabled_ = false;
  ResetDict();  // dict_active_ = false from here on
}

void ParquetColumnWriter::FlushPage() {
  if (page_entries_ == 0) return;
  if (dict_active_ && DictionaryIneffective()) AbandonDictionary();
  std::string& body = settings_->page_body;
  body.clear();
  if (max_rep_ > 0) LevelsRle(reps_, max_rep_);
  if (max_def_ > 0) LevelsRle(defs_, max_def_);
  Encoding enc;
  if (kind_ == Kind::BOOL) {
    size_t n = bools_.size();
    size_t base = body.size();
    body.resize(base + (n + 7) / 8, 0);
    for (size_t i = 0; i < n; i++) body[base + i / 8] |= static_cast<char>(bools_[i] << (i % 8));
    enc = Encoding::PLAIN;
  } else if (dict_active_) {
    int width = BitWidth(DictCount() > 0 ? DictCount() - 1 : 0);
    body.push_back(static_cast<char>(width));
    RleBpEncode(ids_.data(), ids_.size(), width, body);
    enc = Encoding::RLE_DICTIONARY;
    used_dict_pages_ = true;
  } else {
    body.append(plain_);
    enc = Encoding::PLAIN;
  }
  if (body.size() > kMaxPageBytes) {
    // MakeRoom keeps pages far smaller: reaching this is a bug.
    error_ = "internal error: a page of " + GroupDigits(body.size()) + " bytes exceeds the reader's limit";
    return;
  }
  PageHeader ph;
  ph.type = PageType::DATA_PAGE;
  auto& dh = ph.data_page_header.emplace();
  dh.num_values = static_cast<int32_t>(page_entries_);
  dh.encoding = enc;
  dh.definition_level_encoding = Encoding::RLE;
  dh.repetition_level_encoding = Encoding::RLE;
  WritePage(ph, body);
  defs_.clear();
  reps_.clear();
  plain_.clear();
  bools_.clear();
  ids_.clear();
  ids_plain_ = 0;
  page_entries_ = 0;
}

void ParquetColumnWriter::LevelsRle(const std::vector<uint8_t>& levels, int max_level) {
  std::string& body = settings_->page_body;
  size_t len_pos = body.size();
  body.append(4, '\0');
  RleBpEncode(levels.data(), levels.size(), BitWidth(max_level), body);
  auto len = static_cast<uint32_t>(body.size() - len_pos - 4);
  std::memcpy(body.data() + len_pos, &len, 4);
}

void ParquetColumnWriter::WritePage(PageHeader& ph, const std::string& body) {
  std::string& comp = settings_->page_comp;
  comp.clear();
  const std::string* stored = &body;
  if (!uncompressed_ && settings_->codec != Codec::UNCOMPRESSED) {
    if (!Compress(settings_->codec, reinterpret_cast<const uint8_t*>(body.data()), body.size(), comp,
                  settings_->compression_level)) {
      error_ = "compression failed";
      return;
    }
    stored = &comp;
  }
  ph.uncompressed_page_size = static_cast<int32_t>(body.size());
  ph.compressed_page_size = static_cast<int32_t>(stored->size());
  std::string& header = settings_->header;
  header.clear();
  TWriter w(header);
  WritePageHeader(w, ph);
  chunk_.append(header);
  chunk_.append(*stored);
  chunk_uncompressed_ += static_cast<int64_t>(header.size() + body.size());
}

// ---- statistics and the chunk ----

// Whether the chunk's min and max are short enough for the footer.
bool ParquetColumnWriter::StatisticsFit() const {
  return kind_ != Kind::STR || (min_s_.size() <= kMaxStatisticsValueBytes && max_s_.size() <= kMaxStatisticsValueBytes);
}

std::string ParquetColumnWriter::StatBytes(bool max) const {
  std::string out;
  switch (kind_) {
    case Kind::BOOL: out.push_back(static_cast<char>(max ? max_i_ : min_i_)); break;
    case Kind::I32:
    case Kind::DEC32: {
      auto v = static_cast<int32_t>(max ? max_i_ : min_i_);
      out.assign(reinterpret_cast<const char*>(&v), 4);
      break;
    }
    case Kind::I64:
    case Kind::DEC64: {
      int64_t v = max ? max_i_ : min_i_;
      out.assign(reinterpret_cast<const char*>(&v), 8);
      break;
    }
    case Kind::DOUBLE: {
      double v = max ? max_d_ : min_d_;
      if (v == 0) v = max ? 0.0 : -0.0;
      out.assign(reinterpret_cast<const char*>(&v), 8);
      break;
    }
    case Kind::DECFLBA: AppendFlba(out, max ? max_h_ : min_h_); break;
    case Kind::STR: out = max ? max_s_ : min_s_; break;
  }
  return out;
}

Value ParquetColumnWriter::StatValue(bool max) const {
  switch (type_.id()) {
    case TypeId::BOOLEAN: return Value::BOOLEAN((max ? max_i_ : min_i_) != 0);
    case TypeId::INTEGER: return Value::INTEGER(static_cast<int32_t>(max ? max_i_ : min_i_));
    case TypeId::DATE: return Value::DATE(static_cast<date_t>(max ? max_i_ : min_i_));
    case TypeId::BIGINT: return Value::BIGINT(max ? max_i_ : min_i_);
    case TypeId::TIMESTAMP: return Value::TIMESTAMP(max ? max_i_ : min_i_);
    case TypeId::TIMESTAMP_NTZ: return Value::TIMESTAMP_NTZ(max ? max_i_ : min_i_);
    case TypeId::DOUBLE: return Value::DOUBLE(max ? max_d_ : min_d_);
    case TypeId::DECIMAL: {
      hugeint_t h = kind_ == Kind::DECFLBA ? (max ? max_h_ : min_h_) : (max ? max_i_ : min_i_);
      return Value::DECIMAL(h, type_.width(), type_.scale());
    }
    case TypeId::VARCHAR: return Value::VARCHAR(max ? max_s_ : min_s_);
    default: return Value(type_);
  }
}

bool ParquetColumnWriter::MinMax(Value& min, Value& max) const {
  if (!has_minmax_) return false;
  min = StatValue(false);
  max = StatValue(true);
  return true;
}

bool ParquetColumnWriter::FinishChunk(int64_t file_offset, ColumnChunk& cc, std::string& bytes) {
  // A chunk whose one page and dictionary are this small: its codec's fixed
  // cost per page outweighs what it saves (uncompressed_below).
  uncompressed_ = chunk_.empty() && PageBytesEstimate() + dict_plain_.size() < settings_->uncompressed_below;
  FlushPage();
  if (!error_.empty()) return false;
  auto& m = cc.meta_data.emplace();
  m.type = physical_;
  m.path_in_schema = path_;
  m.codec = uncompressed_ ? Codec::UNCOMPRESSED : settings_->codec;
  m.num_values = chunk_values_;
  bytes.clear();
  if (used_dict_pages_) {
    PageHeader ph;
    ph.type = PageType::DICTIONARY_PAGE;
    auto& dh = ph.dictionary_page_header.emplace();
    dh.num_values = static_cast<int32_t>(DictCount());
    dh.encoding = Encoding::PLAIN;
    // The dictionary page goes first: built in chunk_'s place.
    std::string pages;
    pages.swap(chunk_);
    WritePage(ph, dict_plain_);
    if (!error_.empty()) return false;
    m.dictionary_page_offset = file_offset;
    m.data_page_offset = file_offset + static_cast<int64_t>(chunk_.size());
    bytes.swap(chunk_);
    bytes.append(pages);
    m.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
  } else {
    m.data_page_offset = file_offset;
    bytes.swap(chunk_);
    m.encodings = {Encoding::PLAIN, Encoding::RLE};
  }
  m.total_compressed_size = static_cast<int64_t>(bytes.size());
  m.total_uncompressed_size = chunk_uncompressed_;
  auto& st = m.statistics.emplace();
  st.null_count = chunk_nulls_;
  if (has_minmax_ && StatisticsFit()) {
    st.min_value = StatBytes(false);
    st.max_value = StatBytes(true);
  }
  cc.file_offset = file_offset;
  // The next chunk starts empty.
  chunk_ = std::string();
  chunk_values_ = chunk_uncompressed_ = chunk_nulls_ = 0;
  used_dict_pages_ = false;
  has_minmax_ = false;
  uncompressed_ = false;
  ResetDict();
  return true;
}

}  // namespace lakestream
