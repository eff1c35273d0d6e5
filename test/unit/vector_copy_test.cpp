// Vector::Copy of nested rows (STRUCT, LIST, MAP, and their nestings), which
// copies child vectors directly: the copy must equal a row-by-row copy of
// the values, with a selection vector, at an offset, appended after earlier
// rows, and with NULL structs whose field slots were never written.
#include <gtest/gtest.h>

#include "common/vector.hpp"

namespace lakestream {
namespace {

LogicalType Doc() {
  return LogicalType::Struct({{"id", TypeId::BIGINT},
                              {"tags", LogicalType::List(TypeId::VARCHAR)},
                              {"items", LogicalType::List(LogicalType::Struct({{"sku", TypeId::VARCHAR},
                                                                               {"qty", TypeId::INTEGER}}))},
                              {"attrs", LogicalType::Map(TypeId::VARCHAR, TypeId::BIGINT)}});
}

Value Item(const std::string& sku, int32_t qty) {
  LogicalType t = LogicalType::Struct({{"sku", TypeId::VARCHAR}, {"qty", TypeId::INTEGER}});
  return Value::STRUCT(t, {Value::VARCHAR(sku), Value::INTEGER(qty)});
}

// Row r of the source: every third row NULL, lists of varying length,
// some NULL lists and elements.
Value Row(idx_t r) {
  LogicalType type = Doc();
  if (r % 3 == 2) return Value(type);
  std::vector<Value> tags;
  for (idx_t i = 0; i < r % 4; i++) tags.push_back(i == 1 ? Value(LogicalType(TypeId::VARCHAR)) : Value::VARCHAR("tag-" + std::to_string(r * 10 + i) + std::string(20, 'x')));
  std::vector<Value> items;
  for (idx_t i = 0; i < (r + 1) % 3; i++) items.push_back(Item("sku" + std::to_string(r), static_cast<int32_t>(r + i)));
  LogicalType entry = type.children()[3].second.ListChild();
  std::vector<Value> attrs = {Value::STRUCT(entry, {Value::VARCHAR("k" + std::to_string(r)), Value::BIGINT(static_cast<int64_t>(r))})};
  return Value::STRUCT(type, {Value::BIGINT(static_cast<int64_t>(r)),
                              r % 5 == 4 ? Value(type.children()[1].second) : Value::LIST(type.children()[1].second, tags),
                              Value::LIST(type.children()[2].second, items), Value::LIST(type.children()[3].second, attrs)});
}

Vector Source(idx_t n) {
  Vector v(Doc(), n);
  for (idx_t r = 0; r < n; r++) v.SetValue(r, Row(r));
  return v;
}

TEST(VectorCopy, NestedRowsEqualTheirValues) {
  const idx_t n = 100;
  Vector src = Source(n);
  Vector dst(Doc(), 4);  // grows
  dst.Copy(src, nullptr, n, 0, 0);
  for (idx_t r = 0; r < n; r++) EXPECT_EQ(dst.GetValue(r).ToString(), Row(r).ToString()) << "row " << r;
}

TEST(VectorCopy, NestedRowsWithSelectionAndOffsetsAfterEarlierRows) {
  Vector src = Source(50);
  Vector dst(Doc(), 8);
  dst.Copy(src, nullptr, 10, 20, 0);  // rows 20..29 first: the list children already hold elements
  std::vector<sel_t> sel = {49, 2, 7, 7, 0, 33, 5};
  dst.Copy(src, sel.data(), sel.size(), 0, 10);
  for (idx_t i = 0; i < 10; i++) EXPECT_EQ(dst.GetValue(i).ToString(), Row(20 + i).ToString()) << "row " << i;
  for (idx_t i = 0; i < sel.size(); i++) EXPECT_EQ(dst.GetValue(10 + i).ToString(), Row(sel[i]).ToString()) << "sel " << i;
}

TEST(VectorCopy, FieldsOfANullStructReadAsNull) {
  Vector src(Doc(), 4);
  src.SetValue(0, Row(0));
  src.SetValid(1, false);  // a NULL struct whose field slots were never written
  src.SetValue(2, Row(1));
  Vector dst(Doc(), 4);
  dst.Copy(src, nullptr, 3, 0, 0);
  EXPECT_TRUE(dst.GetValue(1).IsNull());
  for (idx_t c = 0; c < dst.ChildCount(); c++) EXPECT_FALSE(dst.Child(c).IsValid(1)) << "field " << c;
  EXPECT_EQ(dst.GetValue(2).ToString(), Row(1).ToString());
  EXPECT_EQ(dst.Child(1).ListSize(), Row(0).Children()[1].Children().size() + Row(1).Children()[1].Children().size());
}

TEST(VectorCopy, CopyWithinOneNestedVector) {
  Vector v = Source(10);
  v.Copy(v, nullptr, 3, 0, 7);
  for (idx_t i = 0; i < 3; i++) EXPECT_EQ(v.GetValue(7 + i).ToString(), Row(i).ToString());
}

}  // namespace
}  // namespace lakestream
