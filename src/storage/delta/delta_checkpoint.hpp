// Delta checkpoints: Parquet files holding the whole reconciled state of a
// version (PROTOCOL.md "Checkpoints", "Checkpoint Schema"), and the
// `_delta_log/_last_checkpoint` pointer.
//
// Reading handles classic (`%020d.checkpoint.parquet`) and multi-part
// (`%020d.checkpoint.%010d.%010d.parquet`) V1 checkpoints written by Spark,
// delta-rs or us: top-level struct columns add, remove, metaData, protocol,
// txn are looked up by name (others, e.g. cdc or domainMetadata, ignored);
// partitionValues is a MAP, tags a MAP, stats a JSON string (and, when a
// checkpoint has it, stats_parsed the same as typed columns: numRecords and
// nullCount from there spare COUNT(*) the JSON, AddFile::counts).
//
// Writing produces one classic checkpoint with Spark's column layout:
//   txn      STRUCT(appId, version, lastUpdated)
//   add      STRUCT(path, partitionValues MAP, size, modificationTime,
//                   dataChange, tags MAP, stats, stats_parsed STRUCT
//                   (StatsParsedType, delta_stats.hpp), deletionVector,
//                   baseRowId, defaultRowCommitVersion)
//   remove   STRUCT(path, deletionTimestamp, dataChange, extendedFileMetadata,
//                   partitionValues MAP, size)
//   metaData STRUCT(id, name, description, format STRUCT(provider, options MAP),
//                   schemaString, partitionColumns LIST, configuration MAP, createdTime)
//   protocol STRUCT(minReaderVersion, minWriterVersion, readerFeatures LIST,
//                   writerFeatures LIST)
// one action per row, Snappy-compressed, written under a temp name, fsynced
// and renamed into place, so a reader never sees a partial checkpoint. The
// log actions (protocol, metaData, txn, domainMetadata), the adds and the
// removes each get row groups of their own, so that a reader skips those it
// does not need by their statistics. The footer carries the files'
// FileSummary (kSummary*Key below).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "common/vector.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream::delta {

// Keys of the Parquet footer's key-value metadata under which our
// checkpoints record their files' FileSummary (file_map.hpp): count, bytes,
// a PathFilter of their paths and, when every file has a LiveRecords, their
// rows (absent otherwise). Other readers ignore them.
inline constexpr char kSummaryFilesKey[] = "lakestream.numFiles";
inline constexpr char kSummaryBytesKey[] = "lakestream.sizeInBytes";
inline constexpr char kSummaryPathsKey[] = "lakestream.pathFilter";
inline constexpr char kSummaryRecordsKey[] = "lakestream.numRecords";

// Contents of _last_checkpoint.
struct LastCheckpoint {
  int64_t version = -1;
  int64_t size = 0;                  // actions (rows) in the checkpoint
  std::optional<int64_t> parts;      // multi-part checkpoints only
  std::optional<int64_t> size_in_bytes;
  std::optional<int64_t> num_of_add_files;
};

// Parses _last_checkpoint JSON. Corruption naming `file_name` when it is not
// an object with an integer "version".
Result<LastCheckpoint> ParseLastCheckpoint(const std::string& contents, const std::string& file_name);
std::string SerializeLastCheckpoint(const LastCheckpoint& info);
// v2Checkpoint.path of a _last_checkpoint naming a V2 checkpoint of
// `version`: the manifest's file name in _delta_log; nullopt when absent or
// when it is not a checkpoint file name of that version (the hint must not
// lead a reader out of _delta_log). Read only: lakestream writes classic
// checkpoints.
std::optional<std::string> LastCheckpointV2Path(const std::string& contents, int64_t version);

// Loads the checkpoint of `version` made of `part_paths` (one path for a
// classic checkpoint) into `snapshot`, which must be fresh: its txns,
// domains, protocol and metadata are what the checkpoint's actions give when
// applied in file order, and its version is `version`. The checkpoint's
// files are not decoded yet: snapshot.files decodes them on first use
// (file_map.hpp), from the parts opened here (kept open, so a later log
// cleanup does not lose them); a corrupt add column shows up then. Its
// tombstones are not read either: `snapshot.unread_tombstone_parts` is set
// to `part_paths` instead. Corruption naming the file on bad content;
// `snapshot` is then partly filled and must be discarded. Only the fields
// the actions model are decoded (delta_checkpoint_read.cpp).
Status LoadCheckpoint(FileSystem* fs, const std::vector<std::string>& part_paths, int64_t version,
                      Snapshot& snapshot);

