#include "storage/parquet/parquet_writer.hpp"

#include "common/file_system.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "common/decimal.hpp"
#include "common/vector_operations.hpp"
#include "common/write_error.hpp"
#include "storage/parquet/parquet_codec.hpp"
#include "storage/parquet/parquet_encoding.hpp"
#include "storage/parquet/parquet_limits.hpp"
#include "storage/parquet/parquet_metadata.hpp"

#ifndef LAKESTREAM_VERSION
#define LAKESTREAM_VERSION "0.1.0"
#endif

namespace lakestream {

using namespace parquet;  // NOLINT

bool ParquetCodecFromName(const std::string& name, ParquetCodec& out) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "zstd") out = ParquetCodec::kZstd;
  else if (n == "snappy") out = ParquetCodec::kSnappy;
  else if (n == "gzip") out = ParquetCodec::kGzip;
  else if (n == "lz4" || n == "lz4_raw") out = ParquetCodec::kLz4Raw;
  else if (n == "uncompressed" || n == "none") out = ParquetCodec::kUncompressed;
  else return false;
  return true;
}

namespace {

Codec ToCodec(ParquetCodec c) {
  switch (c) {
    case ParquetCodec::kUncompressed: return Codec::UNCOMPRESSED;
    case ParquetCodec::kSnappy: return Codec::SNAPPY;
    case ParquetCodec::kGzip: return Codec::GZIP;
    case ParquetCodec::kZstd: return Codec::ZSTD;
    case ParquetCodec::kLz4Raw: return Codec::LZ4_RAW;
  }
  return Codec::ZSTD;
}

int DecimalBytes(int precision) {
  // Smallest n with 2^(8n-1) > 10^precision.
  for (int n = 1; n <= 16; n++) {
    double max = std::pow(2.0, 8 * n - 1);
    if (max > std::pow(10.0, precision)) return n;
  }
  return 16;
}


inline uint64_t HashBytes(std::string_view s) {
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

enum class WKind { BOOL, I32, I64, DOUBLE, DEC32, DEC64, DECFLBA, STR };

struct LeafWriter {
  std::vector<std::string> path;
  WKind kind;
  PhysicalType physical;
  int flba_len = 0;
  int max_def = 0, max_rep = 0;
  LogicalType type;
  bool top_level_flat = false;
  // The column chunk being flushed is small enough to be stored UNCOMPRESSED
  // (ParquetWriterOptions::uncompressed_below).
  bool uncompressed = false;

  // Current page.
  std::vector<uint8_t> defs, reps;
  std::string plain;
  std::vector<uint8_t> bools;
  std::vector<uint32_t> ids;
  size_t ids_plain = 0;  // PLAIN bytes of the values behind `ids`
  int64_t page_entries = 0;

  // Dictionary of the current column chunk.
  bool dict_enabled = true;
  bool dict_active = true;
  std::vector<uint32_t> slots;  // index + 1; 0 = empty
  std::vector<uint64_t> keys64;
  std::vector<hugeint_t> keys128;
  std::vector<std::string_view> keys_str;
  std::vector<std::unique_ptr<char[]>> arena;
  size_t arena_used = 0, arena_cap = 0;
  std::string dict_plain;
  bool used_dict_pages = false, used_plain_pages = false;

  // Column chunk.
  std::string chunk;
  int64_t chunk_values = 0;
  int64_t chunk_uncompressed = 0;
  int64_t chunk_nulls = 0;
  bool has_minmax = false;
  int64_t min_i = 0, max_i = 0;
  double min_d = 0, max_d = 0;
  hugeint_t min_h = 0, max_h = 0;
  std::string min_s, max_s;

  size_t DictCount() const {
    return kind == WKind::STR ? keys_str.size() : (kind == WKind::DECFLBA ? keys128.size() : keys64.size());
  }

  void ResetDict() {
    slots.assign(1024, 0);
    keys64.clear();
    keys128.clear();
    keys_str.clear();
    arena.clear();
    arena_used = arena_cap = 0;
    dict_plain.clear();
    dict_active = dict_enabled && kind != WKind::BOOL;
  }

  void Grow() {
    std::vector<uint32_t> fresh(slots.size() * 2, 0);
    size_t mask = fresh.size() - 1;
    for (uint32_t s : slots) {
      if (!s) continue;
      uint64_t h = HashOf(s - 1);
      size_t i = h & mask;
      while (fresh[i]) i = (i + 1) & mask;
      fresh[i] = s;
    }
    slots.swap(fresh);
  }

  uint64_t HashOf(uint32_t idx) const {
    if (kind == WKind::STR) return HashBytes(keys_str[idx]);
    if (kind == WKind::DECFLBA) {
      auto u = static_cast<unsigned __int128>(keys128[idx]);
      return MixHash(static_cast<uint64_t>(u) ^ MixHash(static_cast<uint64_t>(u >> 64)));
    }
    return MixHash(keys64[idx]);
  }

  // Returns the dictionary id, or UINT32_MAX when the dictionary is full.
  uint32_t LookupU64(uint64_t key, size_t value_bytes) {
    size_t mask = slots.size() - 1;
    size_t i = MixHash(key) & mask;
    while (uint32_t s = slots[i]) {
      if (keys64[s - 1] == key) return s - 1;
      i = (i + 1) & mask;
    }
    if (dict_plain.size() + value_bytes > dict_max) return UINT32_MAX;
    uint32_t id = static_cast<uint32_t>(keys64.size());
    keys64.push_back(key);
    slots[i] = id + 1;
    dict_plain.append(reinterpret_cast<const char*>(&key), value_bytes);
    if (keys64.size() * 2 > slots.size()) Grow();
    return id;
  }

  uint32_t LookupU128(hugeint_t key) {
    size_t mask = slots.size() - 1;
    auto u = static_cast<unsigned __int128>(key);
    size_t i = MixHash(static_cast<uint64_t>(u) ^ MixHash(static_cast<uint64_t>(u >> 64))) & mask;
    while (uint32_t s = slots[i]) {
      if (keys128[s - 1] == key) return s - 1;
      i = (i + 1) & mask;
    }
    if (dict_plain.size() + flba_len > dict_max) return UINT32_MAX;
    uint32_t id = static_cast<uint32_t>(keys128.size());
    keys128.push_back(key);
    slots[i] = id + 1;
    AppendFlba(dict_plain, key);
    if (keys128.size() * 2 > slots.size()) Grow();
    return id;
  }

  uint32_t LookupStr(std::string_view key) {
    size_t mask = slots.size() - 1;
    size_t i = HashBytes(key) & mask;
    while (uint32_t s = slots[i]) {
      if (keys_str[s - 1] == key) return s - 1;
      i = (i + 1) & mask;
    }
    if (dict_plain.size() + 4 + key.size() > dict_max) return UINT32_MAX;
    if (arena.empty() || arena_used + key.size() > arena_cap) {
      arena_cap = std::max<size_t>(key.size(), 64 << 10);
      arena.push_back(std::make_unique<char[]>(arena_cap));
      arena_used = 0;
    }
    char* p = arena.back().get() + arena_used;
    if (!key.empty()) std::memcpy(p, key.data(), key.size());
    arena_used += key.size();
    uint32_t id = static_cast<uint32_t>(keys_str.size());
    keys_str.emplace_back(p, key.size());
    slots[i] = id + 1;
    uint32_t len = static_cast<uint32_t>(key.size());
    dict_plain.append(reinterpret_cast<const char*>(&len), 4);
    dict_plain.append(key.data(), key.size());
    if (keys_str.size() * 2 > slots.size()) Grow();
    return id;
  }

  void AppendFlba(std::string& out, hugeint_t v) const {
    auto u = static_cast<unsigned __int128>(v);
    for (int b = flba_len - 1; b >= 0; b--) out.push_back(static_cast<char>((u >> (8 * b)) & 0xff));
  }

  size_t dict_max = 1 << 20;

  // Until the chunk's first dictionary page is written, the page may still
  // be rewritten PLAIN (AbandonDictionary): its ids count at that size, so
  // the page meets the target either way.
  size_t PageBytesEstimate() const {
    size_t id_bytes = used_dict_pages ? ids.size() * 2 : std::max(ids.size() * 2, ids_plain);
    return plain.size() + bools.size() / 8 + id_bytes + defs.size() / 4 + reps.size() / 4;
  }
};

struct WNode {
  enum Kind { LEAF, STRUCT, LIST } kind = LEAF;
  int def_level = 0;
  int rep_def = 0, rep_level = 0;
  bool required = false;
  idx_t leaf = 0;
  idx_t leaf_begin = 0, leaf_end = 0;
  std::vector<std::unique_ptr<WNode>> children;
};

}  // namespace

struct ParquetWriter::Impl {
  std::string path;
  int fd = -1;
  // Object storage (remote path): the file is built here and uploaded by
  // Finish in one PUT (a multipart upload when large), so no reader ever
  // sees a partial object.
  bool remote = false;
  std::string buffer;
  ParquetWriterOptions opt;
  Codec codec = Codec::ZSTD;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<SchemaElement> schema;
  std::vector<LeafWriter> leaves;
  std::vector<std::unique_ptr<WNode>> roots;
  std::vector<RowGroup> row_groups;
  uint64_t offset = 0;
  int64_t rg_rows = 0;
  int64_t total_rows = 0;
  std::vector<ParquetColumnInfo> info;
  std::string page_body, page_comp, header;
  std::string error;
  bool finished = false;
  // Per column, for the chunk being appended: each row's level entries (an
  // upper bound per leaf; nested columns only).
  std::vector<std::vector<int64_t>> row_entries;

