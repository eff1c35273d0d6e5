// MERGE INTO target USING source ON cond WHEN [NOT] MATCHED [AND c] THEN ...
//
// The binder (planner/binder/statement/bind_merge.cpp) builds one plan that
// yields, per source row, its matching target row id, every clause's
// condition and the values each UPDATE / INSERT clause would write. Here the
// rows are walked once: the first clause (in the order written) whose kind
// applies and whose condition is TRUE decides the row. The whole change is
// one TableCommit.
#include <unordered_set>

#include "common/exception.hpp"
#include "execution/plan_executor.hpp"
#include "main/statement/dml_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "planner/binder.hpp"
#include "planner/binder/statement/bind_write_target.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"

namespace lakestream {

namespace {

struct MergeCounts {
  int64_t updated = 0;
  int64_t deleted = 0;
  int64_t inserted = 0;
};

// Applies the clauses of a bound MERGE to the rows its plan yields, into one commit.
class MergeApplier {
 public:
  MergeApplier(const BoundMerge& bound, TableCommit& commit) : bound_(bound), table_(*bound.table), commit_(commit) {
    values_.Initialize(table_.Types(), 1);
  }

  void ApplyChunk(const DataChunk& chunk) {
    for (idx_t r = 0; r < chunk.size(); r++) {
      const BoundMergeClause* clause = DecidingClause(chunk, r);
      if (clause) Apply(*clause, chunk, r);
    }
  }

  const MergeCounts& Counts() const { return counts_; }

 private:
  // The first clause whose kind fits row `r` (matched or not) and whose
  // condition is TRUE, or null when none does.
  const BoundMergeClause* DecidingClause(const DataChunk& chunk, idx_t r) {
    bool matched = chunk.data[0].IsValid(r);
    for (const auto& clause : bound_.clauses) {
      bool wants_matched = clause.match == MergeMatch::MATCHED;
      if (wants_matched != matched) continue;
      const Vector& cond = chunk.data[clause.condition_column];
      if (!cond.IsValid(r) || !cond.GetData<bool>()[r]) continue;
      if (matched && !touched_.insert(chunk.data[0].GetData<int64_t>()[r]).second) {
        ThrowAmbiguousSourceMatch("MERGE INTO " + table_.name);
      }
      return &clause;
    }
    return nullptr;
  }

  void Apply(const BoundMergeClause& clause, const DataChunk& chunk, idx_t r) {
    if (clause.action == MergeAction::DELETE) {
      commit_.deleted_rows.push_back(chunk.data[0].GetData<int64_t>()[r]);
      counts_.deleted++;
      return;
    }
    values_.Reset();
    for (idx_t c = 0; c < table_.columns.size(); c++) {
      values_.data[c].Copy(chunk.data[clause.first_value_column + c], nullptr, 1, r, 0);
    }
    values_.SetCardinality(1);
    if (clause.action == MergeAction::UPDATE || clause.action == MergeAction::UPDATE_STAR) {
      commit_.updated_row_ids.push_back(chunk.data[0].GetData<int64_t>()[r]);
      commit_.updated.Append(values_);
      counts_.updated++;
    } else {
      commit_.inserted.Append(values_);
      counts_.inserted++;
    }
  }

  const BoundMerge& bound_;
  const TableCatalogEntry& table_;
  TableCommit& commit_;
  std::unordered_set<row_t> touched_;  // target rows a clause already decided
  DataChunk values_;
  MergeCounts counts_;
};

}  // namespace

std::unique_ptr<QueryResult> ExecuteMerge(ClientContext& context, MergeStatement& stmt) {
  Binder binder(context);
  BoundMerge bound = BindMerge(binder, stmt);
  TableCatalogEntry& table = *bound.table;
  ChunkCollection rows = ExecutePlan(context, std::move(bound.plan));

  TableCommit commit;
  commit.operation = "MERGE";
  commit.updated.SetTypes(table.Types());
  commit.inserted.SetTypes(table.Types());
  MergeApplier applier(bound, commit);
  for (idx_t k = 0; k < rows.ChunkCount(); k++) applier.ApplyChunk(rows.Chunk(k));
  CheckNotNull(table, {&commit.updated, &commit.inserted}, "");
  if (commit.ChangedRows() > 0 || !context.StreamReads().empty()) CommitStatementChanges(context, table, commit);

  const MergeCounts& n = applier.Counts();
  return MakeRowsResult({"num_affected_rows", "num_updated_rows", "num_deleted_rows", "num_inserted_rows"},
                        std::vector<LogicalType>(4, TypeId::BIGINT),
                        {{Value::BIGINT(n.updated + n.deleted + n.inserted), Value::BIGINT(n.updated),
                          Value::BIGINT(n.deleted), Value::BIGINT(n.inserted)}});
}

}  // namespace lakestream
