// Connection::CreateVectorizedScalarFunction: a user function called once
// per batch (lakestream/connection.hpp). The batch goes out as a QueryResult
// of one chunk and comes back as a ColumnarTable: the application reads and
// writes its columns through the public API it already uses for results and
// registered tables (the Python package: pandas Series both ways).
#include <stdexcept>

#include "common/cast.hpp"
#include "common/chunk_collection.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/scalar/user_function.hpp"
#include "lakestream/connection.hpp"
#include "main/connection_access.hpp"
#include "main/public_value.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

void Connection::CreateVectorizedScalarFunction(const std::string& name,
                                                const std::optional<std::vector<ColumnType>>& argument_types,
                                                const ColumnType& return_type, VectorizedScalarFunction function,
                                                ScalarFunctionOptions options) {
  UserScalarFunction user;
  try {
    CheckUserFunctionName(name);
    if (!function) throw InvalidInputError("Cannot create function " + name + ": no function was given");
    if (argument_types) {
      user.argument_types.emplace();
      for (auto& type : *argument_types) user.argument_types->push_back(ValueConverter::ToEngine(type));
    }
    user.return_type = ValueConverter::ToEngine(return_type);
  } catch (const Exception& e) {
    throw std::invalid_argument(e.what());
  }
  user.name = name;
  user.deterministic = options.deterministic;
  user.handles_nulls = true;
  user.call_batch = [function = std::move(function), name](DataChunk& arguments, idx_t count, Vector& result) {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    for (idx_t c = 0; c < arguments.ColumnCount(); c++) {
      names.push_back("a" + std::to_string(c));
      types.push_back(arguments.data[c].GetType());
    }
    auto batch = std::make_unique<QueryResult>(names, types);
    auto chunk = std::make_unique<DataChunk>();
    chunk->Initialize(types, count);
    for (idx_t c = 0; c < types.size(); c++) chunk->data[c].Copy(arguments.data[c], nullptr, count, 0, 0);
    chunk->SetCardinality(count);
    batch->Append(std::move(chunk));
    ColumnarTable out = function(std::move(batch));
    if (out.ColumnCount() != 1 || out.RowCount() != count) {
      throw InvalidInputError("User function " + name + " returned " + std::to_string(out.ColumnCount()) +
                              " column(s) of " + std::to_string(out.RowCount()) + " row(s) for a batch of " +
                              std::to_string(count) + " rows; a vectorized function returns one value per row");
    }
    std::shared_ptr<const ConnectionTable> rows = ConnectionAccess::TakeTable(out);
    idx_t offset = 0;
    for (idx_t k = 0; k < rows->rows->ChunkCount(); k++) {
      const DataChunk& part = rows->rows->Chunk(k);
      Vector cast(result.GetType(), part.size());
      try {
        CastVector(part.data[0], cast, part.size());
      } catch (const Exception& e) {
        throw ConversionError("User function " + name + " returned values that are not " +
                              result.GetType().ToString() + " (" + e.what() +
                              "); return that type or declare the function's return type as the one it returns");
      }
      result.Copy(cast, nullptr, part.size(), 0, offset);
      offset += part.size();
    }
  };
  context_->user_functions[StringUtil::Lower(name)] = std::move(user);
}

}  // namespace lakestream
