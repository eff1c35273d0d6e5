// The catalog store of a database on object storage
// (catalog/object_catalog_store.hpp): versioned catalog objects committed
// with put-if-absent, and the write lease, over an in-memory object store
// with fault injection (a failed PUT, a PUT whose answer is lost, another
// writer winning the race) and a hand-driven clock.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "catalog/object_catalog_store.hpp"

namespace lakestream {
namespace {

// Objects in a map; a "directory" is a key prefix, as on S3.
class MemoryObjectStore : public FileSystem {
 public:
  std::map<std::string, std::string> objects;
  int fail_puts = 0;                     // the next N PutIfAbsent calls fail with an IOError
  bool lose_answer = false;              // the next PutIfAbsent is applied, then answers AlreadyExists
  std::function<void()> before_put;      // runs once, before the next PutIfAbsent (a racing writer)
  int puts = 0;

  Result<std::string> ReadFile(const std::string& path) override {
    auto it = objects.find(path);
    if (it == objects.end()) return Status::NotFound(path);
    return it->second;
  }
  Status WriteFile(const std::string& path, const std::string& contents) override {
    objects[path] = contents;
    return Status::OK();
  }
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override {
    std::vector<std::string> names;
    std::string prefix = dir + "/";
    for (auto it = objects.lower_bound(prefix); it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      std::string rest = it->first.substr(prefix.size());
      std::string name = rest.substr(0, rest.find('/'));
      if (names.empty() || names.back() != name) names.push_back(name);
    }
    if (names.empty()) return Status::NotFound(dir);
    return names;
  }
  Status CreateDirectories(const std::string&) override { return Status::OK(); }
  bool FileExists(const std::string& path) override { return objects.count(path) > 0 || ListDirectory(path).ok(); }
  Result<uint64_t> FileSize(const std::string& path) override {
    auto r = ReadFile(path);
    if (!r.ok()) return r.status();
    return static_cast<uint64_t>(r.value().size());
  }
  Result<int64_t> ModificationTime(const std::string&) override { return Status::NotSupported("mtime"); }
  Status RemoveFile(const std::string& path) override {
    return objects.erase(path) ? Status::OK() : Status::NotFound(path);
  }
  Status Rename(const std::string& from, const std::string&) override { return Status::NotSupported(from); }
  Status Link(const std::string& from, const std::string&) override { return Status::NotSupported(from); }
  Status Fsync(const std::string&) override { return Status::OK(); }
  Status FsyncDirectory(const std::string&) override { return Status::OK(); }
  Status PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet& = {}) override {
    puts++;
    if (before_put) {
      auto hook = std::move(before_put);
      before_put = nullptr;
      hook();
    }
    if (fail_puts > 0) {
      fail_puts--;
      return Status::IOError("injected: PUT of " + path + " failed");
    }
    if (objects.count(path)) return Status::AlreadyExists(path);
    objects[path] = contents;
    if (lose_answer) {
      lose_answer = false;
      return Status::AlreadyExists(path + " (the retry of a PUT whose answer was lost)");
    }
    return Status::OK();
  }
};

const char* kDb = "s3://bucket/lake";

class ObjectCatalogStoreTest : public ::testing::Test {
 protected:
  std::unique_ptr<ObjectCatalogStore> Store(bool read_only = false) {
    LeaseOptions options;
    options.duration_ms = 1000;
    options.now_ms = [this] { return now; };
    options.renew_in_background = false;
    return std::make_unique<ObjectCatalogStore>(&fs, kDb, read_only, options);
  }
  static CatalogRecord WithTable(CatalogRecord record, const std::string& name) {
    CatalogTableRecord t;
    t.name = name;
    t.path = name;
    record.tables.push_back(t);
    return record;
  }
  static std::vector<std::string> TableNames(const CatalogRecord& record) {
    std::vector<std::string> names;
    for (auto& t : record.tables) names.push_back(t.name);
    return names;
  }
  static bool Lock(ObjectCatalogStore& store) {
    bool acquired = false;
    Status s = store.TryLock(&acquired);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return acquired;
  }
  std::string CatalogObject(int64_t n) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%s/_lakestream/catalog/%020lld.json", kDb, static_cast<long long>(n));
    return buf;
  }

  MemoryObjectStore fs;
  int64_t now = 1000000;
};

