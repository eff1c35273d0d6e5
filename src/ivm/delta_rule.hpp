// The delta rule: how the result of a plan built from scans, filters,
// projections, inner joins and UNION ALL changes when its inputs change.
// Every such operator is linear in each input, so with inputs numbered in
// scan order, the change of the result is the sum over changed inputs i of
//   the plan with input i replaced by its change (plus rows minus minus rows),
//   inputs before i at their new version, inputs after i at their old one
// (for two inputs: dA x B_old + A_new x dB = dA x B + A x dB + dA x dB).
// The work is proportional to the change of input i, plus whatever the other
// inputs cost the join.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/binder.hpp"
#include "storage/change_set.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

class ClientContext;

// The changes of one source in the versions (from, to], split by sign, with
// the source's columns only (the change feed's metadata columns dropped).
struct SourceDelta {
  int64_t from_version = -1;  // exclusive: what the view reflects
  int64_t to_version = -1;    // inclusive: the source's current version
  std::shared_ptr<ChunkCollection> plus;   // insert, update_postimage
  std::shared_ptr<ChunkCollection> minus;  // delete, update_preimage
  DeltaTable* table = nullptr;
};

// Reads the change feed of `table` for (from, to], as its net change: a row
// that appears on both sides (inserted then deleted, updated and updated back)
// cancels out (over more than one version: one commit's change has no such
// pairs that matter). Throws what ReadChangeFeed throws (history gone, feed off at a
// version).
SourceDelta ReadSourceDelta(DeltaTable& table, int64_t from, int64_t to);

// The same change taken from `commits` (change sets kept in memory, in
// commit order: transaction/statement_commit.hpp, ClientContext::RecentChanges) instead of the files: when the commits
// of `table` among them follow each other from `from` to `to` exactly, and
// hold the table's columns as they are now. nullopt otherwise (a gap: the
// caller reads the change feed).
std::optional<SourceDelta> SourceDeltaFromCommits(DeltaTable& table, int64_t from, int64_t to,
                                                  const std::vector<const ChangeSet*>& commits);

// Builds a fresh bound plan whose scans the delta rule replaces; for
// aggregate views this is the decomposed aggregate over the view's GROUP BY
// input.
using PlanBuilder = std::function<LogicalOperatorPtr()>;

// Runs the delta rule over the plans `build` makes; `deltas` is keyed by the
// lower-case source name (sources without an entry did not change). Appends
// the rows the result gains to `plus` and those it loses to `minus`.
void RunDeltaRule(ClientContext& context, const PlanBuilder& build, const std::map<std::string, SourceDelta>& deltas,
                  ChunkCollection& plus, ChunkCollection& minus);

}  // namespace lakestream
