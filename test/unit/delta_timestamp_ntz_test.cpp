// TIMESTAMP_NTZ in Delta tables: the Parquet footer says isAdjustedToUTC=false
// for NTZ columns (and true for TIMESTAMP), the table carries the
// timestampNtz reader/writer feature, the stats have no zone, and a column a
// log declares timestamp_ntz stays NTZ through INSERTs by this engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lakestream.hpp"
#include "query_test_util.hpp"
#include "parquet_test_util.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The schema elements of a Parquet file's footer (empty, with a failure, when it does not parse).
std::vector<parquet::SchemaElement> FooterSchema(const std::string& path) {
  std::string bytes = ReadText(path);
  if (bytes.size() < 12) return ADD_FAILURE() << path << ": too short", std::vector<parquet::SchemaElement>{};
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  if (footer_len > bytes.size() - 12) return ADD_FAILURE() << path << ": bad footer", std::vector<parquet::SchemaElement>{};
  parquet::TReader r(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8 - footer_len, footer_len);
  parquet::FileMetaData md;
  if (!parquet::ReadFileMetaData(r, md)) return ADD_FAILURE() << path << ": footer does not parse", std::vector<parquet::SchemaElement>{};
  return md.schema;
}

const parquet::SchemaElement* Element(const std::vector<parquet::SchemaElement>& schema, const std::string& name) {
  for (auto& e : schema) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<std::string> DataFiles(const std::string& table_dir) {
  std::vector<std::string> files;
  for (auto& entry : fs::recursive_directory_iterator(table_dir)) {
    if (entry.path().extension() == ".parquet" && entry.path().string().find("_delta_log") == std::string::npos) {
      files.push_back(entry.path().string());
    }
  }
  return files;
}

// Every action of every commit in the log, in order.
std::vector<json> LogActions(const std::string& table_dir) {
  std::vector<std::string> commits;
  for (auto& entry : fs::directory_iterator(table_dir + "/_delta_log")) {
    if (entry.path().extension() == ".json") commits.push_back(entry.path().string());
  }
  std::sort(commits.begin(), commits.end());
  std::vector<json> actions;
  for (auto& c : commits) {
    std::ifstream in(c);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty()) actions.push_back(json::parse(line));
    }
  }
  return actions;
}

void ExpectNtzFooter(const std::string& file, const std::string& ntz_column, const std::string& ltz_column) {
  auto schema = FooterSchema(file);
  const auto* ntz = Element(schema, ntz_column);
  ASSERT_NE(ntz, nullptr) << file;
  EXPECT_EQ(ntz->logical.kind, parquet::LogicalTypeAnnotation::TIMESTAMP) << file;
  EXPECT_FALSE(ntz->logical.adjusted_to_utc) << file << ": " << ntz_column << " must be isAdjustedToUTC=false";
  // TIMESTAMP_MICROS would claim UTC adjustment to readers of converted types.
  EXPECT_FALSE(ntz->converted_type.has_value()) << file;
  if (!ltz_column.empty()) {
    const auto* ltz = Element(schema, ltz_column);
    ASSERT_NE(ltz, nullptr) << file;
    EXPECT_TRUE(ltz->logical.adjusted_to_utc) << file;
  }
}

