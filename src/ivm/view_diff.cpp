#include "ivm/view_diff.hpp"

#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace lakestream {

// One value: a tag, then its bytes (fixed width, or a length and the bytes).
// Integers of any width share one form, DOUBLE -0 and 0 (and every NaN) are
// one value each, as Value::Compare and GROUP BY see them; nested values
// encode their elements the same way.
static void AppendValue(const Value& v, std::string& out) {
  auto raw = [&out](const auto& x) { out.append(reinterpret_cast<const char*>(&x), sizeof(x)); };
  if (v.IsNull()) {
    out.push_back('N');
    return;
  }
  switch (v.type().id()) {
    case TypeId::BOOLEAN:
      out.push_back('B');
      out.push_back(v.GetBoolean() ? 1 : 0);
      return;
    case TypeId::INTEGER:
    case TypeId::BIGINT:
      out.push_back('I');
      raw(v.AsBigint());
      return;
    case TypeId::DOUBLE: {
      double d = v.GetDouble();
      if (d == 0.0) d = 0.0;
      if (std::isnan(d)) d = NAN;
      out.push_back('F');
      raw(d);
      return;
    }
    case TypeId::DECIMAL:
      out.push_back('D');
      out.push_back(static_cast<char>(v.type().scale()));
      raw(v.GetHugeint());
      return;
    case TypeId::VARCHAR: {
      const std::string& text = v.GetString();
      out.push_back('S');
      raw(static_cast<uint64_t>(text.size()));
      out += text;
      return;
    }
    case TypeId::DATE:
      out.push_back('d');
      raw(v.GetDate());
      return;
    case TypeId::TIMESTAMP:
      out.push_back('t');
      raw(v.GetTimestamp());
      return;
    case TypeId::STRUCT:
    case TypeId::LIST:
    case TypeId::MAP:
      out.push_back('L');
      raw(static_cast<uint64_t>(v.Children().size()));
      for (auto& child : v.Children()) AppendValue(child, out);
      return;
    default: {
      std::string text = v.ToSQLString();
      out.push_back('X');
      raw(static_cast<uint64_t>(text.size()));
      out += text;
    }
  }
}

std::string EncodeRow(const Row& row, const std::vector<idx_t>& columns) {
  // Built in binary rather than as SQL text: refreshes encode every changed
  // group's key several times, and formatting values was most of their cost.
  std::string key;
  key.reserve(16 * (columns.empty() ? row.size() : columns.size()));
  if (columns.empty()) {
    for (auto& v : row) AppendValue(v, key);
  } else {
    for (idx_t c : columns) AppendValue(row[c], key);
  }
  return key;
}

std::vector<Row> CollectRows(const ChunkCollection& rows) {
  std::vector<Row> out;
  out.reserve(rows.Count());
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    for (idx_t r = 0; r < chunk.size(); r++) {
      Row row;
      row.reserve(chunk.ColumnCount());
      for (idx_t c = 0; c < chunk.ColumnCount(); c++) row.push_back(chunk.GetValue(c, r));
      out.push_back(std::move(row));
    }
  }
  return out;
}

ChunkCollection MakeCollection(const std::vector<LogicalType>& types, const std::vector<Row>& rows) {
  ChunkCollection out(types);
  for (idx_t start = 0; start < rows.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, rows.size() - start);
    DataChunk chunk;
    chunk.Initialize(types, n);
    for (idx_t r = 0; r < n; r++) {
      for (idx_t c = 0; c < types.size(); c++) chunk.SetValue(c, r, rows[start + r][c].CastAs(types[c]));
    }
    chunk.SetCardinality(n);
    out.Append(chunk);
  }
  return out;
}

ViewRows ScanViewRows(DataTable& view, const std::vector<LogicalType>& types, const std::vector<idx_t>& key_columns,
                      const std::function<bool(const std::string&)>& keep) {
  std::vector<idx_t> ids;
  idx_t column_count = types.size();
  for (idx_t c = 0; c < column_count; c++) ids.push_back(c);
  ViewRows out;
  auto scan = view.Scan(ids);
  while (true) {
    DataChunk chunk;
    chunk.Initialize(types);
    Vector row_ids{LogicalType(TypeId::BIGINT)};
    if (!scan->Next(chunk, &row_ids)) break;
    const int64_t* rid = row_ids.GetData<int64_t>();
    for (idx_t r = 0; r < chunk.size(); r++) {
      Row row;
      row.reserve(column_count);
      for (idx_t c = 0; c < column_count; c++) row.push_back(chunk.GetValue(c, r));
      if (keep && !keep(EncodeRow(row, key_columns))) continue;
      out.rows.push_back(std::move(row));
      out.ids.push_back(rid[r]);
    }
  }
  return out;
}

