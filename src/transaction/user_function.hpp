// Scalar functions an application registers on its connection: C++
// (Connection::CreateScalarFunction), Python (con.create_function,
// spark.udf.register, F.udf). They live as long as the connection, as a
// DuckDB connection's or a Spark session's functions do, and are called one
// row at a time, or one batch at a time when vectorized.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/value.hpp"

namespace lakestream {

class DataChunk;
class Vector;

struct UserScalarFunction {
  std::string name;  // as registered (calls match it case-insensitively)
  // The parameter types the binder casts the arguments to; nullopt takes any
  // number of arguments of any type as given (PySpark UDFs declare none).
  std::optional<std::vector<LogicalType>> argument_types;
  LogicalType return_type;
  // False: never folded to a constant, and a materialized view calling it is
  // recomputed, not maintained (its result may change between calls).
  bool deterministic = true;
  // True: called for rows with NULL arguments too; false: such rows are NULL
  // without a call (DuckDB's default).
  bool handles_nulls = false;
  // One row's arguments (cast to argument_types) to its result; the result is
  // cast to return_type. May run on several threads at once (a parallel
  // query); throws to fail the statement.
  std::function<Value(const std::vector<Value>& arguments)> call;
  // Set instead of `call` for a vectorized function: the batch's arguments
  // (cast to argument_types) to its `count` results, written into `result`
  // (of return_type). Called for every row, NULLs included.
  std::function<void(DataChunk& arguments, idx_t count, Vector& result)> call_batch;
};

}  // namespace lakestream