TEST(DeltaTimestampNtz, CreateWritesFeatureFooterFlagAndZonelessStats) {
  testing::ScopedTempDir dir("ntz_create");
  std::string table_dir = dir.path + "/ev";
  {
    Database db(dir.path + "/db");
    Connection con(db);
    Ok(con, "CREATE TABLE ev (id INT, w TIMESTAMP_NTZ, t TIMESTAMP) LOCATION '" + table_dir + "'");
    Ok(con, "SET TIME ZONE 'America/New_York'");
    Ok(con, "INSERT INTO ev VALUES (1, TIMESTAMP_NTZ '2024-01-15 12:00:00', TIMESTAMP '2024-01-15 12:00:00')");
  }
  auto actions = LogActions(table_dir);
  bool saw_protocol = false, saw_schema = false, saw_stats = false;
  for (auto& a : actions) {
    if (a.contains("protocol")) {
      saw_protocol = true;
      auto& p = a["protocol"];
      EXPECT_EQ(p["minReaderVersion"], 3);
      EXPECT_EQ(p["minWriterVersion"], 7);
      auto has = [&](const char* list, const char* feature) {
        if (!p.contains(list)) return false;
        for (auto& f : p[list]) {
          if (f == feature) return true;
        }
        return false;
      };
      EXPECT_TRUE(has("readerFeatures", "timestampNtz")) << p.dump();
      EXPECT_TRUE(has("writerFeatures", "timestampNtz")) << p.dump();
      // Writer version 2's features stay listed once the table moves to 7.
      EXPECT_TRUE(has("writerFeatures", "appendOnly")) << p.dump();
      EXPECT_TRUE(has("writerFeatures", "invariants")) << p.dump();
    }
    if (a.contains("metaData")) {
      saw_schema = true;
      auto schema = json::parse(a["metaData"]["schemaString"].get<std::string>());
      EXPECT_EQ(schema["fields"][1]["type"], "timestamp_ntz");
      EXPECT_EQ(schema["fields"][2]["type"], "timestamp");
    }
    if (a.contains("add") && a["add"].contains("stats")) {
      saw_stats = true;
      auto stats = json::parse(a["add"]["stats"].get<std::string>());
      // The wall clock as written, no zone; the instant in UTC with Z.
      EXPECT_EQ(stats["minValues"]["w"], "2024-01-15T12:00:00.000");
      EXPECT_EQ(stats["minValues"]["t"], "2024-01-15T17:00:00.000Z");
    }
  }
  EXPECT_TRUE(saw_protocol && saw_schema && saw_stats);
  auto files = DataFiles(table_dir);
  ASSERT_EQ(files.size(), 1u);
  ExpectNtzFooter(files[0], "w", "t");

  // Attached by another database: the column is still NTZ and data skipping on it is right.
  Database db(dir.path + "/db2");
  Connection con(db);
  Ok(con, "CREATE TABLE ev LOCATION '" + table_dir + "'");
  auto r = Ok(con, "SELECT typeof(w), CAST(w AS VARCHAR), CAST(t AS VARCHAR) FROM ev WHERE w = TIMESTAMP_NTZ '2024-01-15 12:00:00'");
  ASSERT_EQ(r->RowCount(), 1u);
  EXPECT_EQ(r->GetValue(0, 0).GetString(), "TIMESTAMP_NTZ");
  EXPECT_EQ(r->GetValue(1, 0).GetString(), "2024-01-15 12:00:00");
  EXPECT_EQ(r->GetValue(2, 0).GetString(), "2024-01-15 17:00:00");  // the instant, in this session's UTC
  auto none = Ok(con, "SELECT count(*) FROM ev WHERE w > TIMESTAMP_NTZ '2024-01-15 12:00:01'");
  EXPECT_EQ(none->GetValue(0, 0).GetBigint(), 0);
}

// The known bug: a table another engine created with a timestamp_ntz column
// got rows written with isAdjustedToUTC=true and lost its NTZ-ness.
TEST(DeltaTimestampNtz, InsertIntoExistingNtzTableKeepsNtz) {
  testing::ScopedTempDir dir("ntz_existing");
  std::string table_dir = dir.path + "/spark_ntz";
  fs::create_directories(table_dir + "/_delta_log");
  {
    std::ofstream log(table_dir + "/_delta_log/00000000000000000000.json");
    json schema = {{"type", "struct"},
                   {"fields", json::array({json{{"name", "id"}, {"type", "long"}, {"nullable", true}, {"metadata", json::object()}},
                                           json{{"name", "ts"}, {"type", "timestamp_ntz"}, {"nullable", true}, {"metadata", json::object()}}})}};
    log << json{{"protocol", {{"minReaderVersion", 3}, {"minWriterVersion", 7}, {"readerFeatures", {"timestampNtz"}},
                              {"writerFeatures", {"timestampNtz"}}}}}.dump()
        << "\n"
        << json{{"metaData", {{"id", "6a7e0a1c-0000-4000-8000-000000000001"}, {"format", {{"provider", "parquet"}, {"options", json::object()}}},
                              {"schemaString", schema.dump()}, {"partitionColumns", json::array()}, {"configuration", json::object()},
                              {"createdTime", 1700000000000}}}}.dump()
        << "\n";
  }
  {
    Database db(dir.path + "/db");
    Connection con(db);
    Ok(con, "CREATE TABLE spark_ntz LOCATION '" + table_dir + "'");
    auto type = Ok(con, "SELECT typeof(ts) FROM (SELECT ts FROM spark_ntz UNION ALL SELECT TIMESTAMP_NTZ '2000-01-01 00:00:00')");
    EXPECT_EQ(type->GetValue(0, 0).GetString(), "TIMESTAMP_NTZ");
    Ok(con, "SET TIME ZONE 'Europe/Berlin'");
    // A TIMESTAMP value goes in as its wall clock in the session zone; text as written.
    Ok(con, "INSERT INTO spark_ntz VALUES (1, TIMESTAMP '2024-06-01 10:00:00Z'), (2, '2024-06-01 10:00:00')");
    Ok(con, "INSERT INTO spark_ntz SELECT id + 10, ts FROM spark_ntz");
    auto r = Ok(con, "SELECT id, CAST(ts AS VARCHAR) FROM spark_ntz ORDER BY id");
    ASSERT_EQ(r->RowCount(), 4u);
    EXPECT_EQ(r->GetValue(1, 0).GetString(), "2024-06-01 12:00:00");
    EXPECT_EQ(r->GetValue(1, 1).GetString(), "2024-06-01 10:00:00");
    EXPECT_EQ(r->GetValue(1, 2).GetString(), "2024-06-01 12:00:00");
  }
  auto files = DataFiles(table_dir);
  ASSERT_EQ(files.size(), 2u);
  for (auto& f : files) ExpectNtzFooter(f, "ts", "");
  // The schema this engine committed (if any) still says timestamp_ntz.
  for (auto& a : LogActions(table_dir)) {
    if (!a.contains("metaData")) continue;
    auto schema = json::parse(a["metaData"]["schemaString"].get<std::string>());
    EXPECT_EQ(schema["fields"][1]["type"], "timestamp_ntz");
  }
}

