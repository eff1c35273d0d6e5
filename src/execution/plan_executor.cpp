#include "execution/plan_executor.hpp"

#include "execution/operator/physical_operator.hpp"
#include "execution/physical_planner.hpp"
#include "planner/optimizer.hpp"

namespace lakestream {

ChunkCollection ExecutePlan(ClientContext& context, LogicalOperatorPtr plan) {
  plan = OptimizePlan(std::move(plan));
  auto physical = CreatePhysicalPlan(context, *plan);
  ExecutionContext execution;
  execution.client = &context;
  execution.function_context.statement_start = context.StatementStart();
  execution.function_context.client = &context;
  ChunkCollection rows(physical->types);
  DrainOperator(execution, *physical, rows);
  return rows;
}

}  // namespace lakestream
