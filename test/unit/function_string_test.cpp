// String functions and LIKE, driven through the registry.
#include "function/like_matcher.hpp"
#include "function_test_util.hpp"

namespace lakestream::test {
namespace {

Value S(const char* s) { return Value(s); }
Value I(int32_t v) { return Value::INTEGER(v); }

TEST(FunctionString, CaseAndLength) {
  EXPECT_EQ(Eval("lower", {S("HeLLo")}), S("hello"));
  EXPECT_EQ(Eval("upper", {S("straße é ñ ж")}), S("STRAßE É Ñ Ж"));
  EXPECT_EQ(Eval("lower", {S("ÀÉÎ ΣΑ Ж Ł")}), S("àéî σα ж ł"));
  EXPECT_EQ(Eval("length", {S("héllo")}), I(5));
  EXPECT_EQ(Eval("char_length", {S("日本語")}), I(3));
  EXPECT_EQ(Eval("length", {S("")}), I(0));
  // Eight-byte ASCII blocks are counted at once; what follows them character by character.
  EXPECT_EQ(Eval("length", {S("abcdefgh")}), I(8));
  EXPECT_EQ(Eval("length", {S("abcdefghijklmnopq")}), I(17));
  EXPECT_EQ(Eval("length", {S("abcdefgh日本語xyz")}), I(14));
  EXPECT_EQ(Eval("length", {S("abcdefgé01234567")}), I(16));
  EXPECT_TRUE(Eval("length", {Null(TypeId::VARCHAR)}).IsNull());
  EXPECT_EQ(Eval("length", {I(12345)}), I(5));  // implicit cast to VARCHAR
  EXPECT_EQ(EvalType("length", {TypeId::VARCHAR}), LogicalType(TypeId::INTEGER));
  auto msg = ErrorOf<BinderError>([] { EvalType("lower", {LogicalType::Struct({{"a", TypeId::INTEGER}})}); });
  EXPECT_NE(msg.find("lower(STRUCT(a INTEGER))"), std::string::npos) << msg;
  EXPECT_NE(msg.find("lower(VARCHAR)"), std::string::npos) << msg;
}

TEST(FunctionString, SubstringSparkSemantics) {
  EXPECT_EQ(Eval("substring", {S("Spark SQL"), I(5)}), S("k SQL"));
  EXPECT_EQ(Eval("substr", {S("Spark SQL"), I(-3)}), S("SQL"));
  EXPECT_EQ(Eval("substr", {S("Spark SQL"), I(5), I(1)}), S("k"));
  EXPECT_EQ(Eval("substr", {S("abc"), I(0), I(2)}), S("ab"));
  EXPECT_EQ(Eval("substr", {S("abc"), I(-5), I(3)}), S("a"));
  EXPECT_EQ(Eval("substr", {S("abc"), I(2), I(-1)}), S(""));
  EXPECT_EQ(Eval("substr", {S("abc"), I(10)}), S(""));
  EXPECT_EQ(Eval("substr", {S("héllo wörld"), I(2), I(4)}), S("éllo"));
  EXPECT_EQ(Eval("substr", {S("héllo wörld"), I(-5), I(2)}), S("wö"));
  EXPECT_TRUE(Eval("substr", {S("abc"), Null(TypeId::INTEGER)}).IsNull());
  EXPECT_EQ(Eval("left", {S("héllo"), I(2)}), S("hé"));
  EXPECT_EQ(Eval("right", {S("héllo"), I(4)}), S("éllo"));
  EXPECT_EQ(Eval("right", {S("abc"), I(10)}), S("abc"));
  EXPECT_EQ(Eval("left", {S("abc"), I(-1)}), S(""));
}

TEST(FunctionString, ConcatNullSemantics) {
  EXPECT_EQ(Eval("concat", {S("a"), Null(TypeId::VARCHAR), S("b")}), S("ab"));
  EXPECT_EQ(Eval("concat", {S("id-"), I(42)}), S("id-42"));
  EXPECT_EQ(Eval("concat", {Null(TypeId::VARCHAR)}), S(""));
  EXPECT_TRUE(Eval("||", {S("a"), Null(TypeId::VARCHAR)}).IsNull());
  EXPECT_EQ(Eval("||", {S("a"), S("é")}), S("aé"));
  EXPECT_EQ(Eval("concat_ws", {S("-"), S("a"), Null(TypeId::VARCHAR), S("b")}), S("a-b"));
  EXPECT_TRUE(Eval("concat_ws", {Null(TypeId::VARCHAR), S("a")}).IsNull());
  EXPECT_TRUE(ScalarFunctionRegistry::Get().Bind("concat", {TypeId::VARCHAR}, {}, {}).handles_nulls);
}

TEST(FunctionString, TrimReplaceSplit) {
  EXPECT_EQ(Eval("trim", {S("  a b  ")}), S("a b"));
  EXPECT_EQ(Eval("ltrim", {S("  a  ")}), S("a  "));
  EXPECT_EQ(Eval("rtrim", {S("  a  ")}), S("  a"));
  EXPECT_EQ(Eval("trim", {S("xxaxyx"), S("xy")}), S("a"));
  EXPECT_EQ(Eval("trim", {S("ééaé"), S("é")}), S("a"));
  EXPECT_EQ(Eval("trim", {S("   ")}), S(""));
  EXPECT_EQ(Eval("replace", {S("a-b-c"), S("-"), S("+")}), S("a+b+c"));
  EXPECT_EQ(Eval("replace", {S("aaa"), S("aa"), S("b")}), S("ba"));
  EXPECT_EQ(Eval("replace", {S("abc"), S(""), S("x")}), S("abc"));
  EXPECT_EQ(Eval("replace", {S("abc"), S("b")}), S("ac"));
  EXPECT_EQ(Eval("split_part", {S("a,b,,c"), S(","), I(2)}), S("b"));
  EXPECT_EQ(Eval("split_part", {S("a,b,,c"), S(","), I(3)}), S(""));
  EXPECT_EQ(Eval("split_part", {S("a,b,,c"), S(","), I(-1)}), S("c"));
  EXPECT_EQ(Eval("split_part", {S("a,b"), S(","), I(5)}), S(""));
  EXPECT_EQ(Eval("split_part", {S("a,b"), S(""), I(1)}), S("a,b"));
  auto msg = ErrorOf<InvalidInputError>([] { Eval("split_part", {S("a"), S(","), I(0)}); });
  EXPECT_NE(msg.find("must not be 0"), std::string::npos) << msg;
}

TEST(FunctionString, PredicatesPadsAndSearch) {
  EXPECT_EQ(Eval("starts_with", {S("hello"), S("he")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("ends_with", {S("hello"), S("lo")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("ends_with", {S("lo"), S("hello")}), Value::BOOLEAN(false));
  EXPECT_EQ(Eval("contains", {S("hello"), S("ell")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("lpad", {S("hi"), I(5), S("ab")}), S("abahi"));
  EXPECT_EQ(Eval("rpad", {S("hi"), I(5), S("é")}), S("hiééé"));
  EXPECT_EQ(Eval("lpad", {S("hello"), I(3)}), S("hel"));
  EXPECT_EQ(Eval("lpad", {S("hi"), I(4)}), S("  hi"));
  EXPECT_EQ(Eval("reverse", {S("abé日")}), S("日éba"));
  EXPECT_EQ(Eval("repeat", {S("ab"), I(3)}), S("ababab"));
  EXPECT_EQ(Eval("repeat", {S("ab"), I(-1)}), S(""));
  EXPECT_EQ(Eval("repeat", {S("abc"), I(5)}), S("abcabcabcabcabc"));
  EXPECT_EQ(Eval("repeat", {S("x"), I(1)}), S("x"));
  EXPECT_EQ(Eval("instr", {S("héllo"), S("llo")}), I(3));
  EXPECT_EQ(Eval("strpos", {S("hello"), S("z")}), I(0));
  EXPECT_EQ(Eval("position", {S("l"), S("héllo")}), I(3));
  EXPECT_EQ(Eval("locate", {S("l"), S("hello"), I(4)}), I(4));
}

TEST(FunctionString, ManyRowsWithNulls) {
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 2048; i++) rows.push_back({i % 3 == 0 ? Null(TypeId::VARCHAR) : Value("  row" + std::to_string(i) + " ")});
  auto run = RunRows("trim", {TypeId::VARCHAR}, rows);
  for (int i = 0; i < 2048; i++) {
    if (i % 3 == 0) EXPECT_TRUE(run.values[i].IsNull());
    else EXPECT_EQ(run.values[i], Value("row" + std::to_string(i)));
  }
}

TEST(LikeMatcher, Shapes) {
  EXPECT_TRUE(LikeMatcher("abc").Match("abc"));
  EXPECT_FALSE(LikeMatcher("abc").Match("abcd"));
  EXPECT_TRUE(LikeMatcher("ab%").Match("abzzz"));
  EXPECT_TRUE(LikeMatcher("%yz").Match("xxyz"));
  EXPECT_TRUE(LikeMatcher("%b%").Match("abc"));
  EXPECT_TRUE(LikeMatcher("%").Match(""));
  EXPECT_TRUE(LikeMatcher("").Match(""));
  EXPECT_FALSE(LikeMatcher("").Match("a"));
  EXPECT_TRUE(LikeMatcher("a_c").Match("aéc"));
  EXPECT_FALSE(LikeMatcher("a_c").Match("ac"));
  EXPECT_TRUE(LikeMatcher("%a%b%c").Match("xxaybzzc"));
  EXPECT_FALSE(LikeMatcher("%a%b%c").Match("xxaybzzcx"));
  EXPECT_TRUE(LikeMatcher("a%%b").Match("ab"));
  EXPECT_TRUE(LikeMatcher("_%_").Match("ab"));
  EXPECT_FALSE(LikeMatcher("_%_").Match("a"));
  EXPECT_TRUE(LikeMatcher("%aab").Match("aaab"));
  EXPECT_TRUE(LikeMatcher("100\\%").Match("100%"));
  EXPECT_FALSE(LikeMatcher("100\\%").Match("1000"));
  EXPECT_TRUE(LikeMatcher("a!_b", "!").Match("a_b"));
  EXPECT_FALSE(LikeMatcher("a!_b", "!").Match("axb"));
  EXPECT_TRUE(LikeMatcher("ÉT%", "\\", true).Match("étoile"));
  EXPECT_THROW(LikeMatcher("abc\\"), InvalidInputError);
}

TEST(FunctionString, LikeFunctions) {
  EXPECT_EQ(Eval("like", {S("hello"), S("h%o")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("not_like", {S("hello"), S("h%o")}), Value::BOOLEAN(false));
  EXPECT_EQ(Eval("ilike", {S("HELLO"), S("h%")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("not_ilike", {S("HELLO"), S("x%")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("like", {S("a%b"), S("a#%b"), S("#")}), Value::BOOLEAN(true));
  EXPECT_TRUE(Eval("like", {Null(TypeId::VARCHAR), S("%")}).IsNull());
  // Pattern from a column: compiled per row.
  auto run = RunRows("like", {TypeId::VARCHAR, TypeId::VARCHAR},
                     {{S("abc"), S("a%")}, {S("abc"), S("b%")}, {S("abc"), Null(TypeId::VARCHAR)}, {S("xbc"), S("_bc")}});
  EXPECT_EQ(run.values[0], Value::BOOLEAN(true));
  EXPECT_EQ(run.values[1], Value::BOOLEAN(false));
  EXPECT_TRUE(run.values[2].IsNull());
  EXPECT_EQ(run.values[3], Value::BOOLEAN(true));
  EXPECT_EQ(Eval("rlike", {S("abc123"), S("[0-9]+$")}), Value::BOOLEAN(true));
  EXPECT_EQ(Eval("regexp_matches", {S("abc"), S("^b")}), Value::BOOLEAN(false));
  EXPECT_THROW(Eval("rlike", {S("a"), S("(")}), InvalidInputError);
}

}  // namespace
}  // namespace lakestream::test
