"""Every DataFrame, Column and Row method against the engine."""

import copy
from decimal import Decimal

import pytest

import lakestream

from conftest import rows
from lakestream.zettapark import DataFrame, Row, Session, Table
from lakestream.zettapark import functions as F
from lakestream.zettapark.types import DecimalType, IntegerType, LongType, StringType


@pytest.fixture
def people(session):
    session.sql("CREATE TABLE people (id INT, name VARCHAR, city VARCHAR, score DECIMAL(6,2))").collect()
    session.sql("INSERT INTO people VALUES (1, 'ann', 'oslo', 10.50), (2, 'bob', 'rome', 7.25), "
                "(3, 'cid', 'oslo', NULL), (4, 'dan', NULL, 3.00)").collect()
    return session.table("people")


def test_builder_forms(tmp_path):
    s = Session.builder.config("database", str(tmp_path / "a")).create()
    assert s.sql("SELECT 1 AS one").collect()[0].one == 1
    s.close()
    with Session.builder.configs({"database": str(tmp_path / "a"), "user": "ignored"}).getOrCreate() as s2:
        assert s2.get_current_database() == str(tmp_path / "a")
    with Session.builder.create() as mem:  # in memory
        assert mem.sql("SELECT 2 AS two").collect() == [(2,)]
    with pytest.raises(ValueError, match="unknown session setting 'databse'"):
        Session.builder.configs({"databse": "x"})


def test_sql_is_lazy_and_runs_ddl_on_collect(session):
    df = session.sql("CREATE TABLE lazy_t (a INT);")
    assert not session.table_exists("lazy_t")
    df.collect()
    assert session.table_exists("lazy_t")


def test_rows_by_position_name_and_attribute(people):
    r = people.filter(F.col("id") == 1).collect()[0]
    assert isinstance(r, Row)
    assert r[0] == 1 and r["id"] == 1 and r.id == 1
    assert r["NAME"] == "ann" and r.NAME == "ann"  # upper-case spelling as Snowpark code writes it
    assert r.as_dict() == {"id": 1, "name": "ann", "city": "oslo", "score": Decimal("10.50")}
    assert r.asDict() == r.as_dict()
    assert tuple(r) == (1, "ann", "oslo", Decimal("10.50"))
    with pytest.raises(KeyError, match="no column 'nope'"):
        r["nope"]
    with pytest.raises(AttributeError, match="no column 'nope'"):
        r.nope
    assert repr(Row(a=1, b="x")) == "Row(a=1, b='x')"


def test_table_is_a_dataframe(people):
    assert isinstance(people, Table) and isinstance(people, DataFrame)
    derived = people.filter(F.col("id") > 1)
    assert isinstance(derived, DataFrame) and not isinstance(derived, Table)


def test_filter_where_and_column_ops(people):
    assert rows(people.filter((F.col("city") == "oslo") & (F.col("score") > 5)).select("id")) == [(1,)]
    assert rows(people.where(F.col("city").is_null()).select("id")) == [(4,)]
    assert rows(people.filter(~F.col("city").isin("oslo", "rome")).select("id")) == []
    assert rows(people.filter(F.col("score").is_not_null() | (F.col("id") == 3)).select("id")) == [
        (1,), (2,), (3,), (4,)]
    assert rows(people.filter(F.col("name").like("a%")).select("id")) == [(1,)]
    assert rows(people.filter(F.col("id").between(2, 3)).select("id")) == [(2,), (3,)]
    assert rows(people.filter(F.col("id") != 1).filter(F.col("id") <= 2).select("id")) == [(2,)]
    assert rows(people.filter(people["id"] >= 4).select(people.name)) == [("dan",)]
    assert rows(people.filter(F.col("name").startswith("c")).select("id")) == [(3,)]


