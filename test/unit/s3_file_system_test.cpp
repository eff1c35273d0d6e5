// S3FileSystem against tools/s3_test_server (started per test suite): the
// FileSystem contract on object storage, conditional PUTs under a race,
// retries, and the errors users see.
#include "common/s3/s3_file_system.hpp"

#include <curl/curl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

class S3FileSystemTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::ScopedTempDir("lakestream_s3");
    std::filesystem::create_directories(dir_->path + "/root/bucket");
    std::string port_file = dir_->path + "/port";
    server_ = fork();
    if (server_ == 0) {
      std::string script = std::string(LAKESTREAM_SOURCE_DIR) + "/tools/s3_test_server/s3_test_server.py";
      std::string root = dir_->path + "/root";
      execlp("python3", "python3", script.c_str(), "--root", root.c_str(), "--port-file", port_file.c_str(),
             "--max-keys", "2", static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200 && port_ == 0; i++) {
      std::ifstream in(port_file);
      if (!(in >> port_)) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ASSERT_NE(port_, 0) << "the S3 test server did not start";
    token_ = RegisterS3ConfigSource([](const std::string& path) -> std::optional<Result<S3Config>> {
      if (path.rfind("s3://bucket/", 0) != 0) return std::nullopt;
      return S3ConfigFromValues({{"key_id", "test-key"},
                                 {"secret", secret_},
                                 {"endpoint", "http://127.0.0.1:" + std::to_string(port_)}},
                                "test config");
    });
  }
  static void TearDownTestSuite() {
    UnregisterS3ConfigSource(token_);
    if (server_ > 0) {
      kill(server_, SIGTERM);
      waitpid(server_, nullptr, 0);
    }
    delete dir_;
  }
  void SetUp() override {
    secret_ = "test-secret";
    Control("reset");
  }

  // POSTs /__control__/<what> to the server (fault injection, counters).
  static void Control(const std::string& what) {
    CURL* c = curl_easy_init();
    std::string url = "http://127.0.0.1:" + std::to_string(port_) + "/__control__/" + what;
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, +[](char*, size_t s, size_t n, void*) { return s * n; });
    ASSERT_EQ(curl_easy_perform(c), CURLE_OK);
    curl_easy_cleanup(c);
  }
  std::string Local(const std::string& key) { return dir_->path + "/root/bucket/" + key; }

  S3FileSystem* fs = S3FileSystem::Instance();
  static testing::ScopedTempDir* dir_;
  static pid_t server_;
  static int port_;
  static uint64_t token_;
  static std::string secret_;
};

testing::ScopedTempDir* S3FileSystemTest::dir_ = nullptr;
pid_t S3FileSystemTest::server_ = 0;
int S3FileSystemTest::port_ = 0;
uint64_t S3FileSystemTest::token_ = 0;
std::string S3FileSystemTest::secret_ = "test-secret";

TEST_F(S3FileSystemTest, WriteReadRangeSizeExists) {
  std::string body = "0123456789abcdef";
  ASSERT_TRUE(fs->WriteFile("s3://bucket/a/b/file.bin", body).ok());
  std::ifstream in(Local("a/b/file.bin"));
  std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(stored, body);
  auto read = fs->ReadFile("s3://bucket/a/b/file.bin");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read.value(), body);
  auto range = fs->ReadRange("s3://bucket/a/b/file.bin", 10, 4);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range.value(), "abcd");
  EXPECT_EQ(fs->FileSize("s3://bucket/a/b/file.bin").value(), body.size());
  EXPECT_GT(fs->ModificationTime("s3://bucket/a/b/file.bin").value(), 1'600'000'000'000);
  EXPECT_TRUE(fs->FileExists("s3://bucket/a/b/file.bin"));
  EXPECT_TRUE(fs->FileExists("s3://bucket/a"));  // a prefix is a "directory"
  EXPECT_FALSE(fs->FileExists("s3://bucket/a/none"));
  EXPECT_TRUE(fs->ReadFile("s3://bucket/a/none").status().IsNotFound());
}

TEST_F(S3FileSystemTest, ListDirectoryFollowsContinuationTokens) {
  // The server pages every 2 entries: 5 files and 2 sub-prefixes need 4 pages.
  for (auto name : {"l/1", "l/2", "l/3", "l/4", "l/5", "l/x/deep", "l/y/deep"})
    ASSERT_TRUE(fs->WriteFile(std::string("s3://bucket/") + name, "x").ok());
  auto listed = fs->ListDirectory("s3://bucket/l");
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed.value(), (std::vector<std::string>{"1", "2", "3", "4", "5", "x", "y"}));
  auto all = fs->ListRecursive("s3://bucket/l");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().size(), 7u);
  EXPECT_TRUE(fs->ListDirectory("s3://bucket/nothing-here").status().IsNotFound());
}

TEST_F(S3FileSystemTest, ListRecursiveSkippingNeverPagesThroughTheSkippedFolder) {
  const std::vector<std::string> outside = {"t/A1", "t/_change_data/c", "t/_delta_log0x", "t/part-1", "t/z/part"};
  for (auto& key : outside) ASSERT_TRUE(fs->WriteFile("s3://bucket/" + key, "x").ok());
  for (auto name : {"0.json", "1.json", "2.json", "3.json", "4.json", "_sidecars/s.parquet"})
    ASSERT_TRUE(fs->WriteFile(std::string("s3://bucket/t/_delta_log/") + name, "x").ok());
  uint64_t before = fs->RequestCount();
  auto listed = fs->ListRecursiveSkipping("s3://bucket/t", "_delta_log");
  uint64_t requests = fs->RequestCount() - before;
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  std::vector<std::string> keys;
  for (auto& o : listed.value()) keys.push_back(o.key);
  EXPECT_EQ(keys, outside);
  // Pages of 2: one page before the log and the page that reaches it, then
  // two pages after it; the 6 log keys (3 pages) are never listed.
  EXPECT_EQ(requests, 4u);
  auto all = fs->ListRecursive("s3://bucket/t");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().size(), outside.size() + 6);
}