  // "column s of table h" (or of the file): how user errors name a column.
  std::string ColumnLabel(idx_t c) const {
    return "column " + names[c] + " of " + (opt.label.empty() ? path : opt.label);
  }

  // How many of the `n` rows from `done` fit the current row group without a
  // leaf of a nested column passing opt.max_nested_entries level entries.
  idx_t RowsThatFit(idx_t done, idx_t n) const {
    for (idx_t c = 0; c < roots.size(); c++) {
      const WNode& node = *roots[c];
      if (node.kind == WNode::LEAF) continue;  // read flat: no such limit
      int64_t used = 0;
      for (idx_t l = node.leaf_begin; l < node.leaf_end; l++) used = std::max(used, leaves[l].chunk_values);
      const auto& entries = row_entries[c];
      for (idx_t r = 0; r < n; r++) {
        used += entries[done + r];
        if (used > opt.max_nested_entries) {
          n = r;
          break;
        }
      }
    }
    return n;
  }

  ~Impl() {
    if (fd >= 0) ::close(fd);
  }

  Status WriteAll(const std::string& data) {
    if (remote) {
      buffer += data;
      offset += data.size();
      return Status::OK();
    }
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      ssize_t n = ::write(fd, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        return WriteError(path, errno);
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    offset += data.size();
    return Status::OK();
  }

  // `spec` (may be null) overrides the element's name and gives its field_id.
  Status BuildSchema(const std::string& default_name, const LogicalType& t, bool required, int def, int rep,
                     std::vector<std::string> path_prefix, const ParquetField* spec, std::unique_ptr<WNode>& out) {
    const std::string& name = spec && !spec->name.empty() ? spec->name : default_name;
    auto child_spec = [spec](size_t i) -> const ParquetField* {
      return spec && i < spec->children.size() ? &spec->children[i] : nullptr;
    };
    auto node = std::make_unique<WNode>();
    node->required = required;
    int my_def = def + (required ? 0 : 1);
    node->def_level = my_def;
    node->leaf_begin = leaves.size();
    path_prefix.push_back(name);
    SchemaElement e;
    e.name = name;
    e.repetition = required ? Repetition::REQUIRED : Repetition::OPTIONAL;
    if (spec) e.field_id = spec->field_id;
    switch (t.id()) {
      case TypeId::STRUCT: {
        if (t.children().empty()) return Status::InvalidArgument(path + ": STRUCT column '" + name + "' has no fields");
        node->kind = WNode::STRUCT;
        e.num_children = static_cast<int32_t>(t.children().size());
        schema.push_back(e);
        for (size_t i = 0; i < t.children().size(); i++) {
          const auto& [cn, ct] = t.children()[i];
          std::unique_ptr<WNode> child;
          LS_RETURN_NOT_OK(BuildSchema(cn, ct, false, my_def, rep, path_prefix, child_spec(i), child));
          node->children.push_back(std::move(child));
        }
        break;
      }
      case TypeId::LIST:
      case TypeId::MAP: {
        bool is_map = t.id() == TypeId::MAP;
        node->kind = WNode::LIST;
        node->rep_def = my_def + 1;
        node->rep_level = rep + 1;
        e.num_children = 1;
        e.converted_type = is_map ? ConvertedType::MAP : ConvertedType::LIST;
        e.logical.kind = is_map ? LogicalTypeAnnotation::MAP : LogicalTypeAnnotation::LIST;
        schema.push_back(e);
        SchemaElement r;
        r.name = is_map ? "key_value" : "list";
        r.repetition = Repetition::REPEATED;
        r.num_children = is_map ? 2 : 1;
        schema.push_back(r);
        path_prefix.push_back(r.name);
        std::unique_ptr<WNode> elem;
        if (is_map) {
          // The repeated group is the (key, value) struct itself.
          auto kv = std::make_unique<WNode>();
          kv->kind = WNode::STRUCT;
          kv->required = true;
          kv->def_level = my_def + 1;
          kv->leaf_begin = leaves.size();
          const auto& entry = t.ListChild();
          std::unique_ptr<WNode> k, v;
          LS_RETURN_NOT_OK(BuildSchema("key", entry.children()[0].second, true, my_def + 1, rep + 1, path_prefix, child_spec(0), k));
          LS_RETURN_NOT_OK(BuildSchema("value", entry.children()[1].second, false, my_def + 1, rep + 1, path_prefix, child_spec(1), v));
          kv->children.push_back(std::move(k));
          kv->children.push_back(std::move(v));
          kv->leaf_end = leaves.size();
          elem = std::move(kv);
        } else {
          LS_RETURN_NOT_OK(BuildSchema("element", t.ListChild(), false, my_def + 1, rep + 1, path_prefix, child_spec(0), elem));
        }
        node->children.push_back(std::move(elem));
        break;
      }
      default: {
        LeafWriter lw;
        lw.path = path_prefix;
        lw.type = t;
        lw.max_def = my_def;
        lw.max_rep = rep;
        lw.top_level_flat = path_prefix.size() == 1;
        switch (t.id()) {
          case TypeId::BOOLEAN: lw.kind = WKind::BOOL; lw.physical = PhysicalType::BOOLEAN; break;
          case TypeId::INTEGER: lw.kind = WKind::I32; lw.physical = PhysicalType::INT32; break;
          case TypeId::BIGINT: lw.kind = WKind::I64; lw.physical = PhysicalType::INT64; break;
          case TypeId::DOUBLE: lw.kind = WKind::DOUBLE; lw.physical = PhysicalType::DOUBLE; break;
          case TypeId::DATE:
            lw.kind = WKind::I32;
            lw.physical = PhysicalType::INT32;
            e.converted_type = ConvertedType::DATE;
            e.logical.kind = LogicalTypeAnnotation::DATE;
            break;
          case TypeId::TIMESTAMP:
            lw.kind = WKind::I64;
            lw.physical = PhysicalType::INT64;
            e.converted_type = ConvertedType::TIMESTAMP_MICROS;
            e.logical.kind = LogicalTypeAnnotation::TIMESTAMP;
            e.logical.adjusted_to_utc = true;
            e.logical.unit = 2;
            break;
          case TypeId::TIMESTAMP_NTZ:
            // A wall clock: isAdjustedToUTC=false and no converted type, which
            // would claim UTC adjustment to legacy readers (Parquet spec).
            lw.kind = WKind::I64;
            lw.physical = PhysicalType::INT64;
            e.logical.kind = LogicalTypeAnnotation::TIMESTAMP;
            e.logical.adjusted_to_utc = false;
            e.logical.unit = 2;
            break;
          case TypeId::VARCHAR:
            lw.kind = WKind::STR;
            lw.physical = PhysicalType::BYTE_ARRAY;
            e.converted_type = ConvertedType::UTF8;
            e.logical.kind = LogicalTypeAnnotation::STRING;
            break;
          case TypeId::DECIMAL: {
            int p = t.width(), s = t.scale();
            if (p < 1 || p > kMaxDecimalPrecision || s > p)
              return Status::InvalidArgument(path + ": column '" + name + "' has type " + t.ToString() +
                                             "; Parquet DECIMAL needs 1 to " + std::to_string(kMaxDecimalPrecision) +
                                             " digits and a scale of at most its precision");
            e.converted_type = ConvertedType::DECIMAL;
            e.precision = p;
            e.scale = s;
            e.logical.kind = LogicalTypeAnnotation::DECIMAL;
            e.logical.precision = p;
            e.logical.scale = s;
            if (p <= 9) {
              lw.kind = WKind::DEC32;
              lw.physical = PhysicalType::INT32;
            } else if (p <= 18) {
              lw.kind = WKind::DEC64;
              lw.physical = PhysicalType::INT64;
            } else {
              lw.kind = WKind::DECFLBA;
              lw.physical = PhysicalType::FIXED_LEN_BYTE_ARRAY;
              lw.flba_len = DecimalBytes(p);
              e.type_length = lw.flba_len;
            }
            break;
          }
          default:
            return Status::InvalidArgument(path + ": cannot write column '" + name + "' of type " + t.ToString() +
                                           " to Parquet");
        }
        e.type = lw.physical;
        schema.push_back(e);
        lw.dict_enabled = opt.dictionary;
        lw.dict_max = opt.dictionary_max_bytes;
        lw.ResetDict();
        node->kind = WNode::LEAF;
        node->leaf = leaves.size();
        leaves.push_back(std::move(lw));
        break;
      }
    }
    node->leaf_end = leaves.size();
    out = std::move(node);
    return Status::OK();
  }

  // ---- value appends ----

  void AddValue(LeafWriter& lw, const Vector& v, idx_t row) {
    switch (lw.kind) {
      case WKind::BOOL: {
        bool b = v.GetData<bool>()[row];
        lw.bools.push_back(b);
        int64_t x = b;
        UpdateMinMaxI(lw, x);
        return;
      }
      case WKind::I32:
      case WKind::DEC32: {
        int32_t x = lw.kind == WKind::I32 ? v.GetData<int32_t>()[row] : static_cast<int32_t>(v.GetData<hugeint_t>()[row]);
        UpdateMinMaxI(lw, x);
        if (lw.dict_active) {
          uint32_t id = lw.LookupU64(static_cast<uint32_t>(x), 4);
          if (id != UINT32_MAX) {
            lw.ids.push_back(id);
            lw.ids_plain += 4;
            return;
          }
          FallBack(lw);
        }
        lw.plain.append(reinterpret_cast<const char*>(&x), 4);
        return;
      }
      case WKind::I64:
      case WKind::DEC64:
      case WKind::DOUBLE: {
        int64_t x;
        if (lw.kind == WKind::I64) x = v.GetData<int64_t>()[row];
        else if (lw.kind == WKind::DEC64) x = static_cast<int64_t>(v.GetData<hugeint_t>()[row]);
        else std::memcpy(&x, v.GetData<double>() + row, 8);
        if (lw.kind == WKind::DOUBLE) UpdateMinMaxD(lw, v.GetData<double>()[row]);
        else UpdateMinMaxI(lw, x);
        if (lw.dict_active) {
          uint32_t id = lw.LookupU64(static_cast<uint64_t>(x), 8);
          if (id != UINT32_MAX) {
            lw.ids.push_back(id);
            lw.ids_plain += 8;
            return;
          }
          FallBack(lw);
        }
        lw.plain.append(reinterpret_cast<const char*>(&x), 8);
        return;
      }
      case WKind::DECFLBA: {
        hugeint_t x = v.GetData<hugeint_t>()[row];
        if (!lw.has_minmax) {
          lw.min_h = lw.max_h = x;
          lw.has_minmax = true;
        } else {
          lw.min_h = std::min(lw.min_h, x);
          lw.max_h = std::max(lw.max_h, x);
        }
        if (lw.dict_active) {
          uint32_t id = lw.LookupU128(x);
          if (id != UINT32_MAX) {
            lw.ids.push_back(id);
            lw.ids_plain += static_cast<size_t>(lw.flba_len);
            return;
          }
          FallBack(lw);
        }
        lw.AppendFlba(lw.plain, x);
        return;
      }
      case WKind::STR: {
        string_t s = v.GetData<string_t>()[row];
        if (!lw.has_minmax) {
          lw.min_s.assign(s);
          lw.max_s.assign(s);
          lw.has_minmax = true;
        } else {
          if (s < std::string_view(lw.min_s)) lw.min_s.assign(s);
          if (s > std::string_view(lw.max_s)) lw.max_s.assign(s);
        }
        if (lw.dict_active) {
          uint32_t id = lw.LookupStr(s);
          if (id != UINT32_MAX) {
            lw.ids.push_back(id);
            lw.ids_plain += 4 + s.size();
            return;
          }
          FallBack(lw);
        }
        uint32_t len = static_cast<uint32_t>(s.size());
        lw.plain.append(reinterpret_cast<const char*>(&len), 4);
        lw.plain.append(s.data(), s.size());
        return;
      }
    }
  }

  template <class T>
  static void UpdateMinMaxI(LeafWriter& lw, T x) {
    int64_t v = x;
    if (!lw.has_minmax) {
      lw.min_i = lw.max_i = v;
      lw.has_minmax = true;
    } else {
      lw.min_i = std::min(lw.min_i, v);
      lw.max_i = std::max(lw.max_i, v);
    }
  }
  static void UpdateMinMaxD(LeafWriter& lw, double d) {
    if (std::isnan(d)) return;
    if (d == 0) d = 0.0;  // +0 / -0
    if (!lw.has_minmax) {
      lw.min_d = lw.max_d = d;
      lw.has_minmax = true;
    } else {
      lw.min_d = std::min(lw.min_d, d);
      lw.max_d = std::max(lw.max_d, d);
    }
  }

  // The dictionary is full: finish the current page with dictionary ids, and
  // write PLAIN from now on (until the next column chunk).
  void FallBack(LeafWriter& lw) {
    // The value being added goes to the next (PLAIN) page, so the levels of the
    // current entry (already pushed) must move with it.
    uint8_t d = 0, r = 0;
    bool moved = false;
    if (lw.page_entries > 0) {
      if (!lw.defs.empty()) d = lw.defs.back(), lw.defs.pop_back();
      if (!lw.reps.empty()) r = lw.reps.back(), lw.reps.pop_back();
      lw.page_entries--;
      moved = true;
    }
    FlushPage(lw);
    lw.dict_active = false;
    if (moved) {
      if (lw.max_def > 0) lw.defs.push_back(d);
      if (lw.max_rep > 0) lw.reps.push_back(r);
      lw.page_entries++;
    }
  }

  // The PLAIN bytes value `row` of `v` adds to a page (at most, for a
  // dictionary id).
  static size_t ValueBytes(const LeafWriter& lw, const Vector& v, idx_t row) {
    switch (lw.kind) {
      case WKind::STR: return 4 + v.GetData<string_t>()[row].size();
      case WKind::BOOL: return 1;
      case WKind::I32:
      case WKind::DEC32: return 4;
      case WKind::DECFLBA: return static_cast<size_t>(lw.flba_len);
      default: return 8;
    }
  }

  // Ends the page before an entry of `incoming` value bytes when the entry
  // would take it past `budget` bytes or kMaxWriterPageValues entries: a
  // value larger than the budget gets a page of its own, and no page
  // outgrows what the reader accepts (kMaxPageBytes).
  void MakeRoom(LeafWriter& lw, size_t incoming, size_t budget) {
    if (lw.page_entries == 0) return;
    if (lw.page_entries >= kMaxWriterPageValues || lw.PageBytesEstimate() + incoming > budget) FlushPage(lw);
  }

  // `value_bytes`: of the value that follows the entry (0 for none). Pages
  // of nested columns end between rows (Append), unless one row would take
  // a page past twice the target: its entries then span pages, as data
  // pages v1 allow.
  void AddLevels(LeafWriter& lw, int rep, int def, size_t value_bytes) {
    MakeRoom(lw, value_bytes, 2 * opt.page_size);
    if (lw.max_def > 0) lw.defs.push_back(static_cast<uint8_t>(def));
    if (lw.max_rep > 0) lw.reps.push_back(static_cast<uint8_t>(rep));
    lw.page_entries++;
    lw.chunk_values++;
  }

  void AppendFlat(LeafWriter& lw, const Vector& v, idx_t offset, idx_t count) {
    const uint8_t* valid = v.Validity();
    // Fixed-width values are checked against the page size once per run of
    // rows that cannot fill the page: a row adds at most its width plus 4
    // estimated bytes (an id's 2, and rounding of levels and booleans).
    const bool strings = lw.kind == WKind::STR;
    const size_t row_bytes = strings ? 0 : ValueBytes(lw, v, 0) + 4;
    idx_t unchecked = 0;
    for (idx_t i = 0; i < count; i++) {
      idx_t row = offset + i;
      bool ok = valid[row] != 0;
      if (unchecked > 0) {
        unchecked--;
      } else {
        MakeRoom(lw, ok ? ValueBytes(lw, v, row) : 0, opt.page_size);
        if (!strings) {
          size_t est = lw.PageBytesEstimate();
          idx_t fit = est < opt.page_size ? (opt.page_size - est) / row_bytes : 0;
          idx_t entries_left = static_cast<idx_t>(kMaxWriterPageValues - lw.page_entries - 1);
          unchecked = std::min(fit, entries_left);
          if (unchecked > 0) unchecked--;  // this row is one of them
        }
      }
      if (lw.max_def > 0) lw.defs.push_back(static_cast<uint8_t>(ok ? lw.max_def : lw.max_def - 1));
      lw.page_entries++;
      if (ok) AddValue(lw, v, row);
      else lw.chunk_nulls++;
    }
    lw.chunk_values += count;
  }

  // Nested shredding.
  void EmitNull(const WNode& n, int rep, int def) {
    for (idx_t l = n.leaf_begin; l < n.leaf_end; l++) {
      AddLevels(leaves[l], rep, def, 0);
      leaves[l].chunk_nulls++;
    }
  }

  void Emit(const WNode& n, const Vector& v, idx_t row, int rep, int def) {
    if (!v.IsValid(row)) {
      if (n.required) error = "NULL map key";
      EmitNull(n, rep, def);
      return;
    }
    switch (n.kind) {
      case WNode::LEAF: {
        LeafWriter& lw = leaves[n.leaf];
        AddLevels(lw, rep, n.def_level, ValueBytes(lw, v, row));
        AddValue(lw, v, row);
        return;
      }
      case WNode::STRUCT:
        for (idx_t i = 0; i < n.children.size(); i++) Emit(*n.children[i], v.Child(i), row, rep, n.def_level);
        return;
      case WNode::LIST: {
        auto e = v.GetData<list_entry_t>()[row];
        if (e.length == 0) {
          for (idx_t l = n.leaf_begin; l < n.leaf_end; l++) AddLevels(leaves[l], rep, n.def_level, 0);
          return;
        }
        for (idx_t i = 0; i < e.length; i++)
          Emit(*n.children[0], v.Child(0), e.offset + i, i == 0 ? rep : n.rep_level, n.rep_def);
        return;
      }
    }
  }

  // ---- pages and row groups ----

  // Whether the chunk's first dictionary page should be written PLAIN instead,
  // with the dictionary dropped: as parquet-mr decides, when ids plus
  // dictionary take at least as many bytes as the PLAIN values (nearly all
  // values distinct, e.g. keys, measurements, unique strings). Zstd does not
  // win this back: bit-packed ids of distinct values compress worse than
  // their PLAIN bytes.
  bool DictionaryIneffective(const LeafWriter& lw) const {
    if (lw.used_dict_pages || lw.ids.empty()) return false;
    size_t width = static_cast<size_t>(BitWidth(lw.DictCount() > 0 ? lw.DictCount() - 1 : 0));
    size_t dict_bytes = lw.ids.size() * width / 8 + lw.dict_plain.size();
    return dict_bytes >= PlainBytesOfIds(lw);
  }

  size_t PlainBytesOfIds(const LeafWriter& lw) const {
    switch (lw.kind) {
      case WKind::I32:
      case WKind::DEC32: return lw.ids.size() * 4;
      case WKind::I64:
      case WKind::DEC64:
      case WKind::DOUBLE: return lw.ids.size() * 8;
      case WKind::DECFLBA: return lw.ids.size() * static_cast<size_t>(lw.flba_len);
      case WKind::STR: {
        size_t n = 0;
        for (uint32_t id : lw.ids) n += 4 + lw.keys_str[id].size();
        return n;
      }
      case WKind::BOOL: break;
    }
    return 0;
  }

  // Rewrites the page's dictionary ids as PLAIN values and stops using the
  // dictionary for this column (this chunk and the file's later chunks).
  void AbandonDictionary(LeafWriter& lw) {
    lw.plain.clear();
    lw.plain.reserve(PlainBytesOfIds(lw));
    if (lw.kind == WKind::STR) {
      for (uint32_t id : lw.ids) {
        std::string_view v = lw.keys_str[id];
        uint32_t len = static_cast<uint32_t>(v.size());
        lw.plain.append(reinterpret_cast<const char*>(&len), 4);
        lw.plain.append(v.data(), v.size());
      }
    } else if (lw.kind == WKind::DECFLBA) {
      for (uint32_t id : lw.ids) lw.AppendFlba(lw.plain, lw.keys128[id]);
    } else {
      // Fixed-width values sit in dict_plain in id order.
      size_t w = lw.dict_plain.size() / std::max<size_t>(lw.DictCount(), 1);
      for (uint32_t id : lw.ids) lw.plain.append(lw.dict_plain.data() + id * w, w);
    }
    lw.ids.clear();
    lw.ids_plain = 0;
    lw.dict_enabled = false;
    lw.ResetDict();  // dict_active = false from here on
  }

  void FlushPage(LeafWriter& lw) {
    if (lw.page_entries == 0) return;
    if (lw.dict_active && DictionaryIneffective(lw)) AbandonDictionary(lw);
    page_body.clear();
    if (lw.max_rep > 0) LevelsRle(lw.reps, lw.max_rep);
    if (lw.max_def > 0) LevelsRle(lw.defs, lw.max_def);
    Encoding enc;
    if (lw.kind == WKind::BOOL) {
      size_t n = lw.bools.size();
      size_t base = page_body.size();
      page_body.resize(base + (n + 7) / 8, 0);
      for (size_t i = 0; i < n; i++) page_body[base + i / 8] |= static_cast<char>(lw.bools[i] << (i % 8));
      enc = Encoding::PLAIN;
      lw.used_plain_pages = true;
    } else if (lw.dict_active) {
      int width = BitWidth(lw.DictCount() > 0 ? lw.DictCount() - 1 : 0);
      page_body.push_back(static_cast<char>(width));
      RleBpEncode(lw.ids.data(), lw.ids.size(), width, page_body);
      enc = Encoding::RLE_DICTIONARY;
      lw.used_dict_pages = true;
    } else {
      page_body.append(lw.plain);
      enc = Encoding::PLAIN;
      lw.used_plain_pages = true;
    }
    if (page_body.size() > kMaxPageBytes) {
      // MakeRoom keeps pages far smaller: reaching this is a bug.
      error = "internal error: a page of " + GroupDigits(page_body.size()) + " bytes exceeds the reader's limit";
      return;
    }
    PageHeader ph;
    ph.type = PageType::DATA_PAGE;
    auto& dh = ph.data_page_header.emplace();
    dh.num_values = static_cast<int32_t>(lw.page_entries);
    dh.encoding = enc;
    dh.definition_level_encoding = Encoding::RLE;
    dh.repetition_level_encoding = Encoding::RLE;
    WritePage(lw, ph, page_body);
    lw.defs.clear();
    lw.reps.clear();
    lw.plain.clear();
    lw.bools.clear();
    lw.ids.clear();
    lw.ids_plain = 0;
    lw.page_entries = 0;
  }

  void LevelsRle(const std::vector<uint8_t>& levels, int max_level) {
    size_t len_pos = page_body.size();
    page_body.append(4, '\0');
    RleBpEncode(levels.data(), levels.size(), BitWidth(max_level), page_body);
    uint32_t len = static_cast<uint32_t>(page_body.size() - len_pos - 4);
    std::memcpy(page_body.data() + len_pos, &len, 4);
  }

  void WritePage(LeafWriter& lw, PageHeader& ph, const std::string& body) {
    page_comp.clear();
    if (!Compress(lw.uncompressed ? Codec::UNCOMPRESSED : codec, reinterpret_cast<const uint8_t*>(body.data()), body.size(),
                  page_comp, opt.compression_level)) {
      error = "compression failed";
      return;
    }
    ph.uncompressed_page_size = static_cast<int32_t>(body.size());
    ph.compressed_page_size = static_cast<int32_t>(page_comp.size());
    header.clear();
    TWriter w(header);
    WritePageHeader(w, ph);
    lw.chunk.append(header);
    lw.chunk.append(page_comp);
    lw.chunk_uncompressed += header.size() + body.size();
  }

  // Whether the chunk's min and max are short enough for the footer.
  static bool StatisticsFit(const LeafWriter& lw) {
    return lw.kind != WKind::STR ||
           (lw.min_s.size() <= kMaxStatisticsValueBytes && lw.max_s.size() <= kMaxStatisticsValueBytes);
  }

  std::string StatBytes(const LeafWriter& lw, bool max) const {
    std::string out;
    switch (lw.kind) {
      case WKind::BOOL: out.push_back(static_cast<char>(max ? lw.max_i : lw.min_i)); break;
      case WKind::I32:
      case WKind::DEC32: {
        int32_t v = static_cast<int32_t>(max ? lw.max_i : lw.min_i);
        out.assign(reinterpret_cast<const char*>(&v), 4);
        break;
      }
      case WKind::I64:
      case WKind::DEC64: {
        int64_t v = max ? lw.max_i : lw.min_i;
        out.assign(reinterpret_cast<const char*>(&v), 8);
        break;
      }
      case WKind::DOUBLE: {
        double v = max ? lw.max_d : lw.min_d;
        if (v == 0) v = max ? 0.0 : -0.0;
        out.assign(reinterpret_cast<const char*>(&v), 8);
        break;
      }
      case WKind::DECFLBA: lw.AppendFlba(out, max ? lw.max_h : lw.min_h); break;
      case WKind::STR: out = max ? lw.max_s : lw.min_s; break;
    }
    return out;
  }

  Value StatValue(const LeafWriter& lw, bool max) const {
    switch (lw.type.id()) {
      case TypeId::BOOLEAN: return Value::BOOLEAN((max ? lw.max_i : lw.min_i) != 0);
      case TypeId::INTEGER: return Value::INTEGER(static_cast<int32_t>(max ? lw.max_i : lw.min_i));
      case TypeId::DATE: return Value::DATE(static_cast<date_t>(max ? lw.max_i : lw.min_i));
      case TypeId::BIGINT: return Value::BIGINT(max ? lw.max_i : lw.min_i);
      case TypeId::TIMESTAMP: return Value::TIMESTAMP(max ? lw.max_i : lw.min_i);
      case TypeId::TIMESTAMP_NTZ: return Value::TIMESTAMP_NTZ(max ? lw.max_i : lw.min_i);
      case TypeId::DOUBLE: return Value::DOUBLE(max ? lw.max_d : lw.min_d);
      case TypeId::DECIMAL: {
        hugeint_t h = lw.kind == WKind::DECFLBA ? (max ? lw.max_h : lw.min_h) : (max ? lw.max_i : lw.min_i);
        return Value::DECIMAL(h, lw.type.width(), lw.type.scale());
      }
      case TypeId::VARCHAR: return Value::VARCHAR(max ? lw.max_s : lw.min_s);
      default: return Value(lw.type);
    }
  }

  Status FlushRowGroup() {
    if (rg_rows == 0) return Status::OK();
    RowGroup rg;
    rg.num_rows = rg_rows;
    rg.file_offset = static_cast<int64_t>(offset);
    int64_t total_comp = 0;
    for (auto& lw : leaves) {
      // A chunk whose one page and dictionary are this small: its codec's
      // fixed cost per page outweighs what it saves (uncompressed_below).
      lw.uncompressed = lw.chunk.empty() && lw.PageBytesEstimate() + lw.dict_plain.size() < opt.uncompressed_below;
      FlushPage(lw);
      if (!error.empty()) return Status::IOError(path + ": " + error);
      ColumnChunk cc;
      auto& m = cc.meta_data.emplace();
      m.type = lw.physical;
      m.path_in_schema = lw.path;
      m.codec = lw.uncompressed ? Codec::UNCOMPRESSED : codec;
      m.num_values = lw.chunk_values;
      int64_t start = static_cast<int64_t>(offset);
      std::string dict_page;
      if (lw.used_dict_pages) {
        PageHeader ph;
        ph.type = PageType::DICTIONARY_PAGE;
        auto& dh = ph.dictionary_page_header.emplace();
        dh.num_values = static_cast<int32_t>(lw.DictCount());
        dh.encoding = Encoding::PLAIN;
        std::string saved;
        saved.swap(lw.chunk);
        int64_t unc = lw.chunk_uncompressed;
        WritePage(lw, ph, lw.dict_plain);
        dict_page.swap(lw.chunk);
        lw.chunk.swap(saved);
        (void)unc;
        m.dictionary_page_offset = start;
        m.data_page_offset = start + static_cast<int64_t>(dict_page.size());
        m.encodings.push_back(Encoding::PLAIN);
        m.encodings.push_back(Encoding::RLE);
        m.encodings.push_back(Encoding::RLE_DICTIONARY);
      } else {
        m.data_page_offset = start;
        m.encodings.push_back(Encoding::PLAIN);
        m.encodings.push_back(Encoding::RLE);
      }
      m.total_compressed_size = static_cast<int64_t>(dict_page.size() + lw.chunk.size());
      m.total_uncompressed_size = lw.chunk_uncompressed;
      auto& st = m.statistics.emplace();
      st.null_count = lw.chunk_nulls;
      if (lw.has_minmax && StatisticsFit(lw)) {
        st.min_value = StatBytes(lw, false);
        st.max_value = StatBytes(lw, true);
      }
      if (!dict_page.empty()) LS_RETURN_NOT_OK(WriteAll(dict_page));
      LS_RETURN_NOT_OK(WriteAll(lw.chunk));
      total_comp += m.total_compressed_size;
      rg.total_byte_size += m.total_uncompressed_size;
      cc.file_offset = start;
      rg.columns.push_back(std::move(cc));
      // Reset the chunk.
      lw.chunk.clear();
      lw.chunk.shrink_to_fit();
      lw.chunk_values = lw.chunk_uncompressed = lw.chunk_nulls = 0;
      lw.used_dict_pages = lw.used_plain_pages = false;
      lw.has_minmax = false;
      lw.uncompressed = false;
      lw.ResetDict();
    }
    rg.total_compressed_size = total_comp;
    row_groups.push_back(std::move(rg));
    rg_rows = 0;
    return Status::OK();
  }

  void MergeInfo() {
    // Called before a row group's leaves are reset: fold leaf min/max into info.
    for (idx_t c = 0; c < roots.size(); c++) {
      const WNode& n = *roots[c];
      if (n.kind != WNode::LEAF) continue;
      LeafWriter& lw = leaves[n.leaf];
      if (!lw.has_minmax) continue;
      Value mn = StatValue(lw, false), mx = StatValue(lw, true);
      if (info[c].min.IsNull() || mn.Compare(info[c].min) < 0) info[c].min = mn;
      if (info[c].max.IsNull() || mx.Compare(info[c].max) > 0) info[c].max = mx;
    }
  }
};

ParquetWriter::ParquetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Create(const std::string& path,
                                                             const std::vector<std::string>& names,
                                                             const std::vector<LogicalType>& types,
                                                             const ParquetWriterOptions& options, FileSystem* fs) {
  if (names.size() != types.size())
    return Status::InvalidArgument(path + ": " + std::to_string(names.size()) + " column names for " +
                                   std::to_string(types.size()) + " types");
  if (names.empty()) return Status::InvalidArgument(path + ": a Parquet file needs at least one column");
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->opt = options;
  auto& opt = impl->opt;
  if (opt.row_group_rows == 0) opt.row_group_rows = 1;
  opt.page_size = std::clamp<idx_t>(opt.page_size, 1, kMaxTargetPageBytes);
  opt.dictionary_max_bytes = std::min<idx_t>(opt.dictionary_max_bytes, kMaxDictionaryBytes);
  opt.max_value_bytes = std::min<uint64_t>(opt.max_value_bytes, kMaxValueBytes);
  opt.max_nested_entries = std::clamp<int64_t>(opt.max_nested_entries, 1, kMaxNestedEntries);
  impl->codec = ToCodec(options.codec);
  impl->names = names;
  impl->types = types;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(names.size());
  impl->schema.push_back(root);
  for (idx_t i = 0; i < names.size(); i++) {
    int depth = SchemaDepth(types[i]);
    if (depth > kMaxSchemaDepth)
      return Status::InvalidArgument(impl->ColumnLabel(i) + ": its type " + types[i].ToString() + " nests " +
                                     std::to_string(depth) + " levels deep in Parquet, more than the " +
                                     std::to_string(kMaxSchemaDepth) + " lakestream reads; nest fewer levels");
    std::unique_ptr<WNode> node;
    const ParquetField* spec = i < options.fields.size() ? &options.fields[i] : nullptr;
    LS_RETURN_NOT_OK(impl->BuildSchema(names[i], types[i], false, 0, 0, {}, spec, node));
    impl->roots.push_back(std::move(node));
    impl->info.push_back(ParquetColumnInfo{Value(types[i]), Value(types[i]), 0});
  }
  impl->row_entries.resize(names.size());
  impl->remote = IsRemotePath(path);
  if (!impl->remote && fs) {
    auto opened = fs->OpenFile(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (!opened.ok()) return Status::IOError(path + ": cannot create: " + opened.status().message());
    impl->fd = opened.value();
  } else if (!impl->remote) {
    impl->fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (impl->fd < 0) return Status::IOError(path + ": cannot create: " + std::strerror(errno));
  }
  LS_RETURN_NOT_OK(impl->WriteAll("PAR1"));
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Status ParquetWriter::Append(const DataChunk& chunk) {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": Append after Finish");
  if (chunk.ColumnCount() != im.types.size())
    return Status::InvalidArgument(im.path + ": chunk has " + std::to_string(chunk.ColumnCount()) +
                                   " columns, the file has " + std::to_string(im.types.size()));
  for (idx_t c = 0; c < im.types.size(); c++)
    if (chunk.data[c].GetType() != im.types[c])
      return Status::InvalidArgument(im.path + ": column '" + im.names[c] + "' has type " + im.types[c].ToString() +
                                     ", the chunk has " + chunk.data[c].GetType().ToString());
  // Every value is checked before any is written, so a refused chunk leaves
  // the file as it was.
  for (idx_t c = 0; c < im.types.size(); c++) {
    Status s = CheckColumnLimits(im.types[c], chunk.data[c], chunk.size(), im.opt.max_value_bytes,
                                 im.opt.max_nested_entries, &im.row_entries[c]);
    if (!s.ok()) return Status::InvalidArgument(im.ColumnLabel(c) + ": " + s.message());
  }
  idx_t done = 0;
  while (done < chunk.size()) {
    idx_t n = im.RowsThatFit(done, std::min<idx_t>(chunk.size() - done, im.opt.row_group_rows - im.rg_rows));
    if (n == 0) {
      // A nested column's row group is full: the rows go to the next one.
      if (im.rg_rows == 0) return Status::InvalidArgument(im.path + ": internal error: a row passes the entry limit");
      im.MergeInfo();
      LS_RETURN_NOT_OK(im.FlushRowGroup());
      continue;
    }
    for (idx_t c = 0; c < im.types.size(); c++) {
      const WNode& node = *im.roots[c];
      const Vector& v = chunk.data[c];
      for (idx_t r = done; r < done + n; r++)
        if (!v.IsValid(r)) im.info[c].null_count++;
      if (node.kind == WNode::LEAF) {
        im.AppendFlat(im.leaves[node.leaf], v, done, n);
      } else {
        for (idx_t r = done; r < done + n; r++) {
          im.Emit(node, v, r, 0, 0);
          for (idx_t l = node.leaf_begin; l < node.leaf_end; l++)
            if (im.leaves[l].PageBytesEstimate() >= im.opt.page_size) im.FlushPage(im.leaves[l]);
        }
      }
      if (!im.error.empty()) return Status::InvalidArgument(im.ColumnLabel(c) + ": " + im.error);
    }
    im.rg_rows += n;
    im.total_rows += n;
    done += n;
    size_t est = 0;
    for (auto& lw : im.leaves) est += lw.chunk.size() + lw.PageBytesEstimate();
    if (static_cast<idx_t>(im.rg_rows) >= im.opt.row_group_rows || est >= im.opt.row_group_bytes) {
      im.MergeInfo();
      LS_RETURN_NOT_OK(im.FlushRowGroup());
    }
  }
  return Status::OK();
}

Status ParquetWriter::EndRowGroup() {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": EndRowGroup after Finish");
  if (im.rg_rows == 0) return Status::OK();
  im.MergeInfo();
  return im.FlushRowGroup();
}

Result<ParquetFileInfo> ParquetWriter::Finish() {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": Finish called twice");
  im.finished = true;
  im.MergeInfo();
  LS_RETURN_NOT_OK(im.FlushRowGroup());
  FileMetaData md;
  md.version = 1;
  md.schema = im.schema;
  md.num_rows = im.total_rows;
  md.row_groups = std::move(im.row_groups);
  for (auto& [k, v] : im.opt.key_value_metadata) md.key_value_metadata.push_back(KeyValue{k, v});
  md.created_by = std::string("lakestream version ") + LAKESTREAM_VERSION;
  md.num_column_orders = static_cast<int32_t>(im.leaves.size());
  std::string footer;
  TWriter w(footer);
  WriteFileMetaData(w, md);
  if (footer.size() > kMaxFooterBytes)
    return Status::InvalidArgument(im.path + ": the footer takes " + GroupDigits(footer.size()) +
                                   " bytes, more than a Parquet footer holds; write fewer row groups or columns");
  uint32_t len = static_cast<uint32_t>(footer.size());
  footer.append(reinterpret_cast<const char*>(&len), 4);
  footer.append("PAR1");
  LS_RETURN_NOT_OK(im.WriteAll(footer));
  if (im.remote) {
    LS_RETURN_NOT_OK(FileSystem::For(im.path)->WriteFile(im.path, im.buffer));
    im.buffer = std::string();
  } else if (::close(im.fd) != 0) {
    im.fd = -1;
    return WriteError(im.path, errno, "cannot close");
  }
  im.fd = -1;
  ParquetFileInfo info;
  info.file_size = im.offset;
  info.row_count = im.total_rows;
  info.columns = im.info;
  return info;
}

}  // namespace lakestream
