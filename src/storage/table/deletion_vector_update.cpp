#include "storage/table/deletion_vector_update.hpp"

#include <fcntl.h>

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "storage/delta/row_tracking.hpp"
#include "storage/table/data_file_pool.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

bool WritesDeletionVectors(const delta::Snapshot& snapshot) {
  return snapshot.protocol.ListsWriterFeature("deletionVectors") &&
         StringUtil::CIEquals(snapshot.Property("delta.enableDeletionVectors"), "true") &&
         !delta::RowTrackingAssigns(snapshot.protocol, snapshot.metadata);
}

static thread_local const KnownRemovedRows* current_known = nullptr;

KnownRemovedRows::KnownRemovedRows(const DataTable& table, const TableCommit& commit, const ChunkCollection& values)
    : table(table), values(values), outer_(current_known) {
  idx_t i = 0;
  idx_t deleted = commit.deleted_rows.size();
  at.reserve(values.Count());
  for (idx_t c = 0; c < values.ChunkCount(); c++) {
    for (idx_t r = 0; r < values.Chunk(c).size(); r++, i++) {
      row_t id = i < deleted ? commit.deleted_rows[i] : commit.updated_row_ids.at(i - deleted);
      at.emplace_back(static_cast<uint64_t>(id), std::make_pair(c, static_cast<sel_t>(r)));
    }
  }
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(at.begin(), at.end(), by_id)) std::stable_sort(at.begin(), at.end(), by_id);
  current_known = this;
}

const std::pair<idx_t, sel_t>* KnownRemovedRows::Find(uint64_t id) const {
  auto it = std::lower_bound(at.begin(), at.end(), id, [](const auto& entry, uint64_t key) { return entry.first < key; });
  return it != at.end() && it->first == id ? &it->second : nullptr;
}

KnownRemovedRows::~KnownRemovedRows() { current_known = outer_; }

const KnownRemovedRows* KnownRemovedRows::Current() { return current_known; }

bool AddKnownChanges(uint64_t file_index, const std::vector<std::pair<uint64_t, int64_t>>& rows,
                     const KnownRemovedRows& known, const std::function<void(const DataChunk&, ChangeKind)>& emit,
                     const std::function<void(int64_t, uint64_t)>& updated) {
  std::vector<std::pair<idx_t, sel_t>> where;
  where.reserve(rows.size());
  for (auto& [position, update] : rows) {
    const std::pair<idx_t, sel_t>* at = known.Find((file_index << 32) | position);
    if (!at) return false;
    where.push_back(*at);
  }
  // Runs of rows from one chunk of `values` are appended at once; a chunk
  // of output is made only for a kind that has rows.
  struct Out {
    explicit Out(ChangeKind k) : kind(k) {}
    ChangeKind kind;
    DataChunk chunk;
    bool ready = false;
    idx_t from = 0;  // the chunk of `values` the rows in `run` come from
    std::vector<sel_t> run;
  };
  Out deletes(ChangeKind::DELETE), preimages(ChangeKind::UPDATE_PREIMAGE);
  auto flush_run = [&](Out& out) {
    if (out.run.empty()) return;
    out.chunk.Append(known.values.Chunk(out.from), out.run.data(), out.run.size());
    out.run.clear();
  };
  auto add = [&](Out& out, std::pair<idx_t, sel_t> row) {
    if (!out.ready) {
      out.chunk.Initialize(known.values.Types());
      out.ready = true;
    }
    if (out.chunk.size() + out.run.size() == STANDARD_VECTOR_SIZE) {
      flush_run(out);
      emit(out.chunk, out.kind);
      out.chunk.Reset();
    }
    if (!out.run.empty() && row.first != out.from) flush_run(out);
    out.from = row.first;
    out.run.push_back(row.second);
  };
  for (idx_t i = 0; i < rows.size(); i++) {
    if (rows[i].second < 0) {
      add(deletes, where[i]);
    } else {
      add(preimages, where[i]);
      updated(rows[i].second, rows[i].first);
    }
  }
  for (Out* out : {&deletes, &preimages}) {
    flush_run(*out);
    if (out->ready && out->chunk.size() > 0) emit(out->chunk, out->kind);
  }
  return true;
}

std::optional<std::string> LooseBoundsStats(const std::optional<std::string>& stats) {
  if (!stats) return stats;
  auto j = ParseJson(*stats);
  if (!j.is_object()) return stats;
  j["tightBounds"] = false;
  return j.dump();
}

namespace {

// The rows of the vectors this process wrote last, by table and vector
// (descriptor unique id: the file's random UUID and the entry's offset). A
// vector file is never changed once written, so the next commit deleting
// from the same data file (a view refresh deleting from one large file each
// time) unions with these rows instead of reading and decoding the file
// again. Bounded by kMaxRows rows in all; the oldest go first. A vector of a
// commit that failed is never named by a snapshot, so never looked up.
class RecentVectors {
 public:
  static constexpr size_t kMaxRows = size_t(4) << 20;  // 32 MB

