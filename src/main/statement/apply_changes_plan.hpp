// How one APPLY CHANGES run turns the source's new change events into one
// commit of the target (docs/apply-changes.md has the semantics).
//
// Each input row is a change event: the source's columns, its sequence, and
// whether it is a delete or a truncate. Events are grouped by key and
// ordered by sequence (ties: arrival order). SCD type 1 folds the events newer
// than the key's state (its last applied sequence, or its tombstone) over the
// stored row; SCD type 2 rebuilds the key's history from its stored versions,
// its recorded deletes and the new events, so a late event lands in its place
// in history. Either way the commit holds only real changes: the rows that
// differ are updated (pre/post images in the change feed), the others are
// inserted or deleted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "main/statement/apply_changes_state.hpp"

namespace lakestream {

struct ApplyChangesSpec {
  std::string target;  // for messages
  std::string sequence_text;  // SEQUENCE BY as written, for messages
  int scd_type = 1;
  bool ignore_null_updates = false;
  idx_t sequence_column = 0;     // input column of the sequence
  int64_t delete_column = -1;    // input BOOLEAN column: APPLY AS DELETE WHEN
  int64_t truncate_column = -1;  // input BOOLEAN column: APPLY AS TRUNCATE WHEN
  // Per target column: the input column holding its value, or -1 (NULL; and
  // for __START_AT / __END_AT).
  std::vector<int64_t> target_source;
  std::vector<idx_t> key_columns;  // target columns of KEYS
  int64_t start_column = -1;       // SCD type 2: __START_AT
  int64_t end_column = -1;         // SCD type 2: __END_AT
  std::vector<bool> tracked;       // SCD type 2, per target column: a change opens a new version
  int64_t now_ms = 0;              // tombstone times
};

struct ApplyChangesCounts {
  int64_t events = 0;
  int64_t ignored = 0;  // events older than the key's state (or than a truncate)
  int64_t inserted = 0, updated = 0, deleted = 0;
};

// Fills commit.inserted / updated / updated_row_ids / deleted_rows from
// `input` and the target's rows, and moves `state` to what it will be after
// the commit. Throws ConstraintError for a NULL key or sequence.
ApplyChangesCounts PlanApplyChanges(const ApplyChangesSpec& spec, const ChunkCollection& input, TableCatalogEntry& target,
                                    CdcState& state, TableCommit& commit);

}  // namespace lakestream
