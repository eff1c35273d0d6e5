#include "main/statement/summarize.hpp"

#include <memory>
#include <string>

#include "common/chunk_collection.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "execution/plan_executor.hpp"
#include "function/table/table_functions.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

// The statistics of one column, in the output's order after its name and type.
const char* const kStatistics[] = {"min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count"};
constexpr idx_t kStatisticCount = sizeof(kStatistics) / sizeof(kStatistics[0]);

// The aggregates of column `c` (an alias of the summarized query's column),
// NULL where the statistic does not apply to its type.
std::vector<std::string> Aggregates(const std::string& c, const LogicalType& type) {
  auto text = [](const std::string& e) { return "CAST(" + e + " AS VARCHAR)"; };
  bool ordered = !type.IsNested();
  bool numeric = type.IsNumeric();
  std::string none = "CAST(NULL AS VARCHAR)";
  return {
      ordered ? text("min(" + c + ")") : none,
      ordered ? text("max(" + c + ")") : none,
      ordered ? "approx_count_distinct(" + c + ")" : "CAST(NULL AS BIGINT)",
      numeric ? text("avg(" + c + ")") : none,
      numeric ? text("stddev(" + c + ")") : none,
      numeric ? text("quantile_cont(" + c + ", 0.25)") : none,
      numeric ? text("quantile_cont(" + c + ", 0.5)") : none,
      numeric ? text("quantile_cont(" + c + ", 0.75)") : none,
      "count(" + c + ")",
  };
}

}  // namespace

TableFunctionBinding BindSummarize(ClientContext& context, const std::vector<Value>& arguments) {
  if (arguments.size() != 1 || arguments[0].type().id() != TypeId::VARCHAR || arguments[0].IsNull()) {
    throw BinderError("summarize() takes one argument, the text of a query (or write SUMMARIZE t / SUMMARIZE SELECT ...)");
  }
  const std::string& query_text = arguments[0].GetString();
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  {
    auto query = Parser::ParseQuery(query_text);
    Binder binder(context);
    BoundQuery bound = binder.BindQuery(*query);
    names = bound.names;
    types = bound.types;
  }
  // One pass over the query: every column's statistics in one aggregate row,
  // over the query's columns renamed c0, c1, ... (its own names may repeat).
  std::vector<std::string> aliases;
  std::vector<std::string> items;
  for (idx_t i = 0; i < names.size(); i++) {
    aliases.push_back("c" + std::to_string(i));
    for (auto& aggregate : Aggregates(aliases.back(), types[i])) items.push_back(aggregate);
  }
  items.push_back("count(*)");
  std::string summary = "SELECT " + StringUtil::Join(items, ", ") + " FROM (" + query_text + ") AS __summarized(" +
                        StringUtil::Join(aliases, ", ") + ")";
  ChunkCollection statistics;
  {
    auto query = Parser::ParseQuery(summary);
    Binder binder(context);
    statistics = ExecutePlan(context, std::move(binder.BindQuery(*query).plan));
  }
  if (statistics.Count() != 1) throw InternalError("summarize(): the statistics query gave no single row");

  TableFunctionBinding binding;
  binding.names = {"column_name", "column_type"};
  binding.types = {TypeId::VARCHAR, TypeId::VARCHAR};
  for (const char* statistic : kStatistics) {
    binding.names.push_back(statistic);
    binding.types.push_back(std::string(statistic) == "approx_unique" || std::string(statistic) == "count"
                                ? LogicalType(TypeId::BIGINT)
                                : LogicalType(TypeId::VARCHAR));
  }
  binding.names.push_back("null_percentage");
  binding.types.push_back(LogicalType::Decimal(9, 2));

  auto rows = std::make_shared<ChunkCollection>(binding.types);
  int64_t total = statistics.GetValue(items.size() - 1, 0).GetBigint();
  DataChunk chunk;
  chunk.Initialize(binding.types);
  idx_t in_chunk = 0;
  for (idx_t column = 0; column < names.size(); column++) {
    chunk.SetValue(0, in_chunk, Value::VARCHAR(names[column]));
    chunk.SetValue(1, in_chunk, Value::VARCHAR(types[column].ToString()));
    for (idx_t s = 0; s < kStatisticCount; s++) {
      chunk.SetValue(2 + s, in_chunk, statistics.GetValue(column * kStatisticCount + s, 0).CastAs(binding.types[2 + s]));
    }
    int64_t non_null = statistics.GetValue(column * kStatisticCount + kStatisticCount - 1, 0).GetBigint();
    // Percent with two digits, rounded half up: (nulls * 10000 * 2 + total) / (2 * total) hundredths.
    int64_t hundredths = total == 0 ? 0 : ((total - non_null) * 20000 + total) / (2 * total);
    chunk.SetValue(2 + kStatisticCount, in_chunk, Value::DECIMAL(hundredths, 9, 2));
    if (++in_chunk == STANDARD_VECTOR_SIZE) {
      chunk.SetCardinality(in_chunk);
      rows->Append(chunk);
      chunk.Reset();
      in_chunk = 0;
    }
  }
  chunk.SetCardinality(in_chunk);
  if (in_chunk > 0) rows->Append(chunk);
  binding.factory = [rows](const std::vector<idx_t>& projected) {
    return MakeCollectionSource(rows, projected, "SUMMARIZE");
  };
  return binding;
}

}  // namespace lakestream
