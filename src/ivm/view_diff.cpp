#include "ivm/view_diff.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

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
    case TypeId::TIMESTAMP_NTZ:
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

void AppendVectorValue(const Vector& v, idx_t row, std::string& out) {
  auto raw = [&out](const auto& x) { out.append(reinterpret_cast<const char*>(&x), sizeof(x)); };
  if (!v.IsValid(row)) {
    out.push_back('N');
    return;
  }
  // The same bytes as AppendValue(v.GetValue(row)), read from the vector.
  switch (v.GetType().id()) {
    case TypeId::BOOLEAN:
      out.push_back('B');
      out.push_back(v.GetData<bool>()[row] ? 1 : 0);
      return;
    case TypeId::INTEGER:
      out.push_back('I');
      raw(static_cast<int64_t>(v.GetData<int32_t>()[row]));
      return;
    case TypeId::BIGINT:
      out.push_back('I');
      raw(v.GetData<int64_t>()[row]);
      return;
    case TypeId::DECIMAL:
      out.push_back('D');
      out.push_back(static_cast<char>(v.GetType().scale()));
      raw(v.GetData<hugeint_t>()[row]);
      return;
    case TypeId::VARCHAR: {
      string_t text = v.GetData<string_t>()[row];
      out.push_back('S');
      raw(static_cast<uint64_t>(text.size()));
      out.append(text.data(), text.size());
      return;
    }
    case TypeId::DATE:
      out.push_back('d');
      raw(v.GetData<date_t>()[row]);
      return;
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
      out.push_back('t');
      raw(v.GetData<timestamp_t>()[row]);
      return;
    default: AppendValue(v.GetValue(row), out);  // DOUBLE's normal forms, nested and rarer types
  }
}

std::string EncodeRow(const Row& row, const std::vector<idx_t>& columns) {
  // Built in binary rather than as SQL text: refreshes encode every changed
  // group's key several times, and formatting values was most of their cost.
  std::string key;  // a one-integer key (9 bytes) stays in the string's inline buffer
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

void ForEachRow(const ChunkCollection& rows, const std::function<void(const Row&)>& fn) {
  Row row;
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    row.resize(chunk.ColumnCount());
    for (idx_t r = 0; r < chunk.size(); r++) {
      for (idx_t c = 0; c < chunk.ColumnCount(); c++) row[c] = chunk.GetValue(c, r);
      fn(row);
    }
  }
}

// The rows `row(0)` .. `row(count - 1)` as a collection of `types`.
template <class RowAt>
static ChunkCollection CollectionOf(const std::vector<LogicalType>& types, idx_t count, RowAt row) {
  ChunkCollection out(types);
  for (idx_t start = 0; start < count; start += STANDARD_VECTOR_SIZE) {
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, count - start);
    DataChunk chunk;
    chunk.Initialize(types, n);
    for (idx_t r = 0; r < n; r++) {
      const Row& values = row(start + r);
      for (idx_t c = 0; c < types.size(); c++) chunk.SetValue(c, r, values[c]);  // casts to the column's type
    }
    chunk.SetCardinality(n);
    out.Append(chunk);
  }
  return out;
}

ChunkCollection MakeCollection(const std::vector<LogicalType>& types, const std::vector<Row>& rows) {
  return CollectionOf(types, rows.size(), [&](idx_t i) -> const Row& { return rows[i]; });
}

ChunkCollection MakeCollection(const std::vector<LogicalType>& types, const std::vector<const Row*>& rows) {
  return CollectionOf(types, rows.size(), [&](idx_t i) -> const Row& { return *rows[i]; });
}

// A file's rows are kept for the commit only up to this many: a larger file
// that turns out to hold no wanted row would otherwise sit in memory whole.
static constexpr idx_t kMaxKeptFileRows = 1 << 20;

// Keeps, of the chunks a Delta table's scan gives in order, those that make
// up a whole file (every row, in file order, at most 1M rows) and that hold
// a row the caller wants, in `out.files`, for DeltaTable::Commit to rewrite
// the file without reading it again.
namespace {
class WholeFileRows {
 public:
  WholeFileRows(const std::vector<LogicalType>& types, DeltaFileRows& out);
  // Takes a chunk of the scan (row ids `ids`: file << 32 | row); `wanted`:
  // one of its rows is, so its file is kept when it is whole.
  void Add(DataChunk&& chunk, const int64_t* ids, bool wanted);
  // After the scan's last chunk.
  void Finish();

 private:
  static constexpr uint64_t kNoFile = ~uint64_t(0);
  std::vector<LogicalType> types_;
  DeltaFileRows& out_;
  ChunkCollection rows_;  // the current file's rows so far
  uint64_t file_ = kNoFile;
  uint64_t position_ = 0;  // the next row of file_ expected
  bool whole_ = false, wanted_ = false;
};
}  // namespace

