// Table functions (range(), read_parquet(), read_files(), table_changes(),
// read_kafka(), STREAM(t)): the contract between a function, the binder and
// the executor. The function layer owns it, so functions never see execution
// operators or plans (as in DuckDB, where a table function is a bind callback
// and a producer of chunks).
//
// Binding a call turns its constant arguments into an output schema and a
// factory; the physical planner calls the factory once with the columns the
// query reads and wraps the TableSource it returns in an operator.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/value.hpp"

namespace lakestream {

class ClientContext;

// The rows of one table function call, pulled a chunk at a time.
class TableSource {
 public:
  virtual ~TableSource() = default;
  // Fills `out` (initialised to the projected column types) with up to
  // STANDARD_VECTOR_SIZE rows and returns true, or returns false when the
  // source is exhausted. A true return may carry 0 rows. Errors are thrown
  // as typed exceptions (IOError, InvalidInputError, ...).
  virtual bool Next(DataChunk& out) = 0;
  // The operator name EXPLAIN shows (RANGE, PARQUET_SCAN, READ_FILES, ...).
  virtual std::string Name() const = 0;
  // Extra detail for EXPLAIN; empty when there is none.
  virtual std::string Details() const { return ""; }
};

using TableSourcePtr = std::unique_ptr<TableSource>;

// A source serving the columns `projected` (positions in rows' types, in that
// order) of materialised rows; `rows` may be shared with other sources (a
// stream read twice in one statement).
TableSourcePtr MakeCollectionSource(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected,
                                    std::string name);

struct TableFunctionBinding {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  // Builds the source for the given column positions (in `types` order).
  std::function<TableSourcePtr(const std::vector<idx_t>& projected)> factory;
};

// Binds a call: `name` is the lower-case name it was called by (an alias
// such as generate_series binds differently from range), `argument_names[i]`
// the lower-case name of a named argument (name => value) or "". Throws
// BinderError for bad arguments.
using TableFunctionBind =
    std::function<TableFunctionBinding(ClientContext& context, const std::string& name, const std::vector<Value>& arguments,
                                       const std::vector<std::string>& argument_names)>;

// The table functions callable by name in FROM. Functions live in layers
// above the binder (read_kafka in connector/), so they are registered at
// startup (main/builtin_table_functions.hpp) and the binder finds them here.
class TableFunctionRegistry {
 public:
  static TableFunctionRegistry& Instance();

  // Registers `bind` under `name` (case-insensitive); a second registration
  // of a name replaces the first. `suggest`: whether a misspelt call may
  // hint this name ("Did you mean ...?"); false for legacy aliases.
  void Register(const std::string& name, TableFunctionBind bind, bool suggest = true);
  // The bind callback of `name` (any case), or null when none is registered.
  TableFunctionBind Find(const std::string& name) const;
  // The names a misspelt call may be pointed to, in registration order.
  std::vector<std::string> SuggestedNames() const;

 private:
  struct Entry {
    std::string name;
    TableFunctionBind bind;
    bool suggest;
  };
  mutable std::mutex lock_;
  std::vector<Entry> entries_;
};

}  // namespace lakestream
