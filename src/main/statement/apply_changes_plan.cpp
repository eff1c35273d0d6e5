#include "main/statement/apply_changes_plan.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "common/exception.hpp"

namespace lakestream {

namespace {

using Row = std::vector<Value>;  // one value per target column

bool SameValue(const Value& a, const Value& b) {
  if (a.IsNull() || b.IsNull()) return a.IsNull() == b.IsNull();
  return a.Compare(b) == 0;
}

bool SameRow(const Row& a, const Row& b) {
  for (idx_t c = 0; c < a.size(); c++) {
    if (!SameValue(a[c], b[c])) return false;
  }
  return true;
}

void AppendKeyPart(std::string& key, const Value& v) {
  std::string text = v.ToString();
  key += std::to_string(text.size()) + ":" + text;
}

// Appends rows to a ChunkCollection a chunk at a time.
class RowSink {
 public:
  RowSink(ChunkCollection& out, std::vector<LogicalType> types) : out_(out), types_(std::move(types)) {
    chunk_.Initialize(types_);
  }
  void Add(const Row& row) {
    idx_t r = chunk_.size();
    for (idx_t c = 0; c < row.size(); c++) chunk_.SetValue(c, r, row[c]);
    chunk_.SetCardinality(r + 1);
    if (chunk_.size() == STANDARD_VECTOR_SIZE) Flush();
  }
  void Flush() {
    if (chunk_.size() == 0) return;
    out_.Append(chunk_);
    chunk_.Initialize(types_);
  }

 private:
  ChunkCollection& out_;
  std::vector<LogicalType> types_;
  DataChunk chunk_;
};

struct StoredRow {
  row_t id;
  Row values;
};

struct Event {
  uint32_t chunk, row;
  uint64_t order;  // arrival; stored history sorts after new events at the same sequence
  Value sequence;
  bool is_delete;
};

class Planner {
 public:
  Planner(const ApplyChangesSpec& spec, const ChunkCollection& input, TableCatalogEntry& target, CdcState& state,
          TableCommit& commit)
      : spec_(spec), input_(input), target_(target), state_(state), commit_(commit), types_(target.Types()),
        inserted_(commit.inserted, types_), updated_(commit.updated, types_) {}

  ApplyChangesCounts Run() {
    commit_.inserted.SetTypes(types_);
    commit_.updated.SetTypes(types_);
    ReadEvents();
    ScanTarget();
    for (auto& key : key_order_) {
      if (spec_.scd_type == 2) {
        ApplyHistory(key);
      } else {
        ApplyLatest(key);
      }
    }
    inserted_.Flush();
    updated_.Flush();
    counts_.inserted = static_cast<int64_t>(commit_.inserted.Count());
    counts_.updated = static_cast<int64_t>(commit_.updated.Count());
    counts_.deleted = static_cast<int64_t>(commit_.deleted_rows.size());
    return counts_;
  }

 private:
  Value InputValue(const DataChunk& chunk, idx_t column, idx_t row, const LogicalType& type) const {
    Value v = chunk.GetValue(column, row);
    if (!v.IsNull() && v.type() != type) v = v.CastAs(type);
    if (v.IsNull()) v = Value(type);
    return v;
  }

  bool IsTrue(const DataChunk& chunk, int64_t column, idx_t row) const {
    if (column < 0) return false;
    const Vector& v = chunk.data[column];
    return v.IsValid(row) && v.GetData<bool>()[row];
  }

  // The event's values in the target's columns (__START_AT / __END_AT NULL).
  Row EventRow(const Event& e) const {
    const DataChunk& chunk = input_.Chunk(e.chunk);
    Row row;
    row.reserve(types_.size());
    for (idx_t c = 0; c < types_.size(); c++) {
      int64_t source = spec_.target_source[c];
      row.push_back(source >= 0 ? InputValue(chunk, source, e.row, types_[c]) : Value(types_[c]));
    }
    return row;
  }

