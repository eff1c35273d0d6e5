// The statement commit: how one SQL statement's changes become durable.
//
// Every statement that writes a table ends here with one TableCommit (built by
// its executor in main/statement/ after the plan has run): the table's new
// data files and change data files are already written (and deleted again if
// the commit fails, storage/table/delta_file_writer.hpp); the commit adds them
// to the table's Delta log as one version, together with txn actions that
// record progress (streams consumed here, views and pipelines elsewhere).
// After the statement the runner (main/statement_runner.cpp) brings the auto
// materialized views over the changed tables up to date, each as its own commit.
//
// Crash-safety contract. A DML statement that read streams (INSERT ... SELECT,
// MERGE ... USING, CREATE TABLE AS, UPDATE/DELETE with a subquery) commits to
// its target table T and moves each stream's offset to the source version it
// read (V), both or neither, with one durable write: T's Delta commit
//
//   T's commit: the statement's rows plus
//     txn { appId: "lakestream.stream." <stream id>, version: V }
//
// That txn is the offset (catalog/stream_offset.hpp: a reader takes the
// highest of the catalog's base and every catalogued table's txn for the
// stream), so there is no moment where one is durable and the other is not,
// and nothing to settle on the next open. catalog.json is not written.
//   * Changes no rows but the stream moved: T gets a commit holding only the
//     txns (as Spark's Delta sink commits an empty batch's SetTransaction).
//   * Changes no rows and no stream moved: nothing is written.
//   * CREATE TABLE AS: the new table's first commit holds the txns; they count
//     from the catalog save that registers the table (CommitNewTable).
//   * DROP or replacement of T: its txns are folded into the catalog's base
//     in the drop's own catalog save (Catalog::DropTable), so no stream goes back.
// Crash points stream.before_target_commit (nothing written yet) and
// stream.after_target_commit (the commit written; its fsync may still be
// deferred, delta::DeferredLogSync) let the kill tests stop a process on
// either side of the one write (common/crash_point.hpp).
//
// Catalogs written before this contract may hold a consumption under way
// (stream.pending_target/pending_version, written before T's commit):
// ReconcileStreamOffsets settles it once when the database next opens for
// writing, from T's txn, and clears it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.hpp"
#include "catalog/stream_offset.hpp"

namespace lakestream {

class ClientContext;
class DatabaseInstance;

// Commits `commit` to `target` with the txns of every stream the current
// statement read, as described above (a statement that read streams and
// changes nothing commits only the txns that move a stream, or nothing).
// Every DML executor commits through here.
// Refuses a commit that removes rows of an append-only table (see below).
void CommitStatementChanges(ClientContext& context, TableCatalogEntry& target, TableCommit& commit);

// CREATE TABLE AS: `table` is not in the catalog yet (its storage was made
// with the unregistered mark, DatabaseInstance::CreateTableStorage). Commits
// the statement's rows to it as one Delta commit with the txns of the
// streams the statement read (the txns alone when there are no rows), then
// registers it in a catalog save, from which those txns count, and clears
// the mark. A crash before that save leaves no table in the catalog (its
// folder a leftover the next CREATE of the name removes) and the streams
// where they were: the table never appears without its rows. Crash point
// ctas.before_register lets kill tests stop a process between the commit
// and the save. On failure the table is not in the catalog and the streams
// have not moved; the caller deletes its storage.
TableCatalogEntry& CommitNewTable(ClientContext& context, std::unique_ptr<TableCatalogEntry> table, TableCommit& commit,
                                  bool or_replace);

// delta.appendOnly = true on `table`: read from its Delta snapshot (what other
// engines see), from the catalog's properties for an in-memory table.
bool TableIsAppendOnly(TableCatalogEntry& table);
// Throws ConstraintError naming the table, `operation` and the fix when
// `table` is append-only. Every statement that removes or rewrites rows calls
// it before it computes or writes anything; the commit path checks again.
void CheckRowsRemovable(TableCatalogEntry& table, const std::string& operation);

// The key of `table`'s commits in the process's CommitNotifier
// (common/commit_notifier.hpp): its Delta folder; for a table in memory the
// database (whose statements are then each a possible commit).
std::string CommitKey(DatabaseInstance& db, TableCatalogEntry& table);
// Tells this process's followers of `table` that it has a new commit
// (called once the commit is durable).
void PublishCommit(DatabaseInstance& db, TableCatalogEntry& table);
// The version of each Delta table of `db` now (name, version).
using TableVersions = std::vector<std::pair<std::string, int64_t>>;
TableVersions CurrentTableVersions(DatabaseInstance& db);
// PublishCommit for every table whose version moved past `before`: the
// statement runner takes `before` once the statement has seen other
// processes' commits, so only this process's commits are published (its
// followers learn of the others' from inotify, and publishing them would
// wake a follower with the commits it just read). In memory: one
// notification for the database.
void PublishCommits(DatabaseInstance& db, const TableVersions& before);
// PublishCommits in two steps, for a statement that makes its commits
// durable after letting go of the statement lock (delta::DeferredLogSync):
// what to publish, worked out under the lock (it reads the catalog), and
// publishing it once the commits are durable. (key, version) pairs.
using Publications = std::vector<std::pair<std::string, int64_t>>;
Publications CommitsToPublish(DatabaseInstance& db, const TableVersions& before);
void Publish(const Publications& publications);

// Settles a consumption an older version left under way (pending_target,
// above) and clears it. Called when a database opens for writing.
void ReconcileStreamOffsets(DatabaseInstance& db);

}  // namespace lakestream
