// Delta type widening in the schema JSON (PROTOCOL "Type Widening", "Type
// Change Metadata"): a widened leaf is recorded in delta.typeChanges of its
// nearest struct field, with fieldPath inside arrays and maps; everything
// else of the stored schema (Spark's type names, nested field metadata) is
// kept; the protocol gains typeWidening only when the property or a record
// asks for it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "storage/delta/delta_schema.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {
namespace {

using json = nlohmann::json;

delta::DeltaColumn Parsed(const std::string& field_json) {
  auto columns = delta::ParseSchemaString(R"({"type":"struct","fields":[)" + field_json + "]}");
  EXPECT_TRUE(columns.ok()) << columns.status().ToString();
  return columns.value()[0];
}

json Written(const delta::DeltaColumn& column) {
  auto s = delta::SchemaToString({column});
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return json::parse(s.value())["fields"][0];
}

TEST(DeltaTypeWidening, TopLevelChangeIsRecordedWithTheStoredTypeName) {
  delta::DeltaColumn c = Parsed(R"({"name":"n","type":"short","nullable":true,"metadata":{"comment":"count"}})");
  c.type = LogicalType(TypeId::BIGINT);
  json f = Written(c);
  EXPECT_EQ(f["type"], "long");
  EXPECT_EQ(f["metadata"]["comment"], "count");  // kept
  EXPECT_EQ(f["metadata"]["delta.typeChanges"], json::parse(R"([{"fromType":"short","toType":"long"}])"));
}

TEST(DeltaTypeWidening, AnUnchangedColumnKeepsItsJsonExactly) {
  std::string field = R"({"name":"n","type":"short","nullable":false,"metadata":{"a":1}})";
  delta::DeltaColumn c = Parsed(field);
  EXPECT_EQ(Written(c), json::parse(field));
}

TEST(DeltaTypeWidening, NestedLeavesRecordOnTheirNearestStructField) {
  delta::DeltaColumn c = Parsed(R"({"name":"s","type":{"type":"struct","fields":[
      {"name":"a","type":"integer","nullable":true,"metadata":{"keep":"me"}},
      {"name":"xs","type":{"type":"array","elementType":"integer","containsNull":true},"nullable":true,"metadata":{}},
      {"name":"m","type":{"type":"map","keyType":"string","valueType":{"type":"array","elementType":"date","containsNull":true},
                          "valueContainsNull":true},"nullable":true,"metadata":{}}]},
      "nullable":true,"metadata":{}})");
  c.type = LogicalType::Struct({{"a", TypeId::BIGINT},
                                {"xs", LogicalType::List(TypeId::BIGINT)},
                                {"m", LogicalType::Map(TypeId::VARCHAR, LogicalType::List(TypeId::TIMESTAMP_NTZ))},
                                {"added", TypeId::VARCHAR}});
  json f = Written(c);
  EXPECT_FALSE(f["metadata"].contains("delta.typeChanges"));  // the column itself did not change type
  json fields = f["type"]["fields"];
  ASSERT_EQ(fields.size(), 4U);
  EXPECT_EQ(fields[0]["metadata"]["keep"], "me");
  EXPECT_EQ(fields[0]["metadata"]["delta.typeChanges"], json::parse(R"([{"fromType":"integer","toType":"long"}])"));
  EXPECT_EQ(fields[1]["type"]["elementType"], "long");
  EXPECT_EQ(fields[1]["metadata"]["delta.typeChanges"],
            json::parse(R"([{"fromType":"integer","toType":"long","fieldPath":"element"}])"));
  EXPECT_EQ(fields[2]["metadata"]["delta.typeChanges"],
            json::parse(R"([{"fromType":"date","toType":"timestamp_ntz","fieldPath":"value.element"}])"));
  EXPECT_EQ(fields[3]["name"], "added");
  EXPECT_FALSE(fields[3]["metadata"].contains("delta.typeChanges"));
  // Read back, the schema means the new types.
  auto again = delta::ParseSchemaString(R"({"type":"struct","fields":[)" + f.dump() + "]}");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value()[0].type, c.type);
}

TEST(DeltaTypeWidening, ASecondWideningAppendsToTheHistory) {
  delta::DeltaColumn c = Parsed(R"js({"name":"d","type":"decimal(5,2)","nullable":true,"metadata":{}})js");
  c.type = LogicalType::Decimal(8, 3);
  c = Parsed(Written(c).dump());
  c.type = LogicalType::Decimal(20, 3);
  EXPECT_EQ(Written(c)["metadata"]["delta.typeChanges"],
            json::parse(R"js([{"fromType":"decimal(5,2)","toType":"decimal(8,3)"},
                              {"fromType":"decimal(8,3)","toType":"decimal(20,3)"}])js"));
}

TEST(DeltaTypeWidening, ProtocolGainsTheFeatureOnlyWhenAskedFor) {
  delta::DeltaColumn plain = Parsed(R"({"name":"n","type":"integer","nullable":true,"metadata":{}})");
  delta::Protocol p;
  p.min_reader_version = 1;
  p.min_writer_version = 2;
  delta::StringMap none, off = {{"delta.enableTypeWidening", "false"}}, on = {{"delta.enableTypeWidening", "TRUE"}};
  EXPECT_FALSE(delta::AddRequiredFeatures({plain}, none, p));
  EXPECT_FALSE(delta::AddRequiredFeatures({plain}, off, p));
  EXPECT_TRUE(delta::AddRequiredFeatures({plain}, on, p));
  EXPECT_EQ(p.min_reader_version, 3);
  EXPECT_EQ(p.min_writer_version, 7);
  EXPECT_EQ(*p.reader_features, std::vector<std::string>{"typeWidening"});
  // Writer version 2's features stay listed, as Delta does on the upgrade.
  EXPECT_EQ(*p.writer_features, (std::vector<std::string>{"appendOnly", "invariants", "typeWidening"}));
  // A recorded type change needs the feature even after the property is unset.
  delta::DeltaColumn widened = plain;
  widened.type = LogicalType(TypeId::BIGINT);
  delta::Protocol q;
  q.min_reader_version = 1;
  q.min_writer_version = 2;
  EXPECT_TRUE(delta::AddRequiredFeatures(delta::ParseSchemaString(
                                             R"({"type":"struct","fields":[)" + Written(widened).dump() + "]}").value(),
                                         none, q));
  EXPECT_EQ(*q.reader_features, std::vector<std::string>{"typeWidening"});
}

TEST(DeltaTypeWidening, LeafTypeChangesNamesEachChangedLeaf) {
  std::vector<TypeChange> changes;
  LeafTypeChanges(LogicalType::Struct({{"a", TypeId::INTEGER}, {"b", TypeId::VARCHAR}}),
                  LogicalType::Struct({{"a", TypeId::BIGINT}, {"b", TypeId::VARCHAR}, {"c", TypeId::DATE}}), "s",
                  changes);
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].path, "s.a");
  EXPECT_EQ(changes[0].from, LogicalType(TypeId::INTEGER));
  EXPECT_EQ(changes[0].to, LogicalType(TypeId::BIGINT));
  changes.clear();
  LeafTypeChanges(LogicalType::List(TypeId::INTEGER), LogicalType::List(TypeId::VARCHAR), "xs", changes);
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].path, "xs.element");
}

}  // namespace
}  // namespace lakestream
