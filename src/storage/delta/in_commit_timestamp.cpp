#include "storage/delta/in_commit_timestamp.hpp"

#include <algorithm>
#include <string>

#include "common/delta_table_properties.hpp"

namespace lakestream::delta {

bool InCommitTimestampsEnabled(const Metadata& metadata) {
  return DeltaTablePropertyIsTrue(metadata.configuration, "delta.enableInCommitTimestamps");
}

const Metadata* NewMetadata(const std::vector<Action>& actions) {
  for (const auto& a : actions) {
    if (auto* m = std::get_if<Metadata>(&a)) return m;
  }
  return nullptr;
}

std::vector<Action> StampInCommitTimestamp(std::vector<Action> actions, const Metadata& before, int64_t version,
                                           int64_t now_ms, std::optional<int64_t> previous_ms) {
  const Metadata* after = NewMetadata(actions);
  if (!InCommitTimestampsEnabled(after ? *after : before)) return actions;
  int64_t ict = previous_ms ? std::max(now_ms, *previous_ms + 1) : now_ms;
  auto info = std::find_if(actions.begin(), actions.end(), [](const Action& a) { return std::holds_alternative<CommitInfo>(a); });
  if (info == actions.end()) {
    actions.insert(actions.begin(), CommitInfo::Make(now_ms, "WRITE", {}));
    info = actions.begin();
  }
  std::rotate(actions.begin(), info, info + 1);  // commitInfo first
  std::get<CommitInfo>(actions.front()).in_commit_timestamp = ict;
  // Turned on by this commit of an existing table: readers must know from
  // which version on commit times are in-commit timestamps.
  if (version > 0 && !InCommitTimestampsEnabled(before)) {
    for (auto& a : actions) {
      if (auto* m = std::get_if<Metadata>(&a)) {
        m->configuration["delta.inCommitTimestampEnablementVersion"] = std::to_string(version);
        m->configuration["delta.inCommitTimestampEnablementTimestamp"] = std::to_string(ict);
      }
    }
  }
  return actions;
}

}  // namespace lakestream::delta
