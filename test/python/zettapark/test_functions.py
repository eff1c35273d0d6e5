"""Every function in lakestream.zettapark.functions runs on the engine and
gives the value its Snowpark namesake gives."""

import datetime
from decimal import Decimal

import pytest

from lakestream.zettapark import functions as F


@pytest.fixture
def one(session):
    return session.sql("SELECT 'Hello' AS s, -2.5 AS d, 7 AS n, 3 AS m, CAST(NULL AS INT) AS z, "
                       "TIMESTAMP '2024-03-15 10:20:30' AS ts, DATE '2024-03-15' AS dt, '2024-01-02' AS ds")


CASES = [
    (lambda: F.upper("s"), "HELLO"),
    (lambda: F.lower("s"), "hello"),
    (lambda: F.length("s"), 5),
    (lambda: F.char_length("s"), 5),
    (lambda: F.trim(F.lit("  x ")), "x"),
    (lambda: F.ltrim(F.lit("  x ")), "x "),
    (lambda: F.rtrim(F.lit("  x ")), "  x"),
    (lambda: F.reverse("s"), "olleH"),
    (lambda: F.concat("s", F.lit("!")), "Hello!"),
    (lambda: F.concat_ws("-", "s", "s"), "Hello-Hello"),
    (lambda: F.substring("s", 2, 3), "ell"),
    (lambda: F.substr("s", 1, 1), "H"),
    (lambda: F.replace("s", "l", "L"), "HeLLo"),
    (lambda: F.split_part(F.lit("a,b,c"), ",", 2), "b"),
    (lambda: F.lpad("s", 7, "*"), "**Hello"),
    (lambda: F.rpad("s", 6, "*"), "Hello*"),
    (lambda: F.repeat(F.lit("ab"), 2), "abab"),
    (lambda: F.left("s", 2), "He"),
    (lambda: F.right("s", 2), "lo"),
    (lambda: F.contains("s", "ell"), True),
    (lambda: F.startswith("s", "He"), True),
    (lambda: F.endswith("s", "x"), False),
    (lambda: F.regexp_like("s", "^H.*o$"), True),
    (lambda: F.coalesce("z", "n"), 7),
    (lambda: F.nullif("n", F.lit(7)), None),
    (lambda: F.greatest("n", "m"), 7),
    (lambda: F.least("n", "m"), 3),
    (lambda: F.iff(F.col("n") > 5, "big", "small"), "big"),
    (lambda: F.is_null("z"), True),
    (lambda: F.not_(F.col("n") > 5), False),
    (lambda: F.abs("d"), Decimal("2.5")),
    (lambda: F.ceil("d"), -2),
    (lambda: F.ceiling("d"), -2),
    (lambda: F.floor("d"), -3),
    (lambda: F.round("d", 0), -3),
    (lambda: F.sqrt(F.lit(16)), 4.0),
    (lambda: F.exp(F.lit(0)), 1.0),
    (lambda: F.ln(F.lit(1)), 0.0),
    (lambda: F.log10(F.lit(100)), 2.0),
    (lambda: F.sign("d"), -1),
    (lambda: F.pow("m", F.lit(2)), 9.0),
    (lambda: F.power("m", F.lit(2)), 9.0),
    (lambda: F.mod("n", "m"), 1),
    (lambda: F.year("ts"), 2024),
    (lambda: F.month("ts"), 3),
    (lambda: F.day("ts"), 15),
    (lambda: F.dayofmonth("dt"), 15),
    (lambda: F.hour("ts"), 10),
    (lambda: F.minute("ts"), 20),
    (lambda: F.second("ts"), 30),
    (lambda: F.to_date("ds"), datetime.date(2024, 1, 2)),
    (lambda: F.to_timestamp("ds"), datetime.datetime(2024, 1, 2)),
    (lambda: F.date_trunc("month", "ts"), datetime.datetime(2024, 3, 1)),
    (lambda: F.date_add("dt", 3), datetime.date(2024, 3, 18)),
    (lambda: F.cast("n", "VARCHAR"), "7"),
    (lambda: F.to_json(F.struct("n", "m")), '{"n":7,"m":3}'),
    (lambda: F.call_function("upper", "s"), "HELLO"),
    (lambda: F.sql_expr("n * 2"), 14),
]


@pytest.mark.parametrize("make,expected", CASES, ids=[str(i) for i in range(len(CASES))])
def test_function(one, make, expected):
    got = one.select(make().alias("v")).collect()[0].v
    assert got == expected
    if isinstance(expected, (bool, str, datetime.date)) or expected is None:
        assert type(got) is type(expected)  # numbers may come back as Decimal, int or float


def test_aggregates(session):
    df = session.create_dataframe([(1, "a"), (2, "a"), (3, None)], schema=["n", "k"])
    r = df.agg(F.sum("n").alias("s"), F.avg("n").alias("a"), F.mean("n").alias("m"), F.min("n").alias("lo"),
               F.max("n").alias("hi"), F.count("k").alias("c"), F.count().alias("all"),
               F.count_distinct("k").alias("cd"), F.countDistinct("n").alias("cd2"),
               F.any_value("k").alias("any")).collect()[0]
    assert (r.s, r.a, r.m, r.lo, r.hi, r.c, r.all, r.cd, r.cd2) == (6, 2.0, 2.0, 1, 3, 2, 3, 1, 3)
    assert r.any in ("a", None)
    assert [x.n for x in df.sort(F.desc("n")).collect()] == [3, 2, 1]
    assert [x.n for x in df.sort(F.asc("n")).collect()] == [1, 2, 3]


def test_stream_has_data(session):
    session.sql("CREATE TABLE src (a INT)").collect()
    session.sql("ALTER TABLE src SET PROPERTIES ('change_tracking' = 'true')").collect()
    session.sql("CREATE TABLE STREAM src_s ON TABLE src").collect()
    probe = session.range(1).select(F.stream_has_data("src_s").alias("h"))
    assert probe.collect()[0].h is False
    session.sql("INSERT INTO src VALUES (1)").collect()
    assert probe.collect()[0].h is True


def test_window_functions_with_snowpark_names(session):
    from lakestream.zettapark import Window
    df = session.create_dataframe([("a", 1, 10), ("a", 2, 30), ("b", 1, 5)], schema=["k", "ts", "v"])
    w = Window.partition_by("k").order_by(F.col("ts").desc())
    got = df.select("k", "ts", F.row_number().over(w).alias("rn"),
                    F.sum("v").over(Window.partition_by("k")).alias("total")).sort("k", "ts").collect()
    assert [tuple(r) for r in got] == [("a", 1, 2, 40), ("a", 2, 1, 40), ("b", 1, 1, 5)]
