// Delta column mapping at the storage level (PROTOCOL "Column Mapping"):
// Parquet field ids written and read back; mode id resolves file columns
// and STRUCT fields by field id, whatever the file names them, and falls back
// to physical names for files without ids; AssignColumnMapping's ids and
// physical names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "storage/delta/column_mapping.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"
#include "storage/table/delta_table.hpp"
#include "temp_dir_util.hpp"

namespace lakestream {
namespace {

using json = nlohmann::json;

const LogicalType kStruct = LogicalType::Struct({{"f1", TypeId::INTEGER}, {"f2", TypeId::VARCHAR}});

// Writes rows (k, s) to `path` as Parquet with the given element names/ids.
void WriteFile(const std::string& path, const std::vector<ParquetField>& fields, int32_t k, int32_t f1,
               const std::string& f2) {
  ParquetWriterOptions options;
  options.fields = fields;
  auto w = ParquetWriter::Create(path, {"k", "s"}, {TypeId::BIGINT, kStruct}, options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT, kStruct}, 1);
  chunk.data[0].SetValue(0, Value::BIGINT(k));
  chunk.data[1].SetValue(0, Value::STRUCT(kStruct, {Value::INTEGER(f1), Value::VARCHAR(f2)}));
  chunk.SetCardinality(1);
  ASSERT_TRUE(w.value()->Append(chunk).ok());
  ASSERT_TRUE(w.value()->Finish().ok());
}

ParquetField Field(std::string name, std::optional<int32_t> id, std::vector<ParquetField> children = {}) {
  return ParquetField{std::move(name), id, std::move(children)};
}

// A table (k BIGINT id 1 "phys-k", s STRUCT(f1 id 3 "phys-f1", f2 id 4
// "phys-f2") id 2 "phys-s") in `mode`, whose files are `files`.
void WriteLog(const std::string& table, const std::string& mode, const std::vector<std::string>& files) {
  auto field = [](const std::string& name, json type, int id, const std::string& physical) {
    return json{{"name", name}, {"type", type}, {"nullable", true},
                {"metadata", {{"delta.columnMapping.id", id}, {"delta.columnMapping.physicalName", physical}}}};
  };
  json s = {{"type", "struct"},
            {"fields", {field("f1", "integer", 3, "phys-f1"), field("f2", "string", 4, "phys-f2")}}};
  json schema = {{"type", "struct"}, {"fields", {field("k", "long", 1, "phys-k"), field("s", s, 2, "phys-s")}}};
  std::filesystem::create_directories(table + "/_delta_log");
  std::ofstream out(table + "/_delta_log/00000000000000000000.json");
  out << json{{"protocol", {{"minReaderVersion", 2}, {"minWriterVersion", 5}}}}.dump() << "\n";
  out << json{{"metaData",
               {{"id", "cm-test"},
                {"format", {{"provider", "parquet"}, {"options", json::object()}}},
                {"schemaString", schema.dump()},
                {"partitionColumns", json::array()},
                {"configuration", {{"delta.columnMapping.mode", mode}, {"delta.columnMapping.maxColumnId", "4"}}}}}}
             .dump()
      << "\n";
  for (auto& f : files) {
    out << json{{"add",
                 {{"path", f},
                  {"partitionValues", json::object()},
                  {"size", std::filesystem::file_size(table + "/" + f)},
                  {"modificationTime", 0},
                  {"dataChange", true}}}}
               .dump()
        << "\n";
  }
}

// Every row of the table as "k:f1:f2", in file order.
std::vector<std::string> ReadAll(const std::string& table) {
  auto t = DeltaTable::Open(FileSystem::Default(), "t", table);
  auto scan = t->Scan({0, 1});
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT, kStruct});
  std::vector<std::string> rows;
  while (scan->Next(chunk, nullptr)) {
    for (idx_t r = 0; r < chunk.size(); r++) {
      Value s = chunk.data[1].GetValue(r);
      std::string text = chunk.data[0].GetValue(r).ToString();
      if (s.IsNull()) {
        text += ":NULL";
      } else {
        text += ":" + s.Children()[0].ToString() + ":" + s.Children()[1].ToString();
      }
      rows.push_back(text);
    }
  }
  return rows;
}

TEST(DeltaColumnMapping, WriterStoresNamesAndFieldIdsTheReaderSees) {
  testing::ScopedTempDir dir("lakestream_cm");
  std::string path = dir.path + "/f.parquet";
  WriteFile(path, {Field("phys-k", 1), Field("phys-s", 2, {Field("phys-f1", 3), Field("", std::nullopt)})}, 1, 2, "x");
  auto r = ParquetReader::Open(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()->ColumnNames(), (std::vector<std::string>{"phys-k", "phys-s"}));
  ParquetField s = r.value()->ColumnFields(1);
  EXPECT_EQ(s.name, "phys-s");
  EXPECT_EQ(s.field_id, 2);
  ASSERT_EQ(s.children.size(), 2U);
  EXPECT_EQ(s.children[0].name, "phys-f1");
  EXPECT_EQ(s.children[0].field_id, 3);
  EXPECT_EQ(s.children[1].name, "f2");  // no override: the type's own name, no id
  EXPECT_FALSE(s.children[1].field_id.has_value());
  EXPECT_EQ(r.value()->ColumnFields(0).field_id, 1);
}

