#include "execution/operator/physical_hash_aggregate.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <utility>

#include "common/exception.hpp"
#include "execution/operator/hash_slots.hpp"
#include "execution/operator/partitioned_aggregate_merge.hpp"
#include "execution/operator/physical_table_scan.hpp"
#include "execution/parallel/parallel_runner.hpp"
#include "expression/repeatable.hpp"

namespace lakestream {

static std::vector<LogicalType> AggregateOutputTypes(const std::vector<BoundExprPtr>& groups,
                                                     const std::vector<BoundAggregate>& aggregates) {
  std::vector<LogicalType> types;
  types.reserve(groups.size() + aggregates.size());
  for (auto& g : groups) types.push_back(g->return_type);
  for (auto& a : aggregates) types.push_back(a.signature.return_type);
  return types;
}

PhysicalHashAggregate::PhysicalHashAggregate(PhysicalOperatorPtr child, std::vector<BoundExprPtr> groups,
                                             std::vector<BoundAggregate> aggregates,
                                             std::vector<std::vector<idx_t>> grouping_sets)
    : PhysicalOperator(AggregateOutputTypes(groups, aggregates)),
      groups_(std::move(groups)),
      aggregates_(std::move(aggregates)),
      grouping_sets_(std::move(grouping_sets)) {
  children.push_back(std::move(child));
  // Without GROUPING SETS there is one set: every group column.
  std::vector<std::vector<idx_t>> sets = grouping_sets_;
  if (sets.empty()) {
    sets.emplace_back();
    for (idx_t g = 0; g < groups_.size(); g++) sets.back().push_back(g);
  }
  for (auto& a : aggregates_) {
    std::vector<int64_t> values;
    for (auto& set : sets) {
      int64_t mask = 0;
      for (idx_t column : a.grouping_columns) {
        bool grouped = std::find(set.begin(), set.end(), column) != set.end();
        mask = (mask << 1) | (grouped ? 0 : 1);
      }
      values.push_back(mask);
    }
    grouping_values_.push_back(std::move(values));
  }
  inputs_.resize(aggregates_.size());
  for (auto& g : groups_) key_equal_.push_back(GetRowEqualFunction(g->return_type));
  if (!grouping_sets_.empty()) key_equal_.push_back(GetRowEqualFunction(TypeId::INTEGER));
  grouped_ = !groups_.empty() || !grouping_sets_.empty();
  for (auto& g : groups_) all_repeatable_ = all_repeatable_ && IsRepeatable(*g);
  for (auto& a : aggregates_) {
    for (const BoundExpression* e : std::as_const(a).Expressions()) all_repeatable_ = all_repeatable_ && (!e || IsRepeatable(*e));
  }
  if (groups_.size() == 1 && grouping_sets_.empty()) {
    TypeId key = groups_[0]->return_type.id();
    integer_key_ = key == TypeId::INTEGER || key == TypeId::BIGINT || key == TypeId::DATE || key == TypeId::TIMESTAMP ||
                   key == TypeId::TIMESTAMP_NTZ;
  }
  if (!integer_key_ && grouping_sets_.empty() && !groups_.empty()) {
    std::vector<LogicalType> key_types;
    for (auto& g : groups_) key_types.push_back(g->return_type);
    packable_ = packer_.Plan(key_types);
  }
  // Per group: its keys, about three open-addressing slots (id + hash; the
  // table doubles at half full), and a state per aggregate.
  bytes_per_group_ = integer_key_ ? 3 * sizeof(IntegerKeySlot)
                     : packable_  ? 3 * (sizeof(PackedKeySlot) + sizeof(uint32_t) + sizeof(uint64_t))
                                  : 3 * (sizeof(uint32_t) + sizeof(uint64_t));
  for (auto& g : groups_) bytes_per_group_ += g->return_type.PhysicalSize() + 1;
  bytes_per_group_ += aggregates_.size() * 24;
  ResetTable();
}

void PhysicalHashAggregate::ResetTable() {
  states_.clear();
  ordered_.clear();
  selected_updates_.clear();
  for (auto& a : aggregates_) {
    auto state = CreateAggregateState(a.signature);
    selected_updates_.push_back(dynamic_cast<SelectedUpdate*>(state.get()));
    ordered_.push_back(nullptr);
    if (!a.order_keys.empty() && a.signature.OrderSensitive()) {
      auto ordered = std::make_unique<OrderedAggregateState>(std::move(state), a.signature, a.order);
      ordered_.back() = ordered.get();
      selected_updates_.back() = nullptr;
      state = std::move(ordered);
    }
    states_.push_back(std::move(state));
  }
  ShareTotals();
  group_keys_.clear();
  for (auto& g : groups_) group_keys_.push_back(std::make_unique<Vector>(g->return_type, 1024));
  if (!grouping_sets_.empty()) group_keys_.push_back(std::make_unique<Vector>(TypeId::INTEGER, 1024));
  slots_.assign(1024, 0);
  slot_hashes_.assign(1024, 0);
  mask_ = 1023;
  integer_slots_.assign(integer_key_ ? 1024 : 0, IntegerKeySlot{0, 0, 0});
  integer_mask_ = 1023;
  null_group_ = UINT32_MAX;
  packed_ = packable_;
  packed_slots_.assign(packed_ ? 1024 : 0, PackedKeySlot{});
  packed_mask_ = 1023;
  group_count_ = 0;
  emitted_ = 0;
  string_bytes_ = 0;
  reservation_.Reset();
  if (!grouped_) {
    group_count_ = 1;
    for (auto& s : states_) s->Resize(1);
  }
}

void PhysicalHashAggregate::ShareTotals() {
  totals_of_.assign(aggregates_.size(), kOwnTotals);
  auto plain = [&](idx_t a) {
    const BoundAggregate& agg = aggregates_[a];
    return agg.argument && !agg.second && !agg.filter && agg.order_keys.empty() && !agg.signature.distinct;
  };
  for (idx_t a = 0; a < aggregates_.size(); a++) {
    auto* shared = dynamic_cast<SharedTotals*>(states_[a].get());
    if (!shared || !plain(a)) continue;
    for (idx_t b = 0; b < a; b++) {
      if (totals_of_[b] != kOwnTotals || !plain(b) || !aggregates_[b].argument->Equals(*aggregates_[a].argument)) continue;
      if (shared->FinalizeFrom(*states_[b])) {
        totals_of_[a] = b;
        break;
      }
    }
  }
}

bool PhysicalHashAggregate::SpillAllowed() const {
  return grouped_ && grouping_sets_.empty() && spill_folder_ && CanSpill(children[0]->types);
}

bool PhysicalHashAggregate::ReserveGroups(idx_t groups, bool force) {
  uint64_t need = groups * bytes_per_group_ + string_bytes_;
  uint64_t held = reservation_.Size();
  if (need <= held) return true;
  uint64_t more = need - held;
  // Ahead by a quarter of what is held, so the shared counter is touched rarely.
  if (reservation_.Grow(std::max(more, held / 4))) return true;
  if (reservation_.Grow(more)) return true;
  if (!force) return false;
  reservation_.ForceGrow(more);
  return true;
}

void PhysicalHashAggregate::StartSpilling(ExecutionContext& context, uint64_t needed) {
  if (!SpillAllowed()) {
    std::string why = !grouping_sets_.empty() ? "GROUPING SETS, ROLLUP and CUBE do not spill to disk"
                      : !CanSpill(children[0]->types) ? "not supported yet: spilling rows with STRUCT, LIST or MAP columns"
                                                      : "";
    ThrowOutOfMemory("HASH_GROUP_BY (" + std::to_string(group_count_) + " groups so far)", needed,
                     context.memory.get(), why);
  }
  if (depth_ >= 15) {
    ThrowOutOfMemory("HASH_GROUP_BY", needed, context.memory.get(),
                     "its groups stay too many after 15 rounds of partitioning to disk");
  }
  spill_ = std::make_unique<PartitionedSpill>(spill_folder_, children[0]->types, 16, "group-by");
}

void PhysicalHashAggregate::CollectSpill(std::vector<SpilledPartition>& into, size_t round_start) {
  if (!spill_) return;
  for (idx_t p = 0; p < spill_->PartitionCount(); p++) {
    auto file = spill_->Take(p);
    if (!file) continue;
    // Partition p of every thread's files goes together.
    auto it = std::find_if(into.begin() + static_cast<std::ptrdiff_t>(round_start), into.end(),
                           [&](const SpilledPartition& part) { return part.partition == p; });
    if (it == into.end()) {
      into.push_back(SpilledPartition{depth_, p, {}});
      it = into.end() - 1;
    }
    it->files.push_back(std::move(file));
    spilled_partitions_++;
  }
  spill_.reset();
}

bool PhysicalHashAggregate::SplitMisses(DataChunk& input, DataChunk& keys, DataChunk& hits) {
  idx_t count = input.size();
  std::vector<uint32_t> ids(count);
  FindGroups(keys, count, ids.data(), false);
  hit_sel_.clear();
  miss_sel_.clear();
  miss_partitions_.clear();
  int shift = 60 - static_cast<int>(4 * depth_);
  for (idx_t i = 0; i < count; i++) {
    if (ids[i] != kMissingGroup) {
      hit_sel_.push_back(static_cast<sel_t>(i));
    } else {
      miss_sel_.push_back(static_cast<sel_t>(i));
      miss_partitions_.push_back(static_cast<uint32_t>((hashes_[i] >> shift) & 15));
    }
  }
  if (!miss_sel_.empty()) spill_->Append(input, miss_sel_.data(), miss_partitions_.data(), miss_sel_.size());
  if (hit_sel_.empty()) return false;
  hits.Reset();
  for (idx_t c = 0; c < input.ColumnCount(); c++) {
    hits.data[c].Copy(input.data[c], hit_sel_.data(), hit_sel_.size(), 0, 0);
  }
  hits.SetCardinality(hit_sel_.size());
  return true;
}

void PhysicalHashAggregate::FoldSpilledIntoTable(ExecutionContext& context) {
  std::vector<SpilledPartition> spilled = std::move(pending_);
  pending_.clear();
  spill_ = std::make_unique<PartitionedSpill>(spill_folder_, children[0]->types, 16, "group-by");
  for (auto& part : spilled) {
    for (auto& file : part.files) {
      Consume(context, [&](DataChunk& out, ChunkSelection& selection) {
        selection = ChunkSelection{};
        return file->Read(out);
      });
    }
    part.files.clear();  // deletes them
  }
  CollectSpill(pending_, 0);
}

std::string PhysicalHashAggregate::Details() const {
  std::string d;
  for (auto& g : groups_) d += (d.empty() ? "" : ", ") + g->ToString();
  for (auto& a : aggregates_) {
    d += (d.empty() ? "" : ", ") + a.signature.name + "(" + (a.signature.distinct ? "DISTINCT " : "") +
         (a.argument ? a.argument->ToString() : "*") + (a.second ? ", " + a.second->ToString() : "") + ")";
    if (a.filter) d += " FILTER (WHERE " + a.filter->ToString() + ")";
  }
  if (!grouping_sets_.empty()) d += " [" + std::to_string(grouping_sets_.size()) + " grouping sets]";
  if (count_from_table_) d += " [row count from table metadata]";
  // Known once the rows are in (EXPLAIN ANALYZE): long strings end the packing.
  if (packed_ && consumed_) d += " [packed keys]";
  if (threads_ > 1) {
    d += " [" + std::to_string(threads_) + " threads" +
         (merged_partitions_ ? ", " + std::to_string(merged_partitions_) + " partitions merged in parallel" : "") + "]";
  }
  if (spilled_partitions_ > 0) d += " [spilled " + std::to_string(spilled_partitions_) + " partition files]";
  return d;
}

bool PhysicalHashAggregate::CanCountFromTable(const std::vector<BoundExprPtr>& groups,
                                              const std::vector<BoundAggregate>& aggregates,
                                              const PhysicalOperator& child) {
  if (!groups.empty() || aggregates.empty()) return false;
  for (auto& a : aggregates) {
    if (a.signature.kind != AggregateKind::COUNT_STAR || a.filter) return false;
  }
  auto* scan = dynamic_cast<const PhysicalTableScan*>(&child);
  return scan && scan->CountsWithoutReading();
}

bool PhysicalHashAggregate::Parallelizable(const std::vector<BoundAggregate>& aggregates,
                                           const std::vector<std::vector<idx_t>>& grouping_sets) {
  if (!grouping_sets.empty()) return false;
  for (auto& a : aggregates) {
    if (!a.signature.Combinable() || a.signature.kind == AggregateKind::GROUPING) return false;
    if (!a.order_keys.empty() && a.signature.OrderSensitive()) return false;
  }
  return true;
}

void PhysicalHashAggregate::SetWorkers(std::vector<std::unique_ptr<PhysicalHashAggregate>> workers,
                                       std::shared_ptr<MorselSource> morsels) {
  workers_ = std::move(workers);
  threads_ = workers_.size() + 1;
  morsels_ = std::move(morsels);
}

void PhysicalHashAggregate::ConsumeParallel(ExecutionContext& context) {
  auto start = std::chrono::steady_clock::now();
  std::atomic<int64_t> worker_nanos{0};
  RunParallel(
      context, workers_.size() + 1,
      [this, &worker_nanos](idx_t worker, ExecutionContext& local) {
        auto worker_start = std::chrono::steady_clock::now();
        auto* agg = worker == 0 ? this : workers_[worker - 1].get();
        agg->Consume(local, agg->ChildSource(local));
        worker_nanos += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - worker_start).count();
      },
      [this] { morsels_->Cancel(); });
  if (context.profiling) {
    // EXPLAIN ANALYZE sums time over threads: the workers' time, not the
    // wall time this call counts (OperatorProfile).
    int64_t wall = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    if (worker_nanos > wall) Profile().nanos.fetch_add(static_cast<uint64_t>(worker_nanos - wall), std::memory_order_relaxed);
  }
  std::vector<PhysicalHashAggregate*> tables{this};
  bool any_spilled = spill_ != nullptr;
  for (auto& worker : workers_) {
    tables.push_back(worker.get());
    any_spilled = any_spilled || worker->spill_;
  }
  if (!any_spilled && PartitionedAggregateMerge::Applies(tables)) {
    partitions_ = PartitionedAggregateMerge::Merge(context, tables);
    merged_partitions_ = partitions_.size();
    workers_.clear();
    ResetTable();  // its groups are in the partitions now
    return;
  }
  size_t round_start = pending_.size();
  CollectSpill(pending_, round_start);
  bool spilled = !pending_.empty();
  for (auto& worker : workers_) {
    context.CheckInterrupt();
    Combine(*worker);
    worker->CollectSpill(pending_, round_start);
    spilled_partitions_ += worker->spilled_partitions_;
    worker.reset();  // its groups are merged: free them now
  }
  workers_.clear();
  // Rows spilled by one thread may belong to groups another thread kept.
  if (spilled || !pending_.empty()) FoldSpilledIntoTable(context);
}

