#include "storage/table/delta_append.hpp"

#include "storage/delta/column_mapping.hpp"

#include "common/exception.hpp"
#include "storage/change_set.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

DeltaTableAppend::DeltaTableAppend(const DataTable* table, std::unique_ptr<DeltaFileWriter> data,
                                   std::unique_ptr<DeltaFileWriter> changes)
    : TableAppend(table), data_(std::move(data)), changes_(std::move(changes)) {}

DeltaTableAppend::~DeltaTableAppend() {
  if (visible) return;
  data_->Abort();
  if (changes_) changes_->Abort();
}

void DeltaTableAppend::Append(DataChunk& rows) {
  if (rows.size() == 0) return;
  Keep(rows);
  data_->Append(rows);
  if (!changes_) return;
  if (change_types_.empty()) {
    for (idx_t c = 0; c < rows.ColumnCount(); c++) change_types_.push_back(rows.data[c].GetType());
    change_types_.push_back(TypeId::VARCHAR);
  }
  DataChunk out;
  out.Initialize(change_types_, rows.size());
  for (idx_t c = 0; c < rows.ColumnCount(); c++) out.data[c].Copy(rows.data[c], nullptr, rows.size(), 0, 0);
  out.data[rows.ColumnCount()].FillString(ChangeFeedName(ChangeKind::INSERT), rows.size());
  out.SetCardinality(rows.size());
  changes_->Append(out);
}

std::unique_ptr<DeltaTableAppend> BeginDeltaAppend(DeltaTable& table, bool overwrite,
                                                   const DeltaTableDefinition* replace) {
  auto state = table.State();
  const delta::Snapshot& snapshot = state->snapshot;
  const std::vector<TableColumn>* evolved = SchemaEvolutionScope::Current();
  const std::vector<TableColumn>& columns = replace ? replace->columns : evolved ? *evolved : state->columns;
  const std::vector<std::string>& partitions = replace ? replace->partition_columns : snapshot.partition_columns();
  uint64_t target = TargetFileSizeOf(replace ? replace->properties : snapshot.metadata.configuration);
  auto data = std::make_unique<DeltaFileWriter>(table.SharedFs(), table.Name(), table.Path(), columns, partitions, false);
  // The names the commit will give the columns: the new table's (CREATE OR
  // REPLACE, DeltaTable::CommitReplace), the evolved schema's, or today's.
  delta::Metadata mapped_metadata = snapshot.metadata;
  std::vector<delta::DeltaColumn> mapped_schema = snapshot.schema;
  if (replace) {
    mapped_metadata = MetadataFor(table.Name(), *replace, &snapshot.metadata);
    auto parsed = delta::ParseSchemaString(mapped_metadata.schema_string);
    if (!parsed.ok()) throw InvalidInputError("Delta table " + table.Name() + ": " + parsed.status().message());
    mapped_schema = parsed.take();
  } else if (evolved) {
    mapped_schema = EvolvedDeltaSchema(snapshot, columns, table.Name(), mapped_metadata.configuration);
  }
  data->MapColumns(mapped_metadata, mapped_schema);
  data->SetTargetFileSize(target);
  std::unique_ptr<DeltaFileWriter> changes;
  if (overwrite && !replace && snapshot.ChangeDataFeedEnabled()) {
    changes = std::make_unique<DeltaFileWriter>(table.SharedFs(), table.Name(), table.Path(), columns, partitions, true);
    changes->MapColumns(mapped_metadata, mapped_schema);
    changes->SetTargetFileSize(target);
  }
  return std::make_unique<DeltaTableAppend>(&table, std::move(data), std::move(changes));
}

DeltaTableAppend* DeltaAppendFor(const DeltaTable* table) {
  TableAppend* append = AppendScope::For(table);
  if (!append) return nullptr;
  auto* delta = dynamic_cast<DeltaTableAppend*>(append);
  if (!delta) throw InternalError("a Delta table's commit holds rows appended in memory");
  return delta;
}

}  // namespace lakestream
