#include "execution/operator/physical_table_scan.hpp"

#include <utility>

#include "execution/operator/table_filter_conversion.hpp"
#include "common/query_progress.hpp"

namespace lakestream {

// Whether `expr` can be evaluated on rows an earlier filter dropped: it
// cannot raise an error (comparisons of columns and constants, and their
// AND/OR/NOT/IS NULL), so the order of the filters does not matter for it.
static bool EvaluableOnAnyRow(const BoundExpression& expr) {
  switch (expr.type) {
    case BoundExpressionType::CONSTANT:
    case BoundExpressionType::COLUMN_REF: return true;
    case BoundExpressionType::AND:
    case BoundExpressionType::OR:
    case BoundExpressionType::NOT:
    case BoundExpressionType::IS_NULL:
    case BoundExpressionType::IS_NOT_NULL: break;
    case BoundExpressionType::FUNCTION: {
      const std::string& name = expr.function.name;
      if (name != "=" && name != "<>" && name != "<" && name != "<=" && name != ">" && name != ">=") return false;
      break;
    }
    default: return false;
  }
  for (auto& child : expr.children) {
    if (!EvaluableOnAnyRow(*child)) return false;
  }
  return true;
}

PhysicalTableScan::PhysicalTableScan(std::string table_name, DataTable& table, std::vector<idx_t> column_ids,
                                     std::vector<LogicalType> types, std::vector<BoundExprPtr> filters, bool emit_row_ids)
    : PhysicalOperator(std::move(types)),
      table_name_(std::move(table_name)),
      table_(table),
      column_ids_(std::move(column_ids)),
      filters_(std::move(filters)),
      emit_row_ids_(emit_row_ids) {}

std::string PhysicalTableScan::Details() const {
  std::string d = table_name_;
  for (auto& f : filters_) d += ", filter: " + f->ToString();
  return d;
}

std::shared_ptr<MorselSource> PhysicalTableScan::CreateMorselSource() {
  if (emit_row_ids_) return nullptr;
  std::vector<LogicalType> scan_types(types.begin(), types.begin() + column_ids_.size());
  return table_.ParallelScan(column_ids_, ConvertToTableFilters(filters_, scan_types));
}

void PhysicalTableScan::SetMorsels(std::shared_ptr<MorselSource> morsels, bool counts_total) {
  morsels_ = std::move(morsels);
  counts_total_ = counts_total;
}

// The next chunk of the whole scan, or of the morsels this copy takes.
bool PhysicalTableScan::NextScanChunk() {
  while (true) {
    if (!scan_) {
      if (!morsels_) return false;
      scan_ = morsels_->NextMorsel();
      if (!scan_) return false;
    }
    if (scan_->Next(scan_chunk_, row_ids_.get())) return true;
    if (!morsels_) return false;
    scan_.reset();
  }
}

bool PhysicalTableScan::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!started_) {
    started_ = true;
    std::vector<LogicalType> scan_types(types.begin(), types.begin() + column_ids_.size());
    if (!morsels_) scan_ = table_.Scan(column_ids_, ConvertToTableFilters(filters_, scan_types));
    scan_chunk_.Initialize(scan_types);
    if (emit_row_ids_) row_ids_ = std::make_unique<Vector>(TypeId::BIGINT);
    // From metadata (never reads data). Rows that data skipping leaves
    // unread are never counted done: the bar ends short, and is erased.
    QueryProgress* progress = CurrentQueryProgress();
    if (progress && counts_total_) {
      if (auto rows = table_.EstimatedRowCount()) progress->AddTotal(*rows);
    }
  }
  ExpressionExecutor& executor = Executor(context);
  std::vector<sel_t> sel;
  while (true) {
    if (!NextScanChunk()) return false;
    if (QueryProgress* progress = CurrentQueryProgress()) progress->AddDone(scan_chunk_.size());
    if (scan_chunk_.size() == 0) continue;
    out.Reset();
    idx_t width = column_ids_.size();
    if (filters_.empty()) {
      for (idx_t c = 0; c < width; c++) out.data[c].Reference(scan_chunk_.data[c], scan_chunk_.size());
      if (emit_row_ids_) out.data[width].Copy(*row_ids_, nullptr, scan_chunk_.size(), 0, 0);
      out.SetCardinality(scan_chunk_.size());
      return true;
    }
    // Apply the filters one after the other on the shrinking selection. The
    // scanned chunk is filtered where it is: rows are copied only once a
    // filter drops some (scans are bound by copying, more so on several threads).
    DataChunk kept;
    DataChunk* current = &scan_chunk_;
    std::vector<int64_t> ids;
    if (emit_row_ids_) ids.assign(row_ids_->GetData<int64_t>(), row_ids_->GetData<int64_t>() + scan_chunk_.size());
    // Filters that cannot raise go first, each on every row of the scanned
    // chunk, their results ANDed: one copy of the survivors instead of one
    // per filter. Each one's outcome (TRUE, not FALSE or NULL) is ANDed
    // into `keep` straight from its boolean vector.
    idx_t count = scan_chunk_.size();
    std::vector<uint8_t> keep(count, 1);
    bool any_evaluated = false;
    for (auto& filter : filters_) {
      if (!EvaluableOnAnyRow(*filter)) continue;
      any_evaluated = true;
      filter_mask_.Reset();
      executor.Execute(*filter, scan_chunk_, filter_mask_);
      const auto* m = std::as_const(filter_mask_).GetData<uint8_t>();  // bytes: a NULL row's slot may hold any value
      const uint8_t* valid = std::as_const(filter_mask_).Validity();
      for (idx_t i = 0; i < count; i++) keep[i] &= static_cast<uint8_t>((m[i] != 0) & (valid[i] != 0));
    }
    idx_t survivors = count;
    if (any_evaluated) {
      survivors = 0;
      sel.resize(count);
      for (idx_t i = 0; i < count; i++) {
        sel[survivors] = static_cast<sel_t>(i);
        survivors += keep[i];
      }
    }
    if (survivors < count) {
      if (survivors == 0) continue;
      kept.Initialize(scan_chunk_.GetTypes(), survivors);
      kept.Append(scan_chunk_, sel.data(), survivors);
      if (emit_row_ids_) {
        for (idx_t i = 0; i < survivors; i++) ids[i] = ids[sel[i]];
        ids.resize(survivors);
      }
      current = &kept;
    }
    for (auto& filter : filters_) {
      if (EvaluableOnAnyRow(*filter)) continue;
      idx_t n = executor.Select(*filter, *current, sel);
      if (n == current->size()) continue;
      DataChunk next;
      next.Initialize(current->GetTypes(), std::max<idx_t>(n, 1));
      next.Append(*current, sel.data(), n);
      if (emit_row_ids_) {
        for (idx_t i = 0; i < n; i++) ids[i] = ids[sel[i]];
        ids.resize(n);
      }
      kept = std::move(next);
      current = &kept;
      if (n == 0) break;
    }
    if (current->size() == 0) continue;
    for (idx_t c = 0; c < width; c++) out.data[c].Reference(current->data[c], current->size());
    if (emit_row_ids_) {
      auto* dst = out.data[width].GetData<int64_t>();
      for (idx_t i = 0; i < current->size(); i++) dst[i] = ids[i];
      out.data[width].SetAllValid(current->size());
    }
    out.SetCardinality(current->size());
    return true;
  }
}

}  // namespace lakestream
