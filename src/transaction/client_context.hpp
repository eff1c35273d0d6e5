// ClientContext: one connection's session state, what every layer from the
// binder up reads while a statement runs: the open database, the statement's
// start time, the streams it read, its warnings. Running statements is
// main/statement_runner.hpp's job; running a plan is execution/plan_executor.hpp's.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/exception.hpp"
#include "common/time_zone.hpp"
#include "storage/change_set.hpp"
#include "transaction/connection_table.hpp"
#include "transaction/database_instance.hpp"
#include "transaction/user_function.hpp"

namespace lakestream {

struct IngestionScope;

// What one statement read from one table stream (stream/stream_reader.hpp
// computes it; the statement commit, transaction/statement_commit.hpp,
// consumes it up to read_version).
struct StreamChanges {
  std::string stream;  // the stream's name, as created
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  ChunkCollection rows;
  int64_t read_version = -1;  // the source version the rows reach
};

class ClientContext {
 public:
  explicit ClientContext(std::shared_ptr<DatabaseInstance> db) : db_(std::move(db)) {}

  DatabaseInstance& Database() { return *db_; }
  Catalog& GetCatalog() { return db_->GetCatalog(); }
  timestamp_t StatementStart() const { return statement_start_; }
  // Starts a new statement: sets its start time and clears what the last one
  // read and warned about.
  void BeginStatement(timestamp_t now) {
    statement_start_ = now;
    stream_reads_.clear();
    warnings_.clear();
    views_read_.clear();
    KeepRecentChanges();
    committing_ = false;
  }
  // Hands the statement's warnings over (QueryResult::Warnings).
  std::vector<std::string> TakeWarnings() { return std::exchange(warnings_, {}); }

  // The streams the current statement read (lower-case name -> what it saw):
  // one snapshot per stream per statement, and what a DML statement consumes
  // (stream/stream_offsets.hpp). Cleared when a statement starts.
  std::map<std::string, std::shared_ptr<const StreamChanges>>& StreamReads() { return stream_reads_; }
  // What the statement's commits wrote, in commit order, as far as the
  // statement commit kept it in memory (transaction/statement_commit.hpp):
  // view maintenance after the statement refreshes from it instead of
  // reading the commits' files back. Cleared when a statement starts.
  std::vector<ChangeSet>& CommittedChanges() { return committed_changes_; }
  // The change sets earlier statements of this connection committed and
  // left (not handed to the view maintainer), newest last, at most
  // kRecentSetsLimit sets and ChangeSet::kKeptRowsLimit rows in all (a
  // one-row set still holds a chunk's memory): a manual REFRESH right after the
  // DML that changed its sources takes them from here instead of reading
  // the change feed back. Match them by ChangeSet::table_identity too.
  const std::vector<ChangeSet>& RecentChanges() const { return recent_changes_; }

  // Warnings for the current statement's result (QueryResult::Warnings);
  // cleared when a statement starts.
  void AddWarning(std::string warning) { warnings_.push_back(std::move(warning)); }
  // The materialized views the current statement's queries read (the binder
  // notes them; lower-case names), so a read of a view that is behind its
  // sources can say so. Cleared when a statement starts.
  std::set<std::string>& ViewsRead() { return views_read_; }

  // Temporary views (CREATE TEMP VIEW): this connection's own, never
  // persisted, gone when the connection closes. They shadow a table or view
  // of the same name, as in Spark and DuckDB.
  CatalogSet<ViewCatalogEntry>& TempViews() { return temp_views_; }

  // The session time zone (SET TIME ZONE; docs/sql-time.md). UTC until set,
  // not the machine's zone, so results do not depend on where they run.
  // The statement runner makes it the thread's SessionTimeZone().
  std::shared_ptr<const TimeZone> time_zone = TimeZone::Utc();
  // SET spark.databricks.delta.retentionDurationCheck.enabled = false: VACUUM
  // may then RETAIN less than the table's delta.deletedFileRetentionDuration.
  bool vacuum_retention_check = true;
  // SET threads: how many threads a query may use (execution/parallel);
  // 0 until set, meaning the database's DatabaseOptions::threads.
  idx_t threads = 0;

