"""The SQL text the DataFrame layer generates (no statement runs here)."""

import datetime
import decimal

import pytest

from lakestream._frame import literal, quote_name, type_sql, unquote_name
from lakestream._frame.frame import Frame
from lakestream.zettapark import functions as F
from lakestream.zettapark import types as T


def frame(source='"t"'):
    return Frame(None, source_sql=source)


def test_names_are_quoted_whatever_they_hold():
    assert quote_name("id") == '"id"'
    assert quote_name('we"ird') == '"we""ird"'
    assert quote_name("a; DROP TABLE t") == '"a; DROP TABLE t"'
    assert F.col('x"; DROP TABLE t; --')._sql() == '"x""; DROP TABLE t; --"'


def test_backtick_and_double_quoted_names_are_unquoted_once():
    assert unquote_name("`__change_type`") == "__change_type"
    assert unquote_name('"Mixed Case"') == "Mixed Case"
    assert unquote_name('"a""b"') == 'a"b'
    assert unquote_name("`a``b`") == "a`b"
    assert unquote_name("plain") == "plain"
    # not one quoted identifier: taken as the name itself
    assert unquote_name('"a"b"') == '"a"b"'
    assert F.col("`__change_type`")._sql() == '"__change_type"'


def test_literals():
    assert literal(None) == "NULL"
    assert literal(True) == "TRUE"
    assert literal(7) == "7"
    assert literal(-7) == "-7"
    assert literal(1.5) == "1.5e0"
    assert literal(1e-7) == "1e-07"
    assert literal(float("nan")) == "CAST('NaN' AS DOUBLE)"
    assert literal(float("-inf")) == "CAST('-inf' AS DOUBLE)"
    assert literal("it's") == "'it''s'"
    assert literal(decimal.Decimal("12.50")) == "CAST('12.50' AS DECIMAL(4,2))"
    assert literal(datetime.date(2024, 1, 2)) == "DATE '2024-01-02'"
    assert literal(datetime.datetime(2024, 1, 2, 3, 4, 5, 6)) == "TIMESTAMP '2024-01-02 03:04:05.000006'"
    tz = datetime.timezone(datetime.timedelta(hours=2))
    assert literal(datetime.datetime(2024, 1, 2, 3, 0, tzinfo=tz)) == "TIMESTAMP '2024-01-02 01:00:00'"
    assert literal({"a": 1, "b": "x"}) == "named_struct('a', 1, 'b', 'x')"
    with pytest.raises(NotImplementedError, match="list literal"):
        literal([1, 2])
    with pytest.raises(TypeError, match="bytes"):
        literal(b"x")
    with pytest.raises(ValueError, match="too large"):
        literal(10 ** 40)


def test_type_names():
    assert type_sql(T.LongType()) == "BIGINT"
    assert type_sql(T.DecimalType(10, 2)) == "DECIMAL(10,2)"
    assert type_sql(T.ArrayType(T.StringType())) == "VARCHAR[]"
    assert type_sql("string") == "VARCHAR"
    assert type_sql("DECIMAL(10,2)") == "DECIMAL(10,2)"
    with pytest.raises(ValueError, match="not a type name"):
        type_sql("INT); DROP TABLE t; --")
    with pytest.raises(NotImplementedError, match="ShortType"):
        type_sql(T.ShortType())


def test_operators_are_fully_parenthesised():
    c = (F.col("a") > 1) & ~(F.col("b") == "x") | F.col("c").is_null()
    assert c._sql() == '((("a" > 1) AND (NOT ("b" = \'x\'))) OR ("c" IS NULL))'
    assert (1 - F.col("a") * 2)._sql() == '(1 - ("a" * 2))'
    assert (-F.col("a"))._sql() == '(- "a")'


def test_column_truth_value_is_an_error():
    with pytest.raises(TypeError, match="use & for AND"):
        bool(F.col("a") > 1)
    with pytest.raises(TypeError):
        (F.col("a") > 1) and (F.col("b") < 2)


def test_isin_forms():
    assert F.col("t").isin(["INSERT", "UPDATE_AFTER"])._sql() == "(\"t\" IN ('INSERT', 'UPDATE_AFTER'))"
    assert F.col("t").isin("a", "b")._sql() == "(\"t\" IN ('a', 'b'))"
    assert F.col("t").in_(1)._sql() == '("t" IN (1))'
    assert F.col("t").isin([])._sql() == "FALSE"


