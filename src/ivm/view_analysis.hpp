// Plan analysis of a materialized view's query: decides whether the view can
// be maintained incrementally and, when not, names the construct that
// prevents it (DESCRIBE MATERIALIZED VIEW shows the reason).
//
// Incremental forms (all under bag semantics):
//   ROWS       a tree of scans, filters, projections, inner/cross joins and
//              UNION ALL: every operator is linear in each input, so the
//              delta rule (dA x B + A' x dB, old/new versions per input)
//              gives the change of the result (ivm/delta_rule.hpp).
//   AGGREGATE  one GROUP BY (or DISTINCT) over such a tree, with filters and
//              projections (HAVING, expressions of aggregates) above it;
//              COUNT/SUM/AVG are kept as additive state, MIN/MAX and
//              COUNT(DISTINCT) recompute the groups they cannot update
//              (ivm/aggregate_maintainer.hpp).
// Everything else is maintained by recompute-and-diff (ivm/view_diff.hpp).
#pragma once

#include <string>
#include <vector>

#include "planner/binder.hpp"

namespace lakestream {

class ClientContext;

enum class MaintenanceKind : uint8_t { ROWS, AGGREGATE, RECOMPUTE };
const char* MaintenanceKindToString(MaintenanceKind kind);

struct ViewAnalysis {
  MaintenanceKind kind = MaintenanceKind::RECOMPUTE;
  // RECOMPUTE: why (the construct, and what would make it incremental).
  std::string reason;
  // The tables and views the query reads, catalog spelling, first-seen order.
  std::vector<std::string> sources;
  // Output columns that identify a row of the view (the GROUP BY keys, or the
  // PRIMARY KEY of the one table a row view reads), so a changed row is
  // published as one update_preimage/update_postimage pair. Empty: rows are
  // matched as a whole (a change is a delete plus an insert).
  std::vector<idx_t> key_columns;
};

// Parses and binds a view definition (the SQL after AS) with `binder`.
BoundQuery BindViewQuery(Binder& binder, const std::string& definition);

// Binds the definition and classifies its plan. Throws what binding throws.
ViewAnalysis AnalyzeView(ClientContext& context, const std::string& definition);
// Classifies `plan`, just bound by `binder` (which knows whether it bound a
// subquery expression). Leaves the plan as it was.
ViewAnalysis AnalyzeBoundView(Binder& binder, LogicalOperatorPtr& plan);

// The single AGGREGATE operator of an AGGREGATE-kind plan (nullptr if none),
// and its parent slot, so maintainers can replace it.
LogicalOperatorPtr* FindAggregateSlot(LogicalOperatorPtr& root);

// Every GET of the plan, in depth-first left-to-right order (the order the
// delta rule numbers the inputs in).
void CollectScans(LogicalOperatorPtr& root, std::vector<LogicalOperatorPtr*>& out);

}  // namespace lakestream
