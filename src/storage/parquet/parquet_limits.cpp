#include "storage/parquet/parquet_limits.hpp"

#include <algorithm>

#include "common/vector.hpp"

namespace lakestream::parquet {

std::string GroupDigits(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

namespace {

Status ValueTooLarge(uint64_t size, uint64_t max) {
  return Status::InvalidArgument("a value of " + GroupDigits(size) +
                                 " bytes exceeds the largest value lakestream stores (" + GroupDigits(max) +
                                 " bytes); store the value outside the table (e.g. in a file, and its path in the "
                                 "table) or split it across rows");
}

// Walks row `row` of a nested value as the writer shreds it: checks its
// strings, and returns an upper bound on the level entries it adds to any
// one leaf (a NULL, an empty list and a leaf value are one entry each; a
// list adds its elements' entries; a struct's fields share its entries, so
// it adds its widest field's).
Status WalkRow(const LogicalType& type, const Vector& v, idx_t row, uint64_t max_value_bytes, int64_t& entries) {
  entries = 1;
  if (!v.IsValid(row)) return Status::OK();
  switch (type.id()) {
    case TypeId::VARCHAR: {
      size_t size = v.GetData<string_t>()[row].size();
      if (size > max_value_bytes) return ValueTooLarge(size, max_value_bytes);
      return Status::OK();
    }
    case TypeId::STRUCT: {
      const auto& fields = type.children();
      for (idx_t i = 0; i < fields.size(); i++) {
        int64_t field = 0;
        LS_RETURN_NOT_OK(WalkRow(fields[i].second, v.Child(i), row, max_value_bytes, field));
        entries = std::max(entries, field);
      }
      return Status::OK();
    }
    case TypeId::LIST:
    case TypeId::MAP: {
      auto e = v.GetData<list_entry_t>()[row];
      if (e.length == 0) return Status::OK();
      entries = 0;
      for (idx_t i = 0; i < e.length; i++) {
        if (type.id() == TypeId::MAP) {
          const Vector& kv = v.Child(0);
          if (!kv.IsValid(e.offset + i) || !kv.Child(0).IsValid(e.offset + i))
            return Status::InvalidArgument("a map has a NULL key; give every entry a key or leave the entry out");
        }
        int64_t element = 0;
        LS_RETURN_NOT_OK(WalkRow(type.ListChild(), v.Child(0), e.offset + i, max_value_bytes, element));
        entries += element;
      }
      return Status::OK();
    }
    default: return Status::OK();
  }
}

}  // namespace

Status CheckColumnLimits(const LogicalType& type, const Vector& v, idx_t count, uint64_t max_value_bytes,
                         int64_t max_row_entries, std::vector<int64_t>* entries) {
  if (type.id() == TypeId::VARCHAR) {
    const string_t* s = v.GetData<string_t>();
    for (idx_t r = 0; r < count; r++)
      if (s[r].size() > max_value_bytes && v.IsValid(r)) return ValueTooLarge(s[r].size(), max_value_bytes);
    return Status::OK();
  }
  if (!type.IsNested()) return Status::OK();
  if (entries) entries->assign(count, 1);
  for (idx_t r = 0; r < count; r++) {
    int64_t n = 0;
    LS_RETURN_NOT_OK(WalkRow(type, v, r, max_value_bytes, n));
    if (n > max_row_entries)
      return Status::InvalidArgument("a row holds " + GroupDigits(static_cast<uint64_t>(n)) +
                                     " nested values, more than lakestream stores in one row (" +
                                     GroupDigits(static_cast<uint64_t>(max_row_entries)) +
                                     "); split its lists across rows");
    if (entries) (*entries)[r] = n;
  }
  return Status::OK();
}

int SchemaDepth(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::STRUCT: {
      int deepest = 0;
      for (const auto& field : type.children()) deepest = std::max(deepest, SchemaDepth(field.second));
      return 1 + deepest;
    }
    case TypeId::LIST: return 2 + SchemaDepth(type.ListChild());
    case TypeId::MAP: {
      // The map group, its repeated key_value group, then key and value.
      const auto& entry = type.ListChild();
      int deepest = 0;
      for (const auto& field : entry.children()) deepest = std::max(deepest, SchemaDepth(field.second));
      return 2 + deepest;
    }
    default: return 1;
  }
}

}  // namespace lakestream::parquet
