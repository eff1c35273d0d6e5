#include "execution/plan_executor.hpp"

#include "execution/execute_into.hpp"
#include "execution/malloc_tuning.hpp"

#include "execution/operator/physical_operator.hpp"
#include "execution/physical_planner.hpp"
#include "planner/optimizer.hpp"

namespace lakestream {

ExecutionContext MakeExecutionContext(ClientContext& context) {
  TuneMallocOnce();
  ExecutionContext execution;
  execution.client = &context;
  execution.function_context.statement_start = context.StatementStart();
  execution.function_context.client = &context;
  execution.memory = MemoryPoolFor(&context.Database(), context.Database().Path());
  execution.spill = std::make_shared<SpillFolder>(execution.memory->TempDirectory());
  return execution;
}

ChunkCollection ExecutePlan(ClientContext& context, LogicalOperatorPtr plan) {
  plan = OptimizePlan(std::move(plan));
  auto physical = CreatePhysicalPlan(context, *plan);
  ExecutionContext execution = MakeExecutionContext(context);
  ChunkCollection rows(physical->types);
  DrainOperator(execution, *physical, rows);
  return rows;
}

void ExecutePlanInto(ClientContext& context, LogicalOperatorPtr plan, const std::function<void(DataChunk&)>& consume) {
  plan = OptimizePlan(std::move(plan));
  auto physical = CreatePhysicalPlan(context, *plan);
  ExecutionContext execution = MakeExecutionContext(context);
  DataChunk chunk;
  physical->InitializeChunk(chunk);
  while (physical->Next(execution, chunk)) {
    execution.CheckInterrupt();
    if (chunk.size() == 0) continue;
    consume(chunk);
    physical->InitializeChunk(chunk);
  }
}

}  // namespace lakestream