  static RecentVectors& Instance() {
    static RecentVectors* instance = new RecentVectors();  // never destroyed: used until the process exits
    return *instance;
  }
  std::shared_ptr<const std::vector<uint64_t>> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = rows_.find(key);
    return it == rows_.end() ? nullptr : it->second;
  }
  void Put(std::string key, std::shared_ptr<const std::vector<uint64_t>> rows) {
    if (rows->size() > kMaxRows) return;
    std::lock_guard<std::mutex> lock(mu_);
    size_t size = rows->size();
    if (!rows_.emplace(key, std::move(rows)).second) return;
    total_ += size;
    order_.push_back(std::move(key));
    while (total_ > kMaxRows && !order_.empty()) {
      auto old = rows_.find(order_.front());
      total_ -= old->second->size();
      rows_.erase(old);
      order_.pop_front();
    }
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const std::vector<uint64_t>>> rows_;
  std::deque<std::string> order_;  // keys, oldest first
  size_t total_ = 0;
};

}  // namespace

DeletionVectorUpdate::DeletionVectorUpdate(std::shared_ptr<FileSystem> fs, const delta::Snapshot& snapshot,
                                           const bool& visible)
    : fs_(std::move(fs)), snapshot_(snapshot), visible_(visible) {}

DeletionVectorUpdate::~DeletionVectorUpdate() {
  // Best effort, as DeltaFileWriter::Abort: what cannot be deleted is left for VACUUM.
  // A name made ahead and taken, not written yet, is garbage too.
  if (!visible_ && written_.empty() && pooled_) written_ = snapshot_.FilePath(builder_->RelativePath());
  if (!visible_ && !written_.empty()) (void)fs_->RemoveFile(written_);
}

void DeletionVectorUpdate::Delete(const delta::AddFile& add, const std::vector<uint64_t>& rows, int64_t now_ms,
                                  std::vector<delta::Action>& actions) {
  std::vector<uint64_t> deleted = rows;
  if (add.deletion_vector) {
    auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
    if (!dv.ok()) throw CorruptionError("Table " + snapshot_.table_path + ", data file " + add.path + ": " + dv.status().message());
    auto recent = RecentVectors::Instance().Find(snapshot_.table_path + '\n' + dv.value().UniqueId());
    if (recent && static_cast<int64_t>(recent->size()) == dv.value().cardinality) {
      deleted = delta::UnionRows(*recent, rows);
      return Emit(add, std::move(deleted), now_ms, actions);
    }
    auto old = delta::LoadDeletionVector(fs_.get(), snapshot_, dv.value(), add.path);
    if (!old.ok()) {
      std::string message = "Table " + snapshot_.table_path + " (version " + std::to_string(snapshot_.version) +
                            "): " + old.status().message();
      if (old.status().IsCorruption()) throw CorruptionError(message);
      throw IOError(message);
    }
    deleted = delta::UnionRows(old.value(), rows);
  }
  Emit(add, std::move(deleted), now_ms, actions);
}

void DeletionVectorUpdate::Emit(const delta::AddFile& add, std::vector<uint64_t> deleted, int64_t now_ms,
                                std::vector<delta::Action>& actions) {
  actions.emplace_back(RemoveFor(add, now_ms, true));
  auto records = add.NumRecords();
  if (deleted.empty() || (records && static_cast<int64_t>(deleted.size()) >= *records)) return;
  delta::AddFile next = add;
  if (!builder_) {
    std::string uuid;
    if (auto pool = DataFilePool::Find(snapshot_.table_path)) {
      std::optional<std::string> name = pool->Take(fs_, snapshot_.table_path, "dv");
      if (name) uuid = delta::UuidOfDeletionVectorFileName(*name);
      pooled_ = !uuid.empty();
    }
    builder_.emplace(uuid.empty() ? NewUuid() : uuid);
  }
  delta::DeletionVectorDescriptor dv = builder_->Add(deleted);
  next.deletion_vector = delta::DeletionVectorJson(dv);
  next.data_change = true;
  next.stats = LooseBoundsStats(add.stats);
  actions.emplace_back(std::move(next));
  RecentVectors::Instance().Put(snapshot_.table_path + '\n' + dv.UniqueId(),
                                std::make_shared<const std::vector<uint64_t>>(std::move(deleted)));
}

void DeletionVectorUpdate::Finish(DurableSet& durable) {
  if (!builder_ || builder_->empty()) return;
  std::string full = snapshot_.FilePath(builder_->RelativePath());
  written_ = full;
  durable.files.insert(full);
  auto fail = [&](const Status& s) {
    throw IOError("Table " + snapshot_.table_path + ": cannot write the deletion vector file " + full + ": " + s.message());
  };
  if (pooled_) {
    // Opened without O_CREAT: a name made ahead that vanished (a VACUUM, a
    // hand) is created below instead, with its folder's fsync.
    ExistingFileOpener opener(fs_.get());
    Result<int> fd = opener.OpenFile(full, O_WRONLY | O_TRUNC, 0);
    if (fd.ok()) {
      Status s = WriteWholeFd(fd.value(), full, builder_->Contents());
      if (!s.ok()) fail(s);
      return;
    }
    if (!opener.vanished()) fail(fd.status());
  }
  Status s = fs_->WriteFile(full, builder_->Contents());
  if (!s.ok()) fail(s);
  durable.directories.insert(snapshot_.table_path);
}

}  // namespace lakestream