def test_select_names_columns_and_expressions(people):
    df = people.select("id", F.col("name").alias("who"), (F.col("id") * 10 + 1).alias("x"),
                       F.upper("name").alias("up"), F.lit("k").alias("k"), F.col("id").cast("VARCHAR").alias("s"))
    assert df.columns == ["id", "who", "x", "up", "k", "s"]
    assert df.filter(F.col("id") == 2).collect() == [(2, "bob", 21, "BOB", "k", "2")]
    assert people.select(["id", "name"]).columns == ["id", "name"]
    assert people.select(people["*"]).columns == ["id", "name", "city", "score"]


def test_with_column_adds_or_replaces(people):
    df = people.with_column("double_id", F.col("id") * 2).with_column("name", F.upper(F.col("name")))
    assert df.columns == ["id", "name", "city", "score", "double_id"]
    assert df.filter(F.col("id") == 2).select("name", "double_id").collect() == [("BOB", 4)]
    df2 = people.with_columns(["a", "b"], [F.lit(1), F.col("id") + 1]).withColumnRenamed("a", "one")
    assert df2.columns == ["id", "name", "city", "score", "one", "b"]
    assert people.drop("city", "score").columns == ["id", "name"]


def test_group_by_agg_and_aggregates(people):
    df = (people.group_by("city")
          .agg(F.count("*").alias("n"), F.sum("score").alias("total"), F.avg("id").alias("avg_id"),
               F.min("name").alias("first"), F.max("score").alias("top"))
          .sort("city"))
    got = {r.city: (r.n, r.total, r.avg_id, r.first, r.top) for r in df.collect()}
    assert got == {None: (1, Decimal("3.00"), 4.0, "dan", Decimal("3.00")),
                   "oslo": (2, Decimal("10.50"), 2.0, "ann", Decimal("10.50")),
                   "rome": (1, Decimal("7.25"), 2.0, "bob", Decimal("7.25"))}
    assert people.group_by("city").count().filter(F.col("city") == "oslo").collect()[0]["count"] == 2
    assert people.agg(F.count_distinct("city").alias("c")).collect() == [(2,)]
    assert rows(people.groupBy(["city"]).agg({"id": "max"})) == [(None, 4), ("oslo", 3), ("rome", 2)]
    assert rows(people.group_by("city").sum("id")) == [(None, 4), ("oslo", 4), ("rome", 2)]


def test_sort_limit_distinct_count(people):
    assert [r.id for r in people.sort(F.col("id").desc()).collect()] == [4, 3, 2, 1]
    assert [r.id for r in people.sort("city", "id", ascending=[False, True]).collect()] == [4, 2, 1, 3]
    assert [r.id for r in people.sort(F.col("score").asc_nulls_first()).collect()] == [3, 4, 2, 1]
    assert [r.id for r in people.sort("id").limit(2).collect()] == [1, 2]
    assert [r.id for r in people.sort("id").limit(2, offset=1).collect()] == [2, 3]
    # filter after sort keeps the order
    assert [r.id for r in people.order_by(F.col("id").desc()).filter(F.col("id") < 4).collect()] == [3, 2, 1]
    assert people.select("city").distinct().count() == 3
    assert people.count() == 4
    assert people.filter(F.col("id") > 100).count() == 0
    assert people.sort("id").first().id == 1
    assert [r.id for r in people.sort("id").first(2)] == [1, 2]


def test_when_otherwise_coalesce_concat(people):
    df = people.select(
        "id",
        F.when(F.col("score") > 8, "high").when(F.col("score").is_null(), "none").otherwise("low").alias("band"),
        F.coalesce("city", F.lit("?")).alias("c"),
        F.concat("name", F.lit("@"), F.coalesce("city", F.lit("-"))).alias("tag"),
        F.iff(F.col("id") % 2 == 0, "even", "odd").alias("parity"))
    assert rows(df) == [(1, "high", "oslo", "ann@oslo", "odd"), (2, "low", "rome", "bob@rome", "even"),
                        (3, "none", "oslo", "cid@oslo", "odd"), (4, "low", "?", "dan@-", "even")]


