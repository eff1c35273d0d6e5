#include "execution/operator/physical_operator.hpp"

#include "common/chunk_collection.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void ExecutionContext::CheckInterrupt() const {
  if (cancelled && cancelled->load(std::memory_order_relaxed)) throw WorkerCancelled{};
  if (client) client->CheckInterrupt();
}

std::string PhysicalOperator::ToString(int indent) const {
  std::string s(static_cast<size_t>(indent) * 2, ' ');
  s += Name();
  std::string details = Details();
  if (!details.empty()) s += " [" + details + "]";
  s += "\n";
  for (auto& child : children) s += child->ToString(indent + 1);
  return s;
}

void DrainOperator(ExecutionContext& context, PhysicalOperator& op, ChunkCollection& sink) {
  if (sink.Types().empty()) sink.SetTypes(op.types);
  DataChunk chunk;
  op.InitializeChunk(chunk);
  while (op.Next(context, chunk)) {
    context.CheckInterrupt();
    if (chunk.size() == 0) continue;
    // Hand the chunk over when the sink can take it whole (no copy of the rows).
    if (sink.Append(std::move(chunk))) op.InitializeChunk(chunk);
  }
}

}  // namespace lakestream
