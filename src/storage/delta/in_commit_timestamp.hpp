// In-commit timestamps (PROTOCOL.md "In-Commit Timestamps", writer feature
// inCommitTimestamp). With delta.enableInCommitTimestamps = true a commit's
// time is not the file's modification time (which copies and object stores
// change) but a value the writer stores in the commit:
//
//   commit       := commitInfo-with-ict other-action*
//   ict          := max(now_ms, previous commit's time + 1)   (strictly increasing)
//   enablement   := when a commit turns the property on for a table that has
//                   earlier versions, its metaData also records
//                   delta.inCommitTimestampEnablementVersion = <its version> and
//                   delta.inCommitTimestampEnablementTimestamp = <its ict>;
//                   versions before it keep their file times.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/delta/delta_actions.hpp"

namespace lakestream::delta {

// delta.enableInCommitTimestamps = true in `metadata`.
bool InCommitTimestampsEnabled(const Metadata& metadata);

// The metaData among `actions`, or nullptr.
const Metadata* NewMetadata(const std::vector<Action>& actions);

// `actions` (which hold one commitInfo) stamped for version `version` of a
// table whose metadata before the commit is `before`: unchanged when the
// table does not have in-commit timestamps after the commit; otherwise the
// commitInfo moved first with its inCommitTimestamp set, and the enablement
// properties added when this commit turns the feature on (see above).
// `previous_ms` is the time of version `version - 1` (none for version 0).
std::vector<Action> StampInCommitTimestamp(std::vector<Action> actions, const Metadata& before, int64_t version,
                                           int64_t now_ms, std::optional<int64_t> previous_ms);

}  // namespace lakestream::delta