def test_string_and_number_functions(session):
    df = session.sql("SELECT '  Abc ' AS s, -2.5 AS d, 9 AS n")
    r = df.select(F.trim("s").alias("t"), F.lower("s").alias("l"), F.length("s").alias("len"),
                  F.abs("d").alias("a"), F.sqrt("n").alias("r"), F.floor("d").alias("f"),
                  F.ceil("d").alias("c"), F.round("d", 0).alias("rd")).collect()[0]
    assert (r.t, r.l, r.len) == ("Abc", "  abc ", 6)
    assert r.a == Decimal("2.5") and r.r == 3.0
    assert int(r.f) == -3 and int(r.c) == -2


def test_joins(people, session):
    session.sql("CREATE TABLE cities (city VARCHAR, country VARCHAR, id INT)").collect()
    session.sql("INSERT INTO cities VALUES ('oslo', 'no', 100), ('rome', 'it', 200), ('lima', 'pe', 300)").collect()
    cities = session.table("cities")
    inner = people.join(cities, people["city"] == cities["city"])
    # both sides have city and id: the right one is suffixed, and df["col"] still finds it
    assert inner.columns == ["id", "name", "city", "score", "city_right", "country", "id_right"]
    assert rows(inner.select(people["id"], cities["id"], "country")) == [(1, 100, "no"), (2, 200, "it"),
                                                                         (3, 100, "no")]
    left = people.join(cities, people["city"] == cities["city"], how="left").select(people["id"], "country")
    assert rows(left) == [(1, "no"), (2, "it"), (3, "no"), (4, None)]
    right = people.join(cities, "city", how="right").select("city", people["id"])
    assert rows(right.filter(F.col("city") == "lima")) == [("lima", None)]
    # a FULL join on a column name keeps both sides' rows, the key coalesced
    full = people.join(cities, "city", how="full").select("city", people["id"])
    assert rows(full) == [(None, 4), ("lima", None), ("oslo", 1), ("oslo", 3), ("rome", 2)]
    using = people.join(cities, "city")
    assert using.columns == ["city", "id", "name", "score", "country", "id_right"]
    named = people.join(cities, people["city"] == cities["city"], lsuffix="_p", rsuffix="_c")
    assert "id_p" in named.columns and "id_c" in named.columns
    assert rows(people.join(cities, "city", how="leftsemi").select("id")) == [(1,), (2,), (3,)]
    assert rows(people.join(cities, "city", how="anti").select("id")) == [(4,)]
    assert people.cross_join(cities.select("country")).count() == 12
    both = people.join(cities, [people["city"] == cities["city"], cities["id"] > 150])
    assert rows(both.select(people["id"])) == [(2,)]
    me = copy.copy(people)
    pairs = people.join(me, (people["city"] == me["city"]) & (people["id"] < me["id"]))
    assert rows(pairs.select(people["id"], me["id"])) == [(1, 3)]
    with pytest.raises(ValueError, match="both sides"):
        people.join(people, people["id"] == people["id"])
    with pytest.raises(ValueError, match="ambiguous"):
        people.join(cities, F.col("city") == F.col("city"))
    with pytest.raises(ValueError, match="join type 'sideways' is not one of"):
        people.join(cities, "city", how="sideways")


def test_union_and_set_operations(people):
    a = people.filter(F.col("id") <= 2).select("id")
    b = people.filter(F.col("id") >= 2).select("id")
    assert rows(a.union_all(b)) == [(1,), (2,), (2,), (3,), (4,)]
    assert rows(a.union(b)) == [(1,), (2,), (3,), (4,)]
    assert rows(a.intersect(b)) == [(2,)]
    assert rows(a.except_(b)) == [(1,)]
    assert rows(b.except_(a)) == [(3,), (4,)]
    c = people.select("name", "id")
    assert rows(people.select("id", "name").union_all_by_name(c).filter(F.col("id") == 1)) == [
        (1, "ann"), (1, "ann")]


def test_schema_and_print_schema(people, capsys):
    schema = people.schema
    assert [f.name for f in schema.fields] == ["id", "name", "city", "score"]
    assert schema.fields[0].datatype == IntegerType()
    assert schema["name"].datatype == StringType()
    assert schema["score"].datatype == DecimalType(6, 2)
    assert people.select(F.col("id").cast("BIGINT").alias("b")).schema["b"].datatype == LongType()
    people.print_schema()
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "root"
    assert ' |-- "score": DecimalType(6, 2) (nullable = True)' in out
    people.printSchema()
    assert capsys.readouterr().out == out


