// Data skipping for Delta scans: table filters (storage/table_filter.hpp)
// against each file's partition values and min/max/null-count statistics.
#include <nlohmann/json.hpp>

#include "common/date.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/delta_stats.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

static bool IsPartitionColumn(const DeltaSnapshotState& state, const std::string& name) {
  for (auto& p : state.snapshot.partition_columns()) {
    if (StringUtil::CIEquals(p, name)) return true;
  }
  return false;
}

namespace {

// The statistics of one file's columns: partition values as constants, and
// minValues/maxValues/nullCount/numRecords of its stats (parsed on first use).
class FileStatistics {
 public:
  FileStatistics(const DeltaSnapshotState& state, const delta::AddFile& add, const std::vector<idx_t>& column_ids)
      : state_(state), add_(add), column_ids_(column_ids) {}

  ColumnStatistics Get(idx_t position) {
    ColumnStatistics s;
    if (position >= column_ids_.size()) return s;
    const TableColumn& column = state_.columns[column_ids_[position]];
    // Partition values and statistics are keyed by the physical name.
    const std::string& physical = state_.PhysicalName(column_ids_[position]);
    s.type = column.type;
    if (IsPartitionColumn(state_, column.name)) {
      std::optional<std::string> text;
      for (auto& [k, v] : add_.partition_values) {
        if (StringUtil::CIEquals(k, physical)) text = v;
      }
      auto value = delta::ParsePartitionValue(text, column.type);
      if (value.ok()) s.constant = value.value();  // unreadable: nothing known
      return s;
    }
    const nlohmann::json& stats = Stats();
    if (stats.is_discarded() || !stats.is_object()) return s;
    const std::string& name = physical;
    auto num_records = stats.find("numRecords");
    if (num_records != stats.end() && num_records->is_number_integer()) {
      s.row_count = num_records->get<int64_t>();
      // nullCount counts only where the row count is known (all NULL = none match).
      auto nulls = stats.find("nullCount");
      if (nulls != stats.end() && nulls->is_object() && nulls->contains(name) && (*nulls)[name].is_number_integer()) {
        s.null_count = (*nulls)[name].get<int64_t>();
      }
    }
    s.min = Bound(stats, "minValues", column, physical);
    s.max = Bound(stats, "maxValues", column, physical);
    // Timestamps in stats are truncated to milliseconds: widen the bounds by 1 ms.
    if (column.type.id() == TypeId::TIMESTAMP) {
      if (s.min) s.min = Value::TIMESTAMP(s.min->GetTimestamp() - 1000);
      if (s.max) s.max = Value::TIMESTAMP(s.max->GetTimestamp() + 1000);
    } else if (column.type.id() == TypeId::TIMESTAMP_NTZ) {
      if (s.min) s.min = Value::TIMESTAMP_NTZ(s.min->GetTimestamp() - 1000);
      if (s.max) s.max = Value::TIMESTAMP_NTZ(s.max->GetTimestamp() + 1000);
    }
    return s;
  }

 private:
  const nlohmann::json& Stats() {
    if (!stats_parsed_) {
      // Statistics that contradict themselves (see CheckedNumRecords) prove
      // nothing: the file is read, so the answer stays right.
      if (add_.stats && delta::CheckedNumRecords(add_.stats, add_.path).ok()) {
        stats_ = ParseJson(*add_.stats);
      }
      stats_parsed_ = true;
    }
    return stats_;
  }

  static std::optional<Value> Bound(const nlohmann::json& stats, const char* key, const TableColumn& column,
                                    const std::string& physical) {
    auto section = stats.find(key);
    if (section == stats.end() || !section->is_object() || !section->contains(physical)) return std::nullopt;
    const auto& j = (*section)[physical];
    Value raw;
    if (j.is_string()) {
      raw = Value(j.get<std::string>());
    } else if (j.is_number_integer()) {
      raw = Value::BIGINT(j.get<int64_t>());
    } else if (j.is_number()) {
      raw = Value(j.dump());  // exact text for decimals and doubles
    } else {
      return std::nullopt;
    }
    // Stats text is never in the session zone: a TIMESTAMP without offset is
    // UTC, a TIMESTAMP_NTZ the wall clock (PROTOCOL "Per-file Statistics").
    if (j.is_string() && column.type.IsTimestamp()) {
      timestamp_t ts;
      if (column.type.id() == TypeId::TIMESTAMP) {
        if (!Timestamp::TryParse(j.get<std::string>(), ts)) return std::nullopt;
        return Value::TIMESTAMP(ts);
      }
      if (!Timestamp::TryParseNtz(j.get<std::string>(), ts)) return std::nullopt;
      return Value::TIMESTAMP_NTZ(ts);
    }
    Value out;
    if (!raw.TryCastAs(column.type, out)) return std::nullopt;
    return out;
  }