WholeFileRows::WholeFileRows(const std::vector<LogicalType>& types, DeltaFileRows& out)
    : types_(types), out_(out), rows_(types) {}

void WholeFileRows::Add(DataChunk&& chunk, const int64_t* ids, bool wanted) {
  if (chunk.size() == 0) return;
  // A Delta scan's chunk holds rows of one file (row id: file << 32 | row).
  auto first = static_cast<uint64_t>(ids[0]), last = static_cast<uint64_t>(ids[chunk.size() - 1]);
  if (first >> 32 != file_) {
    Finish();
    file_ = first >> 32;
    position_ = 0;
    whole_ = true;
    wanted_ = false;
  }
  whole_ = whole_ && last >> 32 == file_ && (first & 0xffffffffULL) == position_ &&
           (last & 0xffffffffULL) == position_ + chunk.size() - 1 && rows_.Count() + chunk.size() <= kMaxKeptFileRows;
  position_ += chunk.size();
  wanted_ = wanted_ || wanted;
  if (whole_) {
    rows_.Append(std::move(chunk));
  } else {
    rows_.Clear();
  }
}

void WholeFileRows::Finish() {
  if (file_ != kNoFile && whole_ && wanted_) out_.files.emplace(file_, std::move(rows_));
  rows_ = ChunkCollection(types_);
  file_ = kNoFile;
}

void ScanView(DataTable& view, const std::vector<LogicalType>& types, DeltaFileRows* files,
              const std::function<bool(const DataChunk&, const int64_t*)>& fn) {
  std::vector<idx_t> ids;
  for (idx_t c = 0; c < types.size(); c++) ids.push_back(c);
  auto* delta = dynamic_cast<DeltaTable*>(&view);
  if (!delta) files = nullptr;
  DeltaFileRows unused;
  if (files) files->version = delta->Version();
  WholeFileRows whole(types, files ? *files : unused);
  auto scan = view.Scan(ids);
  while (true) {
    DataChunk chunk;
    chunk.Initialize(types);
    Vector row_ids{LogicalType(TypeId::BIGINT)};
    if (!scan->Next(chunk, &row_ids)) break;
    const int64_t* rid = row_ids.GetData<int64_t>();
    bool wanted = fn(chunk, rid);
    if (files) whole.Add(std::move(chunk), rid, wanted);
  }
  whole.Finish();
}

ViewRows ScanViewRows(DataTable& view, const std::vector<LogicalType>& types, const std::vector<idx_t>& key_columns,
                      const std::function<bool(const std::string&)>& keep) {
  std::vector<idx_t> all;
  for (idx_t c = 0; c < types.size(); c++) all.push_back(c);
  ViewRows out;
  ScanView(view, types, &out.files, [&](const DataChunk& chunk, const int64_t* rid) {
    Row key;
    idx_t rows_before = out.rows.size();
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (keep) {
        // The key first: rows the caller does not want are never built.
        key.clear();
        for (idx_t c : key_columns.empty() ? all : key_columns) key.push_back(chunk.GetValue(c, r));
        if (!keep(EncodeRow(key))) continue;
      }
      Row row;
      row.reserve(types.size());
      for (idx_t c = 0; c < types.size(); c++) row.push_back(chunk.GetValue(c, r));
      out.rows.push_back(std::move(row));
      out.ids.push_back(rid[r]);
    }
    return out.rows.size() > rows_before;
  });
  return out;
}

namespace {
// How DiffRows pairs old and new rows.
struct Pairing {
  std::vector<row_t> updated_ids, deleted_ids;
  std::vector<const Row*> updated, inserted;
};
}  // namespace

