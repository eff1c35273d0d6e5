#include "execution/operator/physical_top_n_window.hpp"

#include <algorithm>
#include <limits>

#include "common/vector_operations.hpp"
#include "execution/operator/hash_slots.hpp"

namespace lakestream {

namespace {

// Entry::batch of a row still in the child's chunk being consumed.
constexpr uint32_t kInput = std::numeric_limits<uint32_t>::max();
// Evicted row copies tolerated beyond the live ones before compacting: a
// compaction copies every live row, so it waits until at least as many
// evicted ones pay for it.
constexpr idx_t kCompactSlack = 16 * STANDARD_VECTOR_SIZE;

struct Entry {
  uint32_t batch;  // index into the copied batches, or kInput
  uint32_t row;    // within the batch (or the child's chunk)
  uint64_t seq;    // position in the input: breaks ties, orders the output
};

struct Batch {
  DataChunk rows;  // the child's columns
  DataChunk keys;  // PARTITION BY keys, then ORDER BY keys
  idx_t live = 0;  // its rows still among the winners
};

// Appends src's rows sel[0, n) to dst, strings copied into dst's own heap
// rather than referenced, so the child's chunk (or an older batch) and its
// heap can go.
void AppendOwned(DataChunk& dst, const DataChunk& src, const sel_t* sel, idx_t n) {
  idx_t offset = dst.size();
  for (idx_t c = 0; c < dst.ColumnCount(); c++) {
    Vector& to = dst.data[c];
    const Vector& from = src.data[c];
    if (to.GetType().id() != TypeId::VARCHAR) {
      to.Copy(from, sel, n, 0, offset);
      continue;
    }
    if (offset + n > to.Capacity()) to.Resize(std::max(offset + n, to.Capacity() * 2));
    auto* out = to.GetData<string_t>();
    const auto* in = from.GetData<string_t>();
    for (idx_t i = 0; i < n; i++) {
      bool valid = from.IsValid(sel[i]);
      to.SetValid(offset + i, valid);
      if (valid) out[offset + i] = to.AddString(in[sel[i]]);
    }
  }
  dst.SetCardinality(offset + n);
}

}  // namespace

// The winners so far: per partition (dense ids from a hash table over the
// PARTITION BY keys) the best row when N = 1, else a max-heap of the N best
// whose top is the row that sorts last (the first to go).
class TopNWindowState {
 public:
  TopNWindowState(const BoundWindow& window, idx_t limit, std::vector<LogicalType> row_types, std::vector<LogicalType> key_types)
      : limit_(limit), partition_keys_(window.partitions.size()), row_types_(std::move(row_types)), key_types_(std::move(key_types)) {
    for (idx_t k = 0; k < partition_keys_; k++) partition_equal_.push_back(GetRowEqualFunction(key_types_[k]));
    for (idx_t k = 0; k < window.orders.size(); k++) {
      const BoundWindowOrder& o = window.orders[k];
      idx_t column = partition_keys_ + k;
      orders_.push_back({column, GetRowCompareFunction(key_types_[column]), o.descending, o.nulls_first});
    }
    slots_.assign(1024, 0);
    slot_hashes_.assign(1024, 0);
    mask_ = slots_.size() - 1;
  }

  // Offers every row of `rows`, whose PARTITION BY and ORDER BY keys are
  // `keys`; the winners among them are copied, so both chunks may be reused.
  void Sink(const DataChunk& rows, const DataChunk& keys) {
    idx_t n = rows.size();
    input_keys_ = &keys;
    chunk_number_++;
    touched_.clear();
    if (partition_keys_ > 0) {
      hashes_.resize(n);
      for (idx_t k = 0; k < partition_keys_; k++) HashVector(keys.data[k], n, hashes_.data(), k > 0);
    }
    for (idx_t r = 0; r < n; r++) {
      Entry e{kInput, static_cast<uint32_t>(r), next_seq_++};
      uint32_t p = 0;
      bool created = false;
      if (partition_keys_ > 0) {
        p = FindPartition(hashes_[r], e, created);
      } else {
        created = Partitions() == 0;
      }
      if (created) {
        if (limit_ == 1) {
          best_.push_back(e);
        } else {
          heaps_.emplace_back(1, e);
        }
        Touch(p);
      } else {
        Offer(p, e);
      }
    }
    KeepWinnersOf(rows, keys);
    input_keys_ = nullptr;
    if (dead_ > live_ + kCompactSlack) Compact();
  }

