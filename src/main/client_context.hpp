// ClientContext: one connection's session. Parses, binds, plans and runs
// statements; turns every exception into an error result.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "lakestream/result.hpp"
#include "main/database_instance.hpp"
#include "parser/ast.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

struct StreamChanges;
struct IngestionScope;

class ClientContext {
 public:
  explicit ClientContext(std::shared_ptr<DatabaseInstance> db);

  // Runs the statements of `sql` in order; stops after the first error.
  std::vector<std::unique_ptr<QueryResult>> Query(const std::string& sql);

  DatabaseInstance& Database() { return *db_; }
  Catalog& GetCatalog() { return db_->GetCatalog(); }
  timestamp_t StatementStart() const { return statement_start_; }

  // Optimises, plans and runs a bound plan to completion.
  ChunkCollection ExecutePlan(LogicalOperatorPtr plan);

  // The streams the current statement read (lower-case name -> what it saw):
  // one snapshot per stream per statement, and what a DML statement consumes
  // (stream/stream_offsets.hpp). Cleared when a statement starts.
  std::map<std::string, std::shared_ptr<const StreamChanges>>& StreamReads() { return stream_reads_; }

  // Warnings for the current statement's result (QueryResult::Warnings);
  // cleared when a statement starts.
  void AddWarning(std::string warning) { warnings_.push_back(std::move(warning)); }
  // The materialized views the current statement's queries read (the binder
  // notes them; lower-case names), so a read of a view that is behind its
  // sources can say so. Cleared when a statement starts.
  std::set<std::string>& ViewsRead() { return views_read_; }

  // Set while a streaming table's query is bound (pipeline/ingestion_scope.hpp):
  // read_files() and STREAM(t) then read only what the table has not ingested.
  IngestionScope* ingestion_scope = nullptr;

 private:
  std::unique_ptr<QueryResult> RunStatement(SQLStatement& statement);

  std::shared_ptr<DatabaseInstance> db_;
  timestamp_t statement_start_ = 0;
  std::map<std::string, std::shared_ptr<const StreamChanges>> stream_reads_;
  std::vector<std::string> warnings_;
  std::set<std::string> views_read_;
};

}  // namespace lakestream
