"""fetchnumpy() and df()/to_pandas(): dtypes, NULLs, one copy per column."""
import datetime
import decimal

import pytest

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

import lakestream  # noqa: E402


@pytest.fixture
def typed(con):
    con.execute("CREATE TABLE t (b BOOLEAN, i INTEGER, g BIGINT, d DOUBLE, m DECIMAL(10,2), s VARCHAR, "
                "dt DATE, ts TIMESTAMP, l ARRAY<INT>)")
    con.execute("INSERT INTO t VALUES (true, 1, 10, 1.5, 2.25, 'a', DATE '2024-01-02', "
                "TIMESTAMP '2024-01-02 03:04:05.000006', ?)", [[1, 2]])
    con.execute("INSERT INTO t VALUES (false, 2, 20, 2.5, 3.50, 'b', DATE '1969-12-31', "
                "TIMESTAMP '1969-12-31 23:59:59', NULL)")
    return con


def test_fetchnumpy_dtypes_without_nulls(typed):
    cols = typed.sql("SELECT * FROM t").fetchnumpy()
    assert list(cols) == ["b", "i", "g", "d", "m", "s", "dt", "ts", "l"]
    assert cols["b"].dtype == np.bool_ and cols["b"].tolist() == [True, False]
    assert cols["i"].dtype == np.int32 and cols["i"].tolist() == [1, 2]
    assert cols["g"].dtype == np.int64 and cols["g"].tolist() == [10, 20]
    assert cols["d"].dtype == np.float64 and cols["d"].tolist() == [1.5, 2.5]
    assert cols["m"].dtype == np.float64 and cols["m"].tolist() == [2.25, 3.5]
    assert cols["s"].dtype == object and cols["s"].tolist() == ["a", "b"]
    assert cols["dt"].dtype == np.dtype("datetime64[D]")
    assert cols["dt"].tolist() == [datetime.date(2024, 1, 2), datetime.date(1969, 12, 31)]
    assert cols["ts"].dtype == np.dtype("datetime64[us]")
    assert cols["ts"].tolist() == [datetime.datetime(2024, 1, 2, 3, 4, 5, 6), datetime.datetime(1969, 12, 31, 23, 59, 59)]
    assert cols["l"].dtype == object and cols["l"].tolist() == [[1, 2], None]


def test_fetchnumpy_masks_nulls(con):
    cols = con.sql("SELECT * FROM (VALUES (1, 1.5, true), (NULL, NULL, NULL), (3, 3.5, false)) v(a, b, c)").fetchnumpy()
    for name in "abc":
        assert isinstance(cols[name], np.ma.MaskedArray)
        assert cols[name].mask.tolist() == [False, True, False]
    assert cols["a"].compressed().tolist() == [1, 3]


def test_df_dtypes_and_values(typed):
    df = typed.sql("SELECT * FROM t").df()
    assert list(df.columns) == ["b", "i", "g", "d", "m", "s", "dt", "ts", "l"]
    assert str(df["b"].dtype) == "bool" and str(df["i"].dtype) == "int32" and str(df["g"].dtype) == "int64"
    assert str(df["d"].dtype) == "float64" and str(df["m"].dtype) == "float64"
    assert str(df["dt"].dtype) == "datetime64[ns]" and str(df["ts"].dtype) == "datetime64[ns]"
    assert df["ts"][0] == pd.Timestamp("2024-01-02 03:04:05.000006")
    assert df["dt"][1] == pd.Timestamp("1969-12-31")
    assert df["s"].tolist() == ["a", "b"]
    assert df["l"].tolist() == [[1, 2], None]


def test_df_nulls(con):
    df = con.sql("SELECT * FROM (VALUES (1, 1.5, true, DATE '2024-01-01', 'x'), "
                 "(NULL, NULL, NULL, NULL, NULL)) v(a, b, c, d, e)").to_pandas()
    assert str(df["a"].dtype) == "Int32" and df["a"].isna().tolist() == [False, True]
    assert str(df["b"].dtype) == "float64" and df["b"].isna().tolist() == [False, True]
    assert str(df["c"].dtype) == "boolean" and df["c"].isna().tolist() == [False, True]
    assert str(df["d"].dtype) == "datetime64[ns]" and df["d"].isna().tolist() == [False, True]
    assert df["e"].tolist() == ["x", None]


def test_df_timestamps_outside_pandas_range_are_objects(con):
    far = datetime.datetime(3000, 1, 1)
    df = con.sql("SELECT ? AS ts", [far]).df()
    assert df["ts"].dtype == object and df["ts"][0] == far


def test_df_shares_the_numpy_buffers(con):
    # One copy per column: pandas holds the arrays the extension filled.
    df = con.sql("SELECT range AS a, range * 2.0 AS b FROM range(5000)").df()
    assert df["a"].sum() == sum(range(5000))
    assert df["b"].sum() == 2.0 * sum(range(5000))
    assert df._mgr.nblocks == 2  # not consolidated (a consolidation would copy)


def test_empty_result(con):
    rel = con.sql("SELECT range AS a, CAST(range AS VARCHAR) AS s FROM range(0)")
    df = rel.df()
    assert list(df.columns) == ["a", "s"] and len(df) == 0
    cols = rel.fetchnumpy()
    assert cols["a"].dtype == np.int64 and len(cols["a"]) == 0


def test_duplicate_column_names(con):
    df = con.sql("SELECT 1 AS a, 2 AS a").df()
    assert list(df.columns) == ["a", "a"]
    assert df.iloc[0].tolist() == [1, 2]


def test_connection_df_after_execute(con):
    con.execute("SELECT 1 AS x")
    assert con.df()["x"].tolist() == [1]
    assert con.execute("SELECT 2 AS y").fetchnumpy()["y"].tolist() == [2]


def test_df_is_complete_after_fetchone(con):
    rel = con.sql("SELECT range AS a FROM range(3)")
    assert rel.fetchone() == (0,)
    assert rel.df()["a"].tolist() == [0, 1, 2]
    assert rel.fetchall() == [(1,), (2,)]


def test_decimal_in_df_is_float(con):
    df = con.sql("SELECT CAST(? AS DECIMAL(10,2)) AS m", [decimal.Decimal("1.25")]).df()
    assert df["m"].tolist() == [1.25]


def test_large_result_with_nulls_in_late_chunks(con):
    # Large enough for the copy to be split between threads; NULLs only in
    # some chunks, so masks start part-way.
    n = 300000
    rel = con.sql(f"SELECT range AS a, CASE WHEN range % 100000 = 99999 THEN NULL ELSE range * 0.5 END AS b, "
                  f"CASE WHEN range > {n - 5} THEN NULL ELSE CAST(range AS INTEGER) END AS c, "
                  f"CAST(range AS DOUBLE) AS d FROM range({n})")
    cols = rel.fetchnumpy()
    a = np.arange(n)
    assert (cols["a"] == a).all()
    assert cols["b"].mask.sum() == 3 and cols["b"].mask[99999] and cols["b"].mask[299999]
    assert (cols["c"].mask == (a > n - 5)).all()
    assert (cols["c"].compressed() == a[: n - 4]).all()
    assert (cols["d"] == a.astype(float)).all()
    df = rel.df()
    assert str(df["c"].dtype) == "Int32" and df["c"].isna().sum() == 4
    assert df["b"].isna().sum() == 3 and df["b"].sum() == sum(i * 0.5 for i in range(n) if i % 100000 != 99999)
