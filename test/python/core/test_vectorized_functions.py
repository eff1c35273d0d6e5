"""Vectorized Python functions (issue 31): con.create_function(...,
type='pandas') is called once per batch of rows with one pandas Series per
argument and returns a Series of one value per row, as DuckDB's vectorized
UDFs and PySpark's pandas_udf are."""
import pytest

import lakestream

pd = pytest.importorskip("pandas")


def test_pandas_function_gets_batches_of_series_and_its_results_are_cast():
    con = lakestream.connect()
    batches = []

    def scaled(amount, rate):
        assert isinstance(amount, pd.Series) and isinstance(rate, pd.Series)
        batches.append(len(amount))
        return amount * (1 + rate)

    con.create_function("scaled", scaled, ["DOUBLE", "DOUBLE"], "DOUBLE", type="pandas")
    con.execute("CREATE TABLE t AS SELECT range AS id, CAST(range AS DOUBLE) AS amount FROM range(5000)")
    total, n = con.sql("SELECT sum(scaled(amount, 0.5)), count(*) FROM t").fetchone()
    assert n == 5000 and total == pytest.approx(1.5 * sum(range(5000)))
    # Batches, not rows: 5,000 rows in a handful of calls (a vector is 2,048 rows).
    assert len(batches) <= 4 and sum(batches) == 5000


def test_nulls_arrive_as_missing_values_and_missing_results_are_null():
    con = lakestream.connect()

    def plus_one(x):
        return x + 1  # pandas keeps a missing value missing

    con.create_function("plus_one", plus_one, ["BIGINT"], "BIGINT", type="pandas")
    got = con.sql("SELECT plus_one(v) FROM (VALUES (1), (NULL), (41)) AS t(v) ORDER BY 1 NULLS LAST").fetchall()
    assert got == [(2,), (42,), (None,)]


def test_strings_and_any_argument_types():
    con = lakestream.connect()
    con.create_function("shout", lambda s: s.str.upper() + "!", None, "VARCHAR", type="pandas")
    got = con.sql("SELECT shout(name) FROM (VALUES ('ada'), ('bob')) AS t(name) ORDER BY 1").fetchall()
    assert got == [("ADA!",), ("BOB!",)]


def test_wrong_shapes_and_types_fail_naming_the_function():
    con = lakestream.connect()
    con.create_function("too_short", lambda x: x.iloc[:1], ["BIGINT"], "BIGINT", type="pandas")
    with pytest.raises(lakestream.Error, match="too_short returned 1 column.*of 1 row.*batch of 3 rows"):
        con.sql("SELECT too_short(v) FROM (VALUES (1), (2), (3)) AS t(v)").fetchall()
    con.create_function("scalar_out", lambda x: 7, ["BIGINT"], "BIGINT", type="pandas")
    with pytest.raises(lakestream.Error, match="scalar_out.*returns a pandas Series"):
        con.sql("SELECT scalar_out(v) FROM (VALUES (1)) AS t(v)").fetchall()
    con.create_function("words", lambda x: x.astype(str) + " apples", ["BIGINT"], "BIGINT", type="pandas")
    with pytest.raises(lakestream.Error, match="words returned values that are not BIGINT"):
        con.sql("SELECT words(v) FROM (VALUES (1)) AS t(v)").fetchall()
    con.create_function("raises", lambda x: 1 / 0, ["BIGINT"], "BIGINT", type="pandas")
    with pytest.raises(lakestream.Error, match="ZeroDivisionError"):
        con.sql("SELECT raises(v) FROM (VALUES (1)) AS t(v)").fetchall()
    with pytest.raises(lakestream.ProgrammingError, match="type='arrow'"):
        con.create_function("a", lambda x: x, ["BIGINT"], "BIGINT", type="arrow")
    with pytest.raises(lakestream.ProgrammingError, match="needs return_type"):
        con.create_function("b", lambda x: x, ["BIGINT"], type="pandas")


def test_parallel_query_calls_it_from_several_threads():
    con = lakestream.connect(config={"threads": 4})
    con.create_function("half", lambda x: x / 2, ["DOUBLE"], "DOUBLE", type="pandas")
    con.execute("CREATE TABLE big AS SELECT CAST(range AS DOUBLE) AS x, range % 10 AS g FROM range(200000)")
    got = con.sql("SELECT g, sum(half(x)) FROM big GROUP BY g ORDER BY g").fetchall()
    want = [(g, sum(x for x in range(g, 200000, 10)) / 2) for g in range(10)]
    assert [(g, pytest.approx(s)) for g, s in want] == got
