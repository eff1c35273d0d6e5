#include "execution/operator/physical_operator.hpp"

#include <chrono>
#include <cstdio>

#include "common/chunk_collection.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void ExecutionContext::CheckInterrupt() const {
  if (cancelled && cancelled->load(std::memory_order_relaxed)) throw WorkerCancelled{};
  if (client) client->CheckInterrupt();
}


bool PhysicalOperator::ProfiledNext(ExecutionContext& context, DataChunk& out) {
  auto start = std::chrono::steady_clock::now();
  bool more = GetChunk(context, out);
  auto elapsed = std::chrono::steady_clock::now() - start;
  profile_->nanos.fetch_add(static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()),
                            std::memory_order_relaxed);
  if (more) profile_->rows.fetch_add(out.size(), std::memory_order_relaxed);
  return more;
}

void PhysicalOperator::ShareProfileWith(PhysicalOperator& copy) {
  copy.profile_ = profile_;
  for (idx_t i = 0; i < children.size() && i < copy.children.size(); i++) children[i]->ShareProfileWith(*copy.children[i]);
}

static std::string FormatSeconds(uint64_t nanos) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3fs", static_cast<double>(nanos) / 1e9);
  return buffer;
}

// One line per operator, children below their parent on branches drawn with
// box-drawing characters; with `profile`, each line ends with its counts.
static void AppendTree(const PhysicalOperator& op, const std::string& prefix, const std::string& child_prefix,
                       bool profile, std::string& out) {
  out += prefix + op.Name();
  std::string details = op.Details();
  if (!details.empty()) out += " [" + details + "]";
  if (profile) {
    uint64_t total = op.Profile().nanos.load(std::memory_order_relaxed);
    uint64_t children = 0;
    for (auto& child : op.children) children += child->Profile().nanos.load(std::memory_order_relaxed);
    // Guards against clock skew between threads: never a negative time.
    uint64_t self = total > children ? total - children : 0;
    out += "  rows=" + std::to_string(op.Profile().rows.load(std::memory_order_relaxed)) + " time=" + FormatSeconds(self);
  }
  out += "\n";
  for (idx_t i = 0; i < op.children.size(); i++) {
    bool last = i + 1 == op.children.size();
    AppendTree(*op.children[i], child_prefix + (last ? "└─ " : "├─ "), child_prefix + (last ? "   " : "│  "), profile,
               out);
  }
}

std::string PhysicalOperator::ToString() const {
  std::string out;
  AppendTree(*this, "", "", false, out);
  return out;
}

std::string PhysicalOperator::ToProfileString() const {
  std::string out;
  AppendTree(*this, "", "", true, out);
  return out;
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
