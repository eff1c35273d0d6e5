#include "stream/net_changes.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "storage/change_set.hpp"

namespace lakestream {

namespace {

struct RowRef {
  uint32_t chunk = 0;
  uint32_t row = 0;
};

// The life of one row across the window.
struct Chain {
  bool existed_before = false;  // `origin` holds its value before the window
  bool exists_after = false;    // `current` holds its value after the window
  RowRef origin;
  RowRef current;
  RowRef last;  // the change that carries the version and timestamp to report
};

// Change type names point at literals, which outlive every vector.
void SetChangeType(Vector& v, idx_t row, string_t type) {
  v.GetData<string_t>()[row] = type;
  v.SetValid(row, true);
}

ChangeKind ParseKind(string_t type) {
  if (auto kind = ParseChangeType(type)) return *kind;
  throw CorruptionError("the change data feed has a row with unknown _change_type '" + std::string(type) + "'");
}

class NetChangeBuilder {
 public:
  NetChangeBuilder(const ChunkCollection& feed, idx_t column_count, const std::vector<idx_t>& key_columns)
      : feed_(feed), column_count_(column_count), keyed_(!key_columns.empty()), key_columns_(key_columns) {
    if (!keyed_) {
      for (idx_t c = 0; c < column_count; c++) key_columns_.push_back(c);
    }
  }

  void Run(ChunkCollection& out) {
    // One version at a time: its deletes, then its updates, then its inserts.
    std::vector<RowRef> deletes, preimages, postimages, inserts;
    int64_t version = -1;
    auto flush = [&]() {
      ApplyVersion(deletes, preimages, postimages, inserts);
      deletes.clear(), preimages.clear(), postimages.clear(), inserts.clear();
    };
    for (idx_t k = 0; k < feed_.ChunkCount(); k++) {
      const DataChunk& chunk = feed_.Chunk(k);
      const string_t* types = chunk.data[column_count_].GetData<string_t>();
      const int64_t* versions = chunk.data[column_count_ + 1].GetData<int64_t>();
      for (idx_t r = 0; r < chunk.size(); r++) {
        if (versions[r] != version) {
          flush();
          version = versions[r];
        }
        RowRef ref{static_cast<uint32_t>(k), static_cast<uint32_t>(r)};
        switch (ParseKind(types[r])) {
          case ChangeKind::INSERT:
          case ChangeKind::SNAPSHOT: inserts.push_back(ref); break;
          case ChangeKind::DELETE: deletes.push_back(ref); break;
          case ChangeKind::UPDATE_PREIMAGE: preimages.push_back(ref); break;
          case ChangeKind::UPDATE_POSTIMAGE: postimages.push_back(ref); break;
        }
      }
    }
    flush();
    Emit(out);
  }

 private:
  // The row's identity, encoded into a buffer reused across calls (lookups
  // then allocate nothing; only keys that enter a map are copied).
  const std::string& Identity(RowRef ref) { return EncodeInto(ref, key_columns_, identity_); }
  const std::string& EncodeInto(RowRef ref, const std::vector<idx_t>& columns, std::string& key) const {
    key.clear();
    const DataChunk& chunk = feed_.Chunk(ref.chunk);
    for (idx_t c : columns) EncodeKey(chunk.data[c], ref.row, key);
    return key;
  }

  // The chain whose row currently has this identity, taken off the index.
  int64_t TakeLive(const std::string& identity) {
    auto it = live_.find(identity);
    if (it == live_.end() || it->second.empty()) return -1;
    int64_t chain = it->second.back();
    it->second.pop_back();
    if (it->second.empty()) live_.erase(it);  // the index holds only rows that exist now
    return chain;
  }
  void PutLive(const std::string& identity, int64_t chain) { live_.try_emplace(identity).first->second.push_back(chain); }

  int64_t NewChain() {
    chains_.emplace_back();
    return static_cast<int64_t>(chains_.size() - 1);
  }

  void Remove(RowRef before) {
    const std::string& identity = Identity(before);
    int64_t chain = TakeLive(identity);
    if (chain < 0) {
      chain = NewChain();
      chains_[chain].existed_before = true;
      chains_[chain].origin = before;
    }
    chains_[chain].exists_after = false;
    chains_[chain].last = before;
    if (keyed_) gone_.try_emplace(identity).first->second.push_back(chain);
  }

