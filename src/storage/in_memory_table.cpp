#include <algorithm>

#include "common/hyperloglog.hpp"
#include "common/vector_operations.hpp"
#include "storage/data_table.hpp"
#include "storage/table_append.hpp"

namespace lakestream {

namespace {

// Chunks [first, end) of the table (end clipped to its chunk count).
class InMemoryScan : public TableScan {
 public:
  InMemoryScan(const ChunkCollection& rows, std::vector<idx_t> column_ids, idx_t first = 0, idx_t end = SIZE_MAX)
      : rows_(rows), column_ids_(std::move(column_ids)), chunk_index_(first), end_(end) {}

  bool Next(DataChunk& out, Vector* row_ids) override {
    out.Reset();
    if (chunk_index_ >= std::min(end_, rows_.ChunkCount())) return false;
    const DataChunk& chunk = rows_.Chunk(chunk_index_);
    // The table's own vectors, not a copy: reference counting keeps them
    // alive while the scan's consumers hold them, and a later commit that
    // changes them in place copies them first (common/vector.hpp).
    for (idx_t i = 0; i < column_ids_.size(); i++) out.data[i].Reference(chunk.data[column_ids_[i]], chunk.size());
    out.SetCardinality(chunk.size());
    if (row_ids) {
      auto* ids = row_ids->GetData<int64_t>();
      for (idx_t i = 0; i < chunk.size(); i++) ids[i] = static_cast<int64_t>(chunk_index_ * STANDARD_VECTOR_SIZE + i);
      row_ids->SetAllValid(chunk.size());
    }
    chunk_index_++;
    return true;
  }

 private:
  const ChunkCollection& rows_;
  std::vector<idx_t> column_ids_;
  idx_t chunk_index_ = 0;
  idx_t end_;
};

// A morsel is kMorselChunks chunks: large enough that taking one costs
// nothing next to scanning it, small enough that threads finish together.
constexpr idx_t kMorselChunks = 8;

class InMemoryMorsels : public MorselSource {
 public:
  InMemoryMorsels(const ChunkCollection& rows, std::vector<idx_t> column_ids)
      : rows_(rows), column_ids_(std::move(column_ids)), chunks_(rows.ChunkCount()) {}
  std::unique_ptr<TableScan> NextMorsel() override {
    if (Cancelled()) return nullptr;
    idx_t first = next_.fetch_add(kMorselChunks, std::memory_order_relaxed);
    if (first >= chunks_) return nullptr;
    return std::make_unique<InMemoryScan>(rows_, column_ids_, first, first + kMorselChunks);
  }
  idx_t MorselCount() const override { return (chunks_ + kMorselChunks - 1) / kMorselChunks; }

 private:
  const ChunkCollection& rows_;
  std::vector<idx_t> column_ids_;
  idx_t chunks_;
  std::atomic<idx_t> next_{0};
};

}  // namespace

std::shared_ptr<MorselSource> InMemoryTable::ParallelScan(const std::vector<idx_t>& column_ids,
                                                          const std::vector<TableFilter>&) {
  return std::make_shared<InMemoryMorsels>(rows_, column_ids);
}

std::unique_ptr<TableScan> InMemoryTable::Scan(const std::vector<idx_t>& column_ids) {
  return std::make_unique<InMemoryScan>(rows_, column_ids);
}

std::optional<double> InMemoryTable::EstimatedDistinctCount(idx_t column) {
  if (column >= rows_.Types().size()) return std::nullopt;
  TypeId id = rows_.Types()[column].id();
  bool integral = id == TypeId::INTEGER || id == TypeId::BIGINT || id == TypeId::DATE;
  std::lock_guard<std::mutex> lock(spans_mutex_);
  auto cached = spans_.find(column);
  if (cached != spans_.end()) return cached->second;
  // The sketch's 1.6% error is plenty for an estimate; the span bounds an
  // integer column's count where the sketch is off (a few dense values).
  HyperLogLog sketch(12);
  int64_t low = INT64_MAX;
  int64_t high = INT64_MIN;
  std::vector<uint64_t> hashes(STANDARD_VECTOR_SIZE);
  for (idx_t c = 0; c < rows_.ChunkCount(); c++) {
    const DataChunk& chunk = rows_.Chunk(c);
    const Vector& v = chunk.data[column];
    HashVector(v, chunk.size(), hashes.data(), false);
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (!v.IsValid(r)) continue;
      sketch.Add(MixHash(hashes[r]));
      if (!integral) continue;
      int64_t x = id == TypeId::BIGINT ? v.GetData<int64_t>()[r] : v.GetData<int32_t>()[r];
      low = std::min(low, x);
      high = std::max(high, x);
    }
  }
  std::optional<double> count;
  if (sketch.Estimate() > 0) count = static_cast<double>(sketch.Estimate());
  if (integral && low <= high) count = std::min(*count, static_cast<double>(high) - static_cast<double>(low) + 1);
  spans_[column] = count;
  return count;
}

void InMemoryTable::Commit(TableCommit& commit) {
  // Updates first, in place: row ids refer to the current layout.
  for (idx_t i = 0; i < commit.updated_row_ids.size(); i++) {
    row_t id = commit.updated_row_ids[i];
    DataChunk& target = rows_.Chunk(static_cast<idx_t>(id) / STANDARD_VECTOR_SIZE);
    idx_t offset = static_cast<idx_t>(id) % STANDARD_VECTOR_SIZE;
    const DataChunk& source = commit.updated.Chunk(i / STANDARD_VECTOR_SIZE);
    idx_t source_row = i % STANDARD_VECTOR_SIZE;
    for (idx_t c = 0; c < target.ColumnCount(); c++) target.data[c].Copy(source.data[c], nullptr, 1, source_row, offset);
  }
  if (commit.overwrite || !commit.deleted_rows.empty()) {
    std::vector<bool> deleted(rows_.Count(), commit.overwrite);
    for (row_t id : commit.deleted_rows) deleted[static_cast<idx_t>(id)] = true;
    ChunkCollection kept(rows_.Types());
    std::vector<sel_t> sel(STANDARD_VECTOR_SIZE);
    for (idx_t c = 0; c < rows_.ChunkCount(); c++) {
      DataChunk& chunk = rows_.Chunk(c);
      idx_t n = 0;
      for (idx_t r = 0; r < chunk.size(); r++) {
        if (!deleted[c * STANDARD_VECTOR_SIZE + r]) sel[n++] = static_cast<sel_t>(r);
      }
      if (n == 0) continue;
      DataChunk part;
      part.Initialize(rows_.Types(), n);
      part.Append(chunk, sel.data(), n);
      kept.Append(part);
    }
    rows_ = std::move(kept);
  }
  rows_.Merge(std::move(commit.inserted));
  if (auto* appended = dynamic_cast<MemoryAppend*>(AppendScope::For(this))) {
    rows_.Merge(std::move(appended->rows));
    appended->rows = ChunkCollection(rows_.Types());
  }
  std::lock_guard<std::mutex> lock(spans_mutex_);
  spans_.clear();
}

}  // namespace lakestream
