// Running SQL in unit tests through the public API.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lakestream.hpp"

namespace lakestream {

// Runs `sql` (with `params` for ? / $n / $name) and records a test failure,
// naming the SQL and its error, when it fails; returns the result either way.
inline std::unique_ptr<QueryResult> Ok(Connection& con, const std::string& sql,
                                       const std::vector<SqlValue>& params = {}) {
  auto r = params.empty() ? con.Query(sql) : con.Query(sql, params);
  EXPECT_FALSE(r->HasError()) << sql << "\n" << r->GetError();
  return r;
}

}  // namespace lakestream
