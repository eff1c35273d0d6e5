// A seeded fuzzer for object names in DDL (docs/names.md): random names
// (dots, slashes, backslashes, NUL and control characters, non-ASCII,
// reserved folder names, escapes that look like encodings, very long names,
// case variants of live names) go through CREATE, DROP and ALTER TABLE ...
// RENAME of tables, materialized views, streaming tables, streams and file
// sinks. After every statement it checks that
//   * every file around the database (its parent and a sibling directory)
//     is still there, unchanged, and nothing new appeared there;
//   * CREATE succeeded exactly when the name is a valid name (a model of the
//     rules written independently of the engine) and free;
//   * the database directory holds exactly one folder per live table or
//     view, and each folder decodes back to its object's name;
//   * after a DROP every other live object still reads.
// Every 50 statements (and at the end) the database is closed and reopened.
//
// Short by default (ctest). A longer run:
//   LAKESTREAM_NAME_FUZZ_STEPS=20000 LAKESTREAM_NAME_FUZZ_SEED=7 \
//     build/release/test/lakestream_unit_tests --gtest_filter='NameFuzz.*'
// A failure prints the seed and step; rerun with that seed to reproduce.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/object_folder.hpp"
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;

enum class Kind { TABLE, VIEW, STREAM, SINK, STREAMING_TABLE };
const char* KindSql(Kind k) {
  switch (k) {
    case Kind::TABLE: return "TABLE";
    case Kind::VIEW: return "MATERIALIZED VIEW";
    case Kind::STREAM: return "STREAM";
    case Kind::SINK: return "SINK";
    case Kind::STREAMING_TABLE: return "STREAMING TABLE";
  }
  return "";
}

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoll(v, nullptr, 10) : fallback;
}

