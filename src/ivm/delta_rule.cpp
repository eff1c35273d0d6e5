#include "ivm/delta_rule.hpp"
#include "execution/plan_executor.hpp"

#include <unordered_map>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "ivm/compiled_view.hpp"
#include "ivm/view_analysis.hpp"
#include "ivm/view_diff.hpp"
#include "transaction/client_context.hpp"
#include "storage/table/change_feed.hpp"

namespace lakestream {

// A row inserted and deleted again inside the range (or updated and then
// updated back, or rewritten unchanged) is no change of the source. Cancelling
// such pairs keeps the view's query from being evaluated on rows that are
// gone: a bad row (one the query cannot compute) that was fixed or deleted
// must not fail the refresh that catches up past its fix.
static void CancelOpposites(SourceDelta& delta, const std::vector<LogicalType>& types) {
  if (delta.plus->Count() == 0 || delta.minus->Count() == 0) return;
  std::vector<Row> plus = CollectRows(*delta.plus);
  std::vector<Row> minus = CollectRows(*delta.minus);
  std::unordered_map<std::string, std::vector<idx_t>> minus_at;  // encoded row -> uncancelled minus rows
  for (idx_t i = 0; i < minus.size(); i++) minus_at[EncodeRow(minus[i])].push_back(i);
  std::vector<bool> cancelled(minus.size(), false);
  std::vector<const Row*> kept_plus;
  for (auto& row : plus) {
    auto it = minus_at.find(EncodeRow(row));
    if (it != minus_at.end() && !it->second.empty()) {
      cancelled[it->second.back()] = true;
      it->second.pop_back();
    } else {
      kept_plus.push_back(&row);
    }
  }
  if (kept_plus.size() == plus.size()) return;
  std::vector<const Row*> kept_minus;
  for (idx_t i = 0; i < minus.size(); i++) {
    if (!cancelled[i]) kept_minus.push_back(&minus[i]);
  }
  delta.plus = std::make_shared<ChunkCollection>(MakeCollection(types, kept_plus));
  delta.minus = std::make_shared<ChunkCollection>(MakeCollection(types, kept_minus));
}

// Splits `columns` (the source's columns) by `kinds` into the delta's sides.
static void AddChanges(SourceDelta& delta, const DataChunk& columns, const ChangeKind* kinds) {
  std::vector<sel_t> plus_rows, minus_rows;
  for (idx_t r = 0; r < columns.size(); r++) {
    (ChangeAdds(kinds[r]) ? plus_rows : minus_rows).push_back(static_cast<sel_t>(r));
  }
  AppendSelected(*delta.plus, columns, plus_rows);
  AppendSelected(*delta.minus, columns, minus_rows);
}

static SourceDelta EmptyDelta(DeltaTable& table, int64_t from, int64_t to, const std::vector<LogicalType>& types) {
  SourceDelta delta;
  delta.from_version = from;
  delta.to_version = to;
  delta.table = &table;
  delta.plus = std::make_shared<ChunkCollection>(types);
  delta.minus = std::make_shared<ChunkCollection>(types);
  return delta;
}

SourceDelta ReadSourceDelta(DeltaTable& table, int64_t from, int64_t to) {
  ChangeFeedSchema schema = GetChangeFeedSchema(table);
  idx_t width = schema.types.size() - 3;  // _change_type, _commit_version, _commit_timestamp follow the columns
  std::vector<LogicalType> types(schema.types.begin(), schema.types.begin() + width);
  SourceDelta delta = EmptyDelta(table, from, to, types);
  if (to <= from) return delta;
  ChunkCollection feed(schema.types);
  ReadChangeFeed(table, from + 1, to, feed);
  std::vector<ChangeKind> kinds;
  for (idx_t k = 0; k < feed.ChunkCount(); k++) {
    DataChunk& chunk = feed.Chunk(k);
    const Vector& change_types = chunk.data[width];
    kinds.clear();
    // Runs of one change type (a commit writes each kind's rows together):
    // a row whose string equals the previous one's takes its kind unparsed.
    const string_t* names = change_types.GetData<string_t>();
    string_t last;
    bool parsed = false;
    ChangeKind last_kind = ChangeKind::DELETE;
    for (idx_t r = 0; r < chunk.size(); r++) {
      if (!change_types.IsValid(r)) {
        kinds.push_back(ChangeKind::DELETE);
        continue;
      }
      if (!parsed || names[r] != last) {
        parsed = true;
        last = names[r];
        last_kind = ParseChangeType(last).value_or(ChangeKind::DELETE);
      }
      kinds.push_back(last_kind);
    }
    DataChunk columns;
    columns.Initialize(types, chunk.size());
    for (idx_t c = 0; c < width; c++) columns.data[c].Copy(chunk.data[c], nullptr, chunk.size(), 0, 0);
    columns.SetCardinality(chunk.size());
    AddChanges(delta, columns, kinds.data());
  }
  // One commit's change holds no row and its own undoing, so the common
  // one-version refresh skips the pass.
  if (to - from > 1) CancelOpposites(delta, types);
  GetIvmCounters().changes_from_feed++;
  return delta;
}

std::optional<SourceDelta> SourceDeltaFromCommits(DeltaTable& table, int64_t from, int64_t to,
                                                  const std::vector<const ChangeSet*>& commits) {
  std::vector<LogicalType> types;
  for (auto& column : table.Columns()) types.push_back(column.type);
  std::vector<const ChangeSet*> chain;
  int64_t reached = from;
  for (const ChangeSet* commit : commits) {
    if (commit->table != &table || commit->from_version != reached) continue;
    if (commit->rows.Count() > 0 && commit->rows.Types() != types) return std::nullopt;
    chain.push_back(commit);
    reached = commit->to_version;
  }
  if (reached != to || to <= from) return std::nullopt;
  SourceDelta delta = EmptyDelta(table, from, to, types);
  for (const ChangeSet* commit : chain) {
    idx_t row = 0;
    for (idx_t k = 0; k < commit->rows.ChunkCount(); k++) {
      const DataChunk& chunk = commit->rows.Chunk(k);
      AddChanges(delta, chunk, commit->kinds.data() + row);
      row += chunk.size();
    }
  }
  if (to - from > 1) CancelOpposites(delta, types);
  GetIvmCounters().changes_in_memory++;
  return delta;
}

// Replaces the scan in `slot` by the rows of `rows` (same columns, same binding).
static void ReplaceScanWithRows(LogicalOperatorPtr& slot, std::shared_ptr<ChunkCollection> rows) {
  LogicalOperator& get = *slot;
  if (get.emit_row_ids || get.column_ids.size() != rows->Types().size()) {
    throw InternalError("materialized view maintenance: the scan of " + get.table_name + " reads " +
                        std::to_string(get.column_ids.size()) + " columns but its change feed has " +
                        std::to_string(rows->Types().size()));
  }
  for (idx_t i = 0; i < get.column_ids.size(); i++) {
    if (get.column_ids[i] != i) throw InternalError("materialized view maintenance: a scan with reordered columns");
  }
  auto chunk = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
  chunk->table_index = get.table_index;
  chunk->collection = std::move(rows);
  slot = std::move(chunk);
}

// UNION ALL is linear in the sum of its inputs, not in each: in the term for
// one scan, the branches of a union that do not hold that scan contribute
// nothing. They are cut off with LIMIT 0 (same bindings, no rows). Returns
// whether `op` holds `target`.
static bool KeepOnlyBranchesOf(LogicalOperator& op, const LogicalOperator* target) {
  if (&op == target) return true;
  std::vector<bool> holds;
  bool any = false;
  for (auto& child : op.children) {
    holds.push_back(KeepOnlyBranchesOf(*child, target));
    any = any || holds.back();
  }
  if (op.type == LogicalOperatorType::UNION && any) {
    for (idx_t c = 0; c < op.children.size(); c++) {
      if (holds[c]) continue;
      auto nothing = std::make_unique<LogicalOperator>(LogicalOperatorType::LIMIT);
      nothing->limit = 0;
      nothing->children.push_back(std::move(op.children[c]));
      op.children[c] = std::move(nothing);
    }
  }
  return any;
}

static void Append(ChunkCollection& out, ChunkCollection&& rows) {
  if (out.Types().empty()) out.SetTypes(rows.Types());
  out.Merge(std::move(rows));
}

void RunDeltaRule(ClientContext& context, const PlanBuilder& build, const std::map<std::string, SourceDelta>& deltas,
                  ChunkCollection& plus, ChunkCollection& minus) {
  // Number the scans once to know how many terms there are.
  idx_t scan_count;
  {
    auto plan = build();
    std::vector<LogicalOperatorPtr*> scans;
    CollectScans(plan, scans);
    scan_count = scans.size();
  }
  for (idx_t i = 0; i < scan_count; i++) {
    for (int sign = 0; sign < 2; sign++) {
      auto plan = build();
      std::vector<LogicalOperatorPtr*> scans;
      CollectScans(plan, scans);
      auto it = deltas.find(StringUtil::Lower((*scans[i])->table_name));
      if (it == deltas.end()) break;
      const SourceDelta& delta = it->second;
      const auto& rows = sign == 0 ? delta.plus : delta.minus;
      if (rows->Count() == 0) continue;
      // Inputs after i read their old version; inputs before i stay at the new one.
      for (idx_t j = i + 1; j < scans.size(); j++) {
        LogicalOperator& get = **scans[j];
        auto other = deltas.find(StringUtil::Lower(get.table_name));
        if (other == deltas.end()) continue;
        std::shared_ptr<DeltaTable> old = other->second.table->AtVersion(other->second.from_version);
        get.storage = old.get();
        get.owned_storage = std::move(old);
      }
      KeepOnlyBranchesOf(*plan, scans[i]->get());
      ReplaceScanWithRows(*scans[i], rows);
      ChunkCollection out = ExecutePlan(context, std::move(plan));
      Append(sign == 0 ? plus : minus, std::move(out));
    }
  }
}

}  // namespace lakestream