  void ReadEvents() {
    std::optional<Value> truncate;
    uint64_t order = 0;
    for (idx_t k = 0; k < input_.ChunkCount(); k++) {
      const DataChunk& chunk = input_.Chunk(k);
      for (idx_t r = 0; r < chunk.size(); r++) {
        counts_.events++;
        Value sequence = chunk.GetValue(spec_.sequence_column, r);
        if (sequence.IsNull()) {
          throw ConstraintError("APPLY CHANGES INTO " + spec_.target + ": a change has NULL as its sequence (SEQUENCE BY " +
                                spec_.sequence_text + "); every change needs one: filter such rows out of the source, or "
                                "COALESCE the sequence");
        }
        if (IsTrue(chunk, spec_.truncate_column, r)) {
          if (!truncate || sequence.Compare(*truncate) > 0) truncate = sequence;
          continue;
        }
        std::string key;
        for (idx_t c : spec_.key_columns) {
          Value v = InputValue(chunk, spec_.target_source[c], r, types_[c]);
          if (v.IsNull()) {
            throw ConstraintError("APPLY CHANGES INTO " + spec_.target + ": a change has NULL in key column " +
                                  target_.columns[c].name + "; filter such rows out of the source (WHERE " +
                                  target_.columns[c].name + " IS NOT NULL)");
          }
          AppendKeyPart(key, v);
        }
        auto [it, inserted] = by_key_.try_emplace(std::move(key));
        if (inserted) key_order_.push_back(it->first);
        it->second.push_back(Event{static_cast<uint32_t>(k), static_cast<uint32_t>(r), order++, std::move(sequence),
                                   IsTrue(chunk, spec_.delete_column, r)});
      }
    }
    // A truncate newer than the last one empties the table; changes up to it are void.
    if (truncate && (!state_.truncated_at || truncate->Compare(*state_.truncated_at) > 0)) {
      truncating_ = true;
      state_.truncated_at = truncate;
      state_.keys.clear();
    }
  }

  std::string KeyOfStored(const Row& row) const {
    std::string key;
    for (idx_t c : spec_.key_columns) AppendKeyPart(key, row[c]);
    return key;
  }

  void ScanTarget() {
    std::vector<idx_t> all;
    for (idx_t i = 0; i < types_.size(); i++) all.push_back(i);
    auto scan = target_.storage->Scan(all);
    DataChunk chunk;
    chunk.Initialize(types_);
    Vector row_ids(TypeId::BIGINT);
    while (scan->Next(chunk, &row_ids)) {
      for (idx_t r = 0; r < chunk.size(); r++) {
        row_t id = row_ids.GetData<int64_t>()[r];
        if (truncating_) {
          commit_.deleted_rows.push_back(id);
          continue;
        }
        Row values;
        values.reserve(types_.size());
        for (idx_t c = 0; c < types_.size(); c++) values.push_back(chunk.GetValue(c, r));
        std::string key = KeyOfStored(values);
        if (!by_key_.count(key)) continue;
        stored_[key].push_back(StoredRow{id, std::move(values)});
      }
      chunk.Reset();
    }
  }

  // Events of `key` that are not void: newer than the last truncate.
  std::vector<Event*> LiveEvents(const std::string& key) {
    std::vector<Event*> events;
    for (auto& e : by_key_[key]) {
      if (state_.truncated_at && e.sequence.Compare(*state_.truncated_at) <= 0) {
        counts_.ignored++;
        continue;
      }
      events.push_back(&e);
    }
    return events;
  }

  // SCD type 1: the newest state of the row wins.
  void ApplyLatest(const std::string& key) {
    std::vector<Event*> events = LiveEvents(key);
    CdcKeyState& ks = state_.keys[key];
    if (ks.sequence) {
      // Older than (or as old as) the last change applied, or the tombstone: ignored.
      std::erase_if(events, [&](Event* e) {
        bool old = e->sequence.Compare(*ks.sequence) <= 0;
        counts_.ignored += old;
        return old;
      });
    }
    if (events.empty()) {
      if (!ks.sequence) state_.keys.erase(key);
      return;
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const Event* a, const Event* b) { return a->sequence.Compare(b->sequence) < 0; });
    auto found = stored_.find(key);
    const StoredRow* stored = found != stored_.end() && !found->second.empty() ? &found->second.front() : nullptr;
    std::optional<Row> row;
    if (stored) row = stored->values;
    for (Event* e : events) {
      if (e->is_delete) {
        row.reset();
        continue;
      }
      Row next = EventRow(*e);
      if (spec_.ignore_null_updates && row) {
        for (idx_t c = 0; c < next.size(); c++) {
          if (next[c].IsNull()) next[c] = (*row)[c];
        }
      }
      row = std::move(next);
    }
    ks.sequence = events.back()->sequence;
    ks.deleted_at_ms = row ? -1 : spec_.now_ms;
    if (stored && row) {
      if (!SameRow(stored->values, *row)) {
        commit_.updated_row_ids.push_back(stored->id);
        updated_.Add(*row);
      }
    } else if (stored) {
      commit_.deleted_rows.push_back(stored->id);
    } else if (row) {
      inserted_.Add(*row);
    }
  }

  struct Version {
    Value start;
    Value end;  // NULL: the current version
    Row values;
  };

  struct Step {
    Value sequence;
    uint64_t order;
    bool is_delete;
    Row values;  // upserts
  };

  bool TrackedSame(const Row& a, const Row& b) const {
    for (idx_t c = 0; c < a.size(); c++) {
      if (static_cast<int64_t>(c) == spec_.start_column || static_cast<int64_t>(c) == spec_.end_column) continue;
      if (spec_.tracked[c] && !SameValue(a[c], b[c])) return false;
    }
    return true;
  }

