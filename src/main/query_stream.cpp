#include "main/query_stream.hpp"

#include "common/exception.hpp"

namespace lakestream {

QueryStream::QueryStream(ClientContext& context, std::unique_lock<StatementMutex> statement_lock,
                         std::vector<std::unique_ptr<SQLStatement>> statements,
                         std::unique_ptr<PhysicalOperator> plan)
    : context_(&context),
      statement_lock_(std::move(statement_lock)),
      statements_(std::move(statements)),
      plan_(std::move(plan)),
      types_(plan_->types) {
  execution_.client = context_;
  execution_.function_context.statement_start = context_->StatementStart();
  execution_.function_context.client = context_;
}

QueryStream::~QueryStream() { Close(); }

bool QueryStream::Pull(DataChunk& out) {
  if (!invalidated_.empty()) throw InvalidInputError(invalidated_);
  if (!plan_) return false;
  if (out.ColumnCount() == 0) plan_->InitializeChunk(out);
  // The same stopping point as a materialized SELECT (DrainOperator): between chunks.
  context_->CheckInterrupt();
  SetSessionTimeZone(context_->time_zone);  // another connection may have run on this thread since
  while (plan_->Next(execution_, out)) {
    context_->CheckInterrupt();
    if (out.size() > 0) return true;
  }
  Close();
  return false;
}

void QueryStream::Close() {
  // The plan before the lock: its operators may still touch tables.
  plan_.reset();
  statements_.clear();
  if (statement_lock_.owns_lock()) statement_lock_.unlock();
}

void QueryStream::Invalidate(std::string reason) {
  if (!plan_) return;  // fetched to the end (or failed): nothing left to invalidate
  Close();
  invalidated_ = std::move(reason);
}

}  // namespace lakestream
