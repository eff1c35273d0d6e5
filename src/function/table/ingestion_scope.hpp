// IngestionScope: what one refresh of a streaming table reads, decided while
// its query is bound (ClientContext::ingestion_scope points at it then).
//
// Exactly-once ingestion rests on Delta txn actions written in the same
// commit as the rows (docs/pipelines.md, "Ingestion state", has the grammar):
//
//   appId = "lakestream.file:" <absolute path of the file>   version = its size in bytes
//   appId = "lakestream.file_mtime:" <absolute path>         version = its mtime (ms) then
//   appId = "lakestream.stream:" <metaData.id of the source> version = last source version read
//
// A file whose appId is in the target's snapshot was ingested by a commit
// that also holds its rows; a source version at or below the stream's txn
// version was read by such a commit. A crash before the commit leaves neither
// the rows nor the txns, so the next run reads the same input again; a crash
// after it leaves both. Nothing else needs to be written atomically.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "function/table/file_discovery.hpp"
#include "function/table/read_files_options.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream {

std::string FileAppId(const std::string& file_id);
// The file's modification time at ingestion (absent for files ingested
// before it was recorded: only their size is compared then).
std::string FileMtimeAppId(const std::string& file_id);
std::string StreamAppId(const std::string& source_table_id);
// "lakestream.flow:" flow "/": the prefix of a CREATE FLOW's txn app ids.
std::string FlowTxnPrefix(const std::string& flow);

// How STREAM(t) treats a commit of t that updated or deleted rows.
enum class NonAppendMode : uint8_t {
  CHANGE_FEED,  // read its inserted and updated rows through the change data feed (default)
  FAIL,         // stop with an error, as Spark Structured Streaming does
  SKIP          // ignore the commit (Spark's skipChangeCommits)
};

struct IngestionScope {
  std::string table;  // the streaming table being refreshed (messages)
  // The target's snapshot (nullptr: the table does not exist yet, nothing was ingested).
  const delta::Snapshot* snapshot = nullptr;
  // In-memory databases keep the same txn map here (it dies with the process).
  const std::map<std::string, int64_t>* memory_txns = nullptr;
  // The streaming table's state: read_files() keeps each source's schema in
  // state["sources"][path]["schema"] so later runs read new files the same way.
  nlohmann::json* state = nullptr;
  bool state_changed = false;
  std::string rescue_column;  // from TBLPROPERTIES ('rescue' = 'true')
  FileSchema hints;           // the declared columns' types
  NonAppendMode non_append = NonAppendMode::CHANGE_FEED;
  // A CREATE FLOW's own namespace for its txn app ids ("lakestream.flow:" name
  // "/"), so two flows into one table each read every source once; empty for
  // the table's own query. TxnVersion and Qualify apply it.
  std::string txn_prefix;

  // Filled while binding and executing.
  std::vector<DiscoveredFile> new_files;
  // Files ingested before whose size or modification time differs now: read
  // again (in new_files too) with allowOverwrites, otherwise only reported.
  struct ChangedFile {
    DiscoveredFile now;
    int64_t ingested_size = 0;
    std::optional<int64_t> ingested_mtime_ms;
    bool reread = false;
  };
  std::vector<ChangedFile> changed_files;
  std::vector<std::pair<std::string, int64_t>> stream_offsets;  // app id -> version read through
  std::shared_ptr<int64_t> rows_read = std::make_shared<int64_t>(0);
  int64_t skipped_changes = 0;  // rows of non-append commits not passed on (SKIP mode, deletes)

  std::optional<int64_t> TxnVersion(const std::string& unqualified) const;
  // The greatest id of an ingested file whose id starts with `id_prefix`
  // (where an incremental listing of that folder resumes), or "".
  std::string LastIngestedFile(const std::string& id_prefix) const;
  std::string Qualify(const std::string& app_id) const { return txn_prefix + app_id; }
  // The schema stored for a read_files() source, if any.
  bool StoredSchema(const std::string& source, FileSchema& out) const;
  void StoreSchema(const std::string& source, const FileSchema& schema);
};

}  // namespace lakestream
