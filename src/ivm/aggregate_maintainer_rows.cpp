// AggregateMaintainer's commit from the stored rows kept by group
// (aggregate_maintainer.hpp, "The view's stored rows"): the touched groups'
// new rows built from the state into chunks, compared with their stored rows
// cell by cell, and the commit's updates, deletes, inserts and removed values.
#include "ivm/aggregate_maintainer.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"

namespace lakestream {

void AggregateMaintainer::WriteFinals(Vector& out, const GroupId* groups, idx_t count, idx_t j) const {
  const AggregateSignature& sig = view_aggregates_[j];
  const idx_t sub = first_sub_[j];
  const bool bigint = out.GetType().id() == TypeId::BIGINT;
  // COUNT(*), COUNT and SUM in their own type: straight from the state's arrays.
  if (bigint && (sig.kind == AggregateKind::COUNT_STAR || sig.kind == AggregateKind::COUNT)) {
    auto* data = out.GetData<int64_t>();
    for (idx_t r = 0; r < count; r++) {
      data[r] = sig.kind == AggregateKind::COUNT_STAR ? state_->Count(groups[r]) : state_->Counter(groups[r], sub);
    }
    out.SetAllValid(count);
    return;
  }
  if (sig.kind == AggregateKind::SUM && out.GetType() == sig.return_type &&
      (bigint || out.GetType().id() == TypeId::DECIMAL)) {
    uint8_t* valid = out.Validity();
    for (idx_t r = 0; r < count; r++) {
      // NULL while no non-NULL value is summed (FinalValue).
      valid[r] = state_->Counter(groups[r], sub + 1) != 0 ? 1 : 0;
      if (!valid[r]) continue;
      if (bigint) {
        out.GetData<int64_t>()[r] = state_->Counter(groups[r], sub);
      } else {
        out.GetData<hugeint_t>()[r] = state_->Wide(groups[r], sub);
      }
    }
    return;
  }
  for (idx_t r = 0; r < count; r++) out.SetValue(r, FinalValue(groups[r], j));  // casts to the column's type
}

ChunkCollection AggregateMaintainer::NewRows(const std::vector<GroupId>& groups) const {
  ChunkCollection out(view_types_);
  for (idx_t start = 0; start < groups.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t count = std::min<idx_t>(STANDARD_VECTOR_SIZE, groups.size() - start);
    DataChunk chunk;
    chunk.Initialize(view_types_, count);
    for (idx_t c = 0; c < direct_.size(); c++) {
      auto [is_key, index] = direct_[c];
      if (is_key) {
        for (idx_t r = 0; r < count; r++) chunk.data[c].SetValue(r, state_->KeyValue(groups[start + r], index));
      } else {
        WriteFinals(chunk.data[c], groups.data() + start, count, index);
      }
    }
    chunk.SetCardinality(count);
    out.Append(std::move(chunk));
  }
  return out;
}

// Rows `rows` (indexes into `from`, whose row r is in chunk r / STANDARD_VECTOR_SIZE) in that order.
static ChunkCollection SelectRows(const ChunkCollection& from, const std::vector<idx_t>& rows) {
  ChunkCollection out(from.Types());
  for (idx_t start = 0; start < rows.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t count = std::min<idx_t>(STANDARD_VECTOR_SIZE, rows.size() - start);
    DataChunk chunk;
    chunk.Initialize(from.Types(), count);
    std::vector<sel_t> run;
    idx_t run_chunk = 0;
    for (idx_t i = start; i <= start + count; i++) {
      idx_t source = i < start + count ? rows[i] / STANDARD_VECTOR_SIZE : ~idx_t(0);
      if (!run.empty() && source != run_chunk) {
        chunk.Append(from.Chunk(run_chunk), run.data(), run.size());
        run.clear();
      }
      if (i == start + count) break;
      run_chunk = source;
      run.push_back(static_cast<sel_t>(rows[i] % STANDARD_VECTOR_SIZE));
    }
    out.Append(std::move(chunk));
  }
  return out;
}

bool AggregateMaintainer::CommitFromStoredRows(const std::vector<GroupId>& ids, const std::vector<uint8_t>& live,
                                               TableCommit& commit, ChunkCollection& removed) {
  const ViewStoredRows& stored = *stored_.by_group;
  // Per touched group: its stored row's place (if any) and its new row (if it still has rows).
  std::vector<std::pair<uint32_t, uint32_t>> places;
  std::vector<GroupId> states;
  std::vector<idx_t> state_of(ids.size(), ~idx_t(0));  // index into states
  for (idx_t k = 0; k < ids.size(); k++) {
    if (stored.Has(ids[k])) places.emplace_back(stored.File(ids[k]), stored.Position(ids[k]));
    if (live[k]) {
      state_of[k] = states.size();
      states.push_back(ids[k]);
    }
  }
  std::vector<row_t> present_ids;
  if (!RowIdsOf(stored.Paths(), places, present_ids)) return false;
  ChunkCollection fresh = NewRows(states);
  struct Change {
    row_t id;
    idx_t key;
  };
  std::vector<Change> updates, deletes;
  std::vector<idx_t> inserts;
  for (idx_t k = 0, p = 0; k < ids.size(); k++) {
    bool had = stored.Has(ids[k]);
    row_t id = had ? present_ids[p++] : 0;
    idx_t at = state_of[k];
    if (had && at != ~idx_t(0)) {
      if (!stored.Equals(ids[k], fresh.Chunk(at / STANDARD_VECTOR_SIZE), at % STANDARD_VECTOR_SIZE)) {
        updates.push_back({id, k});
      }
    } else if (had) {
      deletes.push_back({id, k});
    } else if (at != ~idx_t(0)) {
      inserts.push_back(k);
    }
  }
  // Updates by the row id they replace: the order DeltaTable::Commit writes their new versions in.
  std::sort(updates.begin(), updates.end(), [](const Change& a, const Change& b) { return a.id < b.id; });
  std::vector<GroupId> gone;
  std::vector<idx_t> updated, inserted;
  for (auto& d : deletes) {
    commit.deleted_rows.push_back(d.id);
    gone.push_back(ids[d.key]);
    pending_.removed_groups.push_back(ids[d.key]);
  }
  for (auto& u : updates) {
    commit.updated_row_ids.push_back(u.id);
    gone.push_back(ids[u.key]);
    updated.push_back(state_of[u.key]);
  }
  for (idx_t k : inserts) inserted.push_back(state_of[k]);
  commit.updated = SelectRows(fresh, updated);
  commit.inserted = SelectRows(fresh, inserted);
  removed = ChunkCollection(view_.Types());
  stored.Gather(gone, removed);
  // In the order the commit's data file gets them: updates, then inserts.
  for (auto& u : updates) pending_.written_groups.push_back(ids[u.key]);
  for (idx_t k : inserts) pending_.written_groups.push_back(ids[k]);
  pending_.written_rows = std::move(updated);
  pending_.written_rows.insert(pending_.written_rows.end(), inserted.begin(), inserted.end());
  pending_.fresh = std::move(fresh);
  return true;
}

}  // namespace lakestream
