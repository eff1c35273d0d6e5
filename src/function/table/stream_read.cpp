#include "function/table/stream_read.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "function/table/ingestion_scope.hpp"
#include "storage/change_set.hpp"
#include "storage/table/change_feed.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

namespace {

// The rows of `files` (add actions of `table`), all columns.
void ReadAddedFiles(DeltaTable& table, const std::vector<delta::AddFile>& files, ChunkCollection& out) {
  ScanTableFiles(table, files, table.Version(), /*with_change_type=*/false, [&](DataChunk& chunk) { out.Append(chunk); });
}

// Inserted and updated rows of version `v` from the change feed.
int64_t ReadChangedRows(DeltaTable& table, int64_t v, ChunkCollection& out) {
  ChangeFeedSchema schema = GetChangeFeedSchema(table);
  ChunkCollection changes(schema.types);
  ReadChangeFeed(table, v, v, changes);
  idx_t width = out.Types().size();
  int64_t dropped = 0;
  for (idx_t k = 0; k < changes.ChunkCount(); k++) {
    const DataChunk& chunk = changes.Chunk(k);
    std::vector<sel_t> keep;
    for (idx_t r = 0; r < chunk.size(); r++) {
      auto kind = ParseChangeType(chunk.GetValue(width, r).ToString());
      if (kind && ChangeAdds(*kind)) {
        keep.push_back(static_cast<sel_t>(r));
      } else if (kind == ChangeKind::DELETE) {
        dropped++;
      }
    }
    if (keep.empty()) continue;
    DataChunk part;
    part.Initialize(out.Types(), keep.size());
    for (idx_t c = 0; c < width; c++) part.data[c].Copy(chunk.data[c], keep.data(), keep.size(), 0, 0);
    part.SetCardinality(keep.size());
    out.Append(part);
  }
  return dropped;
}

void ReadIncrement(DeltaTable& table, int64_t offset, int64_t end, IngestionScope& scope, NonAppendMode mode,
                   ChunkCollection& out) {
  for (int64_t v = offset + 1; v <= end; v++) {
    auto actions = table.Log().ReadCommit(v);
    if (!actions.ok()) {
      throw InvalidInputError("STREAM(" + table.Name() + ") in streaming table " + scope.table + ": version " +
                              std::to_string(v) + " of " + table.Name() + " is no longer in its log (" +
                              actions.status().message() + "); fully refresh " + scope.table + " (DROP STREAMING TABLE " +
                              scope.table + ", then run the pipeline again)");
    }
    std::vector<delta::AddFile> added;
    bool non_append = false;
    std::string operation = "?";
    for (auto& action : actions.value()) {
      if (auto* a = std::get_if<delta::AddFile>(&action); a && a->data_change) added.push_back(*a);
      if (auto* r = std::get_if<delta::RemoveFile>(&action); r && r->data_change) non_append = true;
      if (std::get_if<delta::CdcFile>(&action)) non_append = true;
      if (auto* info = std::get_if<delta::CommitInfo>(&action); info && info->operation) operation = *info->operation;
    }
    if (!non_append) {
      ReadAddedFiles(table, added, out);
      continue;
    }
    switch (mode) {
      case NonAppendMode::FAIL:
        throw InvalidInputError(
            "STREAM(" + table.Name() + ") in streaming table " + scope.table + ": version " + std::to_string(v) + " of " +
            table.Name() + " (" + operation + ") updated or deleted rows, and a streaming read of a table passes on "
            "appends only (Spark fails here with \"Detected a data update\"). Either read " + table.Name() +
            "'s changes instead (table_changes('" + table.Name() + "', <version>), or give " + scope.table +
            " a PRIMARY KEY so updated rows upsert, or set TBLPROPERTIES ('pipelines.stream.onChange' = 'cdf')), "
            "skip such commits (STREAM " + table.Name() + " WITH (skipChangeCommits = true), or 'pipelines.stream.onChange' "
            "= 'skip'), or keep " + table.Name() + " append-only (TBLPROPERTIES (delta.appendOnly = true); a stream with "
            "'TABLE_STREAM_MODE' = 'APPEND_ONLY' reads only its inserts)");
      case NonAppendMode::SKIP: {
        ChunkCollection ignored(out.Types());
        ReadAddedFiles(table, added, ignored);
        scope.skipped_changes += static_cast<int64_t>(ignored.Count());
        break;
      }
      case NonAppendMode::CHANGE_FEED:
        if (!table.Snapshot().ChangeDataFeedEnabled()) {
          throw InvalidInputError("STREAM(" + table.Name() + ") in streaming table " + scope.table + ": version " +
                                  std::to_string(v) + " of " + table.Name() + " (" + operation +
                                  ") updated or deleted rows and its change data feed is off; turn it on with ALTER TABLE " +
                                  table.Name() + " SET TBLPROPERTIES (delta.enableChangeDataFeed = true), or skip such "
                                  "commits (STREAM " + table.Name() + " WITH (skipChangeCommits = true), or TBLPROPERTIES "
                                  "('pipelines.stream.onChange' = 'skip') on " + scope.table + ")");
        }
        try {
          scope.skipped_changes += ReadChangedRows(table, v, out);
        } catch (const Exception& e) {
          // The feed was turned on after this commit: it will never have it,
          // so say how to get past it instead of failing the same way forever.
          throw InvalidInputError("STREAM(" + table.Name() + ") in streaming table " + scope.table + ": version " +
                                  std::to_string(v) + " of " + table.Name() + " (" + operation +
                                  ") updated or deleted rows, and its change data feed cannot give them (" + e.RawMessage() +
                                  "). Skip such commits (STREAM " + table.Name() + " WITH (skipChangeCommits = true), or "
                                  "TBLPROPERTIES ('pipelines.stream.onChange' = 'skip') on " + scope.table +
                                  "), or fully refresh " + scope.table + " (DROP STREAMING TABLE " + scope.table +
                                  ", then run again)");
        }
        break;
    }
  }
}

}  // namespace