  // Numbers the winners of each partition and puts them in input order.
  void Finish() {
    output_.clear();
    if (limit_ == 1) {
      for (auto& e : best_) output_.push_back({e, 1});
    } else {
      for (auto& heap : heaps_) {
        std::sort(heap.begin(), heap.end(), [this](const Entry& a, const Entry& b) { return Before(a, b); });
        for (idx_t i = 0; i < heap.size(); i++) output_.push_back({heap[i], static_cast<int64_t>(i + 1)});
      }
    }
    std::sort(output_.begin(), output_.end(), [](const OutputRow& a, const OutputRow& b) { return a.entry.seq < b.entry.seq; });
  }

  // The next rows of the output: the child's columns, then the row number.
  bool Emit(DataChunk& out) {
    if (emitted_ >= output_.size()) return false;
    out.Reset();
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, output_.size() - emitted_);
    const OutputRow* rows = output_.data() + emitted_;
    idx_t columns = row_types_.size();
    for (idx_t i = 0; i < n;) {
      uint32_t batch = rows[i].entry.batch;
      sel_.clear();
      idx_t j = i;
      for (; j < n && rows[j].entry.batch == batch; j++) sel_.push_back(rows[j].entry.row);
      for (idx_t c = 0; c < columns; c++) out.data[c].Copy(batches_[batch].rows.data[c], sel_.data(), j - i, 0, i);
      i = j;
    }
    Vector& numbers = out.data[columns];
    auto* rn = numbers.GetData<int64_t>();
    for (idx_t i = 0; i < n; i++) {
      rn[i] = rows[i].rn;
      numbers.SetValid(i, true);
    }
    out.SetCardinality(n);
    emitted_ += n;
    return true;
  }

 private:
  struct OrderKey {
    idx_t column;
    row_compare_t compare;
    bool descending;
    bool nulls_first;
  };
  struct OutputRow {
    Entry entry;
    int64_t rn;
  };

  idx_t Partitions() const { return limit_ == 1 ? best_.size() : heaps_.size(); }
  const DataChunk& Keys(const Entry& e) const { return e.batch == kInput ? *input_keys_ : batches_[e.batch].keys; }
  // A row of partition p (every partition holds at least one).
  const Entry& Representative(uint32_t p) const { return limit_ == 1 ? best_[p] : heaps_[p].front(); }

  // < 0 when a sorts before b on the ORDER BY keys, as WindowSort orders them.
  int Compare(const Entry& a, const Entry& b) const {
    const DataChunk& ka = Keys(a);
    const DataChunk& kb = Keys(b);
    for (const OrderKey& k : orders_) {
      const Vector& va = ka.data[k.column];
      const Vector& vb = kb.data[k.column];
      bool null_a = !va.IsValid(a.row), null_b = !vb.IsValid(b.row);
      if (null_a || null_b) {
        if (null_a == null_b) continue;
        return null_a == k.nulls_first ? -1 : 1;
      }
      int c = k.compare(va, a.row, vb, b.row);
      if (c != 0) return k.descending ? -c : c;
    }
    return 0;
  }
  // The window's order with ties in input order: a's row number is lower.
  bool Before(const Entry& a, const Entry& b) const {
    int c = Compare(a, b);
    return c != 0 ? c < 0 : a.seq < b.seq;
  }

  bool SamePartition(const Entry& a, const Entry& b) const {
    const DataChunk& ka = Keys(a);
    const DataChunk& kb = Keys(b);
    for (idx_t k = 0; k < partition_keys_; k++) {
      if (!partition_equal_[k](ka.data[k], a.row, kb.data[k], b.row)) return false;
    }
    return true;
  }

