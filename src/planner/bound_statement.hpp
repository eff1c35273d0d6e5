// The bound forms of the statements that write rows (INSERT, UPDATE, DELETE /
// TRUNCATE, MERGE, COPY) and the binder entry points that build them, one
// file per statement kind under planner/binder/statement/ (DuckDB's
// binder/statement/bind_*.cpp).
//
// Binding resolves the target table and every name, checks types, and throws
// every error that follows from the statement text and the catalog alone
// (BinderError, CatalogError, the append-only ConstraintError, the
// NotImplementedError of a refused form, COPY option errors), in the order
// the statement is read. It builds the plan that computes the change but
// does not run it: running the plan, checking the rows it yields (NOT NULL,
// MERGE's one-source-row-per-target-row rule) and committing are the
// statement executor's job (main/statement/). The statement binders read no
// rows themselves; what the query binder (planner/binder.hpp) reads while it
// binds a source (a table stream's pending changes, a subquery used as a
// value) is its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parser/ast.hpp"
#include "planner/logical_plan.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream {

class Binder;
struct TableCatalogEntry;

// INSERT {INTO | OVERWRITE} t [(cols)] {VALUES ... | query}.
struct BoundInsert {
  TableCatalogEntry* table = nullptr;
  bool overwrite = false;
  // One entry per table column: the source column that fills it, or -1 when
  // the column takes its default (NULL when it has none).
  std::vector<int64_t> source_of;
  // The rows to insert: one column per table column, in table order, each
  // cast to the column's type.
  LogicalOperatorPtr plan;
};

// UPDATE t [a] SET c = e, ... [WHERE e].
struct BoundUpdate {
  TableCatalogEntry* table = nullptr;
  std::vector<bool> assigned;  // one entry per table column: named in SET
  // The rows that change: one column per table column (its new value, cast to
  // the column's type), then the row id.
  LogicalOperatorPtr plan;
};

// DELETE FROM t [a] [WHERE e] and TRUNCATE t.
struct BoundDelete {
  TableCatalogEntry* table = nullptr;
  bool truncate = false;
  LogicalOperatorPtr plan;  // DELETE: the row ids to delete; TRUNCATE: null (every row goes)
};

// One WHEN clause of a MERGE: where its condition and values sit in the row
// BoundMerge::plan yields.
struct BoundMergeClause {
  MergeMatch match = MergeMatch::MATCHED;
  MergeAction action = MergeAction::UPDATE;
  idx_t condition_column = 0;    // BOOLEAN; TRUE when the clause has no AND
  idx_t first_value_column = 0;  // UPDATE / INSERT: one column per table column, cast to its type
};

// MERGE INTO t USING s ON e WHEN ...
struct BoundMerge {
  TableCatalogEntry* table = nullptr;
  std::vector<BoundMergeClause> clauses;  // in the order written
  // One row per source row (a LEFT join of source to target): column 0 the
  // matched target row id (NULL when no target row matched), then each
  // clause's condition and values.
  LogicalOperatorPtr plan;
};

enum class CopyFormat : uint8_t { PARQUET, CSV, JSON };

// COPY TO a text file: CSV (DuckDB's defaults: a header line, ',' between
// fields, '"' quotes, NULL as an empty field) or JSON (one object per line,
// or one array with `array`).
struct CopyTextOptions {
  bool header = true;
  char delimiter = ',';
  char quote = '"';
  std::string null_string;
  bool json_array = false;
};

// COPY {(query) | t} TO 'file' [(options)] and COPY t FROM 'file'.
struct BoundCopy {
  bool is_from = false;
  std::string path;
  // TO: the file's format and the writer's options, the file's columns (an
  // untyped NULL column becomes INTEGER) and the rows to write.
  CopyFormat format = CopyFormat::PARQUET;
  ParquetWriterOptions options;
  CopyTextOptions text;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  LogicalOperatorPtr plan;
  // FROM: the INSERT INTO t SELECT * FROM read_parquet('file') it stands for.
  std::unique_ptr<SQLStatement> insert_statement;
  BoundInsert insert;
};

// Each binds `stmt` with `binder` (a fresh binder per statement). BindInsert
// replaces the DEFAULT keywords of a VALUES list with the columns' defaults in
// `stmt`.
BoundInsert BindInsert(Binder& binder, InsertStatement& stmt);
BoundUpdate BindUpdate(Binder& binder, const UpdateStatement& stmt);
BoundDelete BindDelete(Binder& binder, const DeleteStatement& stmt);
BoundMerge BindMerge(Binder& binder, const MergeStatement& stmt);
BoundCopy BindCopy(Binder& binder, const CopyStatement& stmt);

}  // namespace lakestream
