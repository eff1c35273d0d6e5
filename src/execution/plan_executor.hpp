// Running a bound logical plan: optimise it (planner/optimizer.hpp), turn it
// into operators (execution/physical_planner.hpp) and drain them.
#pragma once

#include "common/chunk_collection.hpp"
#include "planner/logical_plan.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

struct ExecutionContext;
// The context operators run in for the current statement of `context`.
ExecutionContext MakeExecutionContext(ClientContext& context);

// Optimises, plans and runs `plan` to completion in the current statement of `context`.
ChunkCollection ExecutePlan(ClientContext& context, LogicalOperatorPtr plan);

}  // namespace lakestream