  void Replace(RowRef before, RowRef after) {
    int64_t chain = TakeLive(Identity(before));
    if (chain < 0) {
      chain = NewChain();
      chains_[chain].existed_before = true;
      chains_[chain].origin = before;
    }
    Place(chain, after);
  }

  void Add(RowRef after) {
    const std::string& identity = Identity(after);
    int64_t chain = -1;
    if (keyed_) {
      // With a key, a key removed earlier in the window and added again is the same row.
      auto it = gone_.find(identity);
      if (it != gone_.end() && !it->second.empty()) {
        chain = it->second.back();
        it->second.pop_back();
      }
    }
    if (chain < 0) chain = NewChain();
    Place(chain, after);
  }

  void Place(int64_t chain, RowRef after) {
    chains_[chain].exists_after = true;
    chains_[chain].current = after;
    chains_[chain].last = after;
    PutLive(Identity(after), chain);
  }

  void ApplyVersion(std::vector<RowRef>& deletes, std::vector<RowRef>& preimages, std::vector<RowRef>& postimages,
                    std::vector<RowRef>& inserts) {
    std::vector<std::pair<RowRef, RowRef>> updates;
    if (keyed_) {
      // Pair by key; an update that changed the key is a delete plus an insert.
      std::unordered_map<std::string, std::vector<RowRef>> before_by_key;
      for (auto& p : preimages) before_by_key[Identity(p)].push_back(p);
      for (auto& q : postimages) {
        auto it = before_by_key.find(Identity(q));
        if (it != before_by_key.end() && !it->second.empty()) {
          updates.emplace_back(it->second.back(), q);
          it->second.pop_back();
        } else {
          inserts.push_back(q);
        }
      }
      for (auto& [key, rest] : before_by_key) deletes.insert(deletes.end(), rest.begin(), rest.end());
    } else {
      size_t pairs = std::min(preimages.size(), postimages.size());
      for (size_t i = 0; i < pairs; i++) updates.emplace_back(preimages[i], postimages[i]);
      deletes.insert(deletes.end(), preimages.begin() + pairs, preimages.end());
      inserts.insert(inserts.end(), postimages.begin() + pairs, postimages.end());
    }
    for (auto& d : deletes) Remove(d);
    for (auto& [before, after] : updates) Replace(before, after);
    for (auto& i : inserts) Add(i);
  }

  void Emit(ChunkCollection& out) {
    std::vector<idx_t> all_columns;
    for (idx_t c = 0; c < column_count_; c++) all_columns.push_back(c);
    // Report in commit order of each row's last change.
    std::vector<std::pair<int64_t, size_t>> order;
    for (size_t i = 0; i < chains_.size(); i++) order.emplace_back(VersionOf(chains_[i].last), i);
    std::stable_sort(order.begin(), order.end());
    DataChunk chunk;
    chunk.Initialize(out.Types());
    std::string before, after;
    for (auto& [version, i] : order) {
      const Chain& c = chains_[i];
      if (!c.existed_before && c.exists_after) {
        Append(chunk, out, c.current, StreamChangeName(ChangeKind::INSERT), c.last);
      } else if (c.existed_before && !c.exists_after) {
        Append(chunk, out, c.origin, StreamChangeName(ChangeKind::DELETE), c.last);
      } else if (c.existed_before && c.exists_after) {
        if (EncodeInto(c.origin, all_columns, before) == EncodeInto(c.current, all_columns, after)) continue;
        Append(chunk, out, c.origin, StreamChangeName(ChangeKind::UPDATE_PREIMAGE), c.last);
        Append(chunk, out, c.current, StreamChangeName(ChangeKind::UPDATE_POSTIMAGE), c.last);
      }
    }
    if (chunk.size() > 0) out.Append(chunk);
  }

  int64_t VersionOf(RowRef ref) const { return feed_.Chunk(ref.chunk).data[column_count_ + 1].GetData<int64_t>()[ref.row]; }