def test_when_otherwise_and_functions():
    e = F.when(F.col("a") > 1, "big").when(F.col("a") < 0, F.lit(None)).otherwise(F.col("b"))
    assert e._sql() == "CASE WHEN (\"a\" > 1) THEN 'big' WHEN (\"a\" < 0) THEN NULL ELSE \"b\" END"
    assert F.upper("name")._sql() == 'upper("name")'
    assert F.count()._sql() == "count(*)"
    assert F.count("*")._sql() == "count(*)"
    assert F.count_distinct("a")._sql() == 'count(DISTINCT "a")'
    assert F.coalesce("a", F.lit(0))._sql() == 'coalesce("a", 0)'
    assert F.concat_ws("-", "a", "b")._sql() == "concat_ws('-', \"a\", \"b\")"
    assert F.substring("s", 1, 2)._sql() == 'substring("s", 1, 2)'
    assert F.col("a").cast("BIGINT").alias("x")._sql() == 'CAST("a" AS BIGINT) AS "x"'
    with pytest.raises(TypeError, match="continues a when"):
        F.col("a").when(F.col("a") > 1, 2)
    with pytest.raises(ValueError, match="not a function name"):
        F.call_function("f(); DROP TABLE t", "a")


def test_operations_merge_into_one_select_where_sql_allows():
    f = frame('"s"')
    g = (f.filter(F.col("`__change_type`").isin(["INSERT", "UPDATE_AFTER"]))
         .filter(F.col("id") > 1)
         .select("id", F.upper("name").alias("n"))
         .sort(F.col("id").desc())
         .limit(5))
    assert g._sql() == ('SELECT "id", upper("name") AS "n" FROM "s" WHERE ("__change_type" IN (\'INSERT\', '
                        '\'UPDATE_AFTER\')) AND ("id" > 1) ORDER BY "id" DESC LIMIT 5')


def test_filter_after_select_and_limit_wraps():
    # a filter on a column the SELECT passes on unchanged goes into it
    assert frame().select("a").filter(F.col("a") > 1)._sql() == 'SELECT "a" FROM "t" WHERE ("a" > 1)'
    # one on a column it computes cannot
    f = frame().select(F.col("a").alias("b")).filter(F.col("b") > 1)
    sql = f._sql()
    assert sql.startswith('SELECT * FROM (SELECT "a" AS "b" FROM "t") AS "__q')
    assert sql.endswith('WHERE ("b" > 1)')
    g = frame().limit(3).filter(F.col("a") > 1)
    assert "LIMIT 3) AS" in g._sql()


def test_group_by_agg():
    g = frame().filter(F.col("x") > 0).group_by("k", F.col("j").alias("jj")).agg(
        F.sum("v").alias("total"), F.max("v"))
    assert g._sql() == ('SELECT "k", "j" AS "jj", sum("v") AS "total", max("v") FROM "t" '
                        'WHERE ("x" > 0) GROUP BY "k", "j"')
    assert frame().agg(F.count()).  _sql() == "SELECT count(*) FROM \"t\""
    assert frame().group_by("k").agg([("v", "sum"), ("v", "max")])._sql() == \
        'SELECT "k", sum("v"), max("v") FROM "t" GROUP BY "k"'
    with pytest.raises(ValueError, match="not one of"):
        frame().group_by("k").agg(("v", "median"))


def test_sort_forms():
    f = frame()
    assert f.sort("a", "b", ascending=[True, False])._sql() == 'SELECT * FROM "t" ORDER BY "a" ASC, "b" DESC'
    assert f.sort(F.col("a").desc_nulls_last())._sql() == 'SELECT * FROM "t" ORDER BY "a" DESC NULLS LAST'
    with pytest.raises(ValueError, match="2 columns but 1"):
        f.sort("a", "b", ascending=[True])


def test_bad_limits():
    with pytest.raises(ValueError, match="non-negative int"):
        frame().limit(-1)
    with pytest.raises(ValueError, match="non-negative int"):
        frame().limit("5")


def test_filter_takes_sql_expression_text():
    assert frame().filter("a > 1 -- big")._sql() == 'SELECT * FROM "t" WHERE (a > 1 -- big\n)'
    assert frame().select_expr("a + 1 AS b", "c")._sql() == 'SELECT a + 1 AS b, c FROM "t"'
    with pytest.raises(ValueError, match="non-empty"):
        frame().filter("  ")
