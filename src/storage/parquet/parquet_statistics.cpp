#include "storage/parquet/parquet_statistics.hpp"

#include <cmath>

#include "storage/parquet/parquet_column_reader.hpp"

namespace lakestream::parquet {

Value DecodeStatValue(const LeafDesc& leaf, const std::string& b) {
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
static bool MayHoldValues(const FileMetaData& md, const ParquetSchema& schema, idx_t rg, const ParquetColumnRef& ref) {
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

bool RowGroupCanMatch(const FileMetaData& md, const ParquetSchema& schema, const std::vector<ParquetFilter>& filters, idx_t rg) {
  for (auto& f : filters) {
    if (f.op == CompareOp::kAnyNotNull) {
      bool any = f.any_not_null.empty();
      for (const auto& ref : f.any_not_null) any = any || MayHoldValues(md, schema, rg, ref);
      if (!any) return false;
      continue;
    }
    if (f.column >= schema.columns.size()) continue;
    if (f.value.IsNull()) continue;
    const ENode& n = *schema.columns[f.column];
    if (n.kind != ENode::LEAF) continue;
    ParquetColumnStats st = ColumnChunkStats(md, schema, rg, f.column);
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

ParquetColumnStats ColumnChunkStats(const FileMetaData& md, const ParquetSchema& schema, idx_t rg, idx_t column) {
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
    out.min = DecodeStatValue(leaf, *s.min_value);
    out.max = DecodeStatValue(leaf, *s.max_value);
  } else if (s.min && s.max && !leaf.unsigned_int && leaf.physical != PhysicalType::BYTE_ARRAY &&
             leaf.physical != PhysicalType::FIXED_LEN_BYTE_ARRAY && leaf.physical != PhysicalType::INT96) {
    out.min = DecodeStatValue(leaf, *s.min);
    out.max = DecodeStatValue(leaf, *s.max);
  }
  if (out.min.IsNull() || out.max.IsNull()) out.min = out.max = Value(n.type);
  return out;
}

}  // namespace lakestream::parquet
