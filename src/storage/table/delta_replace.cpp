// CREATE OR REPLACE TABLE of an existing Delta table, as Delta's REPLACE
// TABLE writes it: one commit that sets the new schema and properties,
// removes every live file and adds the new rows. Until that commit is
// visible the table is exactly what it was, so a failure (a full disk, a
// value the writer refuses, a lost race) loses nothing; after it, the old
// rows stay readable by time travel until VACUUM.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "storage/table/delta_append.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

void DeltaTable::CommitReplace(TableCommit& commit) {
  const DeltaTableDefinition& definition = *commit.replace;
  if (!commit.deleted_rows.empty() || !commit.updated_row_ids.empty() || commit.overwrite) {
    throw InternalError("a replace commit carries only the new rows");
  }
  auto state_holder = state_;
  const delta::Snapshot& snapshot = state_holder->snapshot;
  int64_t now = NowMs();
  delta::Metadata metadata = MetadataFor(name_, definition, &snapshot.metadata);
  // The same table with a new definition: its identity and creation time stay.
  metadata.created_time = snapshot.metadata.created_time;
  delta::Protocol protocol = snapshot.protocol;
  if (metadata.configuration.count("delta.enableChangeDataFeed") && protocol.min_writer_version < 4) {
    protocol.min_writer_version = 4;
  }
  auto columns = delta::ParseSchemaString(metadata.schema_string);
  if (!columns.ok()) throw InvalidInputError("Delta table " + name_ + ": " + columns.status().message());
  delta::AddRequiredFeatures(columns.value(), metadata.configuration, protocol);

  DeltaFileWriter data(SharedFs(), name_, path_, definition.columns, definition.partition_columns, false);
  data.MapColumns(metadata, columns.value());
  data.SetTargetFileSize(TargetFileSizeOf(definition.properties));
  DeltaTableAppend* appended = DeltaAppendFor(this);
  bool own_visible = false;
  bool& visible = appended ? appended->visible : own_visible;
  AbortUnlessCommitted cleanup({&data}, visible);
  for (idx_t c = 0; c < commit.inserted.ChunkCount(); c++) data.Append(commit.inserted.Chunk(c));
  DurableSet new_files;
  auto adds = data.Finish(now, new_files);
  if (appended) {
    auto more = appended->Data().Finish(now, new_files);
    adds.insert(adds.end(), more.begin(), more.end());
  }

  delta::StringMap parameters;
  parameters["isManaged"] = "true";
  parameters["partitionBy"] = "[" + StringUtil::Join(definition.partition_columns, ",") + "]";
  auto info = delta::CommitInfo::Make(now, commit.operation, parameters, false, snapshot.version);
  info.engine_info = kEngineInfo;
  std::vector<delta::Action> all = {info};
  if (!(protocol == snapshot.protocol)) all.emplace_back(protocol);
  all.emplace_back(std::move(metadata));
  std::vector<std::string> removed_paths;
  removed_paths.reserve(state_holder->files.size());
  for (const delta::AddFile* file : state_holder->files) {
    all.emplace_back(RemoveFor(*file, now, true));
    removed_paths.push_back(file->path);
  }
  all.insert(all.end(), adds.begin(), adds.end());
  AppendTxnActions(commit.txns, now, all);
  state_holder.reset();
  CommitActions(all, removed_paths, commit.operation, new_files, &visible);
}

}  // namespace lakestream
