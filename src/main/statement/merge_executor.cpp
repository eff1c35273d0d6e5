// MERGE INTO target USING source ON cond WHEN [NOT] MATCHED [AND c] THEN ...
//
// One plan computes, for every source row, its matching target row (a LEFT
// join of source to target, so unmatched source rows carry a NULL row id),
// every clause's condition, and the values each UPDATE / INSERT clause would
// write. The rows are then walked once: the first clause (in the order
// written) whose kind applies and whose condition is TRUE decides the row.
// The whole change is one TableCommit.
#include <unordered_set>

#include "catalog/catalog.hpp"
#include "execution/plan_executor.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/statement_commit.hpp"
#include "planner/binder.hpp"

namespace lakestream {

namespace {

// Where each clause's values live in the projected row.
struct ClausePlan {
  const MergeClause* clause;
  idx_t condition_column;
  idx_t first_value_column;  // UPDATE / INSERT: one column per target column
};

}  // namespace

static BoundExprPtr SourceColumnFor(const BindContext& source_scope, const std::string& target_column, const std::string& target_name) {
  auto ref = source_scope.Resolve({target_column}, true);
  if (!ref) {
    throw BinderError("MERGE INTO " + target_name + ": UPDATE SET * / INSERT * needs a source column named " + target_column +
                      "; list the columns explicitly instead");
  }
  return ref;
}

std::unique_ptr<QueryResult> ExecuteMerge(ClientContext& context, MergeStatement& stmt) {
  TableCatalogEntry& table = context.GetCatalog().GetTableForWrite(stmt.target.Name(), "MERGE");
  for (auto& clause : stmt.clauses) {
    if (clause.match == MergeMatch::NOT_MATCHED_BY_SOURCE) throw NotImplementedError("MERGE ... WHEN NOT MATCHED BY SOURCE");
    // An insert-only MERGE is an append; one that may update or delete is
    // refused before it runs, whatever the source holds.
    if (clause.action != MergeAction::INSERT && clause.action != MergeAction::INSERT_STAR) {
      CheckRowsRemovable(table, clause.action == MergeAction::DELETE ? "MERGE ... THEN DELETE" : "MERGE ... THEN UPDATE");
    }
  }
  Binder binder(context);
  BindContext source_scope, target_scope, scope;
  auto source = binder.BindTableRef(*stmt.source, source_scope);
  TableRef target_ref(TableRefType::BASE_TABLE);
  target_ref.name = stmt.target;
  target_ref.alias = stmt.target_alias;
  auto target = binder.BindTableRef(target_ref, target_scope);
  target->emit_row_ids = true;
  idx_t target_index = target->table_index;
  scope.Merge(source_scope);
  scope.Merge(target_scope);

  auto join = std::make_unique<LogicalOperator>(LogicalOperatorType::JOIN);
  join->join_type = LogicalJoinType::LEFT;
  auto condition = binder.BindExpression(*stmt.condition, scope, "MERGE ... ON");
  if (condition->return_type.id() != TypeId::BOOLEAN) {
    throw BinderError("MERGE ON condition must be a BOOLEAN expression, but " + stmt.condition->ToString() + " is " +
                      condition->return_type.ToString());
  }
  SplitConjunctions(std::move(condition), join->expressions);
  join->children.push_back(std::move(source));
  join->children.push_back(std::move(target));

  auto projection = std::make_unique<LogicalOperator>(LogicalOperatorType::PROJECTION);
  projection->table_index = binder.NextTableIndex();
  auto& out = projection->expressions;
  out.push_back(MakeBindingRef({target_index, ROW_ID_COLUMN}, TypeId::BIGINT, "rowid"));
  std::vector<ClausePlan> plans;
  std::string alias = stmt.target_alias.empty() ? table.name : stmt.target_alias;
  for (auto& clause : stmt.clauses) {
    ClausePlan plan{&clause, out.size(), 0};
    if (clause.condition) {
      auto c = binder.BindExpression(*clause.condition, scope, "MERGE ... WHEN ... AND");
      if (c->return_type.id() != TypeId::BOOLEAN) {
        throw BinderError("MERGE clause condition must be BOOLEAN, but " + clause.condition->ToString() + " is " +
                          c->return_type.ToString());
      }
      out.push_back(std::move(c));
    } else {
      out.push_back(MakeConstant(Value::BOOLEAN(true)));
    }
    plan.first_value_column = out.size();
    switch (clause.action) {
      case MergeAction::DELETE: break;
      case MergeAction::UPDATE:
      case MergeAction::UPDATE_STAR: {
        std::vector<BoundExprPtr> values(table.columns.size());
        if (clause.action == MergeAction::UPDATE_STAR) {
          for (idx_t i = 0; i < table.columns.size(); i++) values[i] = SourceColumnFor(source_scope, table.columns[i].name, table.name);
        }
        for (auto& set : clause.set) {
          const std::string& column = set.column.back();
          if (set.column.size() > 1 && !StringUtil::CIEquals(set.column[set.column.size() - 2], alias)) {
            throw BinderError("MERGE UPDATE SET " + StringUtil::Join(set.column, ".") + ": only columns of the target (" + alias + ") can be set");
          }
          int64_t idx = table.ColumnIndex(column);
          if (idx < 0) throw BinderError("Table " + table.name + " has no column named " + column);
          values[idx] = binder.BindExpression(*set.value, scope, "MERGE UPDATE SET");
        }
        for (idx_t i = 0; i < table.columns.size(); i++) {
          if (!values[i]) values[i] = MakeBindingRef({target_index, i}, table.columns[i].type, table.columns[i].name);
          out.push_back(AddCast(std::move(values[i]), table.columns[i].type));
        }
        break;
      }
      case MergeAction::INSERT:
      case MergeAction::INSERT_STAR: {
        std::vector<BoundExprPtr> values(table.columns.size());
        if (clause.action == MergeAction::INSERT_STAR) {
          for (idx_t i = 0; i < table.columns.size(); i++) values[i] = SourceColumnFor(source_scope, table.columns[i].name, table.name);
        } else {
          std::vector<std::string> columns = clause.insert_columns;
          if (columns.empty()) columns = table.Names();
          if (columns.size() != clause.insert_values.size()) {
            throw BinderError("MERGE INSERT names " + std::to_string(columns.size()) + " columns but gives " +
                              std::to_string(clause.insert_values.size()) + " values");
          }
          for (idx_t j = 0; j < columns.size(); j++) {
            int64_t idx = table.ColumnIndex(columns[j]);
            if (idx < 0) throw BinderError("Table " + table.name + " has no column named " + columns[j]);
            // NOT MATCHED rows have no target row: only source columns are in scope.
            values[idx] = binder.BindExpression(*clause.insert_values[j], source_scope, "MERGE INSERT VALUES");
          }
        }
        for (idx_t i = 0; i < table.columns.size(); i++) {
          if (!values[i]) values[i] = MakeConstant(table.columns[i].default_value.IsNull() ? Value(table.columns[i].type) : table.columns[i].default_value);
          out.push_back(AddCast(std::move(values[i]), table.columns[i].type));
        }
        break;
      }
    }
    plans.push_back(plan);
  }
  projection->children.push_back(std::move(join));
  ChunkCollection rows = ExecutePlan(context, std::move(projection));

  TableCommit commit;
  commit.operation = "MERGE";
  commit.updated.SetTypes(table.Types());
  commit.inserted.SetTypes(table.Types());
  std::unordered_set<row_t> touched;
  int64_t updated = 0, deleted = 0, inserted = 0;
  DataChunk values;
  values.Initialize(table.Types(), 1);
  idx_t width = table.columns.size();
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    DataChunk& chunk = rows.Chunk(k);
    for (idx_t r = 0; r < chunk.size(); r++) {
      bool matched = chunk.data[0].IsValid(r);
      row_t row_id = matched ? chunk.data[0].GetData<int64_t>()[r] : -1;
      for (auto& plan : plans) {
        bool wants_matched = plan.clause->match == MergeMatch::MATCHED;
        if (wants_matched != matched) continue;
        const Vector& cond = chunk.data[plan.condition_column];
        if (!cond.IsValid(r) || !cond.GetData<bool>()[r]) continue;
        if (matched && !touched.insert(row_id).second) {
          throw InvalidInputError("MERGE INTO " + table.name + ": a target row matched more than one source row, so it "
                                  "cannot be updated or deleted unambiguously; deduplicate the source (e.g. keep the "
                                  "latest row per key) before merging");
        }
        MergeAction action = plan.clause->action;
        if (action == MergeAction::DELETE) {
          commit.deleted_rows.push_back(row_id);
          deleted++;
          break;
        }
        values.Reset();
        for (idx_t c = 0; c < width; c++) values.data[c].Copy(chunk.data[plan.first_value_column + c], nullptr, 1, r, 0);
        values.SetCardinality(1);
        if (action == MergeAction::UPDATE || action == MergeAction::UPDATE_STAR) {
          commit.updated_row_ids.push_back(row_id);
          commit.updated.Append(values);
          updated++;
        } else {
          commit.inserted.Append(values);
          inserted++;
        }
        break;
      }
    }
  }
  for (idx_t c = 0; c < table.columns.size(); c++) {
    if (!table.columns[c].not_null) continue;
    for (auto* set : {&commit.updated, &commit.inserted}) {
      for (idx_t k = 0; k < set->ChunkCount(); k++) {
        for (idx_t r = 0; r < set->Chunk(k).size(); r++) {
          if (!set->Chunk(k).data[c].IsValid(r)) {
            throw ConstraintError("NOT NULL constraint failed: " + table.name + "." + table.columns[c].name + " cannot be NULL");
          }
        }
      }
    }
  }
  if (commit.ChangedRows() > 0 || !context.StreamReads().empty()) CommitStatementChanges(context, table, commit);
  return MakeRowsResult({"num_affected_rows", "num_updated_rows", "num_deleted_rows", "num_inserted_rows"},
                        std::vector<LogicalType>(4, TypeId::BIGINT),
                        {{Value::BIGINT(updated + deleted + inserted), Value::BIGINT(updated), Value::BIGINT(deleted),
                          Value::BIGINT(inserted)}});
}

}  // namespace lakestream