def test_show_prints_n_rows(people, capsys):
    people.sort("id").show(2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].replace(" ", "") == '|"id"|"name"|"city"|"score"|'
    assert [l.split("|")[1].strip() for l in lines[3:-1]] == ["1", "2"]
    people.filter(F.col("id") == 4).select("city").show()
    assert "NULL" in capsys.readouterr().out


def test_to_pandas(people):
    pd = pytest.importorskip("pandas")
    frame = people.sort("id").to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["id", "name", "city", "score"]
    assert frame["id"].tolist() == [1, 2, 3, 4]
    assert people.toPandas().shape == (4, 4)


def test_create_dataframe_and_range(session):
    from lakestream.zettapark.types import StructField, StructType
    df = session.create_dataframe([(1, "a"), (2, None)], schema=["n", "s"])
    assert df.collect() == [(1, "a"), (2, None)]
    typed = session.create_dataframe([[1, "x"]], StructType([StructField("n", LongType()),
                                                               StructField("s", StringType())]))
    assert typed.schema["n"].datatype == LongType()
    assert session.create_dataframe([{"a": 1, "b": 2}]).columns == ["a", "b"]
    assert [r.ID for r in session.range(3).collect()] == [0, 1, 2]
    assert [r.ID for r in session.range(1, 10, 4).collect()] == [1, 5, 9]
    empty = session.create_dataframe([], StructType([StructField("n", IntegerType())]))
    assert empty.count() == 0 and empty.columns == ["n"]


def test_sql_with_a_trailing_comment_can_be_built_on(people, session):
    df = session.sql("SELECT id FROM people -- the ids")
    assert rows(df.filter(F.col("id") > 2)) == [(3,), (4,)]
    assert df.count() == 4


def test_table_reads_materialized_views_and_show_has_a_schema(people, session):
    session.sql("CREATE MATERIALIZED VIEW by_city AS SELECT city, count(*) AS n FROM people GROUP BY city").collect()
    assert rows(session.table("by_city")) == [(None, 1), ("oslo", 2), ("rome", 1)]
    assert rows(session.table("by_city").filter(F.col("n") > 1)) == [("oslo", 2)]
    shown = session.sql("SHOW TABLES")
    assert shown.columns == ["name"]
    assert "people" in [r.name for r in shown.collect()]


def test_sql_text_in_filter_and_select_expr(people):
    assert rows(people.filter("id > 2 AND city IS NOT NULL").select("id")) == [(3,)]
    assert rows(people.select_expr("id * 10 AS x", "upper(name) AS n").filter(F.col("x") < 20)) == [(10, "ANN")]
    assert rows(people.selectExpr("id").where("id = 4")) == [(4,)]


def test_isin_of_a_dataframe(people, session):
    wanted = session.create_dataframe([("rome",), ("lima",)], schema=["c"])
    assert rows(people.filter(F.col("city").isin(wanted)).select("id")) == [(2,)]


def test_fillna_and_dropna(people):
    filled = people.fillna(0).sort("id")
    assert [r.score for r in filled.collect()] == [Decimal("10.50"), Decimal("7.25"), Decimal("0"), Decimal("3.00")]
    assert [r.city for r in filled.collect()] == ["oslo", "rome", "oslo", None]  # a number fills numbers only
    assert [r.city for r in people.na.fill("?").sort("id").collect()] == ["oslo", "rome", "oslo", "?"]
    assert [r.city for r in people.fillna({"city": "-"}, ).sort("id").collect()][-1] == "-"
    assert rows(people.dropna().select("id")) == [(1,), (2,)]
    assert rows(people.dropna(subset=["city"]).select("id")) == [(1,), (2,), (3,)]
    assert rows(people.na.drop(how="all", subset=["city", "score"]).select("id")) == [(1,), (2,), (3,), (4,)]
    assert rows(people.dropna(thresh=4).select("id")) == [(1,), (2,)]
    with pytest.raises(ValueError, match="how 'some' is not one of: any, all"):
        people.dropna(how="some")
    with pytest.raises(ValueError, match="no column 'nope'"):
        people.fillna({"nope": 1})


