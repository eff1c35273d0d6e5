// A materialized view compiled once: its analysis (view_analysis.hpp) and
// its bound plan, kept in memory between refreshes so that a refresh does
// not parse and bind the view's SQL again (it did 1 + 2 x scans times).
//
// The plan is a template: every use takes a copy (CopyLogicalPlan, a few
// microseconds), since running a plan consumes it and the delta rule
// rewrites its scans. It stays valid while what binding read stays the same:
// the definition, and per table the plan reads the catalog entry and storage
// it points at (the same objects), the columns, key and properties (a new
// schema, or a change data feed turned on, changes the plan or its
// analysis), and every plain and temporary view's definition (one may be
// expanded into the plan). CompileView checks these on every refresh and
// compiles again when one differs; an entry replaced or dropped takes its
// compiled form with it (TableCatalogEntry::runtime).
//
// Views maintained by recompute-and-diff keep only their analysis: binding
// is a small part of recomputing, and their plan may hold what binding read
// at that moment (table functions, subqueries, now()).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ivm/view_analysis.hpp"

namespace lakestream {

class ClientContext;
class ViewRowIndex;
struct TableCatalogEntry;

class CompiledView {
 public:
  ViewAnalysis analysis;

  // A fresh copy of the view's bound plan (bound anew when none is kept).
  LogicalOperatorPtr Plan(ClientContext& context) const;
  // A table index the plan does not use (for operators a maintainer adds).
  idx_t FreeTableIndex() const { return free_table_index_; }

 private:
  friend std::shared_ptr<const CompiledView> CompileView(ClientContext& context, TableCatalogEntry& view);
  // What binding read of one table; see the header comment.
  struct SourceStamp {
    std::string name;
    const void* entry = nullptr;
    const void* storage = nullptr;
    std::string schema;
  };
  bool Current(ClientContext& context, const std::string& definition) const;

  std::string definition_;
  std::string schema_;  // the view's schema: its query's unqualified names are bound there
  std::vector<SourceStamp> sources_;
  std::string plain_views_;
  LogicalOperatorPtr plan_;  // null: bind for every use
  idx_t free_table_index_ = 0;
};

// The view's compiled form: the one kept in memory when still current, else
// compiled now (and kept). Throws what binding the definition throws.
std::shared_ptr<const CompiledView> CompileView(ClientContext& context, TableCatalogEntry& view);

// What a materialized view keeps in memory between refreshes (its catalog
// entry's runtime slot, never persisted).
struct ViewRuntime {
  std::shared_ptr<const CompiledView> compiled;
  std::shared_ptr<void> aggregate;  // AggregateMaintainer's state
  // Where a row view's rows are stored (view_row_index.hpp); null until its
  // first incremental refresh, and for views without deletion vectors.
  std::shared_ptr<ViewRowIndex> rows;
  // Where the last incremental refresh took its sources' changes from
  // (DESCRIBE MATERIALIZED VIEW's last_refresh_changes), "" when unknown.
  std::string last_changes;
};
ViewRuntime& RuntimeOf(TableCatalogEntry& view);

// Process-wide counts, for tests and benchmarks: compilations, source
// changes taken from the statement's commits in memory or read from the
// change data feed, and row index builds.
struct IvmCounters {
  std::atomic<int64_t> compiles{0};
  std::atomic<int64_t> changes_in_memory{0};
  std::atomic<int64_t> changes_from_feed{0};
  // Row view indexes (view_row_index.hpp) built from a scan of the whole view.
  std::atomic<int64_t> row_index_builds{0};
  // Aggregate views' stored rows (aggregate_maintainer.hpp) taken from a scan of the whole view.
  std::atomic<int64_t> stored_row_scans{0};
};
IvmCounters& GetIvmCounters();

}  // namespace lakestream
