// Running a bound plan into a consumer, chunk by chunk, instead of into a
// collection (execution/plan_executor.hpp): how writes of any size (INSERT,
// CREATE TABLE AS, COPY TO) run in bounded memory.
#pragma once

#include <functional>

#include "common/vector.hpp"
#include "planner/logical_plan.hpp"

namespace lakestream {

class ClientContext;

// Optimises, plans and runs `plan`, handing each non-empty chunk to
// `consume` as it is produced (checking for an interrupt between chunks)
// and keeping none. `consume` may take the chunk's data: it is initialised
// again before the next one.
void ExecutePlanInto(ClientContext& context, LogicalOperatorPtr plan, const std::function<void(DataChunk&)>& consume);

}  // namespace lakestream
