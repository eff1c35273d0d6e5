"""pandas DataFrames read by their variable's name, as DuckDB reads them
(issue 31; docs/python.md "DataFrames by name"): the replacement scan, typed
columns (no VALUES text), register/unregister, and from_df on the same path."""
import datetime

import pytest

import lakestream

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")


def test_select_from_a_local_dataframe_by_name(con):
    df = pd.DataFrame({"id": [1, 2, 3], "name": ["a", None, "c"], "price": [1.5, float("nan"), 3.0],
                       "ok": [True, False, True]})
    rel = con.sql("SELECT * FROM df ORDER BY id")
    assert rel.columns == ["id", "name", "price", "ok"]
    assert rel.types == ["BIGINT", "VARCHAR", "DOUBLE", "BOOLEAN"]
    assert rel.fetchall() == [(1, "a", 1.5, True), (2, None, None, False), (3, "c", 3.0, True)]
    # A typed column, not text: arithmetic and aggregates on it as numbers.
    assert con.sql("SELECT sum(price), count(name), max(id) * 2 FROM df").fetchall() == [(4.5, 2, 6)]


def test_create_table_as_select_from_a_dataframe_and_module_level_sql():
    events = pd.DataFrame({"k": ["x", "y"], "ts": pd.to_datetime(["2024-01-31 10:00:00.123456", None]),
                           "n32": np.array([7, -1], dtype=np.int32)})
    con = lakestream.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM events")
    assert con.sql("DESCRIBE t").fetchall()[1][1] == "TIMESTAMP"
    assert con.sql("SELECT k, ts, n32 FROM t ORDER BY k").fetchall() == [
        ("x", datetime.datetime(2024, 1, 31, 10, 0, 0, 123456), 7), ("y", None, -1)]
    assert con.sql("SELECT k, ts, n32 FROM t").types == ["VARCHAR", "TIMESTAMP", "INTEGER"]
    # DuckDB's module-level habit reads the caller's variables too.
    assert lakestream.sql("SELECT count(*) FROM events").fetchall() == [(2,)]


def helper_reading_an_outer_frame(con):
    return con.sql("SELECT v FROM outer_frame").fetchall()


def test_names_resolve_in_the_callers_frames_and_the_catalog_comes_first(con):
    outer_frame = pd.DataFrame({"v": [10]})  # noqa: F841 - read by name from helper's caller frame
    assert helper_reading_an_outer_frame(con) == [(10,)]
    shadowed = pd.DataFrame({"v": [1]})  # noqa: F841 - the table of that name comes first
    con.execute("CREATE TABLE shadowed (v INT)")
    con.execute("INSERT INTO shadowed VALUES (99)")
    assert con.sql("SELECT v FROM shadowed").fetchall() == [(99,)]
    not_a_frame = [1, 2]  # noqa: F841 - not a table: the usual error
    with pytest.raises(lakestream.CatalogException, match="not_a_frame"):
        con.sql("SELECT * FROM not_a_frame")


def test_nullable_and_object_columns():
    con = lakestream.connect()
    mixed = pd.DataFrame({
        "i": pd.array([1, None, 3], dtype="Int64"),
        "b": pd.array([True, None, False], dtype="boolean"),
        "s": pd.array(["p", None, "r"], dtype="string"),
        "d": [datetime.date(2024, 1, 2), None, datetime.date(1969, 12, 31)],
        "c": pd.Categorical(["u", "v", "u"]),
        "tz": pd.to_datetime(["2024-01-01 12:00+02:00", None, "2024-01-01 00:00+00:00"]),
    })
    rows = con.sql("SELECT * FROM mixed").fetchall()
    assert rows[0] == (1, True, "p", datetime.date(2024, 1, 2), "u", datetime.datetime(2024, 1, 1, 10, 0))
    assert rows[1] == (None, None, None, None, "v", None)
    assert rows[2][3] == datetime.date(1969, 12, 31)
    bad = pd.DataFrame({"x": [object()]})  # noqa: F841
    with pytest.raises(lakestream.NotSupportedError, match="column x holds Python object objects"):
        con.sql("SELECT * FROM bad")
    gaps = pd.DataFrame({"t": pd.to_timedelta([1], unit="s")})  # noqa: F841
    with pytest.raises(lakestream.NotSupportedError, match="column t of numpy type timedelta64"):
        con.sql("SELECT * FROM gaps")


