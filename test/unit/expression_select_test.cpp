// ExpressionExecutor::Select over a selection (what scan filters use): each
// filter tests only the rows the ones before it kept. Checked against the
// plain evaluation (Execute, then keep the TRUE rows) on chunks with NULLs,
// rows past one vector, selections that keep all, some and none of the
// rows, constants on either side; and the typed IN list against the
// three-valued IN.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "expression/expression_executor.hpp"
#include "function/scalar_function.hpp"

namespace lakestream {
namespace {

constexpr idx_t kRows = STANDARD_VECTOR_SIZE + 700;  // past one vector

// A value of `type` among a few (so constants compared below often match).
Value Sample(const LogicalType& type, std::mt19937& rng) {
  int x = static_cast<int>(rng() % 21) - 10;
  switch (type.id()) {
    case TypeId::INTEGER: return Value::INTEGER(x);
    case TypeId::BIGINT: return Value::BIGINT(x * 1000000007LL);
    case TypeId::DATE: return Value::DATE(19000 + x);
    case TypeId::DOUBLE: return Value::DOUBLE(x / 4.0);
    case TypeId::DECIMAL: return Value(std::to_string(x) + ".25").CastAs(type);
    case TypeId::VARCHAR: return Value("v" + std::to_string(x + 10));
    case TypeId::BOOLEAN: return Value::BOOLEAN(x % 2 == 0);
    default: return Value(type);
  }
}

// kRows rows of random values; column c is NULL where (row + c) % 7 == 0.
DataChunk MakeChunk(const std::vector<LogicalType>& types, uint32_t seed) {
  std::mt19937 rng(seed);
  DataChunk chunk;
  chunk.Initialize(types, kRows);
  for (idx_t r = 0; r < kRows; r++) {
    for (idx_t c = 0; c < types.size(); c++) {
      chunk.SetValue(c, r, (r + c) % 7 == 0 ? Value(types[c]) : Sample(types[c], rng));
    }
  }
  chunk.SetCardinality(kRows);
  return chunk;
}

BoundExprPtr Compare(const std::string& op, BoundExprPtr left, BoundExprPtr right) {
  std::vector<LogicalType> types = {left->return_type, right->return_type};
  std::vector<const Value*> constants = {left->IsConstant() ? &left->value : nullptr,
                                         right->IsConstant() ? &right->value : nullptr};
  auto expr = std::make_unique<BoundExpression>(BoundExpressionType::FUNCTION, LogicalType(TypeId::BOOLEAN));
  expr->function = ScalarFunctionRegistry::Get().Bind(op, types, constants, {});
  expr->children.push_back(std::move(left));
  expr->children.push_back(std::move(right));
  return expr;
}

BoundExprPtr Conjunction(BoundExpressionType type, BoundExprPtr a, BoundExprPtr b) {
  auto expr = std::make_unique<BoundExpression>(type, LogicalType(TypeId::BOOLEAN));
  expr->children.push_back(std::move(a));
  expr->children.push_back(std::move(b));
  return expr;
}
BoundExprPtr And(BoundExprPtr a, BoundExprPtr b) { return Conjunction(BoundExpressionType::AND, std::move(a), std::move(b)); }
BoundExprPtr Or(BoundExprPtr a, BoundExprPtr b) { return Conjunction(BoundExpressionType::OR, std::move(a), std::move(b)); }

// The rows of `rows` where `predicate` is TRUE, the plain way.
std::vector<sel_t> Expected(const BoundExpression& predicate, DataChunk& chunk, const std::vector<sel_t>& rows) {
  ExpressionExecutor executor;
  Vector mask(LogicalType(TypeId::BOOLEAN), chunk.size());
  executor.Execute(predicate, chunk, mask);
  std::vector<sel_t> kept;
  for (sel_t row : rows) {
    if (mask.IsValid(row) && mask.GetData<bool>()[row]) kept.push_back(row);
  }
  return kept;
}

// Select over `rows` (all rows when `all`), in place as the scan does.
std::vector<sel_t> Selected(const BoundExpression& predicate, DataChunk& chunk, const std::vector<sel_t>& rows,
                            bool all) {
  ExpressionExecutor executor;
  std::vector<sel_t> sel = rows;
  sel.resize(chunk.size());
  idx_t n = executor.Select(predicate, chunk, all ? nullptr : sel.data(), rows.size(), sel.data());
  sel.resize(n);
  return sel;
}

// Selections to test every predicate on: all rows, every third row, the rows
// around the vector boundary, one row, none.
std::vector<std::pair<std::vector<sel_t>, bool>> Selections() {
  std::vector<sel_t> all, thirds, boundary;
  for (idx_t r = 0; r < kRows; r++) {
    all.push_back(static_cast<sel_t>(r));
    if (r % 3 == 0) thirds.push_back(static_cast<sel_t>(r));
    if (r + 5 >= STANDARD_VECTOR_SIZE && r < STANDARD_VECTOR_SIZE + 5) boundary.push_back(static_cast<sel_t>(r));
  }
  return {{all, true}, {all, false}, {thirds, false}, {boundary, false}, {{static_cast<sel_t>(kRows - 1)}, false}, {{}, false}};
}

TEST(ExpressionSelect, ComparisonsMatchEvaluation) {
  std::vector<LogicalType> types = {TypeId::INTEGER, TypeId::BIGINT, TypeId::DATE, TypeId::DOUBLE,
                                    LogicalType::Decimal(15, 2), LogicalType::Decimal(38, 2), TypeId::VARCHAR};
  // Two columns per type: column against column, and against a constant.
  std::vector<LogicalType> columns;
  for (auto& t : types) {
    columns.push_back(t);
    columns.push_back(t);
  }
  DataChunk chunk = MakeChunk(columns, 42);
  std::mt19937 rng(7);
  for (idx_t t = 0; t < types.size(); t++) {
    const LogicalType& type = types[t];
    for (const char* op : {"=", "<>", "<", "<=", ">", ">="}) {
      std::vector<BoundExprPtr> predicates;
      predicates.push_back(Compare(op, MakeColumnRef(2 * t, type), MakeColumnRef(2 * t + 1, type)));
      predicates.push_back(Compare(op, MakeColumnRef(2 * t, type), MakeConstant(Sample(type, rng))));
      predicates.push_back(Compare(op, MakeConstant(Sample(type, rng)), MakeColumnRef(2 * t + 1, type)));
      predicates.push_back(Compare(op, MakeColumnRef(2 * t, type), MakeConstant(Value(type))));  // NULL: no row
      for (auto& p : predicates) {
        // The selection form is what is under test: every type here has one.
        ASSERT_NE(p->function.select, nullptr) << op << " " << type.ToString();
        for (auto& [rows, all] : Selections()) {
          EXPECT_EQ(Selected(*p, chunk, rows, all), Expected(*p, chunk, rows))
              << p->ToString() << " " << type.ToString() << " over " << rows.size() << " rows";
        }
      }
    }
  }
}

TEST(ExpressionSelect, AndNarrowsAndKeepsAllOrNone) {
  DataChunk chunk = MakeChunk({TypeId::INTEGER, TypeId::INTEGER, TypeId::VARCHAR}, 3);
  std::vector<BoundExprPtr> predicates;
  predicates.push_back(And(Compare(">=", MakeColumnRef(0, TypeId::INTEGER), MakeConstant(Value::INTEGER(-3))),
                           Compare("<", MakeColumnRef(1, TypeId::INTEGER), MakeConstant(Value::INTEGER(4)))));
  // Every non-NULL row, and no row at all.
  predicates.push_back(Compare(">=", MakeColumnRef(0, TypeId::INTEGER), MakeConstant(Value::INTEGER(-10))));
  predicates.push_back(And(Compare("<", MakeColumnRef(0, TypeId::INTEGER), MakeConstant(Value::INTEGER(-10))),
                           Compare("=", MakeColumnRef(2, TypeId::VARCHAR), MakeConstant(Value("v3")))));
  // OR: each operand on the rows no operand before it found TRUE.
  predicates.push_back(Or(Compare("<", MakeColumnRef(0, TypeId::INTEGER), MakeConstant(Value::INTEGER(-5))),
                          And(Compare(">", MakeColumnRef(1, TypeId::INTEGER), MakeConstant(Value::INTEGER(3))),
                              Compare("<>", MakeColumnRef(2, TypeId::VARCHAR), MakeConstant(Value("v12"))))));
  predicates.push_back(Or(Compare("<", MakeColumnRef(0, TypeId::INTEGER), MakeConstant(Value::INTEGER(-10))),
                          Compare(">", MakeColumnRef(1, TypeId::INTEGER), MakeConstant(Value::INTEGER(10)))));
  for (auto& p : predicates) {
    for (auto& [rows, all] : Selections()) EXPECT_EQ(Selected(*p, chunk, rows, all), Expected(*p, chunk, rows)) << p->ToString();
  }
  EXPECT_TRUE(Selected(*predicates.back(), chunk, Selections()[0].first, true).empty());
  EXPECT_TRUE(Selected(*predicates[2], chunk, Selections()[0].first, true).empty());
  idx_t non_null = 0;
  for (idx_t r = 0; r < kRows; r++) non_null += r % 7 != 0;
  EXPECT_EQ(Selected(*predicates[1], chunk, Selections()[0].first, true).size(), non_null);
}

// SQL's three-valued AND and OR over every pair of TRUE, FALSE and NULL,
// with the slots of NULL rows holding garbage bytes.
TEST(ExpressionSelect, ConjunctionTruthTables) {
  DataChunk chunk;
  chunk.Initialize({TypeId::BOOLEAN, TypeId::BOOLEAN}, 9);
  const int kNull = 2;
  for (idx_t r = 0; r < 9; r++) {
    for (idx_t c = 0; c < 2; c++) {
      int v = c == 0 ? static_cast<int>(r / 3) : static_cast<int>(r % 3);
      chunk.data[c].GetData<uint8_t>()[r] = v == kNull ? 0x5a : static_cast<uint8_t>(v);
      chunk.data[c].SetValid(r, v != kNull);
    }
  }
  chunk.SetCardinality(9);
  for (bool is_and : {true, false}) {
    auto expr = is_and ? And(MakeColumnRef(0, TypeId::BOOLEAN), MakeColumnRef(1, TypeId::BOOLEAN))
                       : Or(MakeColumnRef(0, TypeId::BOOLEAN), MakeColumnRef(1, TypeId::BOOLEAN));
    ExpressionExecutor executor;
    Vector result(LogicalType(TypeId::BOOLEAN), 9);
    executor.Execute(*expr, chunk, result);
    for (idx_t r = 0; r < 9; r++) {
      int l = static_cast<int>(r / 3), rr = static_cast<int>(r % 3);
      // 0 FALSE, 1 TRUE, 2 NULL.
      int want;
      if (is_and) {
        want = (l == 0 || rr == 0) ? 0 : (l == kNull || rr == kNull) ? kNull : 1;
      } else {
        want = (l == 1 || rr == 1) ? 1 : (l == kNull || rr == kNull) ? kNull : 0;
      }
      std::string what = std::string(is_and ? "AND" : "OR") + " " + std::to_string(l) + " " + std::to_string(rr);
      if (want == kNull) {
        EXPECT_FALSE(result.IsValid(r)) << what;
      } else {
        ASSERT_TRUE(result.IsValid(r)) << what;
        EXPECT_EQ(result.GetData<uint8_t>()[r], want) << what;
      }
    }
  }
}

// x IN (constants): the typed search (short lists and long ones, with and
// without a NULL, NOT IN) against the row-by-row three-valued IN.
TEST(ExpressionSelect, TypedInList) {
  for (LogicalType type : {LogicalType(TypeId::INTEGER), LogicalType(TypeId::BIGINT), LogicalType::Decimal(15, 2),
                           LogicalType(TypeId::VARCHAR), LogicalType(TypeId::DATE)}) {
    DataChunk chunk = MakeChunk({type}, 11);
    std::mt19937 rng(5);
    for (int items : {1, 3, 40}) {
      for (bool with_null : {false, true}) {
        for (bool negated : {false, true}) {
          auto in = std::make_unique<BoundExpression>(BoundExpressionType::IN_LIST, LogicalType(TypeId::BOOLEAN));
          in->negated = negated;
          in->children.push_back(MakeColumnRef(0, type));
          std::vector<Value> list;
          for (int i = 0; i < items; i++) list.push_back(Sample(type, rng));
          if (with_null) list.emplace_back(type);
          for (auto& v : list) in->children.push_back(MakeConstant(v));
          ExpressionExecutor executor;
          Vector result(LogicalType(TypeId::BOOLEAN), kRows);
          executor.Execute(*in, chunk, result);
          for (idx_t r = 0; r < kRows; r++) {
            Value probe = chunk.GetValue(0, r);
            bool found = false;
            for (auto& v : list) found |= !v.IsNull() && !probe.IsNull() && probe.Compare(v) == 0;
            std::string what = in->ToString() + " row " + std::to_string(r) + " " + type.ToString();
            if (probe.IsNull() || (!found && with_null)) {
              EXPECT_FALSE(result.IsValid(r)) << what;
            } else {
              ASSERT_TRUE(result.IsValid(r)) << what;
              EXPECT_EQ(result.GetData<bool>()[r], found != negated) << what;
            }
          }
          // Its selection form keeps the rows where the IN is TRUE.
          for (auto& [rows, all] : Selections()) {
            EXPECT_EQ(Selected(*in, chunk, rows, all), Expected(*in, chunk, rows)) << in->ToString();
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace lakestream