void PhysicalHashAggregate::Combine(PhysicalHashAggregate& other) {
  std::vector<uint32_t> targets(std::max<idx_t>(other.group_count_, 1), 0);
  if (grouped_) {
    DataChunk keys;
    std::vector<LogicalType> key_types;
    for (auto& k : other.group_keys_) key_types.push_back(k->GetType());
    keys.Initialize(key_types);
    for (idx_t first = 0; first < other.group_count_; first += STANDARD_VECTOR_SIZE) {
      idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, other.group_count_ - first);
      keys.Reset();
      for (idx_t c = 0; c < key_types.size(); c++) keys.data[c].Copy(*other.group_keys_[c], nullptr, n, first, 0);
      keys.SetCardinality(n);
      FindGroups(keys, n, targets.data() + first);
    }
    for (auto& s : states_) s->Resize(group_count_);
    // The other table is freed right after: held briefly twice, not refused.
    ReserveGroups(group_count_, true);
  }
  for (idx_t a = 0; a < states_.size(); a++) {
    states_[a]->Combine(*other.states_[a], targets.data(), other.group_count_, nullptr);
  }
}

void PhysicalHashAggregate::PrepareInput(ExpressionExecutor& executor, DataChunk& input, const ChunkSelection& selection,
                                         idx_t a) {
  auto& agg = aggregates_[a];
  auto& in = inputs_[a];
  // A bare column reference needs no copy.
  auto evaluate = [&](const BoundExprPtr& expr, DataChunk& rows, std::unique_ptr<Vector>& scratch) -> const Vector* {
    if (!expr) return nullptr;
    if (expr->type == BoundExpressionType::COLUMN_REF) return &rows.data[expr->column_index];
    if (!scratch) scratch = std::make_unique<Vector>(expr->return_type);
    scratch->Reset();
    executor.Execute(*expr, rows, *scratch);
    return scratch.get();
  };
  auto evaluate_arguments = [&](DataChunk& rows) {
    in.arg = evaluate(agg.argument, rows, in.argument);
    in.sec = evaluate(agg.second, rows, in.second);
    in.keys.resize(agg.order_keys.size());
    in.key_ptrs.resize(agg.order_keys.size());
    for (idx_t k = 0; k < agg.order_keys.size(); k++) in.key_ptrs[k] = evaluate(agg.order_keys[k], rows, in.keys[k]);
  };
  in.rows = selection.rows;
  in.count = selection.rows ? selection.count : input.size();
  if (!agg.filter) {
    evaluate_arguments(input);
  } else {
    const Vector* pass = evaluate(agg.filter, input, in.filter_result);
    const bool* truth = pass->GetData<bool>();
    in.sel.clear();
    in.positions.clear();
    for (idx_t p = 0; p < in.count; p++) {
      const sel_t row = selection.rows ? selection.rows[p] : static_cast<sel_t>(p);
      if (!pass->IsValid(row) || !truth[row]) continue;
      in.sel.push_back(row);
      in.positions.push_back(static_cast<sel_t>(p));
    }
    in.rows = in.sel.data();
    in.count = in.sel.size();
    try {
      evaluate_arguments(input);
    } catch (const Exception& e) {
      if (e.Type() == ExceptionType::INTERRUPT) throw;
      // A row the FILTER drops may be the cause (sum(CAST(s AS INTEGER))
      // FILTER (WHERE s <> 'x')): the arguments are evaluated on a copy of
      // the passing rows, raising what one of those raises.
      in.filtered.Initialize(input.GetTypes(), std::max<idx_t>(in.count, 1));
      in.filtered.Append(input, in.sel.data(), in.count);
      evaluate_arguments(in.filtered);
      in.rows = nullptr;
      return;
    }
  }
  // ORDER BY and two-argument aggregates read dense vectors, and so do the
  // states that cannot read through a selection.
  if (!in.rows || (!ordered_[a] && !in.sec && selected_updates_[a])) return;
  auto compact = [&](const Vector* v, std::unique_ptr<Vector>& scratch) -> const Vector* {
    if (!v) return nullptr;
    if (!scratch) scratch = std::make_unique<Vector>(v->GetType());
    scratch->Reset();
    scratch->Copy(*v, in.rows, in.count, 0, 0);
    return scratch.get();
  };
  in.arg = compact(in.arg, in.compact_argument);
  in.sec = compact(in.sec, in.compact_second);
  in.compact_keys.resize(in.key_ptrs.size());
  for (idx_t k = 0; k < in.key_ptrs.size(); k++) in.key_ptrs[k] = compact(in.key_ptrs[k], in.compact_keys[k]);
  in.rows = nullptr;
}

