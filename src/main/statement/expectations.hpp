// Pipeline expectations (CONSTRAINT name EXPECT (cond) [ON VIOLATION ...]) of
// a streaming table or materialized view: each row the dataset's query
// produces in an update is checked against every expectation.
//
// A row passes an expectation when its condition is TRUE; FALSE and NULL
// violate it (as a Delta CHECK constraint and Databricks' expect_or_drop
// filter do). Per action: WARN (no ON VIOLATION) keeps the row, DROP ROW
// leaves it out of the write, FAIL UPDATE throws a ConstraintError naming the
// expectation, the dataset and the row before anything is committed. Every
// expectation is evaluated on every row, so the metrics of one do not depend
// on the others.
#pragma once

#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "parser/expectations.hpp"

namespace lakestream {

const char* ExpectationActionName(ExpectationAction action);  // "allow", "drop", "fail"

struct ExpectationMetrics {
  std::string name;
  ExpectationAction action = ExpectationAction::WARN;
  int64_t passed_records = 0;
  int64_t failed_records = 0;
};

// Throws BinderError when the condition of an expectation of `dataset` holds
// an aggregate: each row is checked on its own (the parser refuses window
// functions and subqueries; aggregates are known by name only here).
void CheckExpectationsPerRow(const std::string& dataset, const std::vector<ExpectationDefinition>& expectations);

// The dataset's query with one BOOLEAN column per expectation appended
// (named ExpectationColumn(i)): SELECT *, (cond) ... FROM (query_text).
std::string ExpectationQueryText(const std::string& query_text, const std::vector<ExpectationDefinition>& expectations);
std::string ExpectationColumn(idx_t i);

// A materialized view's stored definition: `query_text` filtered by its
// DROP ROW expectations (unchanged without any).
std::string DropRowDefinition(const std::string& query_text, const std::vector<ExpectationDefinition>& expectations);

// `rows` holds names.size() data columns followed by the expectation columns
// of ExpectationQueryText. Returns the data columns of the rows to write
// (DROP ROW violations left out) and fills `metrics` (one per expectation)
// and `dropped` (rows left out). Throws ConstraintError for a FAIL UPDATE
// violation, naming `dataset` (e.g. "streaming table s").
ChunkCollection ApplyExpectations(const std::string& dataset, const std::vector<std::string>& names,
                                  const std::vector<ExpectationDefinition>& expectations, const ChunkCollection& rows,
                                  std::vector<ExpectationMetrics>& metrics, int64_t& dropped);

// {"dropped_records": n, "expectations": [{"name", "dataset", "passed_records",
// "failed_records", "action"}]}: the shape of Databricks' event log
// flow_progress.data_quality, as the `expectations` result column.
std::string ExpectationMetricsJson(const std::string& dataset, const std::vector<ExpectationMetrics>& metrics,
                                   int64_t dropped);

}  // namespace lakestream
