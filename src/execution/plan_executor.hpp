// Running a bound logical plan: optimise it (planner/optimizer.hpp), turn it
// into operators (execution/physical_planner.hpp) and drain them.
#pragma once

#include <functional>

#include "common/chunk_collection.hpp"
#include "planner/logical_plan.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

// Optimises, plans and runs `plan` to completion in the current statement of `context`.
ChunkCollection ExecutePlan(ClientContext& context, LogicalOperatorPtr plan);

// Runs `plan` like ExecutePlan but hands each non-empty chunk to `consume`
// as it is produced (checking for an interrupt between chunks), holding
// none: how writes of any size run in bounded memory. `consume` may take
// the chunk's data (it is initialised again before the next one).
void ExecutePlan(ClientContext& context, LogicalOperatorPtr plan, const std::function<void(DataChunk&)>& consume);

}  // namespace lakestream