// Pairs old and new rows by the encoding of `columns` (all when empty). With
// `keyed`, a pair whose other columns differ is an update, and a key that
// repeats on either side makes it return false; otherwise equal rows (which
// may repeat) pair up and nothing is an update.
static bool PairRows(const ViewRows& old_rows, const std::vector<Row>& new_rows, const std::vector<idx_t>& columns,
                     bool keyed, Pairing& out) {
  std::vector<std::string> old_keys, new_keys;  // each row encoded once
  old_keys.reserve(old_rows.rows.size());
  for (auto& row : old_rows.rows) old_keys.push_back(EncodeRow(row, columns));
  new_keys.reserve(new_rows.size());
  for (auto& row : new_rows) new_keys.push_back(EncodeRow(row, columns));
  // key -> the old rows not matched yet: the last one, chained through
  // `earlier`; kNone once none is left (and, keyed, for a new row's key).
  constexpr idx_t kNone = ~idx_t(0);
  std::unordered_map<std::string_view, idx_t> unmatched;
  unmatched.reserve(old_keys.size() + new_keys.size());
  std::vector<idx_t> earlier(old_keys.size(), kNone);
  for (idx_t i = 0; i < old_keys.size(); i++) {
    auto [it, fresh] = unmatched.try_emplace(old_keys[i], i);
    if (!fresh) {
      if (keyed) return false;
      earlier[i] = it->second;
      it->second = i;
    }
  }
  std::vector<bool> matched(old_keys.size(), false);
  for (idx_t n = 0; n < new_rows.size(); n++) {
    auto [it, fresh] = keyed ? unmatched.try_emplace(new_keys[n], kNone) : std::make_pair(unmatched.find(new_keys[n]), false);
    if (fresh || it == unmatched.end()) {
      out.inserted.push_back(&new_rows[n]);
      continue;
    }
    if (it->second == kNone) {
      if (keyed) return false;  // the key came before in new_rows
      out.inserted.push_back(&new_rows[n]);
      continue;
    }
    idx_t old = it->second;
    it->second = earlier[old];
    matched[old] = true;
    if (keyed && old_rows.rows[old] != new_rows[n]) {
      out.updated_ids.push_back(old_rows.ids[old]);
      out.updated.push_back(&new_rows[n]);
    }
  }
  for (idx_t i = 0; i < old_keys.size(); i++) {
    if (!matched[i]) out.deleted_ids.push_back(old_rows.ids[i]);
  }
  return true;
}

void DiffRows(const ViewRows& old_rows, const std::vector<Row>& new_rows, const std::vector<idx_t>& key_columns,
              const std::vector<LogicalType>& types, TableCommit& commit) {
  Pairing pairing;
  if (key_columns.empty() || !PairRows(old_rows, new_rows, key_columns, true, pairing)) {
    pairing = Pairing();
    PairRows(old_rows, new_rows, {}, false, pairing);
  }
  // Updates by the row id they replace: the order DeltaTable::Commit writes
  // their new versions in, which the aggregate maintainer's stored rows rely on.
  std::vector<idx_t> order(pairing.updated_ids.size());
  for (idx_t i = 0; i < order.size(); i++) order[i] = i;
  std::sort(order.begin(), order.end(), [&](idx_t a, idx_t b) { return pairing.updated_ids[a] < pairing.updated_ids[b]; });
  std::vector<const Row*> updated;
  updated.reserve(order.size());
  for (idx_t i : order) {
    commit.updated_row_ids.push_back(pairing.updated_ids[i]);
    updated.push_back(pairing.updated[i]);
  }
  pairing.updated = std::move(updated);
  commit.deleted_rows.insert(commit.deleted_rows.end(), pairing.deleted_ids.begin(), pairing.deleted_ids.end());
  commit.updated = MakeCollection(types, pairing.updated);
  commit.inserted = MakeCollection(types, pairing.inserted);
}

bool ApplyBagChange(DataTable& view, const std::vector<LogicalType>& types, const std::vector<Row>& minus,
                    const std::vector<Row>& plus, const std::vector<idx_t>& key_columns, TableCommit& commit,
                    DeltaFileRows& read, const RowLocator& locate, ChunkCollection* removed) {
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
  std::vector<const Row*> wanted;  // with `locate`: each row to remove, once per copy
  for (auto& [key, n] : net) {
    if (n.count < 0) to_remove[key] = -n.count;
    for (int64_t i = 0; i < -n.count && locate; i++) wanted.push_back(n.row);
    for (int64_t i = 0; i < n.count; i++) additions.push_back(*n.row);
  }
  ViewRows removals;
  if (locate && !wanted.empty()) {
    ChunkCollection values = MakeCollection(types, wanted);
    if (!locate(values, removals.ids)) return false;
    for (const Row* row : wanted) removals.rows.push_back(*row);
  } else if (!to_remove.empty()) {
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
    read = std::move(removals.files);
  }
  if (!key_columns.empty()) {
    // Pair a removal and an addition of one key into an update; DiffRows does
    // exactly that when given the two sides.
    DiffRows(removals, additions, key_columns, types, commit);
  } else {
    commit.deleted_rows = removals.ids;
    commit.inserted = MakeCollection(types, additions);
    commit.updated = ChunkCollection(types);
  }
  if (removed && locate && !wanted.empty()) {
    // The removed rows' values, in the commit's order: deleted, then updated.
    std::unordered_map<row_t, const Row*> value_of;
    for (idx_t i = 0; i < removals.ids.size(); i++) value_of[removals.ids[i]] = &removals.rows[i];
    std::vector<const Row*> values;
    for (row_t id : commit.deleted_rows) values.push_back(value_of.at(id));
    for (row_t id : commit.updated_row_ids) values.push_back(value_of.at(id));
    *removed = MakeCollection(types, values);
  }
  return true;
}

}  // namespace lakestream