def test_dict_of_numpy_arrays_register_and_unregister(con):
    arrays = {"a": np.arange(5, dtype=np.int64), "f": np.linspace(0, 1, 5)}
    assert con.sql("SELECT sum(a) FROM arrays").fetchall() == [(10,)]
    con.register("people", pd.DataFrame({"name": ["ann", "bob"]}))
    assert con.sql("SELECT upper(name) FROM PEOPLE ORDER BY 1").fetchall() == [("ANN",), ("BOB",)]
    con.unregister("people")
    with pytest.raises(lakestream.CatalogException):
        con.sql("SELECT * FROM people")


def test_a_large_frame_goes_in_typed_and_whole(con):
    n = 200_000
    big = pd.DataFrame({"id": np.arange(n), "x": np.arange(n) * 0.5, "s": np.array(["v%d" % (i % 7) for i in range(n)],
                                                                                  dtype=object)})
    assert con.sql("SELECT count(*), sum(id), sum(x), count(DISTINCT s) FROM big").fetchall() == [
        (n, n * (n - 1) // 2, n * (n - 1) / 4, 7)]
    rel = con.from_df(big)
    assert len(rel) == n and rel.types == ["BIGINT", "DOUBLE", "VARCHAR"]


def test_spark_and_zettapark_create_dataframe_from_pandas(tmp_path):
    from lakestream.pyspark.sql import SparkSession
    from lakestream.zettapark import Session
    frame = pd.DataFrame({"k": ["a", "b"], "v": [1.5, None]})
    spark = SparkSession.builder.config("lakestream.database", str(tmp_path / "spark")).getOrCreate()
    try:
        sdf = spark.createDataFrame(frame)
        assert [tuple(r) for r in sdf.orderBy("k").collect()] == [("a", 1.5), ("b", None)]
        renamed = spark.createDataFrame(frame, ["key", "value"])
        assert renamed.columns == ["key", "value"] and renamed.count() == 2
    finally:
        spark.stop()
    session = Session.builder.configs({"database": str(tmp_path / "zp")}).create()
    try:
        zdf = session.create_dataframe(frame)
        assert sorted(tuple(r) for r in zdf.collect()) == [("a", 1.5), ("b", None)]
    finally:
        session.close()


def test_a_materialized_view_over_a_dataframe_is_refused_and_over_its_copy_works(tmp_path):
    # The view is stored and refreshed from its sources' change feeds; the
    # DataFrame is neither stored nor tracked (Spark refuses a permanent view
    # over a temporary one for the same reason).
    con = lakestream.connect(str(tmp_path / "db"))
    sales = pd.DataFrame({"region": ["eu", "us", "eu"], "amount": [1, 2, 3]})
    with pytest.raises(lakestream.Error) as refused:
        con.execute("CREATE MATERIALIZED VIEW totals AS SELECT region, sum(amount) s FROM sales GROUP BY region")
    assert "Materialized view totals reads sales" in str(refused.value)
    assert "CREATE TABLE sales_table AS SELECT * FROM sales" in str(refused.value)
    assert [r[0] for r in con.sql("SHOW TABLES").fetchall()] == []  # nothing was stored
    con.execute("CREATE TABLE sales_table AS SELECT * FROM sales")
    con.execute("CREATE MATERIALIZED VIEW totals AS SELECT region, sum(amount) s FROM sales_table GROUP BY region")
    assert con.sql("SELECT * FROM totals ORDER BY region").fetchall() == [("eu", 4), ("us", 2)]
