// catalog.json compatibility: a catalog written by an earlier lakestream
// (test/unit/data/catalog_v1.json: a table, a stream, a materialized view,
// two FILE sinks (one on the stream, stopped with an error mid-batch) and a
// Kafka sink after deliveries) loads into the typed entries and is written
// back with the same keys and values (catalog/catalog_store.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog_store.hpp"
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "main/connection_access.hpp"
#include "temp_dir_util.hpp"
#include "transaction/database_instance.hpp"

#ifndef LAKESTREAM_SOURCE_DIR
#define LAKESTREAM_SOURCE_DIR "."
#endif

namespace lakestream {
namespace {

namespace fs = std::filesystem;

const char* kFixture = LAKESTREAM_SOURCE_DIR "/test/unit/data/catalog_v1.json";

nlohmann::json ReadJson(const std::string& path) {
  nlohmann::json json;
  std::ifstream(path) >> json;
  return json;
}

// A database directory whose catalog is the fixture (the tables' Delta folders are absent).
std::string DatabaseWithFixture(const std::string& dir) {
  std::string db = dir + "/db";
  fs::create_directories(db + "/_lakestream");
  fs::copy_file(kFixture, db + "/_lakestream/catalog.json");
  return db;
}

const SinkCatalogEntry* FindSink(const CatalogRecord& record, const std::string& name) {
  for (auto& sink : record.sinks) {
    if (sink.name == name) return &sink;
  }
  return nullptr;
}

TEST(CatalogStore, OldCatalogLoadsIntoTypedSinkState) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db = DatabaseWithFixture(tmp.path);
  auto store = CatalogStore::Open(FileSystem::Default(), db, /*read_only=*/true).ValueOrThrow();
  CatalogRecord record = store->Load().ValueOrThrow();
  nlohmann::json file = ReadJson(kFixture);
  ASSERT_EQ(record.sinks.size(), file["sinks"].size());

  const SinkCatalogEntry* kafka = FindSink(record, "orders_kafka");
  ASSERT_NE(kafka, nullptr);
  const nlohmann::json& kafka_state = file["sinks"][1]["state"];
  ASSERT_EQ(file["sinks"][1]["name"], "orders_kafka");
  EXPECT_EQ(kafka->Id(), kafka_state["id"].get<std::string>());
  EXPECT_EQ(kafka->state.delivered_version, kafka_state["delivered_version"].get<int64_t>());
  EXPECT_EQ(kafka->state.partition_offsets, kafka_state["partition_offsets"].get<std::vector<int64_t>>());
  EXPECT_FALSE(kafka->state.file_path.has_value());  // a Kafka sink has none
  EXPECT_TRUE(kafka->state.unknown.empty());

  const SinkCatalogEntry* stopped = FindSink(record, "stream_file");
  ASSERT_NE(stopped, nullptr);
  const nlohmann::json& stopped_state = file["sinks"][2]["state"];
  ASSERT_EQ(file["sinks"][2]["name"], "stream_file");
  EXPECT_EQ(stopped->state.stream_batch, stopped_state["stream_batch"].get<int64_t>());
  EXPECT_EQ(stopped->state.last_error, stopped_state["last_error"].get<std::string>());
  EXPECT_EQ(stopped->state.file_tail_hash, stopped_state["file_tail_hash"].get<std::string>());
  EXPECT_EQ(stopped->state.file_size, stopped_state["file_size"].get<int64_t>());
}

// Open the database (its tables fail to load: their folders are not in the
// fixture), save the catalog, and compare the file with the fixture.
TEST(CatalogStore, OldCatalogIsWrittenBackWithTheSameKeysAndValues) {
  lakestream::testing::ScopedTempDir tmp;
  std::string db_path = DatabaseWithFixture(tmp.path);
  {
    Database db(db_path);
    Connection con(db);
    ConnectionAccess::Context(con).Database().SaveCatalog();
  }
  nlohmann::json before = ReadJson(kFixture);
  nlohmann::json after = ReadJson(db_path + "/_lakestream/catalog.json");
  EXPECT_EQ(after["version"].get<int64_t>(), before["version"].get<int64_t>() + 1);
  before.erase("version");
  after.erase("version");
  // Written as format 2 (stream offsets are bases, catalog_store.hpp), so
  // that a lakestream from before refuses the database.
  EXPECT_EQ(before["format"], 1);
  EXPECT_EQ(after["format"], 2);
  before["format"] = 2;
  // One change on purpose: the Kafka sink's password leaves the catalog for
  // the sink's own secret (docs/secrets.md), which the sink names instead.
  auto& options = before["sinks"][1]["options"];
  bool moved = false;
  for (size_t i = 0; i < options.size(); i++) {
    if (options[i][0] == "sasl.password") {
      options.erase(i);
      moved = true;
      break;
    }
  }
  ASSERT_TRUE(moved) << "the fixture's Kafka sink has a sasl.password";
  options.push_back({"secret", "__sink_orders_kafka"});
  EXPECT_EQ(after, before) << "diff: " << nlohmann::json::diff(before, after).dump(2);
  std::string secret_file = db_path + "/_lakestream/secrets/__sink_orders_kafka.json";
  nlohmann::json secret = ReadJson(secret_file);
  EXPECT_EQ(secret["owner_sink"], "orders_kafka");
  EXPECT_EQ(secret["values"], nlohmann::json::array({{"sasl.password", "hunter2"}}));
}

// A catalog of a format this version does not know is refused, naming the
// file and the cause; formats 1 and 2 load.
TEST(CatalogStore, UnknownFormatIsRefusedAndKnownOnesLoad) {
  const std::string empty = R"(, "version": 3, "tables": [], "streams": [], "sinks": []})";
  for (int format : {1, 2}) {
    auto record = CatalogRecordFromText(R"({"format": )" + std::to_string(format) + empty, "db/catalog.json");
    ASSERT_TRUE(record.ok()) << format << ": " << record.status().ToString();
    EXPECT_EQ(record.value().version, 3);
  }
  auto newer = CatalogRecordFromText(R"({"format": 3)" + empty, "db/catalog.json");
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.status().message().find("db/catalog.json: unknown catalog format 3"), std::string::npos)
      << newer.status().ToString();
  EXPECT_NE(newer.status().message().find("newer lakestream"), std::string::npos);
}

// Keys this version does not know, and known keys holding another type,
// survive a load and a save unchanged.
TEST(CatalogStore, SinkStateKeepsUnknownAndMistypedKeys) {
  nlohmann::json state = {{"id", "s-1"},
                          {"delivered_version", 4},
                          {"messages", "not a number"},
                          {"resumed_skips", 2},
                          {"written_by_a_newer_version", {{"nested", {1, 2}}}}};
  SinkState typed = SinkStateFromJson(state);
  EXPECT_EQ(typed.id, "s-1");
  EXPECT_EQ(typed.delivered_version, 4);
  EXPECT_FALSE(typed.messages.has_value());
  EXPECT_EQ(typed.unknown.size(), 3u);
  EXPECT_EQ(SinkStateToJson(typed), state);

  typed.delivered_version = 5;
  typed.ClearError();
  nlohmann::json expected = state;
  expected["delivered_version"] = 5;
  EXPECT_EQ(SinkStateToJson(typed), expected);
}

}  // namespace
}  // namespace lakestream
