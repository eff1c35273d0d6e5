// The application's own tables on one connection (Connection::RegisterTable,
// SetReplacementScan in lakestream/connection.hpp): rows already in the
// engine's layout, read by name without a catalog entry
// (function/table/connection_table_scan.hpp binds them).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/chunk_collection.hpp"

namespace lakestream {

struct ConnectionTable {
  std::vector<std::string> names;
  std::shared_ptr<const ChunkCollection> rows;  // its Types() are the columns' types
};

// Asked for a one-part name nothing else resolves (as written); null when
// it has no table of that name. May throw to fail the statement.
using ConnectionReplacementScan = std::function<std::shared_ptr<const ConnectionTable>(const std::string& name)>;

}  // namespace lakestream