void PhysicalHashAggregate::UpdateAggregate(idx_t a, idx_t set, const uint32_t* group_ids) {
  auto& agg = aggregates_[a];
  auto& in = inputs_[a];
  if (in.count == 0) return;
  const uint32_t* ids = group_ids;
  if (agg.filter && grouped_) {
    compact_ids_.resize(in.count);
    for (idx_t i = 0; i < in.count; i++) compact_ids_[i] = group_ids[in.positions[i]];
    ids = compact_ids_.data();
  }
  const Vector* arg = in.arg;
  const sel_t* rows = in.rows;
  if (agg.signature.kind == AggregateKind::GROUPING) {
    grouping_vector_.Fill<int64_t>(grouping_values_[a][set], in.count);
    arg = &grouping_vector_;
    rows = nullptr;  // one value for every row
  }
  AggregateState& state = *states_[a];
  if (ordered_[a]) {
    ordered_[a]->UpdateOrdered(arg, in.sec, in.key_ptrs, ids, in.count);
  } else if (in.sec) {
    state.UpdateBinary(arg, in.sec, ids, in.count);
  } else if (!grouped_) {
    if (rows) {
      selected_updates_[a]->UpdateSingleSelected(arg, rows, ids, in.count);
    } else {
      state.UpdateSingle(arg, ids, in.count);
    }
  } else if (rows) {
    selected_updates_[a]->UpdateSelected(arg, rows, ids, in.count);
  } else {
    state.Update(arg, ids, in.count);
  }
}

