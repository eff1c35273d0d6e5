// ORDER BY on integer-like keys without a comparator: each row's sort keys
// and its position are packed into one unsigned 64- or 128-bit integer whose
// integer order is the rows' sort order, and those integers are sorted.
// (The comparator sort spent a third of a 2M-row sort in per-row calls
// through the per-type compare functions.)
//
// Packing: a key column whose values span [min, max] takes the bits of
// max - min (plus a NULL bit when it holds a NULL, set for NULLS LAST rows'
// NULLs or FIRST rows' values); a value is stored as v - min, or max - v when
// DESC. Keys come first to last from the high bits down; the row's position
// takes the lowest bits, so equal keys keep their input order (stable).
//
// Key types: BOOLEAN, INTEGER, DATE, BIGINT, TIMESTAMP, TIMESTAMP_NTZ,
// DECIMAL. Others (DOUBLE, VARCHAR, nested), or keys over 128 bits, are left
// to the comparator sort.
#pragma once

#include <cstdint>
#include <vector>

#include "common/chunk_collection.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

// permutation = the positions of `keys`' rows sorted by its first
// orders.size() columns (stable); false, with permutation untouched, when the
// keys cannot be packed (above).
bool SortPackedKeys(const ChunkCollection& keys, const std::vector<BoundOrder>& orders,
                    std::vector<uint64_t>& permutation);

}  // namespace lakestream
