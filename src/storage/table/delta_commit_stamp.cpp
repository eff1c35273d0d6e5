// What a commit writes depends on the version it lands at: in-commit
// timestamps (storage/delta/in_commit_timestamp.hpp) and row ids
// (storage/delta/row_tracking.hpp) are stamped anew for every attempt, so a
// commit that loses a race to another writer is stamped again for its new
// version (DeltaTable::CommitActions).
#include "storage/delta/in_commit_timestamp.hpp"
#include "storage/delta/row_tracking.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

std::optional<int64_t> DeltaTable::PreviousCommitTime(const delta::Snapshot& base) {
  if (base.version < 0) return std::nullopt;
  auto known = base.commit_timestamps.find(base.version);
  if (known != base.commit_timestamps.end()) return known->second;
  auto read = log_->CommitTimestamp(base.version);  // a version the checkpoint covers
  if (read.ok()) return read.value();
  return std::nullopt;
}

Result<std::optional<std::vector<delta::Action>>> DeltaTable::StampAttempt(const std::vector<delta::Action>& actions,
                                                                           const delta::Snapshot& base) {
  int64_t version = base.version + 1;
  std::optional<std::vector<delta::Action>> stamped;
  const delta::Metadata* changed_metadata = delta::NewMetadata(actions);
  if (delta::InCommitTimestampsEnabled(changed_metadata ? *changed_metadata : base.metadata)) {
    stamped = delta::StampInCommitTimestamp(actions, base.metadata, version, NowMs(), PreviousCommitTime(base));
  }
  // Checked per attempt too: a concurrent commit may have added files without row ids.
  LS_RETURN_NOT_OK(delta::CheckRowTrackingEnablement(name_, base, actions));
  if (delta::CommitAssignsRowIds(base, actions)) {
    auto assigned = stamped ? delta::AssignRowIds(std::move(*stamped), base, version)
                            : delta::AssignRowIds(actions, base, version);
    if (!assigned.ok()) return assigned.status();
    stamped = assigned.take();
  }
  return stamped;
}

}  // namespace lakestream
