#include "storage/table_append.hpp"

#include "storage/table/delta_append.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

namespace {
thread_local AppendScope* t_innermost = nullptr;
}  // namespace

void TableAppend::Keep(const DataChunk& rows) {
  if (!keep_) return;
  if (!kept_.AddKept(rows, nullptr, rows.size(), ChangeKind::INSERT)) keep_ = false;
}

void MemoryAppend::Append(DataChunk& chunk) {
  rows.Append(std::move(chunk));  // taken whole when the layout allows, else copied
}

std::unique_ptr<TableAppend> BeginAppend(DataTable& table, bool overwrite, const DeltaTableDefinition* replace) {
  if (auto* delta = dynamic_cast<DeltaTable*>(&table)) return BeginDeltaAppend(*delta, overwrite, replace);
  std::vector<LogicalType> types;
  if (replace) {
    for (auto& c : replace->columns) types.push_back(c.type);
  }
  return std::make_unique<MemoryAppend>(&table, std::move(types));
}

AppendScope::AppendScope(TableAppend* append) : append_(append), outer_(t_innermost) { t_innermost = this; }
AppendScope::~AppendScope() { t_innermost = outer_; }

TableAppend* AppendScope::For(const DataTable* table) {
  for (AppendScope* s = t_innermost; s; s = s->outer_) {
    if (s->append_ && s->append_->Table() == table) return s->append_;
  }
  return nullptr;
}

}  // namespace lakestream
