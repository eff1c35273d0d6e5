#include "main/statement/apply_changes_plan.hpp"

#include <algorithm>
#include <limits>
#include <cstdio>
#include <optional>
#include <string_view>
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

// A key is its values as text, each prefixed with its length (so ("a", "bc")
// and ("ab", "c") differ); the state file stores keys so.
void AppendKeyText(std::string& key, std::string_view text) {
  char length[24];
  int n = snprintf(length, sizeof(length), "%zu:", text.size());
  key.append(length, n);
  key.append(text);
}

void AppendKeyPart(std::string& key, const Value& v) { AppendKeyText(key, v.ToString()); }

// The same for an integer column, without building a Value (the hot path of large batches).
bool AppendIntegerKeyPart(std::string& key, const Vector& vector, idx_t row) {
  char text[24];
  int n;
  switch (vector.GetType().id()) {
    case TypeId::BIGINT: n = snprintf(text, sizeof(text), "%lld", static_cast<long long>(vector.GetData<int64_t>()[row])); break;
    case TypeId::INTEGER: n = snprintf(text, sizeof(text), "%d", vector.GetData<int32_t>()[row]); break;
    default: return false;
  }
  AppendKeyText(key, std::string_view(text, n));
  return true;
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
  uint32_t key;    // key id
  bool is_delete;
  int64_t sequence;  // an integer sequence itself, else its index in Planner::sequences_
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
    GroupByKey();
    for (uint32_t id = 0; id < keys_.size(); id++) {
      if (spec_.scd_type == 2) {
        ApplyHistory(id);
      } else {
        ApplyLatest(id);
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

  // Integer-like sequences (the common case) are compared as integers, without a Value per event.
  static bool IsIntegerSequence(TypeId id) {
    return id == TypeId::BIGINT || id == TypeId::INTEGER || id == TypeId::TIMESTAMP || id == TypeId::DATE;
  }

  Value SequenceOf(const Event& e) const {
    if (!integer_sequence_) return sequences_[e.sequence];
    switch (sequence_type_.id()) {
      case TypeId::INTEGER: return Value::INTEGER(static_cast<int32_t>(e.sequence));
      case TypeId::DATE: return Value::DATE(static_cast<date_t>(e.sequence));
      case TypeId::TIMESTAMP: return Value::TIMESTAMP(e.sequence);
      default: return Value::BIGINT(e.sequence);
    }
  }

  int CompareEvents(const Event& a, const Event& b) const {
    if (integer_sequence_) return (a.sequence > b.sequence) - (a.sequence < b.sequence);
    return sequences_[a.sequence].Compare(sequences_[b.sequence]);
  }

  // `v` is a sequence of the same type (the state's, a truncate's).
  int CompareTo(const Event& e, const Value& v) const {
    if (integer_sequence_ && v.type().id() == sequence_type_.id()) {
      int64_t w = sequence_type_.id() == TypeId::INTEGER || sequence_type_.id() == TypeId::DATE ? v.GetInteger() : v.GetBigint();
      return (e.sequence > w) - (e.sequence < w);
    }
    return SequenceOf(e).Compare(v);
  }

  static int64_t IntegerAt(const Vector& v, idx_t row) {
    return v.GetType().id() == TypeId::INTEGER ? v.GetData<int32_t>()[row] : v.GetData<int64_t>()[row];
  }

  // The id of row `r`'s key (its values in the target's types), new ids in order of first appearance.
  uint32_t KeyId(const DataChunk& chunk, idx_t r) {
    std::string key;
    for (idx_t c : spec_.key_columns) {
      const Vector& column = chunk.data[spec_.target_source[c]];
      if (column.IsValid(r) && column.GetType() == types_[c] && AppendIntegerKeyPart(key, column, r)) continue;
      Value v = InputValue(chunk, spec_.target_source[c], r, types_[c]);
      if (v.IsNull()) {
        throw ConstraintError("APPLY CHANGES INTO " + spec_.target + ": a change has NULL in key column " +
                              target_.columns[c].name + "; filter such rows out of the source (WHERE " +
                              target_.columns[c].name + " IS NOT NULL)");
      }
      AppendKeyPart(key, v);
    }
    auto [it, inserted] = key_ids_.try_emplace(std::move(key), static_cast<uint32_t>(keys_.size()));
    if (inserted) keys_.push_back(it->first);
    return it->second;
  }

  void ReadEvents() {
    sequence_type_ = input_.Types()[spec_.sequence_column];
    integer_sequence_ = IsIntegerSequence(sequence_type_.id());
    // One integer key column (the common case) is looked up as an integer.
    if (spec_.key_columns.size() == 1) {
      idx_t c = spec_.key_columns[0];
      TypeId id = types_[c].id();
      integer_key_ = (id == TypeId::BIGINT || id == TypeId::INTEGER) && input_.Types()[spec_.target_source[c]] == types_[c];
    }
    if (integer_key_) {
      integer_key_ids_.reserve(input_.Count());
    } else {
      key_ids_.reserve(input_.Count());
    }
    events_.reserve(input_.Count());
    std::optional<Value> truncate;
    uint64_t order = 0;
    for (idx_t k = 0; k < input_.ChunkCount(); k++) {
      const DataChunk& chunk = input_.Chunk(k);
      for (idx_t r = 0; r < chunk.size(); r++) {
        counts_.events++;
        const Vector& sequence_vector = chunk.data[spec_.sequence_column];
        if (!sequence_vector.IsValid(r)) {
          throw ConstraintError("APPLY CHANGES INTO " + spec_.target + ": a change has NULL as its sequence (SEQUENCE BY " +
                                spec_.sequence_text + "); every change needs one: filter such rows out of the source, or "
                                "COALESCE the sequence");
        }
        if (IsTrue(chunk, spec_.truncate_column, r)) {
          Value sequence = chunk.GetValue(spec_.sequence_column, r);
          if (!truncate || sequence.Compare(*truncate) > 0) truncate = sequence;
          continue;
        }
        uint32_t key_id;
        const Vector* key_column = integer_key_ ? &chunk.data[spec_.target_source[spec_.key_columns[0]]] : nullptr;
        if (key_column && key_column->IsValid(r)) {
          auto [it, inserted] = integer_key_ids_.try_emplace(IntegerAt(*key_column, r), static_cast<uint32_t>(keys_.size()));
          if (inserted) {
            keys_.emplace_back();
            AppendIntegerKeyPart(keys_.back(), *key_column, r);
          }
          key_id = it->second;
        } else {
          key_id = KeyId(chunk, r);  // throws for a NULL key
        }
        int64_t sequence;
        if (integer_sequence_) {
          sequence = sequence_type_.id() == TypeId::INTEGER || sequence_type_.id() == TypeId::DATE
                         ? sequence_vector.GetData<int32_t>()[r]
                         : sequence_vector.GetData<int64_t>()[r];
        } else {
          sequence = static_cast<int64_t>(sequences_.size());
          sequences_.push_back(chunk.GetValue(spec_.sequence_column, r));
        }
        events_.push_back(Event{static_cast<uint32_t>(k), static_cast<uint32_t>(r), order++, key_id,
                                IsTrue(chunk, spec_.delete_column, r), sequence});
      }
    }
    // A truncate newer than the last one empties the table; changes up to it are void.
    if (truncate && (!state_.truncated_at || truncate->Compare(*state_.truncated_at) > 0)) {
      truncating_ = true;
      state_.truncated_at = truncate;
      state_.keys.clear();
    }
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
        int64_t key_id = -1;
        if (integer_key_ && chunk.data[spec_.key_columns[0]].IsValid(r)) {
          auto it = integer_key_ids_.find(IntegerAt(chunk.data[spec_.key_columns[0]], r));
          if (it != integer_key_ids_.end()) key_id = it->second;
        } else {
          std::string key;
          for (idx_t c : spec_.key_columns) {
            if (chunk.data[c].IsValid(r) && AppendIntegerKeyPart(key, chunk.data[c], r)) continue;
            AppendKeyPart(key, chunk.GetValue(c, r));
          }
          auto it = key_ids_.find(key);
          if (it != key_ids_.end()) key_id = it->second;
        }
        if (key_id < 0) continue;
        Row values;
        values.reserve(types_.size());
        for (idx_t c = 0; c < types_.size(); c++) values.push_back(chunk.GetValue(c, r));
        stored_[key_id].push_back(StoredRow{id, std::move(values)});
      }
      chunk.Reset();
    }
  }

  // Events of `key` that are not void: newer than the last truncate.
  // Event indices grouped by key id (a counting sort), arrival order within a key.
  void GroupByKey() {
    key_start_.assign(keys_.size() + 1, 0);
    for (auto& e : events_) key_start_[e.key + 1]++;
    for (idx_t i = 1; i < key_start_.size(); i++) key_start_[i] += key_start_[i - 1];
    std::vector<uint32_t> next(key_start_.begin(), key_start_.end() - 1);
    grouped_.resize(events_.size());
    for (uint32_t i = 0; i < events_.size(); i++) grouped_[next[events_[i].key]++] = i;
  }

  std::vector<Event*> LiveEvents(uint32_t key) {
    std::vector<Event*> events;
    for (uint32_t i = key_start_[key]; i < key_start_[key + 1]; i++) {
      Event& e = events_[grouped_[i]];
      if (state_.truncated_at && CompareTo(e, *state_.truncated_at) <= 0) {
        counts_.ignored++;
        continue;
      }
      events.push_back(&e);
    }
    return events;
  }

  // SCD type 1: the newest state of the row wins.
  void ApplyLatest(uint32_t id) {
    const std::string& key = keys_[id];
    std::vector<Event*> events = LiveEvents(id);
    CdcKeyState& ks = state_.keys[key];
    if (ks.sequence) {
      // Older than (or as old as) the last change applied, or the tombstone: ignored.
      std::erase_if(events, [&](Event* e) {
        bool old = CompareTo(*e, *ks.sequence) <= 0;
        counts_.ignored += old;
        return old;
      });
    }
    if (events.empty()) {
      if (!ks.sequence) state_.keys.erase(key);
      return;
    }
    std::stable_sort(events.begin(), events.end(),
                     [this](const Event* a, const Event* b) { return CompareEvents(*a, *b) < 0; });
    auto found = stored_.find(id);
    const StoredRow* stored = found != stored_.end() && !found->second.empty() ? &found->second.front() : nullptr;
    std::optional<Row> row;
    if (stored) row = stored->values;
    // Without IGNORE NULL UPDATES only the newest event matters.
    if (!spec_.ignore_null_updates) events.erase(events.begin(), events.end() - 1);
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
    ks.sequence = SequenceOf(*events.back());
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
  void ApplyHistory(uint32_t id) {
    const std::string& key = keys_[id];
    const LogicalType& sequence_type = types_[spec_.start_column];
    constexpr uint64_t kStored = std::numeric_limits<uint64_t>::max();
    std::vector<Step> steps;
    std::vector<StoredRow> empty;
    auto found = stored_.find(id);
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
    for (Event* e : LiveEvents(id)) {
      Value sequence = SequenceOf(*e);
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
  std::vector<Event> events_;                           // in arrival order
  LogicalType sequence_type_;
  bool integer_sequence_ = false;
  std::vector<Value> sequences_;                        // non-integer sequences, by Event::sequence
  std::unordered_map<std::string, uint32_t> key_ids_;   // encoded key -> id (first appearance)
  bool integer_key_ = false;
  std::unordered_map<int64_t, uint32_t> integer_key_ids_;  // the same for one integer key column
  std::vector<std::string> keys_;                       // by id: inserts keep the input's order
  std::vector<uint32_t> key_start_;                     // events of key i: grouped_[key_start_[i], key_start_[i + 1])
  std::vector<uint32_t> grouped_;
  std::unordered_map<uint32_t, std::vector<StoredRow>> stored_;  // by key id
  bool truncating_ = false;
  ApplyChangesCounts counts_;
};

}  // namespace

ApplyChangesCounts PlanApplyChanges(const ApplyChangesSpec& spec, const ChunkCollection& input, TableCatalogEntry& target,
                                    CdcState& state, TableCommit& commit) {
  return Planner(spec, input, target, state, commit).Run();
}

}  // namespace lakestream
