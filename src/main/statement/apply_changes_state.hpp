// The state of an APPLY CHANGES target that its rows do not hold: for every
// key the sequence of the last change applied (the sequence column need not
// be stored), tombstones of deleted keys (so a late change older than the
// delete does not bring the row back), SCD type 2's delete events, and the
// sequence of the last truncate.
//
// On disk (Delta tables) the state is a JSON file per target version,
// <table>/_apply_changes/state-<version>.json, written before the commit that
// creates <version>. It names the stream offsets (txn versions) that version
// records; a file is used only when they equal the target snapshot's, so a
// file left by a run killed before its commit is never read (the next run
// overwrites it). VACUUM and Delta readers ignore the folder. In memory the
// state lives with the catalog entry. docs/apply-changes.md has the grammar.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/catalog.hpp"

namespace lakestream {

class DatabaseInstance;

struct CdcDelete {
  Value sequence;
  int64_t applied_at_ms = 0;
};

struct CdcKeyState {
  std::optional<Value> sequence;   // the last change applied (SCD type 1)
  int64_t deleted_at_ms = -1;      // >= 0: a tombstone; the key's row was deleted then
  std::vector<CdcDelete> deletes;  // SCD type 2: delete events (closing __END_AT or no-ops)
};

struct CdcState {
  std::unordered_map<std::string, CdcKeyState> keys;  // encoded key -> state
  std::optional<Value> truncated_at;                  // sequence of the last APPLY AS TRUNCATE
  // Drops tombstones (and SCD2 deletes) applied before `cutoff_ms`.
  void CollectGarbage(int64_t cutoff_ms);
};

// Loads the state matching `table`'s current version and stream offsets
// (`txns`: app id -> version as the target's snapshot records them); an
// empty state when there is none. `sequence_type` decodes sequences.
CdcState LoadCdcState(DatabaseInstance& db, TableCatalogEntry& table, const LogicalType& sequence_type,
                      const std::map<std::string, int64_t>& txns);

// Persists `state` as the state of `table`'s next version, whose snapshot will
// record `txns`. Call before committing that version. Removes files more than
// two versions old.
void SaveCdcState(DatabaseInstance& db, TableCatalogEntry& table, const CdcState& state,
                  const std::map<std::string, int64_t>& txns);

}  // namespace lakestream
