#include "execution/operator/physical_table_scan.hpp"

#include <algorithm>
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

// The filters that cannot raise, the one keeping the smallest share of the
// rows it tests first (DuckDB's adaptive filters): the first filter tests
// every row, the next only what it kept. Counts decay so the order follows
// the data as the scan moves through the table.
void PhysicalTableScan::ReorderFilters() {
  chunks_since_reorder_ = 0;
  auto share = [](const FilterOrder& f) { return f.tested == 0 ? 1.0 : static_cast<double>(f.kept) / f.tested; };
  std::stable_sort(order_.begin(), order_.begin() + reorderable_,
                   [&](const FilterOrder& a, const FilterOrder& b) { return share(a) < share(b); });
  for (FilterOrder& f : order_) {
    f.tested /= 2;
    f.kept /= 2;
  }
}

bool PhysicalTableScan::GetChunk(ExecutionContext& context, DataChunk& out) {
  if (!started_) {
    started_ = true;
    std::vector<LogicalType> scan_types(types.begin(), types.begin() + column_ids_.size());
    if (!morsels_) scan_ = table_.Scan(column_ids_, ConvertToTableFilters(filters_, scan_types));
    scan_chunk_.Initialize(scan_types);
    if (emit_row_ids_) row_ids_ = std::make_unique<Vector>(TypeId::BIGINT);
    // Filters that cannot raise first (reorderable), then the others in
    // their given order, so these see only rows every filter before them kept.
    for (int pass = 0; pass < 2; pass++) {
      for (idx_t f = 0; f < filters_.size(); f++) {
        if (EvaluableOnAnyRow(*filters_[f]) != (pass == 0)) continue;
        order_.push_back(FilterOrder{f, 0, 0});
        if (pass == 0) reorderable_++;
      }
    }
    // From metadata (never reads data). Rows that data skipping leaves
    // unread are never counted done: the bar ends short, and is erased.
    QueryProgress* progress = CurrentQueryProgress();
    if (progress && counts_total_) {
      if (auto rows = table_.EstimatedRowCount()) progress->AddTotal(*rows);
    }
  }
  ExpressionExecutor& executor = Executor(context);
  while (true) {
    if (!NextScanChunk()) return false;
    if (QueryProgress* progress = CurrentQueryProgress()) progress->AddDone(scan_chunk_.size());
    if (scan_chunk_.size() == 0) continue;
    out.Reset();
    idx_t width = column_ids_.size();
    idx_t count = scan_chunk_.size();
    // The filters narrow one selection of the scanned chunk, each testing
    // only the rows the ones before it kept (ExpressionExecutor::Select);
    // the rows are copied once, at the end, and only when some were dropped.
    // Filters that cannot raise go first; the others then see only rows
    // every filter before them kept.
    idx_t kept = count;
    const sel_t* rows = nullptr;
    sel_.resize(count);
    for (FilterOrder& f : order_) {
      f.tested += kept;
      kept = executor.Select(*filters_[f.filter], scan_chunk_, rows, kept, sel_.data());
      f.kept += kept;
      rows = sel_.data();
      if (kept == 0) break;
    }
    if (++chunks_since_reorder_ >= kReorderChunks) ReorderFilters();
    if (kept == 0) continue;
    if (kept == count) rows = nullptr;
    // Row ids are copied as the rows are: no selection for them.
    selection_ = ChunkSelection{};
    if (rows && !emit_row_ids_ && SelectKept(kept, count)) {
      selection_ = ChunkSelection{rows, kept};
      rows = nullptr;
      kept = count;
    }
    for (idx_t c = 0; c < width; c++) {
      if (rows) {
        out.data[c].Copy(scan_chunk_.data[c], rows, kept, 0, 0);
      } else {
        out.data[c].Reference(scan_chunk_.data[c], kept);
      }
    }
    if (emit_row_ids_) out.data[width].Copy(*row_ids_, rows, kept, 0, 0);
    out.SetCardinality(kept);
    return true;
  }
}

}  // namespace lakestream