  // The id of e's partition; a new id (created = true) when it has none yet,
  // which the caller fills with e before the next lookup.
  uint32_t FindPartition(uint64_t hash, const Entry& e, bool& created) {
    uint64_t pos = hash & mask_;
    while (true) {
      uint32_t slot = slots_[pos];
      if (!slot) {
        auto id = static_cast<uint32_t>(Partitions());
        slots_[pos] = id + 1;
        slot_hashes_[pos] = hash;
        if ((static_cast<idx_t>(id) + 1) * 2 > slots_.size()) GrowHashSlots(slots_, slot_hashes_, mask_);
        created = true;
        return id;
      }
      if (slot_hashes_[pos] == hash && SamePartition(Representative(slot - 1), e)) return slot - 1;
      pos = (pos + 1) & mask_;
    }
  }

  void Offer(uint32_t p, const Entry& e) {
    if (limit_ == 1) {
      Entry& best = best_[p];
      // On equal keys the earlier row (already there) keeps rn = 1.
      if (Compare(e, best) < 0) {
        Evict(best);
        best = e;
        Touch(p);
      }
      return;
    }
    auto& heap = heaps_[p];
    auto before = [this](const Entry& a, const Entry& b) { return Before(a, b); };
    if (heap.size() < limit_) {
      heap.push_back(e);
      std::push_heap(heap.begin(), heap.end(), before);
      Touch(p);
      return;
    }
    if (Compare(e, heap.front()) >= 0) return;
    std::pop_heap(heap.begin(), heap.end(), before);
    Evict(heap.back());
    heap.back() = e;
    std::push_heap(heap.begin(), heap.end(), before);
    Touch(p);
  }

  // e is no longer a winner; a batch nothing wins in any more is freed
  // (except the last, which later winners fill).
  void Evict(const Entry& e) {
    if (e.batch == kInput) return;
    Batch& b = batches_[e.batch];
    b.live--;
    live_--;
    dead_++;
    if (b.live == 0 && e.batch + 1 != batches_.size()) {
      dead_ -= b.rows.size();
      b.rows = DataChunk();
      b.keys = DataChunk();
    }
  }

  // Partition p now holds a row of the current chunk.
  void Touch(uint32_t p) {
    if (p >= touched_mark_.size()) touched_mark_.resize(static_cast<idx_t>(p) + 1, 0);
    if (touched_mark_[p] == chunk_number_) return;
    touched_mark_[p] = chunk_number_;
    touched_.push_back(p);
  }

  // Copies the entries' rows (sorted by source, each run from one source)
  // after the last batch, pointing the entries at the copies.
  template <class SourceOf>
  void CopyEntries(std::vector<Entry*>& entries, SourceOf source_of) {
    for (idx_t i = 0; i < entries.size();) {
      if (batches_.empty() || batches_.back().rows.size() == STANDARD_VECTOR_SIZE) {
        batches_.emplace_back();
        batches_.back().rows.Initialize(row_types_);
        batches_.back().keys.Initialize(key_types_);
      }
      auto id = static_cast<uint32_t>(batches_.size() - 1);
      Batch& dst = batches_.back();
      uint32_t source = entries[i]->batch;
      idx_t room = STANDARD_VECTOR_SIZE - dst.rows.size();
      sel_.clear();
      idx_t j = i;
      for (; j < entries.size() && entries[j]->batch == source && sel_.size() < room; j++) sel_.push_back(entries[j]->row);
      auto [rows, keys] = source_of(source);
      idx_t base = dst.rows.size();
      AppendOwned(dst.rows, *rows, sel_.data(), sel_.size());
      AppendOwned(dst.keys, *keys, sel_.data(), sel_.size());
      for (idx_t k = i; k < j; k++) {
        entries[k]->batch = id;
        entries[k]->row = static_cast<uint32_t>(base + (k - i));
      }
      dst.live += j - i;
      live_ += j - i;
      i = j;
    }
  }

  void KeepWinnersOf(const DataChunk& rows, const DataChunk& keys) {
    scratch_.clear();
    for (uint32_t p : touched_) {
      if (limit_ == 1) {
        if (best_[p].batch == kInput) scratch_.push_back(&best_[p]);
      } else {
        for (auto& e : heaps_[p]) {
          if (e.batch == kInput) scratch_.push_back(&e);
        }
      }
    }
    std::sort(scratch_.begin(), scratch_.end(), [](const Entry* a, const Entry* b) { return a->seq < b->seq; });
    CopyEntries(scratch_, [&](uint32_t) { return std::pair<const DataChunk*, const DataChunk*>(&rows, &keys); });
  }

