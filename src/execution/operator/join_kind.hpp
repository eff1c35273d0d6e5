// What a physical join emits for a left (probe) row, shared by the hash and
// nested-loop joins. The right side is the one materialised.
#pragma once

#include <string>
#include <vector>

#include "common/types.hpp"

namespace lakestream {

enum class JoinKind : uint8_t {
  INNER,   // every matching pair
  LEFT,    // pairs, and left rows without a match padded with NULLs
  FULL,    // LEFT, and right rows no left row matched padded with NULLs
  // Pairs, and right rows no left row matched padded with NULLs (hash join
  // only): a LEFT join whose preserved side is the smaller, built instead of
  // probed (execution/physical_planner.cpp swaps the inputs back).
  RIGHT,
  // Right rows some left row matches / no left row matches (hash join only):
  // a SEMI / ANTI join whose kept side is the smaller, built instead of probed.
  RIGHT_SEMI,
  RIGHT_ANTI,
  SEMI,    // left rows with at least one match (once each)
  ANTI,    // left rows without a match
  MARK,    // every left row and a BOOLEAN: found a match (three-valued for IN)
  SINGLE,  // LEFT, raising when a left row matches twice (a scalar subquery)
};

// Output columns: left, then right (none for SEMI/ANTI, one BOOLEAN for
// MARK); RIGHT_SEMI/RIGHT_ANTI: the right ones only.
inline std::vector<LogicalType> JoinOutputTypes(JoinKind kind, const std::vector<LogicalType>& left,
                                                const std::vector<LogicalType>& right) {
  if (kind == JoinKind::RIGHT_SEMI || kind == JoinKind::RIGHT_ANTI) return right;
  auto types = left;
  if (kind == JoinKind::SEMI || kind == JoinKind::ANTI) return types;
  if (kind == JoinKind::MARK) {
    types.emplace_back(TypeId::BOOLEAN);
    return types;
  }
  types.insert(types.end(), right.begin(), right.end());
  return types;
}

inline std::string JoinKindSuffix(JoinKind kind) {
  switch (kind) {
    case JoinKind::INNER: return "";
    case JoinKind::LEFT: return " (LEFT)";
    case JoinKind::FULL: return " (FULL)";
    case JoinKind::RIGHT: return " (RIGHT)";
    case JoinKind::RIGHT_SEMI: return " (RIGHT_SEMI)";
    case JoinKind::RIGHT_ANTI: return " (RIGHT_ANTI)";
    case JoinKind::SEMI: return " (SEMI)";
    case JoinKind::ANTI: return " (ANTI)";
    case JoinKind::MARK: return " (MARK)";
    case JoinKind::SINGLE: return " (SINGLE)";
  }
  return "";
}

// A left row's result in a MARK join, from what its pairs gave: the mark
// condition TRUE for some pair, NULL for some pair. Returns 1/0, or -1 for NULL.
inline int MarkValue(bool any_true, bool any_null) { return any_true ? 1 : (any_null ? -1 : 0); }

// The error of a scalar subquery that gave a row two values.
inline const char* SingleJoinError() {
  return "More than one row returned by a subquery used as an expression (a correlated scalar subquery found two "
         "matching rows for one outer row); add an aggregate (max(...)) or LIMIT 1, or use IN / EXISTS";
}

}  // namespace lakestream