  // SCD type 2: the key's history, rebuilt from what is stored plus the new events.
  void ApplyHistory(const std::string& key) {
    const LogicalType& sequence_type = types_[spec_.start_column];
    constexpr uint64_t kStored = std::numeric_limits<uint64_t>::max();
    std::vector<Step> steps;
    std::vector<StoredRow> empty;
    auto found = stored_.find(key);
    const std::vector<StoredRow>& stored = found != stored_.end() ? found->second : empty;
    for (auto& s : stored) {
      const Value& start = s.values[spec_.start_column];
      const Value& end = s.values[spec_.end_column];
      Row values = s.values;
      values[spec_.start_column] = Value(sequence_type);
      values[spec_.end_column] = Value(sequence_type);
      steps.push_back(Step{start, kStored, false, std::move(values)});
      bool reopened = std::any_of(stored.begin(), stored.end(), [&](const StoredRow& other) {
        return SameValue(other.values[spec_.start_column], end);
      });
      if (!end.IsNull() && !reopened) steps.push_back(Step{end, kStored - 1, true, {}});
    }
    CdcKeyState& ks = state_.keys[key];
    for (auto& d : ks.deletes) steps.push_back(Step{d.sequence, kStored - 1, true, {}});
    for (Event* e : LiveEvents(key)) {
      Value sequence = e->sequence;
      if (sequence.type() != sequence_type) sequence = sequence.CastAs(sequence_type);
      if (e->is_delete) {
        bool known = std::any_of(ks.deletes.begin(), ks.deletes.end(),
                                 [&](const CdcDelete& d) { return SameValue(d.sequence, sequence); });
        if (!known) ks.deletes.push_back(CdcDelete{sequence, spec_.now_ms});
        steps.push_back(Step{std::move(sequence), e->order, true, {}});
      } else {
        steps.push_back(Step{std::move(sequence), e->order, false, EventRow(*e)});
      }
    }
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
      int c = a.sequence.Compare(b.sequence);
      return c != 0 ? c < 0 : a.order < b.order;
    });
    // Replay; of several steps at one sequence the last decides.
    std::vector<Version> history;
    int64_t current = -1;
    for (idx_t i = 0; i < steps.size(); i++) {
      if (i + 1 < steps.size() && steps[i + 1].sequence.Compare(steps[i].sequence) == 0) continue;
      Step& step = steps[i];
      if (step.is_delete) {
        if (current >= 0) history[current].end = step.sequence;
        current = -1;
        continue;
      }
      Row values = std::move(step.values);
      if (current >= 0) {
        Row& open = history[current].values;
        if (spec_.ignore_null_updates) {
          for (idx_t c = 0; c < values.size(); c++) {
            if (values[c].IsNull()) values[c] = open[c];
          }
        }
        if (TrackedSame(open, values)) {
          open = std::move(values);  // only untracked columns changed: in place
          continue;
        }
        history[current].end = step.sequence;
      }
      history.push_back(Version{step.sequence, Value(sequence_type), std::move(values)});
      current = static_cast<int64_t>(history.size()) - 1;
    }
    // Only the versions that differ from the stored ones are written.
    std::vector<bool> matched(stored.size(), false);
    for (auto& version : history) {
      Row row = std::move(version.values);
      row[spec_.start_column] = version.start;
      row[spec_.end_column] = version.end;
      bool done = false;
      for (idx_t s = 0; s < stored.size() && !done; s++) {
        if (matched[s] || !SameValue(stored[s].values[spec_.start_column], version.start)) continue;
        matched[s] = done = true;
        if (!SameRow(stored[s].values, row)) {
          commit_.updated_row_ids.push_back(stored[s].id);
          updated_.Add(row);
        }
      }
      if (!done) inserted_.Add(row);
    }
    for (idx_t s = 0; s < stored.size(); s++) {
      if (!matched[s]) commit_.deleted_rows.push_back(stored[s].id);
    }
    if (ks.deletes.empty() && !ks.sequence) state_.keys.erase(key);
  }

  const ApplyChangesSpec& spec_;
  const ChunkCollection& input_;
  TableCatalogEntry& target_;
  CdcState& state_;
  TableCommit& commit_;
  std::vector<LogicalType> types_;
  RowSink inserted_;
  RowSink updated_;
  std::unordered_map<std::string, std::vector<Event>> by_key_;
  std::vector<std::string> key_order_;  // first appearance: inserts keep the input's order
  std::unordered_map<std::string, std::vector<StoredRow>> stored_;
  bool truncating_ = false;
  ApplyChangesCounts counts_;
};

}  // namespace

ApplyChangesCounts PlanApplyChanges(const ApplyChangesSpec& spec, const ChunkCollection& input, TableCatalogEntry& target,
                                    CdcState& state, TableCommit& commit) {
  return Planner(spec, input, target, state, commit).Run();
}

}  // namespace lakestream