  // Copies the live rows into fresh batches (in input order) and drops the old ones.
  void Compact() {
    scratch_.clear();
    if (limit_ == 1) {
      for (auto& e : best_) scratch_.push_back(&e);
    } else {
      for (auto& heap : heaps_) {
        for (auto& e : heap) scratch_.push_back(&e);
      }
    }
    std::sort(scratch_.begin(), scratch_.end(), [](const Entry* a, const Entry* b) { return a->seq < b->seq; });
    std::vector<Batch> old = std::move(batches_);
    batches_.clear();
    live_ = 0;
    dead_ = 0;
    CopyEntries(scratch_, [&](uint32_t b) { return std::pair<const DataChunk*, const DataChunk*>(&old[b].rows, &old[b].keys); });
  }

  idx_t limit_;
  idx_t partition_keys_;  // keys columns [0, partition_keys_) are PARTITION BY, the rest ORDER BY
  std::vector<LogicalType> row_types_;
  std::vector<LogicalType> key_types_;
  std::vector<row_equal_t> partition_equal_;
  std::vector<OrderKey> orders_;

  std::vector<Entry> best_;                // limit 1: per partition
  std::vector<std::vector<Entry>> heaps_;  // limit > 1: per partition
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slot_hashes_;
  uint64_t mask_ = 0;

  std::vector<Batch> batches_;  // copies of winning rows (and evicted ones not yet compacted away)
  idx_t live_ = 0;              // rows in batches_ that are winners
  idx_t dead_ = 0;              // rows in batches_ evicted since
  uint64_t next_seq_ = 0;

  // The chunk being consumed.
  const DataChunk* input_keys_ = nullptr;
  uint64_t chunk_number_ = 0;
  std::vector<uint64_t> touched_mark_;  // per partition: the last chunk it took a row of
  std::vector<uint32_t> touched_;       // partitions that took a row of this chunk
  std::vector<uint64_t> hashes_;
  std::vector<Entry*> scratch_;
  std::vector<sel_t> sel_;

  std::vector<OutputRow> output_;
  idx_t emitted_ = 0;
};

static std::vector<LogicalType> OutputTypes(const PhysicalOperator& child, const BoundWindow& window) {
  std::vector<LogicalType> types = child.types;
  types.push_back(window.return_type);
  return types;
}

PhysicalTopNWindow::PhysicalTopNWindow(PhysicalOperatorPtr child, std::vector<BoundExprPtr> inputs, BoundWindow window, idx_t limit)
    : PhysicalOperator(OutputTypes(*child, window)), input_expressions_(std::move(inputs)), window_(std::move(window)), limit_(limit) {
  children.push_back(std::move(child));
}

PhysicalTopNWindow::~PhysicalTopNWindow() = default;

std::string PhysicalTopNWindow::Details() const { return window_.name + " <= " + std::to_string(limit_); }

void PhysicalTopNWindow::Consume(ExecutionContext& context) {
  std::vector<const BoundExpression*> key_expressions;
  for (idx_t p : window_.partitions) key_expressions.push_back(input_expressions_[p].get());
  for (auto& o : window_.orders) key_expressions.push_back(input_expressions_[o.input].get());
  std::vector<LogicalType> key_types;
  key_types.reserve(key_expressions.size());
  for (auto* e : key_expressions) key_types.push_back(e->return_type);
  state_ = std::make_unique<TopNWindowState>(window_, limit_, children[0]->types, key_types);
  ExpressionExecutor& executor = Executor(context);
  DataChunk input, keys;
  children[0]->InitializeChunk(input);
  keys.Initialize(key_types);
  while (children[0]->Next(context, input)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    keys.Reset();
    for (idx_t k = 0; k < key_expressions.size(); k++) executor.Execute(*key_expressions[k], input, keys.data[k]);
    keys.SetCardinality(input.size());
    state_->Sink(input, keys);
  }
  state_->Finish();
}

bool PhysicalTopNWindow::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!done_) {
    Consume(context);
    done_ = true;
  }
  return state_->Emit(out);
}

}  // namespace lakestream
