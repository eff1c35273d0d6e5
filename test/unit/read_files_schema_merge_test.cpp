// read_files() inference and schema evolution rules
// (function/table/schema_merge.hpp, storage/table/schema_evolution.hpp).
#include <gtest/gtest.h>

#include "function/table/schema_merge.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {
namespace {

using json = nlohmann::ordered_json;

LogicalType Infer(const char* text, InferOptions options = {}) { return InferJsonValueType(json::parse(text), options); }

LogicalType Struct(child_list_t fields) { return LogicalType::Struct(std::move(fields)); }

TEST(ReadFilesInference, StringsThatAreDatesAndTimestamps) {
  EXPECT_EQ(InferStringType("2024-01-31"), LogicalType(TypeId::DATE));
  for (const char* ts : {"2024-01-31T10:00", "2024-01-31T10:00:00", "2024-01-31 10:00:00.123456", "2024-01-31T10:00:00Z",
                         "2024-01-31T10:00:00+02:00", "2024-01-31T10:00:00-0530", "2024-01-31T10:00:00.5+01"}) {
    EXPECT_EQ(InferStringType(ts), LogicalType(TypeId::TIMESTAMP)) << ts;
  }
  for (const char* text : {"2024-1-31", "2024-01-31T", "2024-01-31X10:00", "2024-01-31T10", "2024-01-31T10:00:00.",
                           "2024-01-31T10:00:00+2", "2024-01-31T10:00:00 UTC", "20240131", "hello", ""}) {
    EXPECT_EQ(InferStringType(text), LogicalType(TypeId::VARCHAR)) << text;
  }
  InferOptions no_strings;
  no_strings.infer_strings = false;
  EXPECT_EQ(Infer("\"2024-01-31\"", no_strings), LogicalType(TypeId::VARCHAR));
}

TEST(ReadFilesInference, ObjectsAndArrays) {
  EXPECT_EQ(Infer(R"({"b": 1, "a": {"c": [1, 2.5]}})"),
            Struct({{"b", TypeId::BIGINT}, {"a", Struct({{"c", LogicalType::List(TypeId::DOUBLE)}})}}));
  // Array elements merge: objects with different fields become one STRUCT.
  EXPECT_EQ(Infer(R"([{"x": 1}, {"y": "s"}, null, {"x": 2.0}])"),
            LogicalType::List(Struct({{"x", TypeId::DOUBLE}, {"y", TypeId::VARCHAR}})));
  EXPECT_EQ(Infer("[]"), LogicalType::List(TypeId::SQLNULL));
  EXPECT_EQ(Infer("{}"), Struct({}));
  EXPECT_EQ(Infer("null"), LogicalType(TypeId::SQLNULL));
  EXPECT_EQ(Infer("18446744073709551615"), LogicalType(TypeId::DOUBLE));
}

TEST(ReadFilesInference, PrefersDecimal) {
  InferOptions decimal;
  decimal.prefers_decimal = true;
  // The shortest decimal form of the parsed number: trailing zeros and
  // exponents written in the file are not kept.
  EXPECT_EQ(Infer("12.345", decimal), LogicalType::Decimal(5, 3));
  EXPECT_EQ(Infer("12.340", decimal), LogicalType::Decimal(4, 2));
  EXPECT_EQ(Infer("-0.05", decimal), LogicalType::Decimal(2, 2));
  EXPECT_EQ(Infer("1e5", decimal), LogicalType::Decimal(7, 1));
  EXPECT_EQ(Infer("1e300", decimal), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(MergeInferredTypes(LogicalType::Decimal(5, 3), TypeId::BIGINT), LogicalType::Decimal(23, 3));
  EXPECT_EQ(MergeInferredTypes(LogicalType::Decimal(5, 3), LogicalType::Decimal(4, 1)), LogicalType::Decimal(6, 3));
  EXPECT_EQ(MergeInferredTypes(LogicalType::Decimal(38, 0), LogicalType::Decimal(3, 2)), LogicalType(TypeId::DOUBLE));
}

TEST(ReadFilesInference, MergeWidensOrFallsBackToString) {
  EXPECT_EQ(MergeInferredTypes(TypeId::BIGINT, TypeId::DOUBLE), LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(MergeInferredTypes(TypeId::DATE, TypeId::TIMESTAMP), LogicalType(TypeId::TIMESTAMP));
  EXPECT_EQ(MergeInferredTypes(TypeId::SQLNULL, TypeId::DATE), LogicalType(TypeId::DATE));
  EXPECT_EQ(MergeInferredTypes(TypeId::BOOLEAN, TypeId::BIGINT), LogicalType(TypeId::VARCHAR));
  EXPECT_EQ(MergeInferredTypes(Struct({{"a", TypeId::BIGINT}}), TypeId::BIGINT), LogicalType(TypeId::VARCHAR));
  EXPECT_EQ(MergeInferredTypes(LogicalType::List(TypeId::BIGINT), TypeId::VARCHAR), LogicalType(TypeId::VARCHAR));
  // Fields merge in first-seen order, case-insensitively; nulls fix nothing.
  EXPECT_EQ(MergeInferredTypes(Struct({{"a", TypeId::SQLNULL}, {"b", TypeId::BIGINT}}),
                               Struct({{"c", TypeId::BOOLEAN}, {"A", TypeId::DATE}, {"b", TypeId::DOUBLE}})),
            Struct({{"a", TypeId::DATE}, {"b", TypeId::DOUBLE}, {"c", TypeId::BOOLEAN}}));
}

TEST(ReadFilesInference, FinishResolvesNullsAndEmptyObjects) {
  LogicalType raw = Struct({{"e", Struct({})}, {"n", TypeId::SQLNULL}, {"l", LogicalType::List(TypeId::SQLNULL)}, {"i", TypeId::BIGINT}});
  EXPECT_EQ(FinishInferredType(raw, true),
            Struct({{"e", TypeId::VARCHAR}, {"n", TypeId::VARCHAR}, {"l", LogicalType::List(TypeId::VARCHAR)}, {"i", TypeId::BIGINT}}));
  EXPECT_EQ(FinishInferredType(raw, false),
            Struct({{"e", TypeId::VARCHAR}, {"n", TypeId::VARCHAR}, {"l", LogicalType::List(TypeId::VARCHAR)}, {"i", TypeId::VARCHAR}}));
  EXPECT_EQ(FinishInferredType(raw, true, false),
            Struct({{"e", Struct({})}, {"n", TypeId::SQLNULL}, {"l", LogicalType::List(TypeId::SQLNULL)}, {"i", TypeId::BIGINT}}));
}

FileSchema Schema(std::vector<std::string> names, std::vector<LogicalType> types) {
  FileSchema s;
  s.names = std::move(names);
  s.types = std::move(types);
  return s;
}

TEST(ReadFilesEvolution, DiffFindsNewColumnsFieldsAndTypeChanges) {
  FileSchema stored = Schema({"id", "doc", "items", "s"},
                             {TypeId::BIGINT, Struct({{"a", TypeId::BIGINT}}),
                              LogicalType::List(Struct({{"x", TypeId::VARCHAR}})), TypeId::VARCHAR});
  FileSchema incoming = Schema({"ID", "doc", "items", "s", "new", "gone"},
                               {TypeId::DOUBLE, Struct({{"a", TypeId::BIGINT}, {"b", Struct({{"c", TypeId::DATE}})}}),
                                LogicalType::List(Struct({{"y", TypeId::BOOLEAN}})), Struct({{"z", TypeId::BIGINT}}),
                                TypeId::BIGINT, TypeId::SQLNULL});
  auto changes = DiffSchemas(stored, incoming);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0].kind, SchemaChange::Kind::TYPE_CHANGE);
  EXPECT_EQ(changes[0].path, "id");
  EXPECT_EQ(changes[0].incoming, LogicalType(TypeId::DOUBLE));
  EXPECT_EQ(changes[1].kind, SchemaChange::Kind::NEW_FIELD);
  EXPECT_EQ(changes[1].path, "doc.b");
  EXPECT_EQ(changes[2].kind, SchemaChange::Kind::NEW_FIELD);
  EXPECT_EQ(changes[2].path, "items.element.y");
  EXPECT_EQ(changes[3].kind, SchemaChange::Kind::NEW_COLUMN);  // STRING holds the object; "gone" is only null
  EXPECT_EQ(changes[3].path, "new");

  FileSchema evolved = AddNewFields(stored, incoming, false);
  EXPECT_EQ(evolved.names, (std::vector<std::string>{"id", "doc", "items", "s", "new"}));
  EXPECT_EQ(evolved.types[0], LogicalType(TypeId::BIGINT));  // no silent type change
  EXPECT_EQ(evolved.types[1], Struct({{"a", TypeId::BIGINT}, {"b", Struct({{"c", TypeId::DATE}})}}));
  EXPECT_EQ(evolved.types[2], LogicalType::List(Struct({{"x", TypeId::VARCHAR}, {"y", TypeId::BOOLEAN}})));
  EXPECT_EQ(evolved.types[3], LogicalType(TypeId::VARCHAR));
}

TEST(ReadFilesEvolution, WideningFollowsDelta) {
  EXPECT_TRUE(DeltaAllowsWidening(TypeId::INTEGER, TypeId::BIGINT));
  EXPECT_TRUE(DeltaAllowsWidening(TypeId::INTEGER, TypeId::DOUBLE));
  EXPECT_FALSE(DeltaAllowsWidening(TypeId::BIGINT, TypeId::DOUBLE));
  EXPECT_TRUE(DeltaAllowsWidening(TypeId::BIGINT, LogicalType::Decimal(22, 2)));
  EXPECT_FALSE(DeltaAllowsWidening(TypeId::BIGINT, LogicalType::Decimal(20, 2)));
  EXPECT_TRUE(DeltaAllowsWidening(LogicalType::Decimal(5, 2), LogicalType::Decimal(7, 3)));
  EXPECT_FALSE(DeltaAllowsWidening(LogicalType::Decimal(5, 2), LogicalType::Decimal(5, 3)));
  EXPECT_TRUE(DeltaAllowsWidening(TypeId::DATE, TypeId::TIMESTAMP_NTZ));
  EXPECT_FALSE(DeltaAllowsWidening(TypeId::DATE, TypeId::TIMESTAMP));  // a zone would have to be invented
  EXPECT_FALSE(DeltaAllowsWidening(TypeId::BIGINT, TypeId::INTEGER));
  // Schema evolution applies only the widenings that keep values integral.
  EXPECT_TRUE(DeltaWidensOnEvolution(TypeId::INTEGER, TypeId::BIGINT));
  EXPECT_TRUE(DeltaWidensOnEvolution(LogicalType::Decimal(5, 2), LogicalType::Decimal(9, 4)));
  EXPECT_TRUE(DeltaWidensOnEvolution(TypeId::DATE, TypeId::TIMESTAMP_NTZ));
  EXPECT_FALSE(DeltaWidensOnEvolution(TypeId::INTEGER, TypeId::DOUBLE));
  EXPECT_FALSE(DeltaWidensOnEvolution(TypeId::BIGINT, LogicalType::Decimal(25, 2)));
  EXPECT_FALSE(DeltaWidensOnEvolution(TypeId::INTEGER, TypeId::VARCHAR));
  EXPECT_FALSE(AddNewFields(Schema({"n"}, {TypeId::INTEGER}), Schema({"n"}, {TypeId::DOUBLE}), true).types[0] !=
               LogicalType(TypeId::INTEGER));
  FileSchema stored = Schema({"n"}, {TypeId::INTEGER});
  FileSchema incoming = Schema({"n"}, {TypeId::BIGINT});
  EXPECT_EQ(AddNewFields(stored, incoming, true).types[0], LogicalType(TypeId::BIGINT));
  EXPECT_EQ(AddNewFields(stored, incoming, false).types[0], LogicalType(TypeId::INTEGER));
}

TEST(ReadFilesEvolution, OldValuesConformToTheEvolvedType) {
  LogicalType old_type = Struct({{"a", TypeId::INTEGER}, {"l", LogicalType::List(Struct({{"x", TypeId::BIGINT}}))}});
  LogicalType new_type = Struct({{"a", TypeId::BIGINT},
                                 {"l", LogicalType::List(Struct({{"x", TypeId::BIGINT}, {"y", TypeId::VARCHAR}}))},
                                 {"b", TypeId::VARCHAR}});
  EXPECT_TRUE(TypeEvolvesTo(old_type, new_type));
  EXPECT_FALSE(TypeEvolvesTo(new_type, old_type));
  EXPECT_FALSE(TypeEvolvesTo(TypeId::BIGINT, TypeId::INTEGER));
  EXPECT_FALSE(TypeEvolvesTo(Struct({{"a", TypeId::VARCHAR}}), Struct({{"a", TypeId::BIGINT}})));

  Value element = Value::STRUCT(old_type.children()[1].second.ListChild(), {Value::BIGINT(5)});
  Value old_value = Value::STRUCT(old_type, {Value::INTEGER(3), Value::LIST(old_type.children()[1].second, {element})});
  Value conformed = ConformValue(old_value, new_type);
  ASSERT_EQ(conformed.type(), new_type);
  EXPECT_EQ(conformed.Children()[0].GetBigint(), 3);
  ASSERT_EQ(conformed.Children()[1].Children().size(), 1u);
  EXPECT_EQ(conformed.Children()[1].Children()[0].Children()[0].GetBigint(), 5);
  EXPECT_TRUE(conformed.Children()[1].Children()[0].Children()[1].IsNull());
  EXPECT_TRUE(conformed.Children()[2].IsNull());
  EXPECT_TRUE(ConformValue(Value(old_type), new_type).IsNull());
}

}  // namespace
}  // namespace lakestream