TEST_F(S3FileSystemTest, PutIfAbsentHasExactlyOneWinner) {
  ASSERT_TRUE(fs->PutIfAbsent("s3://bucket/log/00.json", "first").ok());
  Status again = fs->PutIfAbsent("s3://bucket/log/00.json", "second");
  EXPECT_TRUE(again.IsAlreadyExists()) << again.ToString();
  EXPECT_EQ(fs->ReadFile("s3://bucket/log/00.json").value(), "first");
  // Eight writers race for one version: exactly one wins, the object is its body.
  std::atomic<int> wins{0}, lost{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++) {
    threads.emplace_back([&, t] {
      Status s = fs->PutIfAbsent("s3://bucket/log/01.json", "writer " + std::to_string(t));
      if (s.ok()) wins++;
      else if (s.IsAlreadyExists()) lost++;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(lost.load(), 7);
  EXPECT_EQ(fs->ReadFile("s3://bucket/log/01.json").value().rfind("writer ", 0), 0u);
}

TEST_F(S3FileSystemTest, RetriesServerErrorsThenSucceeds) {
  ASSERT_TRUE(fs->WriteFile("s3://bucket/r.txt", "ok").ok());
  Control("fail?status=500&count=2&method=GET");
  uint64_t before = fs->RequestCount();
  auto read = fs->ReadFile("s3://bucket/r.txt");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read.value(), "ok");
  EXPECT_EQ(fs->RequestCount() - before, 3u);  // two 500s, then the answer
  Control("fail?status=503&count=1&code=SlowDown");
  EXPECT_TRUE(fs->ReadFile("s3://bucket/r.txt").ok());
}

TEST_F(S3FileSystemTest, ClientErrorsNameBucketKeyAndStatus) {
  ASSERT_TRUE(fs->WriteFile("s3://bucket/secret.txt", "x").ok());
  secret_ = "wrong";
  uint64_t before = fs->RequestCount();
  auto read = fs->ReadFile("s3://bucket/secret.txt");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(fs->RequestCount() - before, 1u);  // a 403 is not retried
  std::string m = read.status().message();
  EXPECT_NE(m.find("bucket 'bucket'"), std::string::npos) << m;
  EXPECT_NE(m.find("key 'secret.txt'"), std::string::npos) << m;
  EXPECT_NE(m.find("HTTP 403 SignatureDoesNotMatch"), std::string::npos) << m;
  EXPECT_NE(m.find("test config"), std::string::npos) << m;
  secret_ = "test-secret";
  auto missing = fs->ReadFile("s3://bucket/missing.txt");
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_NE(missing.status().message().find("HTTP 404 NoSuchKey"), std::string::npos) << missing.status().message();
}

TEST_F(S3FileSystemTest, NoRenameNoLink) {
  EXPECT_TRUE(fs->Rename("s3://bucket/a", "s3://bucket/b").code() == Status::Code::kNotSupported);
  EXPECT_TRUE(fs->Link("s3://bucket/a", "s3://bucket/b").code() == Status::Code::kNotSupported);
  // WriteFileAtomic is one PUT (atomic on S3), not temp + rename.
  ASSERT_TRUE(fs->WriteFileAtomic("s3://bucket/_last_checkpoint", "v1").ok());
  ASSERT_TRUE(fs->WriteFileAtomic("s3://bucket/_last_checkpoint", "v2").ok());
  EXPECT_EQ(fs->ReadFile("s3://bucket/_last_checkpoint").value(), "v2");
  EXPECT_TRUE(fs->RemoveFile("s3://bucket/_last_checkpoint").ok());
  EXPECT_TRUE(fs->RemoveFile("s3://bucket/_last_checkpoint").IsNotFound());
}

TEST_F(S3FileSystemTest, MultipartUploadForLargeObjects) {
  fs->SetMultipartSizes(1000, 300);
  std::string big;
  for (int i = 0; i < 2500; i++) big += static_cast<char>('a' + i % 26);
  Status s = fs->WriteFile("s3://bucket/big.bin", big);
  fs->SetMultipartSizes(64ULL << 20, 16ULL << 20);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(fs->ReadFile("s3://bucket/big.bin").value(), big);
}

TEST_F(S3FileSystemTest, DefaultFileSystemRoutesByScheme) {
  ASSERT_TRUE(FileSystem::Default()->WriteFile("s3://bucket/routed.txt", "via default").ok());
  EXPECT_TRUE(std::filesystem::exists(Local("routed.txt")));
  EXPECT_EQ(FileSystem::For("s3://bucket/x"), fs);
  EXPECT_TRUE(IsRemotePath("s3://bucket/x"));
  EXPECT_FALSE(IsRemotePath("/tmp/s3:/x"));
  EXPECT_TRUE(fs->ReadFile("gs://bucket/x").status().code() == Status::Code::kNotSupported);
}

}  // namespace
}  // namespace lakestream
