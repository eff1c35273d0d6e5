// Date and time functions, driven through the registry.
#include "common/date.hpp"
#include "function_test_util.hpp"

namespace lakestream::test {
namespace {

Value D(const char* s) { return Value(s).CastAs(TypeId::DATE); }
Value TS(const char* s) { return Value(s).CastAs(TypeId::TIMESTAMP); }
Value S(const char* s) { return Value(s); }
Value I(int32_t v) { return Value::INTEGER(v); }

TEST(FunctionDate, CurrentTimestampUsesStatementStart) {
  timestamp_t now = TS("2024-05-06 07:08:09").GetTimestamp();
  auto run = RunRows("current_timestamp", {}, {{}, {}}, {}, {}, now);
  EXPECT_FALSE(run.bound.deterministic);
  EXPECT_EQ(run.values[0], Value::TIMESTAMP(now));
  EXPECT_EQ(run.values[1], Value::TIMESTAMP(now));
  EXPECT_EQ(Eval("now", {}, now), Value::TIMESTAMP(now));
  EXPECT_EQ(Eval("current_date", {}, now), D("2024-05-06"));
  EXPECT_FALSE(ScalarFunctionRegistry::Get().Bind("current_date", {}, {}, {}).deterministic);
}

TEST(FunctionDate, DateTrunc) {
  EXPECT_EQ(Eval("date_trunc", {S("month"), TS("2024-05-06 07:08:09")}), TS("2024-05-01"));
  EXPECT_EQ(Eval("date_trunc", {S("HOUR"), TS("2024-05-06 07:08:09.5")}), TS("2024-05-06 07:00:00"));
  // A DATE truncates to a TIMESTAMP (Spark).
  EXPECT_EQ(Eval("date_trunc", {S("year"), D("2024-05-06")}), TS("2024-01-01"));
  EXPECT_EQ(Eval("date_trunc", {S("quarter"), D("2024-05-06")}), TS("2024-04-01"));
  EXPECT_EQ(Eval("date_trunc", {S("week"), D("2024-05-09")}), TS("2024-05-06"));  // Monday
  EXPECT_EQ(Eval("date_trunc", {S("day"), TS("1969-12-31 23:59:59")}), TS("1969-12-31"));
  EXPECT_EQ(Eval("date_trunc", {S("second"), TS("1969-12-31 23:59:59.5")}), TS("1969-12-31 23:59:59"));
  EXPECT_EQ(Eval("date_trunc", {S("month"), S("2024-05-06 01:02:03")}), TS("2024-05-01"));
  EXPECT_THROW(Eval("date_trunc", {S("fortnight"), D("2024-05-06")}), InvalidInputError);
  auto msg = ErrorOf<BinderError>([] {
    RunRows("date_trunc", {TypeId::VARCHAR, TypeId::DATE}, {{S("month"), D("2024-01-01")}});
  });
  EXPECT_NE(msg.find("must be a constant"), std::string::npos) << msg;
}

TEST(FunctionDate, DatePartAndFields) {
  Value ts = TS("2024-05-06 07:08:09.123456");  // a Monday
  EXPECT_EQ(Eval("date_part", {S("year"), ts}), I(2024));
  EXPECT_EQ(Eval("date_part", {S("month"), ts}), I(5));
  EXPECT_EQ(Eval("date_part", {S("day"), D("2024-05-06")}), I(6));
  EXPECT_EQ(Eval("date_part", {S("dow"), ts}), I(2));
  EXPECT_EQ(Eval("date_part", {S("isodow"), ts}), I(1));
  EXPECT_EQ(Eval("date_part", {S("doy"), ts}), I(127));
  EXPECT_EQ(Eval("date_part", {S("week"), D("2021-01-03")}), I(53));
  EXPECT_EQ(Eval("date_part", {S("second"), ts}), I(9));
  EXPECT_EQ(Eval("date_part", {S("millisecond"), ts}), I(9123));
  EXPECT_EQ(Eval("date_part", {S("epoch"), TS("1970-01-02")}), Value::BIGINT(86400));
  EXPECT_EQ(Eval("year", {D("1999-12-31")}), I(1999));
  EXPECT_EQ(Eval("quarter", {D("1999-12-31")}), I(4));
  EXPECT_EQ(Eval("dayofmonth", {D("1999-12-31")}), I(31));
  EXPECT_EQ(Eval("dayofweek", {D("2024-05-05")}), I(1));  // Sunday
  EXPECT_EQ(Eval("hour", {ts}), I(7));
  EXPECT_EQ(Eval("minute", {ts}), I(8));
  EXPECT_EQ(Eval("second", {ts}), I(9));
  EXPECT_EQ(Eval("month", {S("2024-02-03")}), I(2));
  EXPECT_TRUE(Eval("year", {Null(TypeId::DATE)}).IsNull());
  auto msg = ErrorOf<BinderError>([] { Eval("year", {I(1)}); });
  EXPECT_NE(msg.find("year(INTEGER)"), std::string::npos) << msg;
}

TEST(FunctionDate, Arithmetic) {
  EXPECT_EQ(Eval("date_add", {D("2024-02-28"), I(2)}), D("2024-03-01"));
  EXPECT_EQ(Eval("date_sub", {D("2024-03-01"), I(1)}), D("2024-02-29"));
  EXPECT_EQ(Eval("date_add", {TS("2024-02-28 10:00:00"), I(1)}), D("2024-02-29"));
  EXPECT_EQ(Eval("datediff", {D("2024-03-01"), D("2024-02-01")}), I(29));
  EXPECT_EQ(Eval("datediff", {D("2024-02-01"), S("2024-03-01")}), I(-29));
  EXPECT_EQ(Eval("add_months", {D("2024-01-31"), I(1)}), D("2024-02-29"));
  EXPECT_EQ(Eval("add_months", {D("2024-01-15"), I(-13)}), D("2022-12-15"));
  EXPECT_EQ(Eval("last_day", {D("2023-02-10")}), D("2023-02-28"));
  EXPECT_TRUE(Eval("date_add", {D("2024-01-01"), Null(TypeId::INTEGER)}).IsNull());
}

TEST(FunctionDate, ParseAndFormat) {
  EXPECT_EQ(Eval("to_date", {S("2024-05-06")}), D("2024-05-06"));
  EXPECT_EQ(Eval("to_date", {S("06/05/2024"), S("dd/MM/yyyy")}), D("2024-05-06"));
  EXPECT_EQ(Eval("to_date", {S("20240506"), S("yyyyMMdd")}), D("2024-05-06"));
  EXPECT_EQ(Eval("to_timestamp", {S("2024-05-06 07:08:09")}), TS("2024-05-06 07:08:09"));
  EXPECT_EQ(Eval("to_timestamp", {S("May 6, 2024 7:08 PM"), S("MMM d, yyyy h:mm a")}), TS("2024-05-06 19:08:00"));
  EXPECT_THROW(Eval("to_date", {S("nope")}), ConversionError);
  auto msg = ErrorOf<ConversionError>([] { Eval("to_date", {S("2024-13-01"), S("yyyy-MM-dd")}); });
  EXPECT_NE(msg.find("'2024-13-01'"), std::string::npos) << msg;
  EXPECT_EQ(Eval("date_format", {TS("2024-05-06 07:08:09.123"), S("yyyy-MM-dd HH:mm:ss.SSS")}), S("2024-05-06 07:08:09.123"));
  EXPECT_EQ(Eval("date_format", {D("2024-05-06"), S("EEE, d MMMM yy 'at' hh a")}), S("Mon, 6 May 24 at 12 AM"));
  EXPECT_THROW(Eval("date_format", {D("2024-05-06"), S("yyyy-QQ")}), InvalidInputError);
  EXPECT_EQ(Eval("unix_timestamp", {TS("1970-01-01 00:01:00")}), Value::BIGINT(60));
  EXPECT_EQ(Eval("unix_timestamp", {S("1970-01-02"), S("yyyy-MM-dd")}), Value::BIGINT(86400));
  EXPECT_TRUE(Eval("unix_timestamp", {S("x"), S("yyyy-MM-dd")}).IsNull());
  EXPECT_EQ(Eval("from_unixtime", {Value::BIGINT(86400)}), S("1970-01-02 00:00:00"));
  EXPECT_EQ(Eval("from_unixtime", {Value::BIGINT(0), S("yyyy")}), S("1970"));
}

}  // namespace
}  // namespace lakestream::test
