// Incremental maintenance of a GROUP BY view (ViewAnalysis kind AGGREGATE).
//
// The view's aggregates are decomposed into additive sub-aggregates kept per
// group (the "state"): a leading COUNT(*) (how many input rows the group has:
// at 0 the group vanishes), then per view aggregate
//   COUNT(*): nothing more        COUNT(x): COUNT(x)
//   SUM(x), AVG(x): SUM(x), COUNT(x)
//   MIN(x) / MAX(x): the extreme  COUNT(DISTINCT x): the value
// A refresh runs the decomposed aggregate over the change of the GROUP BY
// input (delta rule), adds the plus side and subtracts the minus side. MIN and
// MAX take new values directly; a group that lost its current extreme, and a
// group whose COUNT(DISTINCT) input changed, is recomputed from the sources
// (only those groups are replaced). The view's rows for the touched groups
// are then rebuilt from their state through the view's own HAVING and
// select list, and diffed against the stored rows.
//
// The state lives in <db>/_lakestream/ivm/<view>/state-<view version>.parquet
// (the source versions it reflects in its footer). It is written before the
// view commit it belongs to, under the version that commit will create, so a
// crash on either side of the commit leaves a state that matches the view:
// the newer file is picked only when the commit happened.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ivm/delta_rule.hpp"
#include "ivm/view_analysis.hpp"
#include "ivm/view_diff.hpp"

namespace lakestream {

struct TableCatalogEntry;

class AggregateMaintainer {
 public:
  AggregateMaintainer(ClientContext& context, TableCatalogEntry& view, const ViewAnalysis& analysis);

  // Loads the state matching the view's current Delta version. False when
  // there is none (first refresh, or a crash before the state was written).
  bool LoadState();
  // The source versions the loaded state reflects (lower-case name -> version).
  const std::map<std::string, int64_t>& StateVersions() const { return versions_; }

  // Incremental refresh: applies `deltas` to the state and adds the changed
  // view rows to `commit`. Returns the number of groups touched.
  idx_t ApplyChanges(const std::map<std::string, SourceDelta>& deltas, TableCommit& commit);
  // Recomputes the state of every group from the sources (recompute-and-diff
  // refreshes keep the state of an aggregate view current this way).
  void RebuildState();
  // Writes the state under `view_version` with the given source versions, and
  // removes the state files of other versions when `prune`.
  void SaveState(int64_t view_version, const std::map<std::string, int64_t>& versions);
  void PruneStates(int64_t keep_version);

  // The directory holding a view's state files.
  static std::string StateDirectory(ClientContext& context, const std::string& view_name);

 private:
  struct SubAggregate {
    AggregateSignature signature;
    idx_t aggregate = 0;  // which aggregate of the view it serves
  };
  struct Group {
    Row values;  // state layout: keys, count(*), sub-aggregates
    bool recompute = false;
  };

  LogicalOperatorPtr BuildStatePlan(Binder& binder) const;
  void AddPartial(const Row& partial, int sign, std::map<std::string, Group>& groups,
                  std::vector<std::string>& touched);
  // The view rows (output of the view's query) of the given groups.
  std::vector<Row> ViewRowsFor(const std::vector<const Row*>& states);
  std::vector<Row> RunStatePlan();
  std::string StatePath(int64_t view_version) const;

  ClientContext& context_;
  TableCatalogEntry& view_;
  const ViewAnalysis& analysis_;
  idx_t group_count_ = 0;
  std::vector<AggregateSignature> view_aggregates_;
  std::vector<SubAggregate> subs_;
  std::vector<LogicalType> state_types_;
  std::map<std::string, Group> state_;  // encoded group keys -> state
  std::map<std::string, int64_t> versions_;
};

}  // namespace lakestream
