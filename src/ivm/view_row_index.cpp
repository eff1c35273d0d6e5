#include "ivm/view_row_index.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

#include "common/vector_operations.hpp"
#include "ivm/compiled_view.hpp"

namespace lakestream {

// Lane a combines the columns' hashes first to last, lane b last to first
// from another seed: rows that agree in one lane by accident do not in the
// other.
static void HashRows(const DataChunk& chunk, std::vector<uint64_t>& a, std::vector<uint64_t>& b) {
  idx_t n = chunk.size();
  a.assign(n, 0x243f6a8885a308d3ULL);
  b.assign(n, 0x13198a2e03707344ULL);
  idx_t columns = chunk.ColumnCount();
  for (idx_t c = 0; c < columns; c++) HashVector(chunk.data[c], n, a.data(), true);
  for (idx_t c = columns; c-- > 0;) HashVector(chunk.data[c], n, b.data(), true);
  for (idx_t r = 0; r < n; r++) b[r] = MixHash(b[r] ^ 0x9e3779b97f4a7c15ULL);
}

// The first column whose values order the index (see the header), -1 for none.
static int OrderColumn(const std::vector<LogicalType>& types) {
  for (idx_t c = 0; c < types.size(); c++) {
    switch (types[c].id()) {
      case TypeId::INTEGER:
      case TypeId::DATE:
      case TypeId::BIGINT:
      case TypeId::TIMESTAMP:
      case TypeId::TIMESTAMP_NTZ: return static_cast<int>(c);
      default: break;
    }
  }
  return -1;
}

// A signed value as an unsigned key of the same order.
template <class T>
static void OrderKeys(const Vector& v, idx_t n, std::vector<uint64_t>& key) {
  const T* data = v.GetData<T>();
  const uint8_t* valid = v.Validity();
  for (idx_t r = 0; r < n; r++) {
    key[r] = valid[r] ? static_cast<uint64_t>(static_cast<int64_t>(data[r])) ^ (uint64_t(1) << 63) : 0;
  }
}

void ViewRowIndex::KeyRows(const DataChunk& chunk, Keys& out) const {
  HashRows(chunk, out.a, out.b);
  idx_t n = chunk.size();
  if (key_column_ < 0) {
    out.key = out.a;
    return;
  }
  out.key.resize(n);
  const Vector& v = chunk.data[static_cast<idx_t>(key_column_)];
  if (v.GetType().PhysicalSize() == sizeof(int32_t)) {
    OrderKeys<int32_t>(v, n, out.key);
  } else {
    OrderKeys<int64_t>(v, n, out.key);
  }
}

// The index's arrays are read at random (a lookup reads a directory slot,
// then an entry): with 4 KB pages nearly every lookup of a large view misses
// the TLB twice, which on the 2-core VM bench/views runs on was a third of a
// 10M-row join view's refresh. Transparent huge pages (2 MB, where the system
// grants them) keep the arrays within the TLB's reach. `v` must be empty.
template <class T>
static void ReserveHuge(std::vector<T>& v, size_t n) {
  v.reserve(n);
  constexpr size_t kHuge = size_t(2) << 20;
  char* data = reinterpret_cast<char*>(v.data());
  size_t skip = (kHuge - reinterpret_cast<uintptr_t>(data) % kHuge) % kHuge;  // to the first 2 MB boundary
  size_t bytes = n * sizeof(T);
  size_t length = bytes > skip ? (bytes - skip) / kHuge * kHuge : 0;
  if (length > 0) (void)madvise(data + skip, length, MADV_HUGEPAGE);  // a hint: failure is fine
}

// Entries and lookups are ordered by (key, a, b).
struct EntryKey {
  uint64_t key, a, b;
  bool operator<(const EntryKey& o) const {
    return key != o.key ? key < o.key : a != o.a ? a < o.a : b < o.b;
  }
  bool operator==(const EntryKey& o) const { return key == o.key && a == o.a && b == o.b; }
};

void ViewRowIndex::Clear() {
  base_.clear();
  base_.shrink_to_fit();
  directory_.clear();
  recent_.clear();
  files_.clear();
  by_path_.clear();
  pending_.clear();
  live_ = 0;
  dead_entries_ = 0;
}

static EntryKey KeyOf(const auto& e) { return {e.key, e.a, e.b}; }

void ViewRowIndex::Add(std::vector<Entry> batch) {
  auto order = [](const Entry& x, const Entry& y) { return KeyOf(x) < KeyOf(y); };
  std::sort(batch.begin(), batch.end(), order);
  live_ += batch.size();
  if (base_.empty() && recent_.empty()) {
    base_ = std::move(batch);
    BuildDirectory();
    return;
  }
  std::vector<Entry> merged;
  merged.reserve(recent_.size() + batch.size());
  std::merge(recent_.begin(), recent_.end(), batch.begin(), batch.end(), std::back_inserter(merged), order);
  recent_ = std::move(merged);
  // recent_ is merged into base_ (a pass over every row) once it holds an
  // eighth as many rows, so a refresh pays that pass rarely, and lookups
  // search two sorted arrays.
  if (recent_.size() < std::max<size_t>(1 << 16, base_.size() / 8)) return;
  auto dead = [](const Entry& e) { return e.file == kDead; };
  std::erase_if(base_, dead);
  std::erase_if(recent_, dead);
  std::vector<Entry> all;
  ReserveHuge(all, base_.size() + recent_.size());
  std::merge(base_.begin(), base_.end(), recent_.begin(), recent_.end(), std::back_inserter(all), order);
  base_ = std::move(all);
  recent_.clear();
  dead_entries_ = 0;
  BuildDirectory();
}

void ViewRowIndex::BuildDirectory() {
  // About four entries per slot: a lookup reads one slot and a cache line or two of base_.
  int bits = 0;
  while (bits < 40 && (size_t(1) << bits) < base_.size() / 4) bits++;
  size_t slots = size_t(1) << bits;
  key_low_ = base_.empty() ? 0 : base_.front().key;
  uint64_t range = base_.empty() ? 0 : base_.back().key - key_low_;
  slot_shift_ = 0;
  while (slot_shift_ < 64 && (range >> slot_shift_) >= slots) slot_shift_++;
  directory_ = std::vector<size_t>();
  ReserveHuge(directory_, slots + 1);
  directory_.assign(slots + 1, 0);
  size_t i = 0;
  for (size_t slot = 0; slot < slots; slot++) {
    while (i < base_.size() && Slot(base_[i].key) < slot) i++;
    directory_[slot] = i;
  }
  directory_[slots] = base_.size();
}

void ViewRowIndex::IndexFiles(const std::shared_ptr<const DeltaSnapshotState>& state,
                              const std::vector<uint64_t>& indexes) {
  if (indexes.empty()) return;
  std::unordered_map<uint64_t, uint32_t> ids;  // snapshot index -> files_ index
  int64_t expected = 0;  // rows, from the files' stats
  for (uint64_t index : indexes) {
    const delta::AddFile& add = *state->files[index];
    expected += std::max<int64_t>(0, add.NumRecords().value_or(0) - add.DeletedRowCount());
    auto id = static_cast<uint32_t>(files_.size());
    files_.push_back({add.path, add.DeletedRowCount(), 0, true});
    by_path_[add.path] = id;
    ids[index] = id;
  }
  std::vector<idx_t> columns;
  for (idx_t c = 0; c < types_.size(); c++) columns.push_back(c);
  auto scan = MakeDeltaScan(state, columns, indexes);
  std::vector<Entry> batch;
  ReserveHuge(batch, static_cast<size_t>(expected));
  Keys keys;
  DataChunk chunk;
  chunk.Initialize(types_);
  Vector row_ids(TypeId::BIGINT);
  while (scan->Next(chunk, &row_ids)) {
    KeyRows(chunk, keys);
    const int64_t* rid = row_ids.GetData<int64_t>();
    uint64_t file_index = ~uint64_t(0);
    uint32_t id = 0;
    for (idx_t r = 0; r < chunk.size(); r++) {
      auto row_id = static_cast<uint64_t>(rid[r]);
      if (row_id >> 32 != file_index) {
        file_index = row_id >> 32;
        id = ids.at(file_index);
      }
      batch.push_back({keys.key[r], keys.a[r], keys.b[r], id, static_cast<uint32_t>(row_id & 0xffffffffULL)});
      files_[id].live++;
    }
  }
  Add(std::move(batch));
}

void ViewRowIndex::Sync(DeltaTable& view) {
  std::shared_ptr<const DeltaSnapshotState> state = view.State();
  std::vector<LogicalType> types;
  for (auto& column : state->columns) types.push_back(column.type);
  std::vector<uint64_t> fresh;
  bool rebuild = types != types_;
  std::vector<bool> seen(files_.size(), false);
  for (uint64_t i = 0; i < state->files.size() && !rebuild; i++) {
    const delta::AddFile& add = *state->files[i];
    auto it = by_path_.find(add.path);
    if (it == by_path_.end()) {
      fresh.push_back(i);
    } else if (files_[it->second].dead != add.DeletedRowCount() || seen[it->second]) {
      rebuild = true;  // rows left the file without this index knowing
    } else {
      seen[it->second] = true;
    }
  }
  // A file gone from the snapshot is expected only once it has no live row
  // (a commit removes a file whose every row it deletes).
  for (uint32_t id = 0; id < files_.size() && !rebuild; id++) {
    FileInfo& file = files_[id];
    if (!file.present || seen[id]) continue;
    if (file.live > 0) {
      rebuild = true;
      break;
    }
    file.present = false;
    by_path_.erase(file.path);
  }
  if (rebuild) {
    Clear();
    types_ = std::move(types);
    key_column_ = OrderColumn(types_);
    GetIvmCounters().row_index_builds++;
    fresh.clear();
    for (uint64_t i = 0; i < state->files.size(); i++) fresh.push_back(i);
  }
  pending_.clear();
  IndexFiles(state, fresh);
  snapshot_index_.assign(files_.size(), ~uint64_t(0));
  for (uint64_t i = 0; i < state->files.size(); i++) snapshot_index_[by_path_.at(state->files[i]->path)] = i;
}

bool ViewRowIndex::Locate(const ChunkCollection& rows, std::vector<row_t>& ids) {
  pending_.clear();
  ids.clear();
  std::vector<EntryKey> keys;
  keys.reserve(rows.Count());
  Keys chunk_keys;
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    KeyRows(rows.Chunk(k), chunk_keys);
    for (size_t r = 0; r < chunk_keys.a.size(); r++) keys.push_back({chunk_keys.key[r], chunk_keys.a[r], chunk_keys.b[r]});
  }
  const size_t n = keys.size();
  // Lookups in entry order: copies of one row are neighbours (each takes the
  // entry after the one before it took), and the lookups walk the arrays in
  // one direction, so neighbouring keys share pages and cache lines.
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; i++) order[i] = static_cast<uint32_t>(i);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return keys[x] < keys[y] || (keys[x] == keys[y] && x < y);
  });
  // Each lookup is two dependent reads, at random places in hundreds of MB
  // when keys are far apart (a directory slot, then entries): issued kAhead
  // lookups early, the cache misses of several lookups overlap instead of
  // following each other.
  constexpr size_t kAhead = 8;
  auto prefetch_slot = [&](size_t i) {
    if (i < n && !base_.empty()) __builtin_prefetch(&directory_[Slot(keys[order[i]].key)]);
  };
  auto prefetch_entries = [&](size_t i) {
    if (i >= n || base_.empty()) return;
    const Entry* e = base_.data() + directory_[Slot(keys[order[i]].key)];
    __builtin_prefetch(e);
    __builtin_prefetch(reinterpret_cast<const char*>(e) + 64);
  };
  for (size_t i = 0; i < kAhead && i < n; i++) prefetch_slot(i);
  for (size_t i = 0; i < kAhead / 2 && i < n; i++) prefetch_entries(i);
  auto lower = [](const Entry& e, const EntryKey& key) { return KeyOf(e) < key; };
  // The first live entry with `key` at or after `from` in `entries`, up to `to`.
  auto first_live = [&](const std::vector<Entry>& entries, size_t from, size_t to, const EntryKey& key) {
    for (; from < to && KeyOf(entries[from]) == key; from++) {
      if (entries[from].file != kDead) return from;
    }
    return to;
  };
  std::vector<row_t> out(n);
  pending_.reserve(n);
  uint64_t last = ~uint64_t(0);  // the handle the previous lookup took
  for (size_t i = 0; i < n; i++) {
    prefetch_slot(i + kAhead);
    prefetch_entries(i + kAhead / 2);
    const uint32_t r = order[i];
    const EntryKey& key = keys[r];
    bool again = i > 0 && keys[order[i - 1]] == key;
    // A row the view holds twice is found twice: a copy of the previous key
    // resumes after the entry the previous copy took (base_ first, then recent_).
    uint64_t found = ~uint64_t(0);
    bool in_recent = again && (last & kRecent);
    if (!in_recent && !base_.empty()) {
      size_t slot = Slot(key.key);
      size_t to = directory_[slot + 1];
      size_t from = again ? last + 1
                          : static_cast<size_t>(std::lower_bound(base_.begin() + static_cast<std::ptrdiff_t>(directory_[slot]),
                                                                 base_.begin() + static_cast<std::ptrdiff_t>(to), key, lower) -
                                                base_.begin());
      size_t at = first_live(base_, from, to, key);
      if (at < to) found = at;
    }
    if (found == ~uint64_t(0)) {
      size_t from = in_recent ? (last & ~kRecent) + 1
                              : static_cast<size_t>(std::lower_bound(recent_.begin(), recent_.end(), key, lower) - recent_.begin());
      size_t at = first_live(recent_, from, recent_.size(), key);
      if (at == recent_.size()) {
        pending_.clear();
        return false;
      }
      found = kRecent | at;
    }
    last = found;
    pending_.push_back(found);
    const Entry& e = At(found);
    out[r] = static_cast<row_t>((snapshot_index_[e.file] << 32) | e.row);
  }
  ids = std::move(out);
  return true;
}

void ViewRowIndex::Forget() {
  for (uint64_t handle : pending_) {
    Entry& e = At(handle);
    if (e.file == kDead) continue;
    files_[e.file].dead++;
    files_[e.file].live--;
    e.file = kDead;
    live_--;
    dead_entries_++;
  }
  pending_.clear();
}

}  // namespace lakestream