PhysicalHashAggregate::ChunkSource PhysicalHashAggregate::ChildSource(ExecutionContext& context) {
  SelectedOutput* selected = nullptr;
  if (all_repeatable_ && grouping_sets_.empty() && !context.profiling) selected = AllowSelectedOutput(*children[0]);
  return [this, selected, &context](DataChunk& input, ChunkSelection& selection) {
    bool more = children[0]->Next(context, input);
    selection = more && selected ? selected->Selection() : ChunkSelection{};
    return more;
  };
}

void PhysicalHashAggregate::Consume(ExecutionContext& context, const ChunkSource& source) {
  ExpressionExecutor executor(context.function_context);
  if (context.memory && !reservation_.Pool()) reservation_.Attach(context.memory);
  if (!spill_folder_) spill_folder_ = context.spill;
  DataChunk input, hits;
  children[0]->InitializeChunk(input);
  DataChunk keys;
  std::vector<LogicalType> key_types;
  for (auto& g : groups_) key_types.push_back(g->return_type);
  keys.Initialize(key_types);
  // With grouping sets: the keys of one set, and the set's index.
  DataChunk set_keys;
  if (!grouping_sets_.empty()) {
    key_types.emplace_back(TypeId::INTEGER);
    set_keys.Initialize(key_types);
  }
  std::vector<uint32_t> group_ids(STANDARD_VECTOR_SIZE, 0);
  if (count_from_table_) {
    idx_t rows = static_cast<PhysicalTableScan&>(*children[0]).RowCount();
    for (auto& s : states_) s->UpdateSingle(nullptr, nullptr, rows);
    return;
  }
  auto evaluate_keys = [&](DataChunk& rows) {
    keys.Reset();
    for (idx_t c = 0; c < groups_.size(); c++) executor.Execute(*groups_[c], rows, keys.data[c]);
    keys.SetCardinality(rows.size());
  };
  ChunkSelection selection;
  while (source(input, selection)) {
    context.CheckInterrupt();
    if (input.size() == 0) continue;
    idx_t count = selection.rows ? selection.count : input.size();
    // Room for every row being a new group, or else spill mode. An empty
    // table takes one chunk whatever the limit, so each round makes progress.
    if (grouped_ && !spill_ && !ReserveGroups(group_count_ + count, group_count_ == 0)) {
      StartSpilling(context, (group_count_ + count) * bytes_per_group_ + string_bytes_ - reservation_.Size());
    }
    bool cut = false;
    if (spill_) {
      // Spilling sends whole rows to files: a dense chunk.
      cut = CutToSelection(input, selection);
      evaluate_keys(input);
      if (hits.ColumnCount() == 0) children[0]->InitializeChunk(hits);
      if (!SplitMisses(input, keys, hits)) {
        if (cut) children[0]->InitializeChunk(input);
        continue;
      }
      count = hits.size();
      evaluate_keys(hits);
      for (idx_t a = 0; a < aggregates_.size(); a++) {
        if (totals_of_[a] == kOwnTotals) PrepareInput(executor, hits, selection, a);
      }
    } else {
      // Keys and arguments of every row; a row outside the selection that
      // raises makes them evaluated on a copy of the selected rows instead.
      cut = EvaluateOnSelection(input, selection, [&] {
        if (!groups_.empty()) evaluate_keys(input);
        for (idx_t a = 0; a < aggregates_.size(); a++) {
          if (totals_of_[a] == kOwnTotals) PrepareInput(executor, input, selection, a);
        }
      });
      count = selection.rows ? selection.count : input.size();
    }
    idx_t set_count = std::max<idx_t>(1, grouping_sets_.size());
    for (idx_t set = 0; set < set_count; set++) {
      if (!grouping_sets_.empty()) {
        set_keys.Reset();
        for (idx_t c = 0; c < groups_.size(); c++) {
          auto& members = grouping_sets_[set];
          if (std::find(members.begin(), members.end(), c) != members.end()) {
            set_keys.data[c].Copy(keys.data[c], nullptr, count, 0, 0);
          } else {
            std::fill_n(set_keys.data[c].Validity(), count, 0);
          }
        }
        set_keys.data[groups_.size()].Fill<int32_t>(static_cast<int32_t>(set), count);
        set_keys.SetCardinality(count);
        FindGroups(set_keys, count, group_ids.data());
      } else if (!groups_.empty()) {
        FindGroups(keys, count, group_ids.data(), true, selection.rows);
      }
      if (grouped_) {
        for (auto& s : states_) s->Resize(group_count_);
      }
      for (idx_t a = 0; a < aggregates_.size(); a++) {
        if (totals_of_[a] == kOwnTotals) UpdateAggregate(a, set, group_ids.data());
      }
    }
    // Cut down to the selected rows: the source's next chunk needs the full capacity.
    if (cut) children[0]->InitializeChunk(input);
  }
}