TEST_F(ObjectCatalogStoreTest, SavesNewVersionsAndAnotherStoreSeesTheNewest) {
  auto a = Store();
  auto b = Store();
  CatalogRecord record = a->Load().ValueOrThrow();
  EXPECT_EQ(record.version, 0);
  ASSERT_TRUE(Lock(*a));
  record = WithTable(record, "t1");
  ASSERT_TRUE(a->Save(record).ok());
  record = WithTable(record, "t2");
  ASSERT_TRUE(a->Save(record).ok());
  a->Unlock();
  EXPECT_EQ(record.version, 2);
  EXPECT_TRUE(fs.objects.count(CatalogObject(1)));
  EXPECT_TRUE(fs.objects.count(CatalogObject(2)));
  CatalogRecord seen = b->Load().ValueOrThrow();
  EXPECT_EQ(seen.version, 2);
  EXPECT_EQ(TableNames(seen), (std::vector<std::string>{"t1", "t2"}));
  EXPECT_FALSE(b->ChangedOnDisk());
  ASSERT_TRUE(Lock(*a));
  record = WithTable(record, "t3");
  ASSERT_TRUE(a->Save(record).ok());
  EXPECT_TRUE(b->ChangedOnDisk());
  EXPECT_FALSE(a->ChangedOnDisk());
}

TEST_F(ObjectCatalogStoreTest, FailedPutSavesNothingAndTheNextSaveWorks) {
  auto a = Store();
  CatalogRecord record = a->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*a));
  record = WithTable(record, "t1");
  ASSERT_TRUE(a->Save(record).ok());
  CatalogRecord next = WithTable(record, "t2");
  fs.fail_puts = 1;
  Status s = a->Save(next);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(next.version, 1);  // unchanged: the caller may retry
  EXPECT_EQ(TableNames(Store()->Load().ValueOrThrow()), (std::vector<std::string>{"t1"}));
  ASSERT_TRUE(a->Save(next).ok());
  EXPECT_EQ(next.version, 2);
  EXPECT_EQ(TableNames(Store()->Load().ValueOrThrow()), (std::vector<std::string>{"t1", "t2"}));
}

TEST_F(ObjectCatalogStoreTest, PutWhoseAnswerWasLostCountsAsSaved) {
  auto a = Store();
  CatalogRecord record = a->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*a));
  record = WithTable(record, "t1");
  fs.lose_answer = true;
  Status s = a->Save(record);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(record.version, 1);
  EXPECT_FALSE(a->ChangedOnDisk());
}

TEST_F(ObjectCatalogStoreTest, WriterThatLosesTheRaceFailsAndOverwritesNothing) {
  auto a = Store();
  auto other = Store();
  CatalogRecord record = a->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*a));
  record = WithTable(record, "mine");
  // Another writer (say, one that took over an expired lease) commits version 1 first.
  fs.before_put = [&] { fs.objects[CatalogObject(1)] = CatalogRecordToText(WithTable(CatalogRecord{1}, "theirs")); };
  Status s = a->Save(record);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("another process changed the catalog while this statement ran"), std::string::npos) << s.message();
  EXPECT_EQ(record.version, 0);
  EXPECT_EQ(TableNames(other->Load().ValueOrThrow()), (std::vector<std::string>{"theirs"}));
  // Re-read, reapply, save: both DDLs are kept.
  CatalogRecord again = WithTable(a->Load().ValueOrThrow(), "mine");
  ASSERT_TRUE(a->Save(again).ok());
  EXPECT_EQ(TableNames(other->Load().ValueOrThrow()), (std::vector<std::string>{"theirs", "mine"}));
}

TEST_F(ObjectCatalogStoreTest, SaveOverAPrunedVersionIsRefused) {
  auto slow = Store();
  CatalogRecord stale = slow->Load().ValueOrThrow();  // version 0
  auto fast = Store();
  CatalogRecord record = fast->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*fast));
  for (int i = 0; i < 25; i++) {
    record = WithTable(record, "t" + std::to_string(i));
    ASSERT_TRUE(fast->Save(record).ok());
  }
  fast->Unlock();
  EXPECT_FALSE(fs.objects.count(CatalogObject(1)));  // pruned
  EXPECT_TRUE(fs.objects.count(CatalogObject(25)));
  ASSERT_TRUE(Lock(*slow));
  stale = WithTable(stale, "late");
  Status s = slow->Save(stale);  // version 1 is free again, but 25 is newer
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Store()->Load().ValueOrThrow().tables.size(), 25u);
}

TEST_F(ObjectCatalogStoreTest, SecondWriterIsRefusedUntilTheLeaseIsReleased) {
  auto a = Store();
  auto b = Store();
  ASSERT_TRUE(Lock(*a));
  EXPECT_FALSE(Lock(*b));
  EXPECT_NE(b->BusyError().find("is already open for writing by process"), std::string::npos) << b->BusyError();
  a->Unlock();
  EXPECT_TRUE(Lock(*b));
  EXPECT_FALSE(Lock(*a));
}