namespace lakestream {

void AppendSelected(ChunkCollection& out, const DataChunk& chunk, const std::vector<sel_t>& sel) {
  if (sel.empty()) return;
  if (sel.size() == chunk.size()) {
    out.Append(chunk);
    return;
  }
  DataChunk part;
  part.Initialize(out.Types(), sel.size());
  part.Append(chunk, sel.data(), sel.size());
  out.Append(std::move(part));
}

// The rows of `in` that `keep` names (per chunk, the rows in order), as one collection.
static ChunkCollection Gather(const ChunkCollection& in, const std::vector<std::vector<sel_t>>& keep) {
  ChunkCollection out(in.Types());
  for (idx_t k = 0; k < in.ChunkCount(); k++) AppendSelected(out, in.Chunk(k), keep[k]);
  return out;
}

// The encoding of row `r` of `chunk` (every column) into `out`.
static void EncodeChunkRow(const DataChunk& chunk, idx_t r, std::string& out) {
  out.clear();
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) AppendVectorValue(chunk.data[c], r, out);
}

bool ApplyBagChange(DataTable& view, const std::vector<LogicalType>& types, const ChunkCollection& minus,
                    const ChunkCollection& plus, const std::vector<idx_t>& key_columns, TableCommit& commit,
                    DeltaFileRows& read, const RowLocator& locate, ChunkCollection* removed) {
  bool typed = (minus.Count() == 0 || minus.Types() == types) && (plus.Count() == 0 || plus.Types() == types);
  if (!locate || !key_columns.empty() || !typed) {
    // Keyed views pair removals and additions into updates (DiffRows), by row.
    return ApplyBagChange(view, types, CollectRows(minus), CollectRows(plus), key_columns, commit, read, locate, removed);
  }
  // A row both removed and added is no change (the view's feed holds only
  // real changes): pairs of equal rows cancel, found by their encodings'
  // hashes and checked byte for byte.
  std::string scratch, other;
  std::unordered_multimap<uint64_t, std::pair<idx_t, sel_t>> minus_at;  // hash -> (chunk, row), not cancelled
  minus_at.reserve(minus.Count());
  std::hash<std::string_view> hash;
  for (idx_t k = 0; k < minus.ChunkCount(); k++) {
    const DataChunk& chunk = minus.Chunk(k);
    for (idx_t r = 0; r < chunk.size(); r++) {
      EncodeChunkRow(chunk, r, scratch);
      minus_at.emplace(hash(scratch), std::make_pair(k, static_cast<sel_t>(r)));
    }
  }
  std::vector<std::vector<sel_t>> kept_plus(plus.ChunkCount());
  std::vector<std::vector<bool>> cancelled(minus.ChunkCount());
  for (idx_t k = 0; k < minus.ChunkCount(); k++) cancelled[k].assign(minus.Chunk(k).size(), false);
  for (idx_t k = 0; k < plus.ChunkCount(); k++) {
    const DataChunk& chunk = plus.Chunk(k);
    for (idx_t r = 0; r < chunk.size(); r++) {
      bool cancels = false;
      if (!minus_at.empty()) {
        EncodeChunkRow(chunk, r, scratch);
        auto [from, to] = minus_at.equal_range(hash(scratch));
        for (auto it = from; it != to; ++it) {
          EncodeChunkRow(minus.Chunk(it->second.first), it->second.second, other);
          if (other != scratch) continue;
          cancelled[it->second.first][it->second.second] = true;
          minus_at.erase(it);
          cancels = true;
          break;
        }
      }
      if (!cancels) kept_plus[k].push_back(static_cast<sel_t>(r));
    }
  }
  std::vector<std::vector<sel_t>> kept_minus(minus.ChunkCount());
  for (idx_t k = 0; k < minus.ChunkCount(); k++) {
    for (idx_t r = 0; r < cancelled[k].size(); r++) {
      if (!cancelled[k][r]) kept_minus[k].push_back(static_cast<sel_t>(r));
    }
  }
  ChunkCollection wanted = Gather(minus, kept_minus);
  wanted.SetTypes(types);
  commit.deleted_rows.clear();
  if (wanted.Count() > 0 && !locate(wanted, commit.deleted_rows)) return false;
  commit.inserted = Gather(plus, kept_plus);
  commit.inserted.SetTypes(types);
  commit.updated = ChunkCollection(types);
  // The removed rows' values, in the commit's order (deletes only here).
  if (removed && wanted.Count() > 0) *removed = std::move(wanted);
  return true;
}

}  // namespace lakestream
