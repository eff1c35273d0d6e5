// Delta log actions and schemas: parse/serialize round trips, error messages.
#include <gtest/gtest.h>

#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_schema.hpp"
#include "storage/delta/delta_snapshot.hpp"
#include "storage/delta/delta_stats.hpp"

namespace lakestream::delta {
namespace {

std::vector<Action> AllKinds() {
  Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = std::vector<std::string>{"timestampNtz"};
  p.writer_features = std::vector<std::string>{"timestampNtz", "changeDataFeed"};
  Metadata m;
  m.id = "6f0a0c5e-1111-2222-3333-444455556666";
  m.name = "orders";
  m.schema_string = R"({"type":"struct","fields":[{"name":"id","type":"integer","nullable":true,"metadata":{}}]})";
  m.partition_columns = {"p"};
  m.configuration = {{"delta.enableChangeDataFeed", "true"}};
  m.created_time = 1700000000000;
  AddFile a;
  a.path = "p=a b/part-0%.parquet";
  a.partition_values = {{"p", "a b"}, {"q", std::nullopt}};
  a.size = 123;
  a.modification_time = 1700000000001;
  a.stats = R"({"numRecords":3})";
  a.tags = StringMap{{"k", "v"}};
  RemoveFile r;
  r.path = "p=x/part-1.parquet";
  r.deletion_timestamp = 1700000000002;
  r.extended_file_metadata = true;
  r.partition_values = PartitionValues{{"p", "x"}};
  r.size = 77;
  CdcFile c;
  c.path = "_change_data/p=a b/cdc-0.parquet";
  c.partition_values = {{"p", "a b"}};
  c.size = 55;
  Txn t{"stream-1", 42, 1700000000003};
  CommitInfo ci = CommitInfo::Make(1700000000004, "MERGE", {{"predicate", "t.id = s.id"}}, false, 6);
  return {p, m, a, r, c, t, ci};
}

TEST(DeltaActions, RoundTripEveryActionType) {
  auto actions = AllKinds();
  std::string text = SerializeCommit(actions);
  auto parsed = ParseCommit(text, "00000000000000000007.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed.value().size(), actions.size());
  for (size_t i = 0; i < actions.size(); i++) {
    EXPECT_EQ(parsed.value()[i].index(), actions[i].index());
    if (i < 6) EXPECT_TRUE(parsed.value()[i] == actions[i]) << SerializeAction(actions[i]);
  }
  const auto& ci = std::get<CommitInfo>(parsed.value()[6]);
  EXPECT_EQ(ci.timestamp, 1700000000004);
  EXPECT_EQ(ci.operation, "MERGE");
  EXPECT_EQ(ci.operation_parameters.at("predicate"), "t.id = s.id");
  EXPECT_EQ(ci.read_version, 6);
  EXPECT_EQ(ci.is_blind_append, false);
  EXPECT_EQ(SerializeCommit(parsed.value()), text);  // stable
}

TEST(DeltaActions, PathsAreUrlEncodedInTheLog) {
  auto actions = AllKinds();
  std::string line = SerializeAction(actions[2]);
  EXPECT_NE(line.find(R"("path":"p=a%20b/part-0%25.parquet")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("partitionValues":{"p":"a b","q":null})"), std::string::npos) << line;
  EXPECT_EQ(EncodePath("a:b/c d"), "a%3Ab/c%20d");
  EXPECT_EQ(EncodePath("file:/tmp/x y"), "file:/tmp/x%20y");
  EXPECT_EQ(DecodePath("birthday%3D2023/x%2Fy").value(), "birthday=2023/x/y");
  EXPECT_TRUE(DecodePath("bad%zz").status().IsCorruption());
}

TEST(DeltaActions, UnknownActionsAndFieldsAreIgnored) {
  std::string text =
      "{\"futureAction\":{\"domain\":\"x\",\"configuration\":\"{}\",\"removed\":false}}\n"
      "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":2,"
      "\"dataChange\":true,\"futureField\":[1,2]}}\n\n";
  auto parsed = ParseCommit(text, "f.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed.value().size(), 1u);
  EXPECT_EQ(std::get<AddFile>(parsed.value()[0]).path, "a.parquet");
}

TEST(DeltaActions, DomainMetadataRoundTripsAndReplays) {
  std::string text =
      "{\"domainMetadata\":{\"domain\":\"delta.clustering\",\"configuration\":\"{\\\"c\\\":[[\\\"a\\\"]]}\",\"removed\":false}}\n"
      "{\"domainMetadata\":{\"domain\":\"app\",\"configuration\":\"{}\",\"removed\":false}}\n";
  auto parsed = ParseCommit(text, "f.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed.value().size(), 2u);
  const auto& clustering = std::get<DomainMetadata>(parsed.value()[0]);
  EXPECT_EQ(clustering.domain, "delta.clustering");
  EXPECT_EQ(clustering.configuration, "{\"c\":[[\"a\"]]}");
  auto again = ParseCommit(SerializeCommit(parsed.value()), "g.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), parsed.value());
  // A missing configuration is corrupt; `removed` drops the domain on replay.
  EXPECT_TRUE(ParseCommit("{\"domainMetadata\":{\"domain\":\"x\"}}", "h.json").status().IsCorruption());
  Snapshot snapshot;
  snapshot.Apply(0, parsed.value(), std::nullopt);
  EXPECT_EQ(snapshot.domains.size(), 2u);
  DomainMetadata gone{"app", "{}", true};
  snapshot.Apply(1, {gone}, std::nullopt);
  ASSERT_EQ(snapshot.domains.size(), 1u);
  EXPECT_EQ(snapshot.domains.begin()->first, "delta.clustering");
}

TEST(DeltaActions, InCommitTimestampIsWrittenAndRead) {
  CommitInfo info = CommitInfo::Make(1000, "WRITE", {});
  info.in_commit_timestamp = 1234;
  auto parsed = ParseCommit(SerializeCommit({info}), "f.json");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(std::get<CommitInfo>(parsed.value()[0]).in_commit_timestamp, 1234);
  EXPECT_EQ(std::get<CommitInfo>(parsed.value()[0]).CommitTimeMs(), 1234);
}

TEST(DeltaActions, CorruptLinesNameFileAndLine) {
  auto bad_json = ParseCommit("{\"commitInfo\":{}}\n{\"add\":{\"path\":", "00000000000000000003.json");
  ASSERT_TRUE(bad_json.status().IsCorruption());
  EXPECT_NE(bad_json.status().message().find("00000000000000000003.json line 2"), std::string::npos)
      << bad_json.status().message();
  auto missing = ParseCommit("{\"add\":{\"size\":1}}", "v.json");
  ASSERT_TRUE(missing.status().IsCorruption());
  EXPECT_NE(missing.status().message().find("add.path is missing"), std::string::npos);
  auto mistyped = ParseCommit("{\"add\":{\"path\":\"a\",\"size\":\"big\"}}", "v.json");
  EXPECT_TRUE(mistyped.status().IsCorruption());
  EXPECT_TRUE(ParseCommit("", "empty.json").status().IsCorruption());
  EXPECT_TRUE(ParseCommit("[1,2]", "v.json").status().IsCorruption());
}

TEST(DeltaSchema, ParseAllTypes) {
  std::string schema = R"js({"type":"struct","fields":[
    {"name":"b","type":"byte","nullable":true,"metadata":{}},
    {"name":"s","type":"short","nullable":true,"metadata":{}},
    {"name":"i","type":"integer","nullable":false,"metadata":{"comment":"x"}},
    {"name":"l","type":"long","nullable":true,"metadata":{}},
    {"name":"f","type":"float","nullable":true,"metadata":{}},
    {"name":"d","type":"double","nullable":true,"metadata":{}},
    {"name":"dec","type":"decimal(10,2)","nullable":true,"metadata":{}},
    {"name":"str","type":"string","nullable":true,"metadata":{}},
    {"name":"bin","type":"binary","nullable":true,"metadata":{}},
    {"name":"bool","type":"boolean","nullable":true,"metadata":{}},
    {"name":"dt","type":"date","nullable":true,"metadata":{}},
    {"name":"ts","type":"timestamp","nullable":true,"metadata":{}},
    {"name":"ntz","type":"timestamp_ntz","nullable":true,"metadata":{}},
    {"name":"st","type":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
    {"name":"arr","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},
    {"name":"m","type":{"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true},"nullable":true,"metadata":{}}]})js";
  auto cols = ParseSchemaString(schema);
  ASSERT_TRUE(cols.ok()) << cols.status().ToString();
  const auto& c = cols.value();
  ASSERT_EQ(c.size(), 16u);
  EXPECT_EQ(c[0].type, LogicalType(TypeId::INTEGER));
  EXPECT_EQ(c[1].type, LogicalType(TypeId::INTEGER));
  EXPECT_FALSE(c[2].nullable);
  EXPECT_EQ(c[2].metadata_json, R"({"comment":"x"})");
  EXPECT_EQ(c[3].type, LogicalType(TypeId::BIGINT));
  EXPECT_EQ(c[4].type, LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(c[6].type, LogicalType::Decimal(10, 2));
  EXPECT_EQ(c[8].type, LogicalType(TypeId::VARCHAR));
  EXPECT_EQ(c[11].type, LogicalType(TypeId::TIMESTAMP));
  EXPECT_EQ(c[12].type, LogicalType(TypeId::TIMESTAMP_NTZ));
  EXPECT_EQ(c[13].type, LogicalType::Struct({{"x", TypeId::BIGINT}}));
  EXPECT_EQ(c[14].type, LogicalType::List(TypeId::VARCHAR));
  EXPECT_EQ(c[15].type, LogicalType::Map(TypeId::VARCHAR, TypeId::INTEGER));
  // Writing back keeps the original Delta types (short stays short).
  auto again = ParseSchemaString(SchemaToString(c).value());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value()[1].delta_type, "\"short\"");
  EXPECT_EQ(again.value()[8].delta_type, "\"binary\"");
}

TEST(DeltaSchema, WriteEngineTypes) {
  std::vector<DeltaColumn> cols = {{"a", TypeId::INTEGER}, {"b", TypeId::BIGINT}, {"c", TypeId::DOUBLE},
                                   {"d", TypeId::VARCHAR}, {"e", LogicalType::Decimal(12, 3)},
                                   {"f", TypeId::DATE},    {"g", TypeId::TIMESTAMP}, {"h", TypeId::BOOLEAN},
                                   {"i", TypeId::TIMESTAMP_NTZ}};
  auto s = SchemaToString(cols);
  ASSERT_TRUE(s.ok());
  for (const char* t : {"\"integer\"", "\"long\"", "\"double\"", "\"string\"", "\"decimal(12,3)\"", "\"date\"",
                        "\"timestamp\"", "\"boolean\"", "\"timestamp_ntz\""})
    EXPECT_NE(s.value().find(t), std::string::npos) << t;
  auto back = ParseSchemaString(s.value());
  ASSERT_TRUE(back.ok());
  for (size_t i = 0; i < cols.size(); i++) EXPECT_EQ(back.value()[i].type, cols[i].type);
  EXPECT_EQ(ParseSchemaString(R"({"type":"struct","fields":[{"name":"v","type":"variant"}]})").status().code(),
            Status::Code::kNotSupported);
  EXPECT_FALSE(ParseSchemaString("{nope").ok());
}

TEST(DeltaSchema, PartitionValues) {
  EXPECT_TRUE(ParsePartitionValue(std::nullopt, TypeId::INTEGER).value().IsNull());
  EXPECT_TRUE(ParsePartitionValue(std::string(""), TypeId::VARCHAR).value().IsNull());
  EXPECT_EQ(ParsePartitionValue(std::string("42"), TypeId::INTEGER).value().GetInteger(), 42);
  EXPECT_EQ(ParsePartitionValue(std::string("-7"), TypeId::BIGINT).value().GetBigint(), -7);
  EXPECT_EQ(ParsePartitionValue(std::string("2023-12-22"), TypeId::DATE).value().ToString(), "2023-12-22");
  auto ts = ParsePartitionValue(std::string("1970-01-01 00:00:01.5"), TypeId::TIMESTAMP);
  EXPECT_EQ(ts.value().GetTimestamp(), 1500000);
  EXPECT_EQ(ParsePartitionValue(std::string("1970-01-01T00:00:01.5Z"), TypeId::TIMESTAMP).value().GetTimestamp(),
            1500000);
  EXPECT_EQ(ParsePartitionValue(std::string("12.30"), LogicalType::Decimal(5, 2)).value().GetHugeint(), 1230);
  EXPECT_TRUE(ParsePartitionValue(std::string("TRUE"), TypeId::BOOLEAN).value().GetBoolean());
  auto bad = ParsePartitionValue(std::string("x1"), TypeId::INTEGER);
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'x1'"), std::string::npos);
  EXPECT_EQ(FormatPartitionValue(Value::DATE(0)).value(), "1970-01-01");
  EXPECT_EQ(FormatPartitionValue(Value::TIMESTAMP(1500000)).value(), "1970-01-01 00:00:01.5");
  EXPECT_EQ(FormatPartitionValue(Value::DECIMAL(1230, 5, 2)).value(), "12.30");
  EXPECT_FALSE(FormatPartitionValue(Value(LogicalType(TypeId::INTEGER))).has_value());
}

TEST(DeltaStats, StatsJson) {
  ParquetFileInfo info;
  info.row_count = 3;
  info.columns.resize(5);
  info.columns[0] = {Value::INTEGER(1), Value::INTEGER(9), 0};
  info.columns[1] = {Value::DECIMAL(1234, 10, 2), Value::DECIMAL(-5, 10, 2), 1};
  info.columns[2] = {Value::TIMESTAMP(1500123), Value::TIMESTAMP(1500999), 0};
  info.columns[3] = {Value::VARCHAR(std::string(40, 'a')), Value::VARCHAR(std::string(40, 'z')), 2};
  info.columns[4] = {Value(LogicalType(TypeId::DATE)), Value(LogicalType(TypeId::DATE)), 3};
  std::string s = MakeStatsJson({"i", "d", "t", "s", "dt"},
                                {TypeId::INTEGER, LogicalType::Decimal(10, 2), TypeId::TIMESTAMP, TypeId::VARCHAR,
                                 TypeId::DATE},
                                info);
  EXPECT_EQ(s, "{\"numRecords\":3,\"minValues\":{\"i\":1,\"d\":12.34,\"t\":\"1970-01-01T00:00:01.500Z\",\"s\":\"" +
                   std::string(32, 'a') +
                   "\"},\"maxValues\":{\"i\":9,\"d\":-0.05,\"t\":\"1970-01-01T00:00:01.500Z\"},"
                   "\"nullCount\":{\"i\":0,\"d\":1,\"t\":0,\"s\":2,\"dt\":3}}");
  AddFile a;
  a.stats = s;
  EXPECT_EQ(a.NumRecords(), 3);
}

TEST(DeltaStats, StatsJsonFromCheckpointStruct) {
  // add.stats_parsed as Spark writes it: typed columns, nested structs,
  // NULL where a bound is unknown.
  LogicalType inner = LogicalType::Struct({{"e", TypeId::VARCHAR}});
  LogicalType bounds = LogicalType::Struct({{"i", TypeId::INTEGER},
                                            {"d", LogicalType::Decimal(38, 2)},
                                            {"t", TypeId::TIMESTAMP},
                                            {"b", TypeId::BOOLEAN},
                                            {"s", inner},
                                            {"n", TypeId::BIGINT}});
  LogicalType counts = LogicalType::Struct({{"i", TypeId::BIGINT}, {"s", LogicalType::Struct({{"e", TypeId::BIGINT}})}});
  LogicalType type = LogicalType::Struct(
      {{"numRecords", TypeId::BIGINT}, {"minValues", bounds}, {"maxValues", bounds}, {"nullCount", counts},
       {"tightBounds", TypeId::BOOLEAN}});
  hugeint_t big = hugeint_t(1234567890123456789LL) * hugeint_t(1000);  // 1234567890123456789000, scale 2
  auto bound = [&](int32_t i, hugeint_t d, const char* e) {
    return Value::STRUCT(bounds, {Value::INTEGER(i), Value::DECIMAL(d, 38, 2), Value::TIMESTAMP(1500123),
                                  Value::BOOLEAN(true), Value::STRUCT(inner, {Value::VARCHAR(e)}),
                                  Value(LogicalType(TypeId::BIGINT))});
  };
  Value stats = Value::STRUCT(
      type, {Value::BIGINT(5), bound(-3, big, "a"), bound(9, big + hugeint_t(1), "z"),
             Value::STRUCT(counts, {Value::BIGINT(1), Value::STRUCT(LogicalType::Struct({{"e", TypeId::BIGINT}}),
                                                                     {Value::BIGINT(2)})}),
             Value::BOOLEAN(false)});
  // Decimals as exact strings (not through a double); booleans and NULLs have no bound.
  EXPECT_EQ(StatsJsonFromStruct(stats),
            R"({"numRecords":5,"minValues":{"i":-3,"d":"12345678901234567890.00","t":"1970-01-01T00:00:01.500Z",)"
            R"("s":{"e":"a"}},"maxValues":{"i":9,"d":"12345678901234567890.01","t":"1970-01-01T00:00:01.500Z",)"
            R"("s":{"e":"z"}},"nullCount":{"i":1,"s":{"e":2}},"tightBounds":false})");
  AddFile a;
  a.stats = StatsJsonFromStruct(stats);
  EXPECT_EQ(a.NumRecords(), 5);
  EXPECT_TRUE(CheckedNumRecords(a.stats, "f").ok());
  EXPECT_EQ(StatsJsonFromStruct(Value(type)), "{}");
}

TEST(DeltaStats, NumRecordsOnlyFromTheTopLevel) {
  auto num = [](const std::string& stats) {
    AddFile a;
    a.stats = stats;
    return a.NumRecords();
  };
  EXPECT_EQ(num(R"({"numRecords":42})"), 42);
  EXPECT_EQ(num(R"({ "numRecords" : 7 , "minValues":{}})"), 7);
  // A column named numRecords, or the text inside a string, is not the count.
  EXPECT_EQ(num(R"({"minValues":{"numRecords":5},"numRecords":9})"), 9);
  EXPECT_EQ(num(R"({"minValues":{"s":"\",\"numRecords\":5"},"numRecords":9})"), 9);
  EXPECT_EQ(num(R"({"minValues":{"numRecords":5}})"), std::nullopt);
  // Not an integer, or not JSON: no count.
  EXPECT_EQ(num(R"({"numRecords":1.5})"), std::nullopt);
  EXPECT_EQ(num(R"({"numRecords":3,"minValues":{)"), std::nullopt);
  EXPECT_EQ(num(R"({"numRecords":3,"s":"unterminated})"), std::nullopt);
  EXPECT_EQ(num("not json"), std::nullopt);
}

}  // namespace
}  // namespace lakestream::delta
