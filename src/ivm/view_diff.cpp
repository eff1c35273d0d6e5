#include "ivm/view_diff.hpp"

#include <unordered_map>

namespace lakestream {

std::string EncodeRow(const Row& row, const std::vector<idx_t>& columns) {
  std::string key;
  auto add = [&](const Value& v) {
    // Length-prefixed SQL literals: NULL and the string 'NULL' differ, and no
    // value can run into the next.
    std::string text = v.IsNull() ? "N" : "V" + v.ToSQLString();
    key += std::to_string(text.size());
    key += ':';
    key += text;
  };
  if (columns.empty()) {
    for (auto& v : row) add(v);
  } else {
    for (idx_t c : columns) add(row[c]);
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

static bool KeysUnique(const std::vector<Row>& rows, const std::vector<idx_t>& key_columns) {
  std::unordered_map<std::string, int> seen;
  for (auto& row : rows) {
    if (seen[EncodeRow(row, key_columns)]++ > 0) return false;
  }
  return true;
}

void DiffRows(const ViewRows& old_rows, const std::vector<Row>& new_rows, const std::vector<idx_t>& key_columns,
              const std::vector<LogicalType>& types, TableCommit& commit) {
  std::vector<idx_t> keys = key_columns;
  if (!keys.empty() && (!KeysUnique(old_rows.rows, keys) || !KeysUnique(new_rows, keys))) keys.clear();
  // key -> indexes of old rows not matched yet
  std::unordered_map<std::string, std::vector<idx_t>> old_by_key;
  for (idx_t i = 0; i < old_rows.rows.size(); i++) old_by_key[EncodeRow(old_rows.rows[i], keys)].push_back(i);
  std::vector<Row> updated, inserted;
  for (auto& row : new_rows) {
    auto it = old_by_key.find(EncodeRow(row, keys));
    if (it == old_by_key.end() || it->second.empty()) {
      inserted.push_back(row);
      continue;
    }
    idx_t old = it->second.back();
    it->second.pop_back();
    if (!keys.empty() && EncodeRow(old_rows.rows[old]) != EncodeRow(row)) {
      commit.updated_row_ids.push_back(old_rows.ids[old]);
      updated.push_back(row);
    }
  }
  for (auto& [key, left] : old_by_key) {
    for (idx_t i : left) commit.deleted_rows.push_back(old_rows.ids[i]);
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
