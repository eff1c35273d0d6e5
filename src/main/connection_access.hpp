// Engine-side access to a Connection's session (ClientContext), for code of
// the engine above main/ (pipeline/) that still needs the catalog. The public
// Connection (include/lakestream/connection.hpp) does not hand it out.
#pragma once

#include "lakestream/connection.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

struct ConnectionAccess {
  static ClientContext& Context(Connection& connection) { return *connection.context_; }
  // The table's columns as the engine reads them (main/columnar_table.cpp);
  // `table` is left empty.
  static std::shared_ptr<const ConnectionTable> TakeTable(ColumnarTable& table);
};

}  // namespace lakestream
