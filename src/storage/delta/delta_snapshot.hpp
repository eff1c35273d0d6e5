// Snapshot: the state of a Delta table at one version, the result of
// replaying its log (PROTOCOL.md "Action Reconciliation"): the latest
// protocol and metadata, the active files, the remove tombstones (kept for
// VACUUM and for the checkpoints we write) and the txn version per appId.
//
// A Snapshot is a plain value: copy it, keep it, read it from any thread.
// DeltaLog::LoadSnapshot builds one; DeltaLog::UpdateSnapshot moves one
// forward by applying newer commits.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/file_map.hpp"

namespace lakestream::delta {

struct Snapshot {
  std::string table_path;  // root directory of the table
  int64_t version = -1;    // -1: nothing replayed yet
  Protocol protocol;
  Metadata metadata;
  std::vector<DeltaColumn> schema;  // parsed metadata.schema_string (all columns, partition ones included)
  // Active files keyed by their decoded path: iteration order is by path, so
  // scans and tests see a deterministic order. A checkpoint's adds are
  // decoded on first use (file_map.hpp).
  FileMap files;
  // Removed files by path. Only VACUUM and the checkpoints we write need
  // them, never a read, and a table that has seen many rewrites carries one
  // per rewritten file in its checkpoint (until retention expires them), so a
  // checkpoint's tombstones are read on demand: until then this holds only
  // the removes replayed from the JSON commits after the checkpoint, and
  // `unread_tombstone_parts` names the checkpoint parts still to read
  // (AllTombstones / LoadCheckpointTombstones in delta_checkpoint.hpp).
  std::map<std::string, RemoveFile> tombstones;
  std::vector<std::string> unread_tombstone_parts;  // full paths; empty when `tombstones` is complete
  std::map<std::string, Txn> txns;               // latest txn per appId
  // Live domains (domainMetadata actions; removed ones are dropped), kept so
  // the checkpoints we write carry them on.
  std::map<std::string, DomainMetadata> domains;
  // Commit timestamp (commitInfo.timestamp, else the commit file's mtime) of
  // every version replayed from a JSON commit; versions covered only by the
  // checkpoint are absent.
  std::map<int64_t, int64_t> commit_timestamps;
  int64_t checkpoint_version = -1;  // the checkpoint the replay started from, -1 for none
  // Problems that did not prevent loading (bad or stale _last_checkpoint,
  // unreadable checkpoint replaced by a JSON replay), each naming the file.
  std::vector<std::string> warnings;

  const std::vector<std::string>& partition_columns() const { return metadata.partition_columns; }

  // Applies one commit's actions in order (for version `version`).
  // `commit_timestamp_ms` is recorded in commit_timestamps when given.
  // Pass the actions as an rvalue when they are not needed afterwards: their
  // files are then moved into the snapshot instead of copied.
  void Apply(int64_t version, std::vector<Action> actions, std::optional<int64_t> commit_timestamp_ms);
  // One add / remove of Apply: the file becomes active (its tombstone, if
  // any, dropped) / a tombstone. Cheapest when files arrive in path order,
  // as a checkpoint we wrote lists them (any order is correct).
  void ApplyAdd(AddFile add);
  void ApplyRemove(RemoveFile remove);
  void ApplyDomain(DomainMetadata domain);
  // Re-derives `schema` from metadata.schema_string (after replay).
  Status ParseSchema();

  // Sum of numRecords over the active files; std::nullopt when any file has no stats.
  std::optional<int64_t> NumRecords() const;
  int64_t TotalBytes() const;
  std::optional<int64_t> TxnVersion(const std::string& app_id) const;

  // Table property (metaData.configuration), or `fallback`.
  std::string Property(const std::string& key, const std::string& fallback = "") const;
  // delta.enableChangeDataFeed = true (case-insensitive).
  bool ChangeDataFeedEnabled() const;
  // delta.appendOnly = true: the engine must refuse changes that remove rows.
  bool AppendOnly() const;
  // delta.checkpointInterval, default 10.
  int64_t CheckpointInterval() const;
  // delta.deletedFileRetentionDuration ("interval 1 week"), in ms; default 7 days.
  int64_t DeletedFileRetentionMs() const;

  // The local path of a data/cdc file named in the log: relative paths are
  // joined to table_path; "file:" URIs are stripped to their path.
  std::string FilePath(const std::string& log_path) const;
};

// OK when every file `snapshot` reads or names (active files, tombstones and
// their deletion vector files) lies beneath snapshot.table_path: a relative
// path without ".." components, or an absolute path or URL inside the
// table's folder. Else Corruption naming the table and the path. For a table
// read with external access off (docs/security.md), where a log must not
// make the engine read a file outside the table; Spark's shallow clones and
// 'p' deletion vectors that point elsewhere are refused then.
Status CheckFilesInsideTable(const Snapshot& snapshot);

// Supported reader / writer table features (PROTOCOL.md "Table Features").
// Readers: timestampNtz (read as UTC TIMESTAMP), vacuumProtocolCheck,
// deletionVectors (deletion_vector.hpp), columnMapping (top-level columns by
// physical name, modes name and id), v2Checkpoint (delta_checkpoint.hpp),
// typeWidening[-preview] (older files' narrower types conformed in the scan).
// Everything else is refused.
bool IsSupportedReaderFeature(const std::string& feature);

// delta.columnMapping.mode, lower-cased; "none" when unset.
std::string ColumnMappingMode(const Metadata& metadata);

// Can lakestream read a table with this protocol and metadata? OK, or
// NotSupported naming `table` and the missing feature: minReaderVersion > 3,
// an unsupported reader feature, or an unknown column mapping mode.
Status CheckReadable(const std::string& table, const Protocol& protocol, const Metadata& metadata);

// Can lakestream write the table? Everything CheckReadable checks, plus:
// minWriterVersion <= 7, every writer feature one lakestream writes
// (FindDeltaFeature(...)->writable: deletion vectors are carried, never
// written; in-commit timestamps, domain metadata and V2 checkpoints are
// kept up; row tracking ids are assigned and kept (row_tracking.hpp); the
// Iceberg compatibility features are refused), and none of the
// legacy writer features we do not enforce actually in use (column
// invariants, CHECK constraints, generated and identity columns, column
// mapping). NotSupported naming the table and the feature otherwise.
// Append-only tables are writable; delta.appendOnly is enforced above this
// layer (DeltaTable::CommitActions refuses removes with dataChange = true).
Status CheckWritable(const std::string& table, const Snapshot& snapshot);

}  // namespace lakestream::delta