TEST_F(ObjectCatalogStoreTest, ExpiredLeaseIsTakenOverAndItsHolderCannotSave) {
  auto a = Store();
  auto b = Store();
  CatalogRecord record = a->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*a));  // expires at now + 1000; never renewed (a hung process)
  now += 900;
  EXPECT_FALSE(Lock(*b));
  now += 200;
  EXPECT_TRUE(Lock(*b));
  EXPECT_TRUE(a->LeaseLost());
  record = WithTable(record, "late");
  Status s = a->Save(record);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("lost its write lease"), std::string::npos) << s.message();
  EXPECT_FALSE(a->RenewLease().ok());
}

TEST_F(ObjectCatalogStoreTest, RenewalKeepsTheLease) {
  auto a = Store();
  auto b = Store();
  ASSERT_TRUE(Lock(*a));
  now += 600;
  ASSERT_TRUE(a->RenewLease().ok());
  now += 600;  // past the first expiry, within the renewed one
  EXPECT_FALSE(Lock(*b));
  EXPECT_FALSE(a->LeaseLost());
}

TEST_F(ObjectCatalogStoreTest, ReleaseDeletesTheHoldersRecordsAndATakeoverTheDeadOnes) {
  auto leases = [this] {
    int n = 0;
    for (auto& [key, value] : fs.objects) n += key.find("/_lakestream/lease/") != std::string::npos;
    return n;
  };
  auto a = Store();
  ASSERT_TRUE(Lock(*a));
  now += 400;
  ASSERT_TRUE(a->RenewLease().ok());
  EXPECT_EQ(leases(), 2);
  a->Unlock();
  EXPECT_EQ(leases(), 0);
  // A holder that dies (kill -9) keeps its record until it expires: its
  // objects are put back after it released them.
  {
    auto dead = Store();
    ASSERT_TRUE(Lock(*dead));
    auto kept = fs.objects;
    dead.reset();
    fs.objects = kept;
  }
  EXPECT_EQ(leases(), 1);
  auto b = Store();
  EXPECT_FALSE(Lock(*b));
  now += 1001;
  ASSERT_TRUE(Lock(*b));
  EXPECT_EQ(leases(), 1);  // only b's
  b->Unlock();
  EXPECT_EQ(leases(), 0);
}

TEST_F(ObjectCatalogStoreTest, RacingTakersGetExactlyOneLease) {
  auto a = Store();
  auto b = Store();
  bool b_won = false;
  // b takes the lease between a's listing and a's conditional write.
  fs.before_put = [&] { b_won = Lock(*b); };
  EXPECT_FALSE(Lock(*a));
  EXPECT_TRUE(b_won);
  EXPECT_TRUE(b->Locked());
  EXPECT_FALSE(a->Locked());
}

TEST_F(ObjectCatalogStoreTest, FailedLeasePutIsAnErrorAndLeavesTheLeaseFree) {
  auto a = Store();
  auto b = Store();
  fs.fail_puts = 1;
  bool acquired = true;
  Status s = a->TryLock(&acquired);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(acquired);
  EXPECT_TRUE(Lock(*b));
}

TEST_F(ObjectCatalogStoreTest, ReadOnlyTakesNoLeaseAndSavesNothing) {
  auto writer = Store();
  CatalogRecord record = writer->Load().ValueOrThrow();
  ASSERT_TRUE(Lock(*writer));
  record = WithTable(record, "t1");
  ASSERT_TRUE(writer->Save(record).ok());
  writer->Unlock();
  auto reader = Store(/*read_only=*/true);
  EXPECT_EQ(TableNames(reader->Load().ValueOrThrow()), (std::vector<std::string>{"t1"}));
  int puts = fs.puts;
  bool acquired = true;
  EXPECT_FALSE(reader->TryLock(&acquired).ok());
  EXPECT_FALSE(acquired);
  EXPECT_FALSE(reader->Save(record).ok());
  EXPECT_EQ(fs.puts, puts);
}

TEST_F(ObjectCatalogStoreTest, ReadOnlyOpenOfAnEmptyPrefixSaysThereIsNoDatabase) {
  auto opened = OpenObjectCatalogStore(&fs, kDb, /*read_only=*/true);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("No lakestream database at s3://bucket/lake"), std::string::npos);
}

}  // namespace
}  // namespace lakestream
