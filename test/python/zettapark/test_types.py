"""Values keep their type through DataFrames: literals in, rows out, and
through a write into a table and back."""

import datetime
from decimal import Decimal

import pytest

from lakestream.zettapark import functions as F
from lakestream.zettapark.types import (ArrayType, BooleanType, DateType, DecimalType, DoubleType, IntegerType,
                                        LongType, MapType, StringType, StructType, TimestampType)

VALUES = [
    ("b", True, BooleanType()),
    ("i", 42, IntegerType()),
    ("l", 2 ** 40, LongType()),
    ("neg", -7, IntegerType()),
    ("d", 0.1, DoubleType()),
    ("tiny", 1e-300, DoubleType()),
    ("dec", Decimal("-12345.678"), DecimalType(8, 3)),
    ("s", "it's \"quoted\" ; -- not a comment", StringType()),
    ("u", "unicode \u00e9\u4e2d", StringType()),
    ("dt", datetime.date(2024, 2, 29), DateType()),
    ("ts", datetime.datetime(2024, 2, 29, 23, 59, 58, 123456), TimestampType()),
]


def test_literals_round_trip_through_select(session):
    df = session.range(1).select(*[F.lit(v).alias(n) for n, v, _ in VALUES])
    row = df.collect()[0]
    for n, v, t in VALUES:
        assert row[n] == v and type(row[n]) is type(v), n
        assert df.schema[n].datatype == t, n


def test_special_doubles_and_null(session):
    row = session.range(1).select(F.lit(float("inf")).alias("inf"), F.lit(float("-inf")).alias("ninf"),
                                  F.lit(float("nan")).alias("nan"), F.lit(None).alias("n")).collect()[0]
    assert row.inf == float("inf") and row.ninf == float("-inf")
    assert row.nan != row.nan
    assert row.n is None


def test_values_round_trip_through_a_table(session):
    src = session.range(1).select(*[F.lit(v).alias(n) for n, v, _ in VALUES])
    src.write.save_as_table("typed", mode="errorifexists")
    back = session.table("typed")
    assert back.collect()[0] == tuple(v for _, v, _ in VALUES)
    assert [f.datatype for f in back.schema.fields] == [t for _, _, t in VALUES]
    # filtering by each value finds the row again (literal quoting is exact)
    for n, v, _ in VALUES:
        assert back.filter(F.col(n) == v).count() == 1, n


def test_nested_types(session):
    session.sql("CREATE TABLE nested (id INT, tags VARCHAR[], attrs MAP<VARCHAR, INT>, "
                "info STRUCT<name: VARCHAR, age: INT>)").collect()
    schema = session.table("nested").schema
    assert schema["tags"].datatype == ArrayType(StringType())
    assert schema["attrs"].datatype == MapType(StringType(), IntegerType())
    info = schema["info"].datatype
    assert isinstance(info, StructType) and info.names == ["name", "age"]
    row = session.range(1).select(F.lit({"name": "ann", "age": 3}).alias("st")).collect()[0]
    assert row.st == {"name": "ann", "age": 3}


def test_casts(session):
    df = session.range(1).select(F.lit("12").cast("BIGINT").alias("a"), F.lit(3).cast(DoubleType()).alias("b"),
                                 F.lit("2024-01-02").cast(DateType()).alias("c"),
                                 F.lit("1.5").cast(DecimalType(4, 2)).alias("d"))
    assert df.collect()[0] == (12, 3.0, datetime.date(2024, 1, 2), Decimal("1.50"))
    assert df.schema["d"].datatype == DecimalType(4, 2)


def test_list_literal_is_refused_plainly():
    with pytest.raises(NotImplementedError, match="list literal"):
        F.lit([1, 2])


@pytest.mark.parametrize("value", [
    "a\x00b", "line\nbreak", "back\\slash", "'; DROP TABLE t; --", "",
    datetime.date(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
    2 ** 63 - 1, -2 ** 63, 2 ** 64, Decimal("0.000001"), Decimal("-0"), -0.0, 5e-324,
])
def test_edge_values_round_trip(session, value):
    got = session.range(1).select(F.lit(value).alias("v")).collect()[0].v
    assert got == value
    if isinstance(value, int):
        assert isinstance(got, (int, Decimal))


def test_odd_column_names(session):
    session.sql('CREATE TABLE q ("we""ird" INT, "back`tick" VARCHAR, "\u00fcn\u00ef" INT)').collect()
    session.sql("INSERT INTO q VALUES (1, 'a', 2)").collect()
    t = session.table("q")
    assert t.columns == ['we"ird', "back`tick", "\u00fcn\u00ef"]
    assert t.select('we"ird', F.col("`back``tick`"), F.col('"\u00fcn\u00ef"')).collect() == [(1, "a", 2)]
    t.with_column("new col", F.col('we"ird') + 1).write.save_as_table("q2", mode="append")
    assert session.table("q2").collect()[0]["new col"] == 2