// Files an earlier lakestream wrote into a timestamp_ntz column carry
// isAdjustedToUTC=true: they read as the table's NTZ wall clocks, unshifted,
// whatever the session zone.
TEST(DeltaTimestampNtz, OldFilesWithUtcFlagReadAsTheTablesNtz) {
  testing::ScopedTempDir dir("ntz_legacy");
  std::string table_dir = dir.path + "/legacy";
  fs::create_directories(table_dir + "/_delta_log");
  std::string file = table_dir + "/part-0.parquet";
  testing::WriteRows(file, {"id", "ts"}, {TypeId::BIGINT, TypeId::TIMESTAMP},
                     {{Value::BIGINT(1), Value::TIMESTAMP(1705320000LL * 1000000)}});  // 2024-01-15 12:00:00
  ASSERT_TRUE(Element(FooterSchema(file), "ts")->logical.adjusted_to_utc);
  {
    json schema = {{"type", "struct"},
                   {"fields", json::array({json{{"name", "id"}, {"type", "long"}, {"nullable", true}, {"metadata", json::object()}},
                                           json{{"name", "ts"}, {"type", "timestamp_ntz"}, {"nullable", true}, {"metadata", json::object()}}})}};
    std::ofstream log(table_dir + "/_delta_log/00000000000000000000.json");
    log << json{{"protocol", {{"minReaderVersion", 3}, {"minWriterVersion", 7}, {"readerFeatures", {"timestampNtz"}},
                              {"writerFeatures", {"timestampNtz"}}}}}.dump()
        << "\n"
        << json{{"metaData", {{"id", "6a7e0a1c-0000-4000-8000-000000000002"}, {"format", {{"provider", "parquet"}, {"options", json::object()}}},
                              {"schemaString", schema.dump()}, {"partitionColumns", json::array()}, {"configuration", json::object()},
                              {"createdTime", 1700000000000}}}}.dump()
        << "\n"
        << json{{"add", {{"path", "part-0.parquet"}, {"partitionValues", json::object()}, {"size", fs::file_size(file)},
                         {"modificationTime", 1700000000000}, {"dataChange", true}}}}.dump()
        << "\n";
  }
  Database db(dir.path + "/db");
  Connection con(db);
  Ok(con, "CREATE TABLE legacy LOCATION '" + table_dir + "'");
  Ok(con, "SET TIME ZONE 'Asia/Tokyo'");
  auto r = Ok(con, "SELECT typeof(ts), CAST(ts AS VARCHAR) FROM legacy");
  ASSERT_EQ(r->RowCount(), 1u);
  EXPECT_EQ(r->GetValue(0, 0).GetString(), "TIMESTAMP_NTZ");
  EXPECT_EQ(r->GetValue(1, 0).GetString(), "2024-01-15 12:00:00");
}

// ALTER TABLE ADD COLUMNS of an NTZ column upgrades a plain table's protocol.
TEST(DeltaTimestampNtz, AddingAnNtzColumnAddsTheFeature) {
  testing::ScopedTempDir dir("ntz_alter");
  std::string table_dir = dir.path + "/plain";
  Database db(dir.path + "/db");
  Connection con(db);
  Ok(con, "CREATE TABLE plain (id INT) LOCATION '" + table_dir + "'");
  Ok(con, "ALTER TABLE plain ADD COLUMNS (w TIMESTAMP_NTZ)");
  Ok(con, "INSERT INTO plain VALUES (1, TIMESTAMP_NTZ '2024-01-01 00:00:00')");
  json last_protocol;
  for (auto& a : LogActions(table_dir)) {
    if (a.contains("protocol")) last_protocol = a["protocol"];
  }
  ASSERT_FALSE(last_protocol.is_null());
  EXPECT_EQ(last_protocol["minReaderVersion"], 3);
  EXPECT_EQ(last_protocol["minWriterVersion"], 7);
  EXPECT_NE(last_protocol.dump().find("timestampNtz"), std::string::npos) << last_protocol.dump();
  auto files = DataFiles(table_dir);
  ASSERT_EQ(files.size(), 1u);
  ExpectNtzFooter(files[0], "w", "");
}

}  // namespace
}  // namespace lakestream