def test_collect_of_statements_without_rows(session):
    assert session.sql("CREATE TABLE st (a INT)").collect()[0].status == "Statement executed successfully."
    assert session.sql("INSERT INTO st VALUES (1), (2)").collect() == [(2,)]
    assert session.sql("UPDATE st SET a = 3 WHERE a = 1").collect()[0].num_affected_rows == 1


def test_long_with_column_chains_stay_flat(people):
    df = people
    for i in range(300):  # a derived table per call would pass the parser's 500 levels
        df = df.with_column("c%d" % i, F.col("id") + i)
    df = df.with_column_renamed("name", "nm").drop("c0", "city")
    assert df._sql().count("SELECT") == 1
    r = df.filter(F.col("id") == 2).collect()[0]
    assert (r.nm, r.c1, r.c299, len(r)) == ("bob", 3, 301, 3 + 299)


def test_with_column_reads_the_column_as_last_defined(people):
    df = (people.with_column("id", F.col("id") * 100)
          .with_column("next", F.col("id") + 1)      # reads the replaced id
          .with_column("name", F.upper("name"))
          .with_column_renamed("next", "after"))
    assert df.filter(F.col("after") == 201).select("id", "after", "name").collect() == [(200, 201, "BOB")]


def test_alternating_filters_and_projections_stay_flat(people):
    df = people
    for i in range(200):
        df = df.with_column("c%d" % i, F.col("id") * 2).filter(F.col("id") < 100 - i % 3)
    df = df.select("id", "name", "c199").filter(F.col("name") != "ann")
    assert df._sql().count("SELECT") == 1
    assert rows(df) == [(2, "bob", 4), (3, "cid", 6), (4, "dan", 8)]
    # a filter on a computed column cannot go into the SELECT that computes it
    over = people.with_column("double", F.col("id") * 2).filter(F.col("double") > 6)
    assert over._sql().count("SELECT") == 2
    assert rows(over.select("id")) == [(4,)]


def test_sort_on_a_computed_column_then_select(people):
    df = people.with_column("neg", F.col("id") * -1).sort("neg").select("id")
    assert [r.id for r in df.collect()] == [4, 3, 2, 1]
    df2 = people.with_column("neg", F.col("id") * -1).sort("neg").with_column("x", F.col("id")).drop("neg")
    assert [r.x for r in df2.collect()] == [4, 3, 2, 1]


def test_explain_shows_the_sql_and_the_plan(people, capsys):
    people.filter(F.col("id") > 1).explain()
    out = capsys.readouterr().out
    assert 'SELECT * FROM "people" WHERE ("id" > 1)' in out
    assert "TABLE_SCAN" in out.split("Plan:")[1]


def test_create_dataframe_from_pandas(session):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", None], "c": [0.5, 1.5]})
    df = session.create_dataframe(frame)
    assert df.columns == ["a", "b", "c"]
    assert df.collect() == [(1, "x", 0.5), (2, None, 1.5)]
    assert type(df.collect()[0].a) is int


def test_show_and_count_of_statements_that_are_not_queries(session, people, capsys):
    # SHOW / DESCRIBE cannot be a subquery: show() and count() run them as they are.
    session.sql("ALTER TABLE people SET PROPERTIES ('change_tracking' = 'true')").collect()
    session.sql("CREATE STREAM people_changes ON TABLE people").collect()
    session.sql("SHOW STREAMS").show()
    out = capsys.readouterr().out
    assert "people_changes" in out and "|" in out
    assert session.sql("SHOW STREAMS").count() == 1
    assert session.sql("DESCRIBE people").count() == 4
    session.sql("DESCRIBE people").show(2)
    out = capsys.readouterr().out
    assert "id" in out and "name" in out and "city" not in out  # two rows only
