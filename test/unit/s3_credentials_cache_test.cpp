// S3 credentials are looked up for every request: ~/.aws files and the
// persistent secrets store are read again only after they changed (and while
// a change is too recent for its timestamp to prove there was no other).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/file_system.hpp"
#include "common/s3/s3_config.hpp"
#include "common/secret/secret.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

// Sets a file's (or folder's) modification time `seconds` into the past.
void Age(const std::string& path, int seconds) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old) old_ = old;
    had_ = old != nullptr;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_, old_;
  bool had_ = false;
};

TEST(S3CredentialsCache, ProfileFilesAreReadAgainOnlyAfterTheyChange) {
  testing::ScopedTempDir dir("lakestream_s3_creds");
  std::string creds = dir.path + "/credentials";
  std::string config = dir.path + "/config";
  WriteText(creds, "[default]\naws_access_key_id = first\naws_secret_access_key = s1\n");
  WriteText(config, "[default]\nregion = eu-west-1\n");
  Age(creds, 60);
  Age(config, 60);
  ScopedEnv key("AWS_ACCESS_KEY_ID", nullptr), profile("AWS_PROFILE", nullptr), region("AWS_REGION", nullptr),
      default_region("AWS_DEFAULT_REGION", nullptr), cred_file("AWS_SHARED_CREDENTIALS_FILE", creds.c_str()),
      config_file("AWS_CONFIG_FILE", config.c_str());

  uint64_t before = S3ProfileFileReads();
  auto c = ResolveS3Config("s3://b/k");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c.value().key_id, "first");
  EXPECT_EQ(c.value().region, "eu-west-1");
  EXPECT_EQ(S3ProfileFileReads(), before + 2) << "both files are read once";
  for (int i = 0; i < 20; i++) ASSERT_EQ(ResolveS3Config("s3://b/other/" + std::to_string(i)).value().key_id, "first");
  EXPECT_EQ(S3ProfileFileReads(), before + 2) << "unchanged files are not read again";

  // Rotated keys (same length: only the time tells), with a time of their own.
  WriteText(creds, "[default]\naws_access_key_id = secnd\naws_secret_access_key = s2\n");
  Age(creds, 30);
  c = ResolveS3Config("s3://b/k");
  EXPECT_EQ(c.value().key_id, "secnd");
  EXPECT_EQ(c.value().secret, "s2");
  EXPECT_EQ(S3ProfileFileReads(), before + 3) << "only the changed file is read again";
  ResolveS3Config("s3://b/k");
  EXPECT_EQ(S3ProfileFileReads(), before + 3);

  // Just written: its time cannot rule out another write in the same tick,
  // so it is read at every use until it is older.
  WriteText(creds, "[default]\naws_access_key_id = third\naws_secret_access_key = s3\n");
  EXPECT_EQ(ResolveS3Config("s3://b/k").value().key_id, "third");
  EXPECT_EQ(ResolveS3Config("s3://b/k").value().key_id, "third");
  EXPECT_EQ(S3ProfileFileReads(), before + 5);
}

TEST(S3CredentialsCache, PersistentSecretsAreReadAgainOnlyAfterTheStoreChanges) {
  testing::ScopedTempDir dir("lakestream_secret_cache");
  SecretManager secrets(FileSystem::Default(), dir.path);
  Secret s;
  s.name = "lake";
  s.type = "s3";
  s.persistent = true;
  s.values = {{"key_id", "k1"}, {"secret", "v1"}};
  secrets.Create(s, false);
  std::string file = secrets.StoreDir() + "/lake.json";
  ASSERT_TRUE(fs::exists(file));
  Age(file, 60);
  Age(secrets.StoreDir(), 60);

  uint64_t before = secrets.StoreReads();
  ASSERT_TRUE(secrets.Which("s3://lake/t", "s3").has_value());
  for (int i = 0; i < 20; i++) ASSERT_EQ(secrets.Which("s3://lake/t/" + std::to_string(i), "s3")->values[0].second, "k1");
  EXPECT_EQ(secrets.StoreReads(), before + 1) << "an unchanged store is read once";

  // Another process replaces the secret's file in place.
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  size_t at = text.find("\"k1\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 4, "\"k2\"");
  WriteText(file, text);
  Age(file, 30);
  EXPECT_EQ(secrets.Which("s3://lake/t", "s3")->values[0].second, "k2");
  EXPECT_EQ(secrets.StoreReads(), before + 2);
  secrets.Which("s3://lake/t", "s3");
  EXPECT_EQ(secrets.StoreReads(), before + 2);

  // Another process adds a secret: the folder's time changes.
  WriteText(secrets.StoreDir() + "/other.json",
            R"({"name": "other", "type": "s3", "scope": ["s3://other/"], "values": [["key_id", "o"]]})");
  Age(secrets.StoreDir() + "/other.json", 20);
  Age(secrets.StoreDir(), 20);
  EXPECT_EQ(secrets.Which("s3://other/x", "s3")->name, "other");
  EXPECT_EQ(secrets.StoreReads(), before + 3);

  // This process's own DROP: seen at once, whatever the times say.
  ASSERT_TRUE(secrets.Drop("other", true));
  Age(secrets.StoreDir(), 10);
  EXPECT_EQ(secrets.Which("s3://other/x", "s3")->name, "lake");
  EXPECT_EQ(secrets.StoreReads(), before + 4);
}

}  // namespace
}  // namespace lakestream
