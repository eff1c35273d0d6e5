// QueryStream: a SELECT that runs while its result is fetched
// (Connection::SendQuery). It holds the statement's physical plan and the
// database's statement lock, as a running statement does, until the last
// chunk is pulled, an error ends it, or its connection runs another
// statement (Invalidate).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/vector.hpp"
#include "execution/operator/physical_operator.hpp"
#include "parser/ast.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

class QueryStream {
 public:
  QueryStream(ClientContext& context, std::unique_lock<StatementMutex> statement_lock,
              std::vector<std::unique_ptr<SQLStatement>> statements, std::unique_ptr<PhysicalOperator> plan);
  ~QueryStream();
  QueryStream(const QueryStream&) = delete;
  QueryStream& operator=(const QueryStream&) = delete;

  const std::vector<LogicalType>& Types() const { return types_; }
  // Pulls the next non-empty chunk into `out` (initialized here when it has
  // no columns yet). False once the plan is exhausted (the stream is then
  // closed). Throws what the plan throws (InterruptError between chunks);
  // the caller closes the stream then. Throws InvalidInputError naming the
  // reason when the stream was invalidated.
  bool Pull(DataChunk& out);
  // Drops the plan and releases the statement lock. Idempotent.
  void Close();
  // Closes the stream; later pulls fail with `reason` (a full sentence).
  void Invalidate(std::string reason);
  bool IsOpen() const { return plan_ != nullptr; }

 private:
  ClientContext* context_;
  std::unique_lock<StatementMutex> statement_lock_;
  std::vector<std::unique_ptr<SQLStatement>> statements_;  // what the plan was bound from
  std::unique_ptr<PhysicalOperator> plan_;
  std::vector<LogicalType> types_;
  ExecutionContext execution_;
  std::string invalidated_;
};

}  // namespace lakestream
