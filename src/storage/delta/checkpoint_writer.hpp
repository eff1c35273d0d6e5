// Checkpoints written off the commit's critical path (issue 30): the commit
// that makes a checkpoint due hands its snapshot to one background thread of
// the process and returns; the thread writes the checkpoint and
// _last_checkpoint (DeltaLog::WriteCheckpoint) while the writer goes on.
//
//   delta::SubmitCheckpoint(fs, "/db/t", snapshot);   // after commit v, returns at once
//   ...
//   delta::WaitForCheckpoints("/db/t");              // before reading the files, closing
//
// Why this is safe: a checkpoint only saves readers from replaying JSON
// commits, which stay; nothing needs it to be there (a missing or stale one
// is read past, delta_log.hpp). The snapshot handed over is immutable and
// the commit it describes is already linked, so the checkpoint says nothing
// the log does not. Its names become durable with a later fsync of
// _delta_log/ (the next commit's), as before; a crash before that loses at
// most the checkpoint.
//
// Ordering kept per table: a newer submission replaces one still queued (only
// the newest checkpoint is worth writing), and _last_checkpoint never moves
// backwards (DeltaLog::WriteCheckpoint). A failure costs only reading speed
// and is counted (CheckpointFailures) rather than reported.
//
// The thread keeps the rows of the last checkpoint of the few tables it
// checkpointed last (CheckpointCache, delta_checkpoint.hpp), so that each
// checkpoint encodes only the files added since the one before.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/file_system.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream::delta {

// Queues the checkpoint of `snapshot` (of the table at `table_path`, read and
// written through `fs`, kept alive until written). Thread-safe.
void SubmitCheckpoint(std::shared_ptr<FileSystem> fs, const std::string& table_path,
                      std::shared_ptr<const Snapshot> snapshot);

// Returns once no checkpoint of `table_path` is queued or being written by
// this process: before a table is closed or dropped, and for callers that
// read the checkpoint files themselves.
void WaitForCheckpoints(const std::string& table_path);

// Checkpoints written / failed by the background thread (tests, bench).
int64_t CheckpointsWritten();
int64_t CheckpointFailures();

}  // namespace lakestream::delta