  void Append(DataChunk& chunk, ChunkCollection& out, RowRef row, string_t type, RowRef change) {
    if (chunk.size() == STANDARD_VECTOR_SIZE) {
      out.Append(chunk);
      chunk.Reset();
    }
    idx_t at = chunk.size();
    const DataChunk& source = feed_.Chunk(row.chunk);
    sel_t sel = static_cast<sel_t>(row.row);
    for (idx_t c = 0; c < column_count_; c++) chunk.data[c].Copy(source.data[c], &sel, 1, 0, at);
    SetChangeType(chunk.data[column_count_], at, type);
    const DataChunk& meta = feed_.Chunk(change.chunk);
    sel_t meta_sel = static_cast<sel_t>(change.row);
    chunk.data[column_count_ + 1].Copy(meta.data[column_count_ + 1], &meta_sel, 1, 0, at);
    chunk.data[column_count_ + 2].Copy(meta.data[column_count_ + 2], &meta_sel, 1, 0, at);
    chunk.SetCardinality(at + 1);
  }

  const ChunkCollection& feed_;
  idx_t column_count_;
  bool keyed_;
  std::vector<idx_t> key_columns_;
  std::vector<Chain> chains_;
  std::unordered_map<std::string, std::vector<int64_t>> live_;  // identity -> chains whose row has it now
  std::unordered_map<std::string, std::vector<int64_t>> gone_;  // keyed: key -> chains deleted in the window
  std::string identity_;
};

// Copies feed rows [selected] with their change type renamed as streams name it.
void AppendRenamed(const DataChunk& source, idx_t column_count, const std::vector<sel_t>& selected, string_t type,
                   ChunkCollection& out) {
  if (selected.empty()) return;
  DataChunk chunk;
  chunk.Initialize(out.Types(), selected.size());
  for (idx_t c = 0; c < column_count; c++) chunk.data[c].Copy(source.data[c], selected.data(), selected.size(), 0, 0);
  for (idx_t r = 0; r < selected.size(); r++) SetChangeType(chunk.data[column_count], r, type);
  chunk.data[column_count + 1].Copy(source.data[column_count + 1], selected.data(), selected.size(), 0, 0);
  chunk.data[column_count + 2].Copy(source.data[column_count + 2], selected.data(), selected.size(), 0, 0);
  chunk.SetCardinality(selected.size());
  out.Append(chunk);
}

bool OnlyInserts(const ChunkCollection& feed, idx_t column_count) {
  for (idx_t k = 0; k < feed.ChunkCount(); k++) {
    const DataChunk& chunk = feed.Chunk(k);
    const string_t* types = chunk.data[column_count].GetData<string_t>();
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (types[r] != ChangeFeedName(ChangeKind::INSERT)) return false;
    }
  }
  return true;
}

}  // namespace

void ComputeAppendOnlyChanges(ChunkCollection& feed, idx_t column_count, ChunkCollection& out) {
  if (OnlyInserts(feed, column_count)) {
    // Every row stays: rename the change type in place and hand the chunks over.
    for (idx_t k = 0; k < feed.ChunkCount(); k++) {
      DataChunk& chunk = feed.Chunk(k);
      for (idx_t r = 0; r < chunk.size(); r++) SetChangeType(chunk.data[column_count], r, StreamChangeName(ChangeKind::INSERT));
    }
    out.Merge(std::move(feed));
    return;
  }
  for (idx_t k = 0; k < feed.ChunkCount(); k++) {
    const DataChunk& chunk = feed.Chunk(k);
    const string_t* types = chunk.data[column_count].GetData<string_t>();
    std::vector<sel_t> selected;
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (types[r] == ChangeFeedName(ChangeKind::INSERT)) selected.push_back(static_cast<sel_t>(r));
    }
    AppendRenamed(chunk, column_count, selected, StreamChangeName(ChangeKind::INSERT), out);
  }
}

void ComputeNetChanges(ChunkCollection& feed, idx_t column_count, const std::vector<idx_t>& key_columns,
                       ChunkCollection& out) {
  // A window of pure appends (the common case) nets to itself.
  if (OnlyInserts(feed, column_count)) {
    ComputeAppendOnlyChanges(feed, column_count, out);
    return;
  }
  NetChangeBuilder(feed, column_count, key_columns).Run(out);
}

}  // namespace lakestream