// Every tombstone of `snapshot`: its own plus those of the checkpoint parts
// it left unread that no later commit superseded (by adding the path again
// or removing it again). Corruption / IOError naming the part when one can no
// longer be read (a log cleanup may have deleted it: load a newer snapshot).
Result<std::map<std::string, RemoveFile>> AllTombstones(FileSystem* fs, const Snapshot& snapshot);
// The same, stored into `snapshot` (unread_tombstone_parts then empty); a
// no-op when nothing is unread.
Status LoadCheckpointTombstones(FileSystem* fs, Snapshot& snapshot);

// Decodes one checkpoint part already in memory (`path` names it in errors),
// appending its actions to `actions`: per row, protocol, metaData, txn, add
// and remove as found. The same decoding as LoadCheckpoint.
Status DecodeCheckpointPart(const std::string& path, std::string bytes, std::vector<Action>& actions);

// Writes `snapshot` (with all its tombstones: AllTombstones when it left some
// unread) as the classic checkpoint `log_dir/%020d.checkpoint.parquet`
// (temp file + fsync + rename). Tombstones older than the table's
// delta.deletedFileRetentionDuration (relative to `now_ms`) are dropped, as
// the protocol allows. Returns what _last_checkpoint should say.
// The new name is NOT yet durable, and DeltaLog::WriteCheckpoint does not
// make it so: the next commit's fsync of `log_dir` does. A crash before that
// may keep either of its two renames (this file, _last_checkpoint) without
// the other; every outcome is readable (a missing checkpoint is a stale
// _last_checkpoint, which readers ignore and list instead; the JSON commits
// it summarises are all still there).
Result<LastCheckpoint> WriteCheckpointFile(FileSystem* fs, const std::string& log_dir, const Snapshot& snapshot,
                                           int64_t now_ms);

// What a writer keeps of the last checkpoint it wrote of a table so that the
// next one encodes only the files that changed (issue 30): building a file's
// add row (its stats JSON parsed into stats_parsed, its path encoded, its
// deletion vector parsed) was most of a checkpoint's CPU, and a table that
// is checkpointed every ten commits keeps nearly all of its files from one
// checkpoint to the next. A file's row is taken from here only when the new
// snapshot holds an AddFile equal to the one it was built from (same path,
// stats, partition values, tags, deletion vector, ...) and the add column's
// type (the table's stats_parsed) is the same, so the checkpoint written is
// byte for byte the one WriteCheckpointFile writes without it.
// Not thread-safe: one writer uses it at a time (the background checkpoint
// thread, checkpoint_writer.cpp). It holds a copy of the file list it
// describes and the rows' vectors (about twice the size of the checkpoint's
// add column in memory). A copy, not the snapshot: a table whose snapshot is
// shared copies it at its next commit (DeltaTable::TakeSnapshotForCommit),
// on the writer's thread; the copy here is made on the checkpoint thread.
struct CheckpointCache {
  std::optional<FileMap::Map> files;  // the files `rows` describe, in path order
  LogicalType add_type;               // the add column's type when they were built
  // The add column of that checkpoint, STANDARD_VECTOR_SIZE rows per vector
  // (the last one fewer): file i of `files` is row i % size of rows[i / size].
  std::vector<Vector> rows;
  // LiveRecords of each file (the footer's record count), in the same order.
  std::vector<std::optional<int64_t>> records;
};

// WriteCheckpointFile of `*snapshot` reusing the rows `cache` holds, which
// it then replaces with this checkpoint's (emptied when the write fails).
Result<LastCheckpoint> WriteCheckpointFile(FileSystem* fs, const std::string& log_dir,
                                           const std::shared_ptr<const Snapshot>& snapshot, int64_t now_ms,
                                           CheckpointCache& cache);

// File names in _delta_log.
std::string CommitFileName(int64_t version);               // 00000000000000000007.json
std::string CheckpointFileName(int64_t version);           // 00000000000000000007.checkpoint.parquet
std::string CheckpointPartFileName(int64_t version, int64_t part, int64_t parts);

}  // namespace lakestream::delta