// The encoded `key_columns` of each row in `keys`; false when two rows share a key.
static bool EncodeUniqueKeys(const std::vector<Row>& rows, const std::vector<idx_t>& key_columns,
                             std::vector<std::string>& keys) {
  keys.clear();
  keys.reserve(rows.size());
  for (auto& row : rows) keys.push_back(EncodeRow(row, key_columns));
  std::unordered_set<std::string_view> seen;
  seen.reserve(keys.size());
  for (auto& key : keys) {
    if (!seen.insert(key).second) return false;
  }
  return true;
}

void DiffRows(const ViewRows& old_rows, const std::vector<Row>& new_rows, const std::vector<idx_t>& key_columns,
              const std::vector<LogicalType>& types, TableCommit& commit) {
  // Each row is encoded once: its key, or the whole row when the rows have no
  // unique key (then equal rows pair up and nothing is an update).
  std::vector<std::string> old_keys, new_keys;
  bool keyed = !key_columns.empty() && EncodeUniqueKeys(old_rows.rows, key_columns, old_keys) &&
               EncodeUniqueKeys(new_rows, key_columns, new_keys);
  if (!keyed) {
    EncodeUniqueKeys(old_rows.rows, {}, old_keys);
    EncodeUniqueKeys(new_rows, {}, new_keys);
  }
  // key -> the old rows not matched yet: the last one, chained through `earlier`.
  constexpr idx_t kNone = ~idx_t(0);
  std::unordered_map<std::string_view, idx_t> unmatched;
  unmatched.reserve(old_keys.size());
  std::vector<idx_t> earlier(old_keys.size(), kNone);
  for (idx_t i = 0; i < old_keys.size(); i++) {
    auto [it, fresh] = unmatched.try_emplace(old_keys[i], i);
    if (!fresh) {
      earlier[i] = it->second;
      it->second = i;
    }
  }
  std::vector<bool> matched(old_keys.size(), false);
  std::vector<Row> updated, inserted;
  for (idx_t n = 0; n < new_rows.size(); n++) {
    auto it = unmatched.find(new_keys[n]);
    if (it == unmatched.end() || it->second == kNone) {
      inserted.push_back(new_rows[n]);
      continue;
    }
    idx_t old = it->second;
    it->second = earlier[old];
    matched[old] = true;
    if (keyed && old_rows.rows[old] != new_rows[n]) {
      commit.updated_row_ids.push_back(old_rows.ids[old]);
      updated.push_back(new_rows[n]);
    }
  }
  for (idx_t i = 0; i < old_keys.size(); i++) {
    if (!matched[i]) commit.deleted_rows.push_back(old_rows.ids[i]);
  }
  commit.updated = MakeCollection(types, updated);
  commit.inserted = MakeCollection(types, inserted);
}

bool ApplyBagChange(DataTable& view, const std::vector<LogicalType>& types, const std::vector<Row>& minus,
                    const std::vector<Row>& plus, const std::vector<idx_t>& key_columns, TableCommit& commit) {
  struct Net {
    int64_t count = 0;
    const Row* row = nullptr;
  };
  std::unordered_map<std::string, Net> net;
  for (auto& row : plus) {
    Net& n = net[EncodeRow(row)];
    n.count++;
    n.row = &row;
  }
  for (auto& row : minus) {
    Net& n = net[EncodeRow(row)];
    n.count--;
    n.row = &row;
  }
  std::unordered_map<std::string, int64_t> to_remove;
  std::vector<Row> additions;
  for (auto& [key, n] : net) {
    if (n.count < 0) to_remove[key] = -n.count;
    for (int64_t i = 0; i < n.count; i++) additions.push_back(*n.row);
  }
  ViewRows removals;
  if (!to_remove.empty()) {
    ViewRows candidates = ScanViewRows(view, types, {}, [&](const std::string& key) {
      auto it = to_remove.find(key);
      if (it == to_remove.end() || it->second == 0) return false;
      it->second--;
      return true;
    });
    for (auto& [key, left] : to_remove) {
      if (left > 0) return false;
    }
    removals = std::move(candidates);
  }
  if (!key_columns.empty()) {
    // Pair a removal and an addition of one key into an update; DiffRows does
    // exactly that when given the two sides.
    DiffRows(removals, additions, key_columns, types, commit);
    return true;
  }
  commit.deleted_rows = removals.ids;
  commit.inserted = MakeCollection(types, additions);
  commit.updated = ChunkCollection(types);
  return true;
}

}  // namespace lakestream
