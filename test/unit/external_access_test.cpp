// ExternalAccessPolicy (common/external_access.hpp): how paths are resolved
// and judged once external access is off, and the rules for changing it.
#include "common/external_access.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/exception.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

class ExternalAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "lakestream_access_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = fs::canonical(tmpl).string();
    fs::create_directories(root_ + "/db/_lakestream");
    fs::create_directories(root_ + "/in");
    fs::create_directories(root_ + "/input");
    std::ofstream(root_ + "/secret") << "x";
  }
  void TearDown() override { fs::remove_all(root_); }

  bool Allowed(const ExternalAccessPolicy& policy, const std::string& path) {
    try {
      policy.CheckPath(path, AccessMode::READ, "test");
      return true;
    } catch (const PermissionError&) {
      return false;
    }
  }

  std::string root_;
};

TEST_F(ExternalAccessTest, EnabledAllowsEverything) {
  ExternalAccessPolicy policy(root_ + "/db", true, {}, {});
  EXPECT_TRUE(Allowed(policy, "/etc/passwd"));
  EXPECT_TRUE(Allowed(policy, root_ + "/secret"));
}

TEST_F(ExternalAccessTest, DisabledAllowsTheDatabaseDirectoryButNotItsCatalog) {
  ExternalAccessPolicy policy(root_ + "/db", false, {}, {});
  EXPECT_TRUE(Allowed(policy, root_ + "/db/t.parquet"));
  EXPECT_TRUE(Allowed(policy, root_ + "/db/new/dir/file"));  // not there yet: judged lexically
  EXPECT_TRUE(Allowed(policy, root_ + "/db"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/_lakestream/catalog.json"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/_lakestream"));
  EXPECT_FALSE(Allowed(policy, root_ + "/secret"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/../secret"));
  EXPECT_FALSE(Allowed(policy, root_ + "//db/..//secret"));
  EXPECT_FALSE(Allowed(policy, root_ + "/dbx/file"));  // a sibling sharing the prefix
  EXPECT_FALSE(Allowed(policy, "/"));
}

TEST_F(ExternalAccessTest, SymlinksAreJudgedByWhereTheyLead) {
  fs::create_symlink(root_ + "/secret", root_ + "/db/evil");
  fs::create_symlink(root_, root_ + "/db/up");
  fs::create_symlink(root_ + "/db/loop", root_ + "/db/loop");
  ExternalAccessPolicy policy(root_ + "/db", false, {}, {});
  EXPECT_FALSE(Allowed(policy, root_ + "/db/evil"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/up/secret"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/up/not_there_yet"));
  EXPECT_TRUE(Allowed(policy, root_ + "/db/up/db/t.parquet"));  // leads back inside
  // A loop cannot be resolved: judged lexically, which stays inside here.
  EXPECT_TRUE(Allowed(policy, root_ + "/db/loop"));
  try {
    policy.CheckPath(root_ + "/db/evil", AccessMode::WRITE, "COPY ... TO");
    FAIL() << "expected a PermissionError";
  } catch (const PermissionError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("COPY ... TO cannot write " + root_ + "/db/evil (" + root_ + "/secret)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("allowed: the database directory " + root_ + "/db"), std::string::npos) << message;
  }
}

TEST_F(ExternalAccessTest, AllowedDirectoriesAndPaths) {
  ExternalAccessPolicy policy("", true, {}, {});
  policy.SetAllowedDirectories({root_ + "/in/"});
  policy.SetAllowedPaths({root_ + "/secret"});
  policy.SetEnabled(false);
  EXPECT_TRUE(Allowed(policy, root_ + "/in/a.csv"));
  EXPECT_TRUE(Allowed(policy, root_ + "/in"));
  EXPECT_FALSE(Allowed(policy, root_ + "/input/a.csv"));
  EXPECT_FALSE(Allowed(policy, root_ + "/in/../input/a.csv"));
  EXPECT_TRUE(Allowed(policy, root_ + "/secret"));
  EXPECT_FALSE(Allowed(policy, root_ + "/secret2"));
  EXPECT_FALSE(Allowed(policy, root_ + "/db/t.parquet"));  // in memory: no database directory
}

TEST_F(ExternalAccessTest, GlobPatternsAreJudgedByTheirDirectory) {
  ExternalAccessPolicy policy(root_ + "/db", false, {}, {});
  EXPECT_NO_THROW(policy.CheckPattern(root_ + "/db/*.parquet", AccessMode::READ, "test"));
  EXPECT_THROW(policy.CheckPattern(root_ + "/*/x.parquet", AccessMode::READ, "test"), PermissionError);
  EXPECT_THROW(policy.CheckPattern(root_ + "/db/../in/*.csv", AccessMode::READ, "test"), PermissionError);
  EXPECT_THROW(policy.CheckPattern("/*", AccessMode::READ, "test"), PermissionError);
}

TEST_F(ExternalAccessTest, NetworkIsRefusedOnceDisabled) {
  ExternalAccessPolicy policy(root_ + "/db", true, {}, {});
  EXPECT_NO_THROW(policy.CheckNetwork("broker:9092", "read_kafka"));
  policy.SetEnabled(false);
  EXPECT_THROW(policy.CheckNetwork("broker:9092", "read_kafka"), PermissionError);
}

TEST_F(ExternalAccessTest, ChangeRules) {
  ExternalAccessPolicy policy(root_ + "/db", true, {}, {});
  EXPECT_THROW(policy.SetAllowedDirectories({""}), InvalidInputError);
  policy.SetEnabled(true);  // already on: nothing to refuse
  policy.SetEnabled(false);
  policy.SetEnabled(false);
  EXPECT_THROW(policy.SetEnabled(true), InvalidInputError);
  EXPECT_FALSE(policy.Enabled());
  EXPECT_THROW(policy.SetAllowedDirectories({"/"}), InvalidInputError);
  EXPECT_THROW(policy.SetAllowedPaths({"/etc/passwd"}), InvalidInputError);
  EXPECT_TRUE(policy.AllowedDirectories().empty());
}

}  // namespace
}  // namespace lakestream
