#include "main/statement/expectations.hpp"

#include <nlohmann/json.hpp>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/aggregate_function.hpp"
#include "parser/parser.hpp"
#include "lakestream/connection.hpp"

namespace lakestream {

const char* ExpectationActionName(ExpectationAction action) {
  switch (action) {
    case ExpectationAction::WARN: return "allow";
    case ExpectationAction::DROP_ROW: return "drop";
    case ExpectationAction::FAIL_UPDATE: return "fail";
  }
  return "allow";
}

static const ParsedExpression* FindAggregate(const ParsedExpression& e) {
  if (e.type == ExpressionType::FUNCTION && IsAggregateFunction(StringUtil::Lower(e.function_name))) return &e;
  for (auto& child : e.children) {
    if (const ParsedExpression* found = FindAggregate(*child)) return found;
  }
  return nullptr;
}

void CheckExpectationsPerRow(const std::string& dataset, const std::vector<ExpectationDefinition>& expectations) {
  for (auto& expectation : expectations) {
    ExprPtr condition = Parser::ParseExpression(expectation.condition);
    if (const ParsedExpression* aggregate = FindAggregate(*condition)) {
      throw BinderError("expectation " + expectation.name + " of " + dataset +
                        ": its condition may not hold an aggregate, a window function or a subquery (" +
                        aggregate->ToString() +
                        "), since it checks each row on its own; compute the value in the query and check that column");
    }
  }
}

std::string ExpectationColumn(idx_t i) { return "__lakestream_expectation_" + std::to_string(i); }

std::string ExpectationQueryText(const std::string& query_text, const std::vector<ExpectationDefinition>& expectations) {
  std::string sql = "SELECT *";
  for (idx_t i = 0; i < expectations.size(); i++) {
    sql += ", (" + expectations[i].condition + ") AS " + QuoteIdentifier(ExpectationColumn(i));
  }
  return sql + " FROM (" + query_text + ") AS __lakestream_expectation_input";
}

std::string DropRowDefinition(const std::string& query_text, const std::vector<ExpectationDefinition>& expectations) {
  std::string where;
  for (auto& e : expectations) {
    if (e.action != ExpectationAction::DROP_ROW) continue;
    where += std::string(where.empty() ? "" : " AND ") + "(" + e.condition + ") IS TRUE";
  }
  if (where.empty()) return query_text;
  return "SELECT * FROM (" + query_text + ") AS __lakestream_expectation_input WHERE " + where;
}

namespace {

// The row as `{a: 1, b: NULL}` for an error message (long values cut).
std::string RowText(const std::vector<std::string>& names, const ChunkCollection& rows, idx_t row) {
  std::string text = "{";
  for (idx_t c = 0; c < names.size(); c++) {
    std::string value = rows.GetValue(c, row).ToSQLString();
    if (value.size() > 80) value = value.substr(0, 77) + "...";
    text += (c ? ", " : "") + names[c] + ": " + value;
  }
  return text + "}";
}

}  // namespace

ChunkCollection ApplyExpectations(const std::string& dataset, const std::vector<std::string>& names,
                                  const std::vector<ExpectationDefinition>& expectations, const ChunkCollection& rows,
                                  std::vector<ExpectationMetrics>& metrics, int64_t& dropped) {
  const idx_t width = names.size();
  metrics.clear();
  dropped = 0;
  for (idx_t e = 0; e < expectations.size(); e++) {
    const LogicalType& type = rows.Types()[width + e];
    if (type.id() != TypeId::BOOLEAN && type.id() != TypeId::SQLNULL) {
      throw BinderError("Expectation " + expectations[e].name + " of " + dataset + ": its condition (" +
                        expectations[e].condition + ") is " + type.ToString() +
                        ", not BOOLEAN; write a comparison, e.g. (" + expectations[e].condition + ") IS NOT NULL");
    }
    metrics.push_back({expectations[e].name, expectations[e].action, 0, 0});
  }
  std::vector<LogicalType> types(rows.Types().begin(), rows.Types().begin() + static_cast<std::ptrdiff_t>(width));
  ChunkCollection kept(types);
  idx_t row = 0;
  for (idx_t ci = 0; ci < rows.ChunkCount(); ci++) {
    const DataChunk& chunk = rows.Chunk(ci);
    DataChunk out;
    out.Initialize(types, std::max<idx_t>(chunk.size(), 1));
    idx_t out_count = 0;
    for (idx_t r = 0; r < chunk.size(); r++, row++) {
      bool drop = false;
      for (idx_t e = 0; e < expectations.size(); e++) {
        Value verdict = chunk.GetValue(width + e, r);
        bool passed = !verdict.IsNull() && verdict.GetBoolean();
        if (passed) {
          metrics[e].passed_records++;
          continue;
        }
        metrics[e].failed_records++;
        if (expectations[e].action == ExpectationAction::DROP_ROW) drop = true;
        if (expectations[e].action == ExpectationAction::FAIL_UPDATE) {
          throw ConstraintError("Expectation " + expectations[e].name + " of " + dataset + " (ON VIOLATION FAIL UPDATE) failed: (" +
                                expectations[e].condition + ") is " + (verdict.IsNull() ? "NULL" : "false") + " for row " +
                                RowText(names, rows, row) +
                                "; nothing was committed. Fix or remove the input row, or declare the expectation "
                                "ON VIOLATION DROP ROW to leave such rows out");
        }
      }
      if (drop) {
        dropped++;
        continue;
      }
      for (idx_t c = 0; c < width; c++) out.SetValue(c, out_count, chunk.GetValue(c, r));
      out_count++;
    }
    out.SetCardinality(out_count);
    if (out_count > 0) kept.Append(out);
  }
  return kept;
}

std::string ExpectationMetricsJson(const std::string& dataset, const std::vector<ExpectationMetrics>& metrics,
                                   int64_t dropped) {
  nlohmann::json list = nlohmann::json::array();
  for (auto& m : metrics) {
    list.push_back({{"name", m.name},
                    {"dataset", dataset},
                    {"action", ExpectationActionName(m.action)},
                    {"passed_records", m.passed_records},
                    {"failed_records", m.failed_records}});
  }
  return nlohmann::json{{"dropped_records", dropped}, {"expectations", list}}.dump();
}

}  // namespace lakestream