namespace {

// The mode for this read: the streaming table's, unless the read's own
// options say otherwise.
NonAppendMode ReadMode(const IngestionScope& scope, const std::string& source,
                       const std::vector<std::pair<std::string, std::string>>& options) {
  NonAppendMode mode = scope.non_append;
  for (auto& [key, value] : options) {
    if (!StringUtil::CIEquals(key, "skipChangeCommits")) {
      throw BinderError("STREAM " + source + " WITH (" + key + " = ...): unknown option " + key +
                        "; the option a streaming read takes is skipChangeCommits");
    }
    std::string v = StringUtil::Lower(value);
    if (v != "true" && v != "false") {
      throw BinderError("STREAM " + source + " WITH (skipChangeCommits = " + value + "): the value must be true or false");
    }
    if (v == "true") mode = NonAppendMode::SKIP;
  }
  return mode;
}

}  // namespace

TableFunctionBinding BindStreamRead(ClientContext& context, TableCatalogEntry& source,
                                    const std::vector<std::pair<std::string, std::string>>& options) {
  IngestionScope* scope = context.ingestion_scope;
  DeltaTable* table = DatabaseInstance::AsDelta(source);
  if (!scope) throw InternalError("BindStreamRead outside a streaming table");
  if (!table) {
    throw NotImplementedError("STREAM(" + source.name + ") in streaming table " + scope->table +
                              ": incremental reads need Delta storage; open a database directory (lakestream DB_DIR)");
  }
  NonAppendMode mode = ReadMode(*scope, source.name, options);
  TableFunctionBinding binding;
  binding.names = source.Names();
  binding.types = source.Types();
  std::string app = StreamAppId(table->Snapshot().metadata.id);
  std::optional<int64_t> offset = scope->TxnVersion(app);
  int64_t end = table->Version();
  bool nothing = offset && *offset >= end;
  if (!nothing) scope->stream_offsets.emplace_back(app, end);
  auto types = binding.types;
  binding.factory = [table, offset, end, nothing, scope, types, mode](const std::vector<idx_t>& projected) {
    ChunkCollection rows(types);
    if (nothing) {
      // nothing new
    } else if (!offset) {
      std::vector<idx_t> all;
      for (idx_t i = 0; i < types.size(); i++) all.push_back(i);
      auto scan = table->Scan(all);
      DataChunk chunk;
      chunk.Initialize(types);
      while (scan->Next(chunk, nullptr)) {
        rows.Append(chunk);
        chunk.Reset();
      }
    } else {
      ReadIncrement(*table, *offset, end, *scope, mode, rows);
    }
    *scope->rows_read += static_cast<int64_t>(rows.Count());
    auto shared = std::make_shared<const ChunkCollection>(std::move(rows));
    return MakeCollectionSource(shared, projected, "STREAM_SCAN");
  };
  return binding;
}

}  // namespace lakestream
