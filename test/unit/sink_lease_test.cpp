// The sink lease (src/sink/sink_lease.cpp): one holder at a time, across
// processes; each holder writes its pid and the next generation, so a
// process can tell whether anybody held the lease since its own last pass
// (then its Kafka target skips the resume scan).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "common/exception.hpp"
#include "sink/sink_lease.hpp"

namespace lakestream {
namespace {

class SinkLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/sink_lease_test_" + std::to_string(::getpid());
    ASSERT_EQ(std::system(("rm -rf " + dir_ + " && mkdir -p " + dir_ + "/_lakestream").c_str()), 0);
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::unique_ptr<SinkLease> Take(std::chrono::milliseconds wait = std::chrono::milliseconds(100)) {
    return std::make_unique<SinkLease>(dir_, "s", "sink-id", wait, nullptr);
  }
  std::string FileText() {
    std::ifstream in(SinkLease::LockPath(dir_, "sink-id"));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::string dir_;
};

TEST_F(SinkLeaseTest, EachHolderWritesItsPidAndTheNextGeneration) {
  uint64_t first;
  {
    auto lease = Take();
    first = lease->Generation();
    EXPECT_EQ(first, 1u);
    EXPECT_EQ(lease->PreviousGeneration(), 0u);
    std::string text = FileText();
    EXPECT_EQ(text.size(), 48u);  // fixed width: rewritten in place, never truncated
    EXPECT_EQ(text.substr(0, text.find(' ')), std::to_string(::getpid()));
  }
  auto second = Take();
  EXPECT_EQ(second->PreviousGeneration(), first);
  EXPECT_EQ(second->Generation(), first + 1);
}

TEST_F(SinkLeaseTest, AnotherProcessTakingItChangesTheGenerationAndExcludesWhileHeld) {
  uint64_t mine = Take()->Generation();
  pid_t child = ::fork();
  if (child == 0) {
    // Another process holds the lease for 300 ms.
    try {
      SinkLease lease(dir_, "s", "sink-id", std::chrono::milliseconds(1000), nullptr);
      ::usleep(300000);
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  ::usleep(100000);
  try {
    Take(std::chrono::milliseconds(50));
    FAIL() << "the lease was taken while another process held it";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("process " + std::to_string(child)), std::string::npos) << e.what();
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto after = Take();
  EXPECT_EQ(after->PreviousGeneration(), mine + 1);  // not `mine`: this process must rescan
}

TEST_F(SinkLeaseTest, AFileFromBeforeGenerationsReadsAsGenerationZero) {
  {
    std::ofstream old(SinkLease::LockPath(dir_, "sink-id"));
    old << "4242\n";
  }
  auto lease = Take();
  EXPECT_EQ(lease->PreviousGeneration(), 0u);
  EXPECT_EQ(lease->Generation(), 1u);
}

}  // namespace
}  // namespace lakestream
