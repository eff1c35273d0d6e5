// Background refresh of auto materialized views after DML (docs/views.md,
// "When auto views refresh").
//
// An INSERT, UPDATE, DELETE or MERGE that committed to a source of an auto
// view does not refresh the view itself: it hands what it wrote (its change sets, storage/change_set.hpp) to the
// database's maintainer and returns. The maintainer's thread then takes the
// statement lock and the write lock, as a statement does, and refreshes every
// auto view that is behind, each as one commit covering all the source
// commits since its last refresh (at a high commit rate, many), from the
// change sets in memory when they chain up to the sources' current versions
// (else from the change feed).
//
//   statement (RunStatements)            maintainer thread
//   commit t, hand off, unlock --wake-->  lock; refresh v (t@n..t@m); flush; publish
//   flush t durable, return
//   SELECT ... FROM v: catch-up before the statement refreshes v first
//
// What keeps it consistent:
//   * a statement that may read a view (anything but DML over plain tables:
//     StatementMayReadViews) catches the auto views up before it runs, with
//     the pending change sets, so a read after a write sees the write;
//   * the view's commit records the source versions it reflects (txn
//     actions), so a crash before the maintainer ran leaves a view that the
//     next statement (or the next open) catches up, never one applied twice;
//   * a view commit never becomes durable before the source commits it
//     reflects (MaintainViews defers the sources' _delta_log/ fsync ahead of it);
//   * closing the database (the last Connection and Database gone) runs
//     what is pending before it returns.
// A refresh that fails marks the view failed (SHOW MATERIALIZED VIEWS, and a
// warning on every read of it), as the statement's own refresh did.
#pragma once

#include <chrono>
#include <vector>

#include "parser/ast.hpp"
#include "storage/change_set.hpp"

namespace lakestream {

class ClientContext;

// False only for a statement that reads no materialized view: INSERT ...
// VALUES, UPDATE and DELETE without FROM/USING, none with a subquery or a
// table-reading function (SYSTEM$...). Those skip the catch-up before the
// statement; every other statement catches the auto views up first.
bool StatementMayReadViews(const SQLStatement& statement);

// Whether `statement` catches the auto views up before it runs
// (statement_runner.cpp): StatementMayReadViews, except for RUN SINK from a
// process whose maintainer has nothing pending. Its stale views were then
// written by another process, whose maintainer refreshes them within
// milliseconds (and that commit wakes a sink's follower); catching them up
// here would take the write lock from that writer and refresh the view in
// its place from the change feed (bench/latency: `sink --follow` refreshed
// the view in one pass of seven, each time keeping the writer's INSERTs out).
// Such a RUN SINK catches the views up only when one has stayed stale longer
// than kForeignViewGrace: the oldest source commit it does not reflect is
// older than that, so its writer died before refreshing it or is gone. A
// process looks for such views at most every kForeignCheckEvery (its first
// RUN SINK always looks): the look refreshes every table and reads commit
// times, which a follower passing after every commit would otherwise pay
// each pass; a dead writer's view is then caught up within
// kForeignViewGrace + kForeignCheckEvery of its source commit.
// Correctness never rests on this choice: a refresh is one commit under the
// write lock that records the source versions it reflects, whoever runs it.
bool CatchesUpViewsFirst(ClientContext& context, const SQLStatement& statement);
constexpr std::chrono::milliseconds kForeignViewGrace{1000};
constexpr std::chrono::milliseconds kForeignCheckEvery{500};

// True for the statements whose auto views the maintainer refreshes
// (INSERT, UPDATE, DELETE, MERGE on a writable local database directory);
// others refresh their views themselves (MaintainViewsAfterStatement).
bool DefersViewMaintenance(ClientContext& context, const SQLStatement& statement);

// Whether a table whose version moved from `before` (CurrentTableVersions)
// is a source of an auto view: only then has the maintainer work.
bool MovedAnAutoViewSource(ClientContext& context, const std::vector<std::pair<std::string, int64_t>>& before);

// Hands `changes` (the statement's CommittedChanges) to the database's
// maintainer and wakes it. Called under the statement lock, right after the
// statement's commits (which may not be durable yet: the maintainer's view
// commit makes its sources durable first, SourcesDurableFirst).
void HandOffViewMaintenance(ClientContext& context, std::vector<ChangeSet> changes);

// Moves the change sets handed off and not yet used into the statement's
// CommittedChanges, for a catch-up under the statement lock.
void TakePendingViewChanges(ClientContext& context);

}  // namespace lakestream