  const DeltaSnapshotState& state_;
  const delta::AddFile& add_;
  const std::vector<idx_t>& column_ids_;
  nlohmann::json stats_;  // null until parsed; discarded or non-object: unusable
  bool stats_parsed_ = false;
};

}  // namespace

bool FileMayMatch(const DeltaSnapshotState& state, const delta::AddFile& add, const std::vector<idx_t>& column_ids,
                  const std::vector<TableFilter>& filters) {
  FileStatistics statistics(state, add, column_ids);
  ColumnStatisticsLookup lookup = [&statistics](idx_t position) { return statistics.Get(position); };
  for (const TableFilter& filter : filters) {
    if (!FilterMayMatch(filter, lookup)) return false;
  }
  return true;
}

// The integer a bound of an integer or date column stands for.
static std::optional<int64_t> SpanPoint(const Value& v) {
  if (v.IsNull()) return std::nullopt;
  switch (v.type().id()) {
    case TypeId::INTEGER: return v.GetInteger();
    case TypeId::BIGINT: return v.GetBigint();
    case TypeId::DATE: return static_cast<int64_t>(v.GetDate());
    default: return std::nullopt;
  }
}

std::optional<double> DeltaTable::EstimatedDistinctCount(idx_t column) {
  auto state = state_;
  if (column >= state->columns.size()) return std::nullopt;
  TypeId id = state->columns[column].type.id();
  if (id != TypeId::INTEGER && id != TypeId::BIGINT && id != TypeId::DATE) return std::nullopt;
  std::lock_guard<std::mutex> lock(state->count_mutex);
  auto cached = state->value_spans.find(column);
  if (cached != state->value_spans.end()) return cached->second;
  std::vector<idx_t> column_ids = {column};
  int64_t low = INT64_MAX;
  int64_t high = INT64_MIN;
  bool known = true;
  for (const delta::AddFile* add : state->files) {
    ColumnStatistics s = FileStatistics(*state, *add, column_ids).Get(0);
    if (s.constant) {
      if (auto v = SpanPoint(*s.constant)) {
        low = std::min(low, *v);
        high = std::max(high, *v);
      }
      continue;
    }
    if (s.row_count && s.null_count && *s.null_count == *s.row_count) continue;  // all NULL
    std::optional<int64_t> min = s.min ? SpanPoint(*s.min) : std::nullopt;
    std::optional<int64_t> max = s.max ? SpanPoint(*s.max) : std::nullopt;
    if (!min || !max) {
      known = false;
      break;
    }
    low = std::min(low, *min);
    high = std::max(high, *max);
  }
  std::optional<double> span;
  if (known && low <= high) span = static_cast<double>(high) - static_cast<double>(low) + 1;
  state->value_spans[column] = span;
  return span;
}

std::unique_ptr<TableScan> DeltaTable::Scan(const std::vector<idx_t>& column_ids, const std::vector<TableFilter>& filters) {
  if (filters.empty()) return Scan(column_ids);
  auto state = state_;
  std::vector<uint64_t> files;
  for (uint64_t i = 0; i < state->files.size(); i++) {
    if (FileMayMatch(*state, *state->files[i], column_ids, filters)) files.push_back(i);
  }
  if (files.empty()) {
    // Nothing can match: an empty scan (a list of no files would mean "all files").
    return MakeDeltaScan(state, column_ids, {static_cast<uint64_t>(-1)});
  }
  return MakeDeltaScan(state, column_ids, std::move(files));
}

namespace {

class DeltaFileMorsels : public MorselSource {
 public:
  DeltaFileMorsels(std::shared_ptr<const DeltaSnapshotState> state, std::vector<idx_t> column_ids,
                   std::vector<uint64_t> files)
      : state_(std::move(state)), column_ids_(std::move(column_ids)), files_(std::move(files)) {}
  std::unique_ptr<TableScan> NextMorsel() override {
    if (Cancelled()) return nullptr;
    idx_t at = next_.fetch_add(1, std::memory_order_relaxed);
    if (at >= files_.size()) return nullptr;
    return MakeDeltaScan(state_, column_ids_, {files_[at]});
  }
  idx_t MorselCount() const override { return files_.size(); }

 private:
  std::shared_ptr<const DeltaSnapshotState> state_;
  std::vector<idx_t> column_ids_;
  std::vector<uint64_t> files_;
  std::atomic<idx_t> next_{0};
};

}  // namespace

std::shared_ptr<MorselSource> DeltaTable::ParallelScan(const std::vector<idx_t>& column_ids,
                                                       const std::vector<TableFilter>& filters) {
  auto state = state_;
  std::vector<uint64_t> files;
  for (uint64_t i = 0; i < state->files.size(); i++) {
    if (filters.empty() || FileMayMatch(*state, *state->files[i], column_ids, filters)) files.push_back(i);
  }
  return std::make_shared<DeltaFileMorsels>(std::move(state), column_ids, std::move(files));
}

}  // namespace lakestream
