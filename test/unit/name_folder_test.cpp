// Folders of renamed tables: ALTER TABLE ... RENAME moves a managed table's
// folder, and a crash between saving the catalog and the move is finished
// on the next open (docs/names.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

std::string One(Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  EXPECT_FALSE(r->HasError()) << sql << "\n" << r->GetError();
  if (r->HasError() || r->RowCount() == 0) return "<none>";
  return r->GetValue(0, 0).ToString();
}

TEST(NameFolder, RenameMovesTheFolder) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db_path = tmp.path + "/db";
  {
    Database db(db_path);
    Connection con(db);
    One(con, "CREATE TABLE t (v INT); INSERT INTO t VALUES (5); ALTER TABLE t RENAME TO \"t.v2/x\"");
    EXPECT_FALSE(fs::exists(db_path + "/t"));
    EXPECT_TRUE(fs::exists(db_path + "/t.v2%2Fx/_delta_log"));
    EXPECT_EQ(One(con, "SELECT v FROM \"t.v2/x\""), "5");
  }
  Database db(db_path);
  Connection con(db);
  EXPECT_EQ(One(con, "SELECT v FROM \"t.v2/x\""), "5");
}

// The catalog as ALTER TABLE t RENAME TO u saves it before rename(2): u's
// location, and where the folder still is.
TEST(NameFolder, InterruptedRenameIsFinishedOnOpen) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db_path = tmp.path + "/db";
  {
    Database db(db_path);
    Connection con(db);
    One(con, "CREATE TABLE t (v INT); INSERT INTO t VALUES (7)");
  }
  std::string catalog_path = db_path + "/_lakestream/catalog.json";
  nlohmann::json catalog;
  std::ifstream(catalog_path) >> catalog;
  ASSERT_EQ(catalog["tables"].size(), 1u);
  catalog["tables"][0]["name"] = "u";
  catalog["tables"][0]["path"] = "u";
  catalog["tables"][0]["state"]["moved_from"] = "t";
  std::ofstream(catalog_path) << catalog.dump();

  Database db(db_path);
  Connection con(db);
  EXPECT_EQ(One(con, "SELECT v FROM u"), "7");
  EXPECT_FALSE(fs::exists(db_path + "/t"));
  EXPECT_TRUE(fs::exists(db_path + "/u/_delta_log"));
  One(con, "CREATE TABLE t (w INT)");  // the old name is free, and so is its folder
  EXPECT_EQ(One(con, "SELECT COUNT(*) FROM t"), "0");
}

// A "moved_from" that leads out of the database is never followed.
TEST(NameFolder, MovedFromOutsideIsIgnored) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db_path = tmp.path + "/db";
  fs::create_directories(tmp.path + "/victim");
  std::ofstream(tmp.path + "/victim/keep.txt") << "keep";
  {
    Database db(db_path);
    Connection con(db);
    One(con, "CREATE TABLE t (v INT)");
  }
  std::string catalog_path = db_path + "/_lakestream/catalog.json";
  nlohmann::json catalog;
  std::ifstream(catalog_path) >> catalog;
  catalog["tables"][0]["name"] = "u";
  catalog["tables"][0]["path"] = "u";
  catalog["tables"][0]["state"]["moved_from"] = "../victim";
  std::ofstream(catalog_path) << catalog.dump();

  Database db(db_path);
  Connection con(db);
  auto r = con.Query("SELECT * FROM u");
  EXPECT_TRUE(r->HasError());  // u's folder does not exist; nothing was moved in
  EXPECT_TRUE(fs::exists(tmp.path + "/victim/keep.txt"));
  EXPECT_FALSE(fs::exists(db_path + "/u"));
}

}  // namespace
}  // namespace lakestream