bool PhysicalHashAggregate::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!consumed_) {
    if (workers_.empty()) {
      Consume(context, ChildSource(context));
      CollectSpill(pending_, 0);
    } else {
      ConsumeParallel(context);
    }
    consumed_ = true;
  }
  while (next_partition_ < partitions_.size()) {
    PhysicalHashAggregate& part = *partitions_[next_partition_];
    if (part.emitted_ < part.group_count_) {
      part.EmitChunk(out);
      return true;
    }
    partitions_[next_partition_++].reset();  // emitted: free it now
  }
  while (emitted_ >= group_count_) {
    // The table's groups are out: aggregate the next spilled partition in it.
    if (pending_.empty()) {
      reservation_.Reset();
      return false;
    }
    SpilledPartition part = std::move(pending_.back());
    pending_.pop_back();
    ResetTable();
    depth_ = part.depth + 1;
    for (auto& file : part.files) {
      Consume(context, [&](DataChunk& input, ChunkSelection& selection) {
        selection = ChunkSelection{};
        return file->Read(input);
      });
      file.reset();  // read: delete it now
    }
    CollectSpill(pending_, pending_.size());
  }
  EmitChunk(out);
  return true;
}

void PhysicalHashAggregate::EmitChunk(DataChunk& out) {
  idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, group_count_ - emitted_);
  out.Reset();
  for (idx_t c = 0; c < groups_.size(); c++) out.data[c].Copy(*group_keys_[c], nullptr, n, emitted_, 0);
  for (idx_t a = 0; a < aggregates_.size(); a++) states_[a]->Finalize(emitted_, n, out.data[groups_.size() + a]);
  out.SetCardinality(n);
  emitted_ += n;
}

}  // namespace lakestream
