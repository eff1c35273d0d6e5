// Data skipping for Delta scans: partition pruning and min/max statistics.
#include <nlohmann/json.hpp>

#include "common/string_util.hpp"
#include "expression/expression_executor.hpp"
#include "expression/bound_expression.hpp"
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

static void CollectColumns(const BoundExpression& e, std::vector<idx_t>& out) {
  if (e.type == BoundExpressionType::COLUMN_REF) out.push_back(e.column_index);
  for (auto& c : e.children) CollectColumns(*c, out);
}

// A filter over partition columns only: evaluate it on the file's partition values.
static bool PartitionFilterMayMatch(const DeltaSnapshotState& state, const delta::AddFile& add,
                                    const std::vector<idx_t>& column_ids, const BoundExpression& filter) {
  DataChunk row;
  std::vector<LogicalType> types;
  types.reserve(column_ids.size());
  for (idx_t c : column_ids) types.push_back(state.columns[c].type);
  row.Initialize(types, 1);
  for (idx_t i = 0; i < column_ids.size(); i++) {
    const TableColumn& column = state.columns[column_ids[i]];
    if (!IsPartitionColumn(state, column.name)) continue;
    std::optional<std::string> text;
    for (auto& [k, v] : add.partition_values) {
      if (StringUtil::CIEquals(k, column.name)) text = v;
    }
    auto value = delta::ParsePartitionValue(text, column.type);
    if (!value.ok()) return true;  // unreadable: do not skip
    row.SetValue(i, 0, value.value());
  }
  row.SetCardinality(1);
  std::vector<sel_t> sel;
  try {
    return ExpressionExecutor().Select(filter, row, sel) == 1;
  } catch (const std::exception&) {
    return true;
  }
}

// column <op> constant against the file's minValues/maxValues/nullCount.
static bool StatsFilterMayMatch(const DeltaSnapshotState& state, const nlohmann::json& stats,
                                const std::vector<idx_t>& column_ids, const BoundExpression& filter) {
  if (filter.type != BoundExpressionType::FUNCTION || filter.children.size() != 2) return true;
  std::string op = filter.function.name;
  const BoundExpression* column = filter.children[0].get();
  const BoundExpression* constant = filter.children[1].get();
  if (column->type == BoundExpressionType::CONSTANT && constant->type == BoundExpressionType::COLUMN_REF) {
    std::swap(column, constant);
    if (op == "<") op = ">";
    else if (op == "<=") op = ">=";
    else if (op == ">") op = "<";
    else if (op == ">=") op = "<=";
  }
  if (column->type != BoundExpressionType::COLUMN_REF || constant->type != BoundExpressionType::CONSTANT) return true;
  if (op != "=" && op != "<" && op != "<=" && op != ">" && op != ">=") return true;
  const TableColumn& table_column = state.columns[column_ids[column->column_index]];
  const std::string& name = table_column.name;
  if (constant->value.IsNull()) return false;  // a comparison with NULL is never true
  auto num_records = stats.find("numRecords");
  auto nulls = stats.find("nullCount");
  if (num_records != stats.end() && num_records->is_number_integer() && nulls != stats.end() && nulls->is_object() &&
      nulls->contains(name) && (*nulls)[name].is_number_integer() &&
      (*nulls)[name].get<int64_t>() == num_records->get<int64_t>()) {
    return false;  // every value is NULL
  }
  auto bound = [&](const char* key, Value& out) {
    auto section = stats.find(key);
    if (section == stats.end() || !section->is_object() || !section->contains(name)) return false;
    const auto& j = (*section)[name];
    Value raw;
    if (j.is_string()) raw = Value(j.get<std::string>());
    else if (j.is_number_integer()) raw = Value::BIGINT(j.get<int64_t>());
    else if (j.is_number()) raw = Value(j.dump());  // exact text for decimals and doubles
    else return false;
    return raw.TryCastAs(table_column.type, out);
  };
  Value c;
  if (!constant->value.TryCastAs(table_column.type, c)) return true;
  Value min, max;
  bool has_min = bound("minValues", min), has_max = bound("maxValues", max);
  // Timestamps in stats are truncated to milliseconds: widen the bounds by 1 ms.
  if (table_column.type.id() == TypeId::TIMESTAMP) {
    if (has_min) min = Value::TIMESTAMP(min.GetTimestamp() - 1000);
    if (has_max) max = Value::TIMESTAMP(max.GetTimestamp() + 1000);
  }
  if (op == "=") return !((has_min && c.Compare(min) < 0) || (has_max && c.Compare(max) > 0));
  if (op == "<") return !(has_min && min.Compare(c) >= 0);
  if (op == "<=") return !(has_min && min.Compare(c) > 0);
  if (op == ">") return !(has_max && max.Compare(c) <= 0);
  return !(has_max && max.Compare(c) < 0);  // >=
}

bool FileMayMatch(const DeltaSnapshotState& state, const delta::AddFile& add, const std::vector<idx_t>& column_ids,
                  const std::vector<const BoundExpression*>& filters) {
  nlohmann::json stats;
  bool stats_parsed = false;
  for (const BoundExpression* filter : filters) {
    std::vector<idx_t> refs;
    CollectColumns(*filter, refs);
    if (refs.empty()) continue;
    bool partition_only = true;
    for (idx_t r : refs) partition_only &= r < column_ids.size() && IsPartitionColumn(state, state.columns[column_ids[r]].name);
    if (partition_only) {
      if (!PartitionFilterMayMatch(state, add, column_ids, *filter)) return false;
      continue;
    }
    if (!add.stats) continue;
    if (!stats_parsed) {
      // Statistics that contradict themselves (see CheckedNumRecords) prove
      // nothing: the file is read, so the answer stays right.
      if (delta::CheckedNumRecords(add.stats, add.path).ok()) stats = nlohmann::json::parse(*add.stats, nullptr, false);
      stats_parsed = true;
    }
    if (stats.is_discarded() || !stats.is_object()) continue;
    if (!StatsFilterMayMatch(state, stats, column_ids, *filter)) return false;
  }
  return true;
}

std::unique_ptr<TableScan> DeltaTable::Scan(const std::vector<idx_t>& column_ids, const std::vector<const BoundExpression*>& filters) {
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

}  // namespace lakestream
