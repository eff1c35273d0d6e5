// Built with only src/include on the include path (CMakeLists.txt): if a
// public header reached for an engine header, this would not compile. It
// also runs the API end to end through public types only.
#include <lakestream.hpp>

#include <cstdio>

int main() {
  lakestream::Database db;
  lakestream::Connection con(db);
  auto result = con.Query("SELECT CAST(? AS DECIMAL(18,2)) AS price", {lakestream::SqlValue::Bigint(7)});
  if (result->HasError()) {
    std::fprintf(stderr, "%s\n", result->GetError().c_str());
    return 1;
  }
  bool ok = result->ColumnTypes().at(0).ToString() == "DECIMAL(18,2)" && result->GetValue(0, 0).ToString() == "7.00" &&
            result->GetValue(0, 0).GetUnscaled() == 700 && result->Names().at(0) == "price";
  if (!ok) std::fprintf(stderr, "unexpected result: %s %s\n", result->ColumnTypes().at(0).ToString().c_str(),
                        result->GetValue(0, 0).ToString().c_str());
  return ok ? 0 : 1;
}