std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string AsciiLower(std::string s) {
  for (auto& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// The rules of docs/names.md, written from the document, not from the code.
bool ValidName(const std::string& name) {
  if (name.empty()) return false;
  size_t folder = 0;
  for (size_t i = 0; i < name.size(); i++) {
    auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7F) return false;
    bool plain = std::isalnum(c) && c < 0x80;
    folder += plain || c == '_' || c == '-' || (c == '.' && i > 0) ? 1 : 3;
  }
  if (AsciiLower(name) == "_lakestream") folder += 2;
  return folder <= 255;
}

// Every file and directory under `dir` except those under `skip`, with file contents.
std::map<std::string, std::string> Snapshot(const fs::path& dir, const std::set<fs::path>& skip) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (skip.count(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    std::string contents = "<dir>";
    if (it->is_symlink()) {
      contents = "<link " + fs::read_symlink(it->path()).string() + ">";
    } else if (it->is_regular_file()) {
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      contents = ss.str();
    }
    out[it->path().string()] = contents;
  }
  return out;
}

class NameFuzzer {
 public:
  NameFuzzer(uint64_t seed) : rng_(seed), seed_(seed) {
    // Nested deep in the sandbox: a name taken for a path (".." parts; at
    // most two in a row can be generated) still lands inside it.
    home_ = fs::path(tmp_.path) / "s1" / "s2" / "s3" / "home";
    db_ = home_ / "db";
    fs::create_directories(home_ / "sibling" / "deep");
    fs::create_directories(db_);
    fs::create_directories(Sinks());
    std::ofstream(home_ / "sentinel.txt") << "parent";
    std::ofstream(home_ / "sibling" / "keep.txt") << "sibling";
    std::ofstream(home_ / "sibling" / "deep" / "keep.txt") << "deep";
    // A symlink inside the database pointing out of it: no name may use it.
    fs::create_symlink("../sibling", db_ / "outside");
    Open();
    Must("CREATE TABLE base (k INT, v INT) TBLPROPERTIES ('change_tracking' = 'true'); INSERT INTO base VALUES (1, 1), (2, 2)");
    around_ = Snapshot(tmp_.path, {db_, Sinks()});
  }

  void Run(int64_t steps) {
    for (step_ = 0; step_ < steps && !::testing::Test::HasFatalFailure(); step_++) {
      Step();
      CheckAround();
      CheckFolders();
      if (step_ % 50 == 49) Reopen();
    }
    Reopen();
    std::printf("name fuzz seed %llu: %lld steps, %d created, %d refused, %d dropped, %d renamed\n",
                static_cast<unsigned long long>(seed_), static_cast<long long>(steps), created_, refused_, dropped_, renamed_);
  }

 private:
  int created_ = 0, refused_ = 0, dropped_ = 0, renamed_ = 0;
  // FILE sinks write where INTO FILE says: the one place outside the database that may change.
  fs::path Sinks() const { return fs::path(tmp_.path) / "sinks"; }
  std::string Where() {
    std::string out = "seed " + std::to_string(seed_) + " step " + std::to_string(step_) + ", after:\n";
    for (size_t i = trail_.size() > 6 ? trail_.size() - 6 : 0; i < trail_.size(); i++) out += "  " + trail_[i] + "\n";
    return out;
  }
  // Runs a statement, keeping it for Where().
  std::unique_ptr<QueryResult> Exec(const std::string& sql) {
    auto r = con_->Query(sql);
    trail_.push_back(sql.substr(0, 200) + (r->HasError() ? "  -> " + r->GetError().substr(0, 160) : "  -> ok"));
    return r;
  }

  void Open() {
    db_handle_ = std::make_unique<Database>(db_.string());
    con_ = std::make_unique<Connection>(*db_handle_);
  }
  void Reopen() {
    con_.reset();
    db_handle_.reset();
    Open();
    CheckAllRead();
  }
  void Must(const std::string& sql) {
    auto r = Exec(sql);
    ASSERT_FALSE(r->HasError()) << Where() << sql << "\n" << r->GetError();
  }

  std::string Fragment() {
    static const std::vector<std::string> kPieces = {
        "..", ".", "/", "\\", "a/b", "%2F", "%2E%2E", "%", "%25", "_lakestream", "_LakeStream", "_delta_log",
        "_change_data", "CON", "nul", "x:y", "*", "?", "\"", "'", " ", "\t", std::string(1, '\0'), "\x7f",
        "\xc3\xa9", "\xe6\x97\xa5", "e\xcc\x81", "-", "_", "base", "outside", "a", "A", "b", "Z9", ".hidden", "~"};
    return kPieces[Pick(kPieces.size())];
  }
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::string RandomName() {
    std::string name = RandomNameAnywhere();
    // A leading "/" is kept, but leads into the sandbox: were the engine to
    // take the name for an absolute path, it would damage only the sandbox.
    if (!name.empty() && name[0] == '/') name = tmp_.path + name;
    return name;
  }
  std::string RandomNameAnywhere() {
    size_t shape = Pick(10);
    if (shape == 0 && !live_.empty()) {  // a case variant of a live name
      std::string name = std::next(live_.begin(), static_cast<long>(Pick(live_.size())))->second.name;
      for (auto& c : name) {
        if (std::isalpha(static_cast<unsigned char>(c)) && Pick(2)) c ^= 0x20;
      }
      return name;
    }
    if (shape == 1) {  // very long, around the 255-byte limit
      size_t n = 80 + Pick(200);
      std::string name(n, 'x');
      if (Pick(2)) name[Pick(n)] = '/';
      return name;
    }
    if (shape == 2 && !live_.empty()) {  // the folder name of a live object, as a name
      auto& obj = std::next(live_.begin(), static_cast<long>(Pick(live_.size())))->second;
      return ObjectFolderName(obj.name, "table");
    }
    std::string name;
    size_t parts = 1 + Pick(3);
    for (size_t i = 0; i < parts; i++) name += Fragment();
    return name;
  }

  struct Object {
    Kind kind;
    std::string name;
  };
  // Key: kind namespace ("t" for tables, views and streams; "s" for sinks) + lower-case name.
  static std::string Key(Kind kind, const std::string& name) { return (kind == Kind::SINK ? "s:" : "t:") + AsciiLower(name); }

  void Step() {
    size_t action = Pick(10);
    if (action < 5 || live_.empty()) return Create();
    if (action < 8) return Drop();
    return Rename();
  }

  void Create() {
    Kind kind = static_cast<Kind>(Pick(5));
    std::string name = RandomName();
    std::string q = Quote(name);
    std::string sql;
    switch (kind) {
      case Kind::TABLE: sql = "CREATE TABLE " + q + " (v INT); INSERT INTO " + q + " VALUES (1)"; break;
      case Kind::VIEW: sql = "CREATE MATERIALIZED VIEW " + q + " AS SELECT k, SUM(v) AS s FROM base GROUP BY k"; break;
      case Kind::STREAM: sql = "CREATE STREAM " + q + " ON TABLE base"; break;
      case Kind::STREAMING_TABLE: sql = "CREATE OR REFRESH STREAMING TABLE " + q + " AS SELECT k, v FROM STREAM(base)"; break;
      case Kind::SINK:
        // A file belongs to one sink: each CREATE names a file of its own.
        sql = "CREATE SINK " + q + " FROM base INTO FILE '" +
              (Sinks() / ("out" + std::to_string(sink_files_++) + ".jsonl")).string() + "' WITH ('format' = 'append')";
        break;
    }
    auto r = Exec(sql);
    bool free = !live_.count(Key(kind, name)) && !(kind != Kind::SINK && AsciiLower(name) == "base");
    // The folder would be the symlink "outside": refused, never followed.
    auto same = live_.find(Key(kind, name));
    if (kind == Kind::STREAMING_TABLE && same != live_.end() && same->second.kind == Kind::STREAMING_TABLE) {
      // CREATE OR REFRESH of a live streaming table refreshes it.
      ASSERT_FALSE(r->HasError()) << Where() << sql << "\n" << r->GetError();
      return;
    }
    bool has_folder = kind == Kind::TABLE || kind == Kind::VIEW || kind == Kind::STREAMING_TABLE;
    if (has_folder && name == "outside") free = false;
    bool want = ValidName(name) && free;
    ASSERT_EQ(!r->HasError(), want) << Where() << sql << "\n" << (r->HasError() ? r->GetError() : "succeeded");
    if (r->HasError()) {
      ASSERT_FALSE(r->GetError().empty());
      refused_++;
      return;
    }
    created_++;
    live_[Key(kind, name)] = Object{kind, name};
  }

  void Drop() {
    auto it = std::next(live_.begin(), static_cast<long>(Pick(live_.size())));
    Object obj = it->second;
    std::string sql = std::string("DROP ") + KindSql(obj.kind) + " " + Quote(obj.name);
    auto r = Exec(sql);
    ASSERT_FALSE(r->HasError()) << Where() << sql << "\n" << r->GetError();
    live_.erase(it);
    dropped_++;
    CheckAllRead();
  }

  void Rename() {
    std::vector<std::string> tables;
    for (auto& [key, obj] : live_) {
      if (obj.kind == Kind::TABLE) tables.push_back(key);
    }
    if (tables.empty()) return Create();
    Object obj = live_[tables[Pick(tables.size())]];
    std::string to = RandomName();
    std::string sql = "ALTER TABLE " + Quote(obj.name) + " RENAME TO " + Quote(to);
    auto r = Exec(sql);
    bool same = AsciiLower(to) == AsciiLower(obj.name);
    bool free = same || (!live_.count(Key(Kind::TABLE, to)) && AsciiLower(to) != "base" && to != "outside");
    bool want = ValidName(to) && free && !same;
    if (same) {
      // A change of case only: allowed or refused, but never harmful.
      if (!r->HasError()) live_[Key(Kind::TABLE, to)].name = to;
      return;
    }
    ASSERT_EQ(!r->HasError(), want) << Where() << sql << "\n" << (r->HasError() ? r->GetError() : "succeeded");
    if (r->HasError()) return;
    live_.erase(Key(Kind::TABLE, obj.name));
    live_[Key(Kind::TABLE, to)] = Object{Kind::TABLE, to};
    renamed_++;
    CheckAllRead();
  }

  void CheckAllRead() {
    Must("SELECT COUNT(*) FROM base");
    size_t sinks = 0;
    for (auto& [key, obj] : live_) {
      if (obj.kind == Kind::SINK) {
        sinks++;
        continue;
      }
      Must("SELECT COUNT(*) FROM " + Quote(obj.name));
    }
    auto r = Exec("SHOW SINKS");
    ASSERT_FALSE(r->HasError()) << Where() << r->GetError();
    ASSERT_EQ(r->RowCount(), sinks) << Where() << "SHOW SINKS";
  }

  void CheckAround() {
    auto now = Snapshot(tmp_.path, {db_, Sinks()});
    ASSERT_EQ(now, around_) << Where() << "files around the database changed";
  }

  // One folder per live table and view, named so it decodes to the object's name.
  void CheckFolders() {
    std::set<std::string> want = {"base", "_lakestream", "outside"};
    for (auto& [key, obj] : live_) {
      if (obj.kind == Kind::TABLE || obj.kind == Kind::VIEW || obj.kind == Kind::STREAMING_TABLE) want.insert(obj.name);
    }
    std::set<std::string> have;
    for (auto& entry : fs::directory_iterator(db_)) {
      std::string folder = entry.path().filename().string();
      if (folder == "_lakestream" || folder == "outside") {
        have.insert(folder);
        continue;
      }
      auto name = ObjectNameFromFolder(folder);
      ASSERT_TRUE(name.has_value()) << Where() << "folder " << folder << " is not the folder of any name";
      have.insert(*name);
    }
    ASSERT_EQ(have, want) << Where() << "folders of the database";
  }

  lakestream::testing::ScopedTempDir tmp_{"lakestream_names"};
  std::mt19937_64 rng_;
  uint64_t seed_;
  int64_t step_ = 0;
  fs::path home_, db_;
  std::map<std::string, std::string> around_;
  std::unique_ptr<Database> db_handle_;
  std::unique_ptr<Connection> con_;
  std::map<std::string, Object> live_;
  int sink_files_ = 0;  // the next FILE sink's file: out<N>.jsonl
  std::vector<std::string> trail_;
};

TEST(NameFuzz, DdlNeverTouchesFilesOutsideItsFolder) {
  uint64_t seed = static_cast<uint64_t>(EnvInt("LAKESTREAM_NAME_FUZZ_SEED", 20261201));
  int64_t steps = EnvInt("LAKESTREAM_NAME_FUZZ_STEPS", 200);
  NameFuzzer fuzzer(seed);
  fuzzer.Run(steps);
}

// The escaping itself: plain names keep their folder, the rest is reversible.
TEST(NameFuzz, FolderNames) {
  EXPECT_EQ(ObjectFolderName("orders_2024-x", "table"), "orders_2024-x");
  EXPECT_EQ(ObjectFolderName("Orders", "table"), "Orders");
  EXPECT_EQ(ObjectFolderName("..", "table"), "%2E.");
  EXPECT_EQ(ObjectFolderName(".", "table"), "%2E");
  EXPECT_EQ(ObjectFolderName("a.b", "table"), "a.b");
  EXPECT_EQ(ObjectFolderName("a/b", "table"), "a%2Fb");
  EXPECT_EQ(ObjectFolderName("a\\b", "table"), "a%5Cb");
  EXPECT_EQ(ObjectFolderName("%2F", "table"), "%252F");
  EXPECT_EQ(ObjectFolderName("_lakestream", "table"), "%5Flakestream");
  EXPECT_EQ(ObjectFolderName("_LakeStream", "table"), "%5FLakeStream");
  EXPECT_EQ(ObjectFolderName("caf\xc3\xa9", "table"), "caf%C3%A9");
  EXPECT_THROW(ObjectFolderName("", "table"), std::exception);
  EXPECT_THROW(ObjectFolderName(std::string("a\0b", 3), "table"), std::exception);
  EXPECT_THROW(ObjectFolderName("a\nb", "table"), std::exception);
  EXPECT_THROW(ObjectFolderName(std::string(256, 'x'), "table"), std::exception);
  EXPECT_NO_THROW(ObjectFolderName(std::string(255, 'x'), "table"));
  EXPECT_THROW(ObjectFolderName(std::string(85, '/') + "x", "table"), std::exception);
  EXPECT_EQ(ObjectNameFromFolder("%2E."), std::optional<std::string>(".."));
  EXPECT_EQ(ObjectNameFromFolder("%2E%2E"), std::nullopt);  // only the canonical spelling
  EXPECT_EQ(ObjectNameFromFolder("%2e."), std::nullopt);
  EXPECT_EQ(ObjectNameFromFolder(".."), std::nullopt);
  EXPECT_EQ(ObjectNameFromFolder("a/b"), std::nullopt);
  EXPECT_EQ(ObjectNameFromFolder("_lakestream"), std::nullopt);
  EXPECT_EQ(ObjectNameFromFolder("%5Flakestream"), std::optional<std::string>("_lakestream"));
  EXPECT_EQ(ObjectNameFromFolder("%"), std::nullopt);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 2000; i++) {
    std::string name(1 + rng() % 12, ' ');
    for (auto& c : name) c = static_cast<char>(0x20 + rng() % 0xE0);
    if (name.find('\x7f') != std::string::npos) continue;
    std::string folder = ObjectFolderName(name, "table");
    EXPECT_EQ(folder.find('/'), std::string::npos);
    EXPECT_NE(folder[0], '.');
    EXPECT_EQ(ObjectNameFromFolder(folder), std::optional<std::string>(name));
  }
}

}  // namespace
}  // namespace lakestream