// The file names its columns and fields crosswise (k's data under "phys-s"'s
// name and so on) but carries the right ids: mode id reads by id.
TEST(DeltaColumnMapping, ModeIdResolvesColumnsAndStructFieldsByFieldId) {
  testing::ScopedTempDir dir("lakestream_cm");
  std::string table = dir.path + "/t";
  std::filesystem::create_directories(table);
  WriteFile(table + "/ids.parquet",
            {Field("phys-s", 1), Field("phys-k", 2, {Field("phys-f2", 3), Field("phys-f1", 4)})}, 7, 70, "seven");
  // A file without ids (as Spark writes in mode name): by physical name.
  WriteFile(table + "/names.parquet",
            {Field("phys-k", std::nullopt), Field("phys-s", std::nullopt, {Field("phys-f1", std::nullopt), Field("phys-f2", std::nullopt)})},
            8, 80, "eight");
  WriteLog(table, "id", {"ids.parquet", "names.parquet"});
  EXPECT_EQ(ReadAll(table), (std::vector<std::string>{"7:70:seven", "8:80:eight"}));
}

// The same files in mode name are matched by physical name: the crosswise
// file cannot be read as the table's (its "phys-s" is a BIGINT), which shows
// that mode id above did not match by name.
TEST(DeltaColumnMapping, ModeNameIgnoresFieldIds) {
  testing::ScopedTempDir dir("lakestream_cm");
  std::string table = dir.path + "/t";
  std::filesystem::create_directories(table);
  WriteFile(table + "/ids.parquet",
            {Field("phys-s", 1), Field("phys-k", 2, {Field("phys-f2", 3), Field("phys-f1", 4)})}, 7, 70, "seven");
  WriteLog(table, "name", {"ids.parquet"});
  EXPECT_ANY_THROW(ReadAll(table));
}

// A file whose STRUCT lacks an id the table has (a field added later) reads
// it as NULL; a field with an id the table does not know is ignored.
TEST(DeltaColumnMapping, ModeIdUnknownAndMissingFieldIds) {
  testing::ScopedTempDir dir("lakestream_cm");
  std::string table = dir.path + "/t";
  std::filesystem::create_directories(table);
  WriteFile(table + "/ids.parquet", {Field("a", 1), Field("b", 2, {Field("c", 3), Field("d", 99)})}, 5, 50, "dropped");
  WriteLog(table, "id", {"ids.parquet"});
  auto t = DeltaTable::Open(FileSystem::Default(), "t", table);
  auto scan = t->Scan({0, 1});
  DataChunk chunk;
  chunk.Initialize({TypeId::BIGINT, kStruct});
  ASSERT_TRUE(scan->Next(chunk, nullptr));
  ASSERT_EQ(chunk.size(), 1U);
  EXPECT_EQ(chunk.data[0].GetValue(0).GetBigint(), 5);
  Value s = chunk.data[1].GetValue(0);
  ASSERT_FALSE(s.IsNull());
  EXPECT_EQ(s.Children()[0].GetInteger(), 50);
  EXPECT_TRUE(s.Children()[1].IsNull());
}

TEST(DeltaColumnMapping, AssignGivesNewFieldsIdsAboveTheMaximum) {
  auto schema = delta::ParseSchemaString(
      R"({"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{"delta.columnMapping.id":7,"delta.columnMapping.physicalName":"col-a"}},)"
      R"({"name":"s","type":{"type":"struct","fields":[{"name":"x","type":"integer","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]})");
  ASSERT_TRUE(schema.ok());
  delta::StringMap configuration = {{"delta.columnMapping.mode", "name"}, {"delta.columnMapping.maxColumnId", "5"}};
  std::vector<std::pair<std::string, int64_t>> named;
  auto columns = schema.take();
  ASSERT_TRUE(delta::AssignColumnMapping(columns, configuration, [&](const std::string& name, int64_t id) {
                named.emplace_back(name, id);
                return "p-" + name;
              }).ok());
  // a keeps its id and name; s and s.x get 8 and 9 (above the larger of 5 and 7).
  EXPECT_EQ(named, (std::vector<std::pair<std::string, int64_t>>{{"s", 8}, {"x", 9}}));
  EXPECT_EQ(configuration["delta.columnMapping.maxColumnId"], "9");
  ParquetField a = delta::MappedParquetField(columns[0], "id");
  EXPECT_EQ(a.name, "col-a");
  EXPECT_EQ(a.field_id, 7);
  ParquetField s = delta::MappedParquetField(columns[1], "name");
  EXPECT_EQ(s.name, "p-s");
  EXPECT_FALSE(s.field_id.has_value());  // mode name writes no ids
  ASSERT_EQ(s.children.size(), 1U);
  EXPECT_EQ(s.children[0].name, "p-x");
  delta::Protocol protocol;
  EXPECT_TRUE(delta::AddColumnMappingFeature(protocol));
  EXPECT_EQ(protocol.min_reader_version, 2);
  EXPECT_EQ(protocol.min_writer_version, 5);
  delta::Protocol features{3, 7, std::vector<std::string>{"timestampNtz"}, std::vector<std::string>{"timestampNtz"}};
  EXPECT_TRUE(delta::AddColumnMappingFeature(features));
  EXPECT_EQ(*features.reader_features, (std::vector<std::string>{"timestampNtz", "columnMapping"}));
  EXPECT_EQ(*features.writer_features, (std::vector<std::string>{"timestampNtz", "columnMapping"}));
}

}  // namespace
}  // namespace lakestream