  // USE s: the schema unqualified names are resolved in and created in
  // (transaction/name_resolution.hpp). A dropped schema falls back to `main`.
  std::string current_schema = "main";

  // Set while a streaming table's query is bound (pipeline/ingestion_scope.hpp):
  // read_files() and STREAM(t) then read only what the table has not ingested.
  IngestionScope* ingestion_scope = nullptr;
  // CREATE STREAMING TABLE t; without a query or columns (the target of
  // CREATE FLOWs): its declaration text by lower-case name, used when the
  // first flow creates t from its query's columns.
  std::map<std::string, std::string> declared_streaming_tables;
  // Scalar functions registered on this connection (Connection::
  // CreateScalarFunction), by lower-case name; the binder looks here after
  // the built-in functions' names (a user function never shadows one).
  std::map<std::string, UserScalarFunction> user_functions;
  // The application's tables (Connection::RegisterTable), by lower-case
  // name, and its replacement scan (SetReplacementScan): the binder reads
  // them for a one-part name that is no CTE, temporary view or catalog
  // object (function/table/connection_table_scan.hpp).
  std::map<std::string, std::shared_ptr<const ConnectionTable>> connection_tables;
  ConnectionReplacementScan replacement_scan;

  // Interrupt (Connection::Interrupt): any thread may set the flag; the
  // statement's thread checks it at points where stopping leaves nothing
  // half done (between the chunks a plan produces, between statements),
  // never once the statement has begun to commit. Connection clears it when
  // a call (Query, Execute) starts.
  void Interrupt() { interrupted_.store(true, std::memory_order_relaxed); }
  void ClearInterrupt() { interrupted_.store(false, std::memory_order_relaxed); }
  // From here to the statement's end nothing interrupts it: a commit has
  // begun (transaction/statement_commit.cpp) or the statement has committed.
  void BeginCommit() { committing_ = true; }
  // The commit is over and the next step of the statement may stop again
  // (after views caught up, before the statement's own work).
  void EndCommit() { committing_ = false; }
  // Throws InterruptError when an interrupt was asked for and the statement
  // has not begun to commit.
  void CheckInterrupt() const {
    if (!committing_ && interrupted_.load(std::memory_order_relaxed)) {
      throw InterruptError("the statement was interrupted (Ctrl-C or Connection::Interrupt); nothing of it was committed");
    }
  }

 private:
  static constexpr size_t kRecentSetsLimit = 16;

  // Moves the last statement's CommittedChanges to the end of
  // RecentChanges, then drops the oldest sets past its limits.
  void KeepRecentChanges() {
    if (committed_changes_.empty()) return;
    for (auto& set : committed_changes_) recent_changes_.push_back(std::move(set));
    committed_changes_.clear();
    idx_t rows = 0;
    for (auto& set : recent_changes_) rows += set.rows.Count();
    size_t drop = recent_changes_.size() > kRecentSetsLimit ? recent_changes_.size() - kRecentSetsLimit : 0;
    for (size_t i = 0; i < drop; i++) rows -= recent_changes_[i].rows.Count();
    while (drop < recent_changes_.size() && rows > ChangeSet::kKeptRowsLimit) rows -= recent_changes_[drop++].rows.Count();
    recent_changes_.erase(recent_changes_.begin(), recent_changes_.begin() + static_cast<std::ptrdiff_t>(drop));
  }

  std::shared_ptr<DatabaseInstance> db_;
  timestamp_t statement_start_ = 0;
  std::map<std::string, std::shared_ptr<const StreamChanges>> stream_reads_;
  std::vector<ChangeSet> committed_changes_;
  std::vector<ChangeSet> recent_changes_;
  std::vector<std::string> warnings_;
  std::set<std::string> views_read_;
  CatalogSet<ViewCatalogEntry> temp_views_{"View", "Run SHOW VIEWS to list views."};
  std::atomic<bool> interrupted_{false};
  bool committing_ = false;  // only the statement's own thread reads and writes it
};

}  // namespace lakestream
