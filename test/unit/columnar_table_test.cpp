// The application's own data as tables (Connection::RegisterTable and the
// replacement scan, lakestream/columnar_table.hpp, docs/api.md): typed
// columns with NULLs across chunk boundaries, the catalog first, the scan
// asked only for names nothing else has, and errors that name the table.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lakestream.hpp"
#include "query_test_util.hpp"

namespace lakestream {
namespace {

ColumnarTable Numbers(int64_t n) {
  std::vector<int64_t> ids;
  std::vector<std::string> text;
  std::vector<uint8_t> valid;
  for (int64_t i = 0; i < n; i++) {
    ids.push_back(i);
    text.push_back("v" + std::to_string(i % 3));
    valid.push_back(i % 5 != 0);
  }
  std::vector<std::string_view> views(text.begin(), text.end());
  ColumnarTable table;
  table.AddBigints("id", ids.data(), nullptr, ids.size());
  table.AddStrings("s", views.data(), valid.data(), views.size());
  return table;
}

TEST(ColumnarTable, RegisteredTableIsReadTypedAcrossChunks) {
  Database db;
  Connection con(db);
  con.RegisterTable("Numbers", Numbers(5000));  // more than two chunks
  auto r = Ok(con, "SELECT count(*), sum(id), count(s), min(s) FROM numbers");
  EXPECT_EQ(r->GetValue(0, 0).GetBigint(), 5000);
  EXPECT_EQ(r->GetValue(1, 0).GetBigint(), 5000 * 4999 / 2);
  EXPECT_EQ(r->GetValue(2, 0).GetBigint(), 4000);  // every fifth row is NULL
  EXPECT_EQ(r->GetValue(3, 0).GetString(), "v0");
  r = Ok(con, "SELECT s FROM numbers WHERE id = 4097");
  EXPECT_EQ(r->GetValue(0, 0).GetString(), "v2");
  Ok(con, "CREATE TABLE copy AS SELECT * FROM numbers");
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM copy")->GetValue(0, 0).GetBigint(), 5000);
  EXPECT_TRUE(con.UnregisterTable("NUMBERS"));
  EXPECT_TRUE(con.Query("SELECT * FROM numbers")->HasError());
  // The catalog's table of the same name comes first.
  con.RegisterTable("copy", Numbers(1));
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM copy")->GetValue(0, 0).GetBigint(), 5000);
  // Another connection does not see it.
  Connection other(db);
  con.RegisterTable("mine", Numbers(2));
  EXPECT_TRUE(other.Query("SELECT * FROM mine")->HasError());
}

TEST(ColumnarTable, ReplacementScanIsAskedForUnknownNamesOnly) {
  Database db;
  Connection con(db);
  std::vector<std::string> asked;
  con.SetReplacementScan([&](const std::string& name) -> std::optional<ColumnarTable> {
    asked.push_back(name);
    if (name == "boom") throw std::runtime_error("no frame here");
    if (name != "frame") return std::nullopt;
    return Numbers(10);
  });
  Ok(con, "CREATE TABLE t (x INT)");
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM frame JOIN t ON true")->GetValue(0, 0).GetBigint(), 0);
  EXPECT_EQ(Ok(con, "SELECT count(*) FROM frame")->GetValue(0, 0).GetBigint(), 10);
  EXPECT_EQ(asked, (std::vector<std::string>{"frame", "frame"}));  // never for t
  auto missing = con.Query("SELECT * FROM nothing");
  EXPECT_EQ(missing->GetErrorKind(), ErrorKind::CATALOG) << missing->GetError();
  auto failed = con.Query("SELECT * FROM boom");
  EXPECT_EQ(failed->GetErrorKind(), ErrorKind::INVALID_INPUT);
  EXPECT_NE(failed->GetError().find("Cannot read boom"), std::string::npos) << failed->GetError();
  EXPECT_NE(failed->GetError().find("no frame here"), std::string::npos) << failed->GetError();
  con.SetReplacementScan(nullptr);
  EXPECT_TRUE(con.Query("SELECT * FROM frame")->HasError());
}

TEST(ColumnarTable, ColumnsOfAnotherLengthOrNameTwiceAreRefused) {
  ColumnarTable table;
  int64_t a[3] = {1, 2, 3};
  double b[2] = {1, 2};
  table.AddBigints("a", a, nullptr, 3);
  EXPECT_THROW(table.AddDoubles("b", b, nullptr, 2), std::invalid_argument);
  EXPECT_THROW(table.AddBigints("A", a, nullptr, 3), std::invalid_argument);
  double c[3] = {1, 2, 3};
  table.AddDoubles("c", c, nullptr, 3);
  EXPECT_EQ(table.ColumnCount(), 2u);
  EXPECT_EQ(table.RowCount(), 3u);
}

}  // namespace
}  // namespace lakestream
