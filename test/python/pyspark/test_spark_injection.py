"""The PySpark facade takes SQL expression text in many places; each text is
parsed by the engine as ONE expression before it goes into a statement, so
none can end the statement and add another (the table y survives every
attempt). Temp views are engine temporary views resolved by the binder: the
text of spark.sql() is never rewritten, so a view's name inside a string
literal or a quoted name stays as written."""
import pytest

import lakestream
from conftest import rows
from lakestream.pyspark.delta.tables import DeltaTable
from lakestream.pyspark.sql.functions import col, expr
from lakestream.pyspark.sql.functions import max as max_

ATTACKS = [
    "1=1); DROP TABLE y; SELECT (1",
    "1=1) ; DROP TABLE y ; --",
    "id); DROP TABLE y; SELECT (id",
    "id > 0; DROP TABLE y",
    "id FROM t; DROP TABLE y; --",
    "1=1 /* ) */ ); DROP TABLE y; SELECT (1",
]


@pytest.fixture
def t(spark):
    spark.sql("CREATE TABLE t (id INT, name STRING)")
    spark.sql("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    spark.sql("CREATE TABLE y (id INT)")
    spark.sql("INSERT INTO y VALUES (7)")
    return spark.table("t")


def intact(spark):
    return rows(spark.table("y")) == [(7,)] and rows(spark.table("t")) == [(1, "a"), (2, "b"), (3, "c")]


def _dt(spark):
    return DeltaTable.forName(spark, "t").alias("t")


ENTRY_POINTS = {
    "filter": lambda s, df, a: df.filter(a).collect(),
    "where": lambda s, df, a: df.where(a).collect(),
    "selectExpr": lambda s, df, a: df.selectExpr("id", a).collect(),
    "expr in select": lambda s, df, a: df.select(expr(a)).collect(),
    "expr in filter": lambda s, df, a: df.filter(expr(a)).collect(),
    "expr in withColumn": lambda s, df, a: df.withColumn("x", expr(a)).collect(),
    "expr in orderBy": lambda s, df, a: df.orderBy(expr(a)).collect(),
    "expr in groupBy/agg": lambda s, df, a: df.groupBy(expr(a)).agg(max_(expr(a))).collect(),
    "expr in join": lambda s, df, a: df.join(s.table("y"), expr(a)).collect(),
    "DeltaTable.delete": lambda s, df, a: _dt(s).delete(a),
    "DeltaTable.update condition": lambda s, df, a: _dt(s).update(a, {"name": "'z'"}),
    "DeltaTable.update set": lambda s, df, a: _dt(s).update("id = 1", {"name": a}),
    "DeltaTable.merge condition": lambda s, df, a: _dt(s).merge(s.table("y").alias("s"), a)
    .whenMatchedDelete().execute(),
    "whenMatchedUpdate": lambda s, df, a: _dt(s).merge(s.table("y").alias("s"), "t.id = s.id")
    .whenMatchedUpdate(condition=a, set={"name": a}).execute(),
    "whenNotMatchedInsert": lambda s, df, a: _dt(s).merge(s.table("y").alias("s"), "t.id = s.id")
    .whenNotMatchedInsert(values={"id": a}).execute(),
    "whenNotMatchedBySourceUpdate": lambda s, df, a: _dt(s).merge(s.table("y").alias("s"), "t.id = s.id")
    .whenNotMatchedBySourceUpdate(set={"name": a}).execute(),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_no_entry_point_runs_a_second_statement(spark, t, entry):
    for attack in ATTACKS:
        with pytest.raises(lakestream.ParserException, match="is not one SQL expression"):
            ENTRY_POINTS[entry](spark, t, attack)
        assert intact(spark), (entry, attack)


def test_expression_text_still_works(spark, t):
    assert rows(t.filter("name NOT IN ('b', 'b; DROP TABLE y')")) == [(1, "a"), (3, "c")]
    assert rows(t.selectExpr("id * 10 AS ten", "upper(name) AS up")) == [(10, "A"), (20, "B"), (30, "C")]
    assert rows(t.select(expr("id + 1"))) == [(2,), (3,), (4,)]
    _dt(spark).update("id = 1 -- only the first", {"name": "'z' || name"})
    assert rows(spark.table("t")) == [(1, "za"), (2, "b"), (3, "c")]
    _dt(spark).delete("name = 'za'")
    assert rows(spark.table("t")) == [(2, "b"), (3, "c")]
    assert rows(spark.table("y")) == [(7,)]


def test_filter_error_names_the_call_and_the_text(t):
    with pytest.raises(lakestream.ParserException) as e:
        t.filter("1=1); DROP TABLE y; SELECT (1")
    assert str(e.value).startswith("filter(): '1=1); DROP TABLE y; SELECT (1' is not one SQL expression:")


def test_temp_view_names_in_literals_and_quoted_names_are_left_alone(spark, t):
    t.filter(col("id") > 1).createOrReplaceTempView("recent")
    df = spark.sql("SELECT 'FROM recent' AS s, id AS \"JOIN recent\" FROM recent WHERE 'USING recent x' <> ''")
    assert df.columns == ["s", "JOIN recent"]
    assert rows(df) == [("FROM recent", 2), ("FROM recent", 3)]
    # spark.table and SQL both read the view; a view hides a table of its name, as in Spark
    assert rows(spark.table("recent")) == [(2, "b"), (3, "c")]
    t.filter(col("id") == 3).createOrReplaceTempView("y")
    assert rows(spark.sql("SELECT id FROM y")) == [(3,)]
    spark.sql("DROP VIEW y")
    assert rows(spark.table("y")) == [(7,)]


def test_temp_view_is_the_engines_and_its_name_is_quoted(spark, t):
    t.createOrReplaceTempView('v"; DROP TABLE y; --')
    assert rows(spark.sql('SELECT count(*) FROM "v""; DROP TABLE y; --"')) == [(3,)]
    assert intact(spark)
    t.createTempView("once")
    with pytest.raises(lakestream.Error, match="already exists"):
        t.createTempView("once")
    # a view reads the query, not a copy: later rows show
    spark.sql("INSERT INTO t VALUES (4, 'd')")
    assert spark.table("once").count() == 4
