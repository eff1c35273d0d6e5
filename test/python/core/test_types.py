"""Values both ways (docs/python.md, type mapping): every SQL type to its
Python type and back through parameters, NULLs, nested values, edge values."""
import datetime
import decimal
import math

import pytest

import lakestream

D = decimal.Decimal


@pytest.mark.parametrize("value,sql_type", [
    (True, "BOOLEAN"), (False, "BOOLEAN"),
    (0, "BIGINT"), (-1, "BIGINT"), (2**63 - 1, "BIGINT"), (-2**63, "BIGINT"),
    (1.5, "DOUBLE"), (-0.0, "DOUBLE"), (1e300, "DOUBLE"), (float("inf"), "DOUBLE"),
    ("", "VARCHAR"), ("héllo wörld ✓", "VARCHAR"), ("a\x00b", "VARCHAR"), ("x" * 100000, "VARCHAR"),
    (D("19.99"), "DECIMAL(4,2)"), (D("-0.001"), "DECIMAL(3,3)"), (D("12345678901234567890.123456789012345678"),
                                                                 "DECIMAL(38,18)"),
    (D("100"), "DECIMAL(3,0)"), (D("0"), "DECIMAL(1,0)"),
    (datetime.date(2024, 2, 29), "DATE"), (datetime.date(1969, 12, 31), "DATE"), (datetime.date(1, 1, 1), "DATE"),
    (datetime.date(9999, 12, 31), "DATE"),
    (datetime.datetime(2024, 1, 2, 3, 4, 5, 123456), "TIMESTAMP"),
    (datetime.datetime(1969, 12, 31, 23, 59, 59, 999999), "TIMESTAMP"),
    (datetime.datetime(1900, 3, 1, 0, 0, 0, 1), "TIMESTAMP"),
    (None, None),
])
def test_scalar_round_trip_through_a_parameter(con, value, sql_type):
    rel = con.sql("SELECT ? AS v", [value])
    if sql_type is not None:
        assert rel.types == [sql_type]
    (got,), = rel.fetchall()
    assert type(got) is type(value)
    assert got == value
    if isinstance(value, float) and value == 0:
        assert math.copysign(1, got) == math.copysign(1, value)


def test_nan_round_trips(con):
    (got,), = con.sql("SELECT ?", [float("nan")]).fetchall()
    assert math.isnan(got)


def test_big_python_int_becomes_exact_decimal(con):
    (got,), = con.sql("SELECT ?", [2**64]).fetchall()
    assert got == 2**64 and isinstance(got, D)
    with pytest.raises(ValueError, match="digits"):
        con.execute("SELECT ?", [10**40])


def test_decimal_with_too_many_digits_or_nan_is_rejected(con):
    with pytest.raises(ValueError, match="38"):
        con.execute("SELECT ?", [D("1." + "1" * 40)])
    with pytest.raises(ValueError, match="NaN"):
        con.execute("SELECT ?", [D("NaN")])


def test_decimal_exponent_forms(con):
    assert con.sql("SELECT ?", [D("1E+3")]).fetchall() == [(D("1000"),)]
    assert con.sql("SELECT ?", [D("1.50E-2")]).fetchall() == [(D("0.0150"),)]


def test_aware_datetime_is_stored_as_utc(con):
    tz = datetime.timezone(datetime.timedelta(hours=2))
    aware = datetime.datetime(2024, 6, 1, 12, 0, tzinfo=tz)
    (got,), = con.sql("SELECT ?", [aware]).fetchall()
    assert got == datetime.datetime(2024, 6, 1, 10, 0) and got.tzinfo is None


def test_bytes_are_varchar_and_non_utf8_comes_back_as_bytes(con):
    assert con.sql("SELECT ?", [b"abc"]).fetchall() == [("abc",)]
    (got,), = con.sql("SELECT ?", [b"\xff\xfe"]).fetchall()
    assert got == b"\xff\xfe"


def test_unsupported_parameter_type_names_parameter_and_type(con):
    with pytest.raises(TypeError, match=r"parameter \$2 .*set"):
        con.execute("SELECT ?, ?", [1, {1, 2}])
    with pytest.raises(TypeError, match="time"):
        con.execute("SELECT ?", [datetime.time(1, 2)])


def test_list_and_struct_round_trip(con):
    value = [1, 2, None, 4]
    rel = con.sql("SELECT ? AS l", [value])
    assert rel.types == ["BIGINT[]"]
    assert rel.fetchall() == [(value,)]
    s = {"a": 1, "b": "x", "c": None, "d": [D("1.5")], "e": {"inner": datetime.date(2020, 1, 1)}}
    rel = con.sql("SELECT ? AS s", [s])
    assert rel.types[0].startswith("STRUCT(a BIGINT, b VARCHAR")
    (got,), = rel.fetchall()
    assert got == s and list(got) == list(s)  # field order kept
    assert con.sql("SELECT ?", [[]]).fetchall() == [([],)]
    assert con.sql("SELECT ?", [(1, 2)]).fetchall() == [([1, 2],)]


def test_nested_values_from_a_table(con):
    con.execute("CREATE TABLE t (l ARRAY<INT>, s STRUCT<a: INT, b: STRING>, ls ARRAY<STRUCT<k: STRING>>)")
    con.execute("INSERT INTO t VALUES (?, ?, ?)", [[1, 2], {"a": 1, "b": "x"}, [{"k": "p"}, {"k": None}]])
    con.execute("INSERT INTO t VALUES (NULL, NULL, NULL)")
    rows = con.sql("SELECT * FROM t").fetchall()
    assert rows == [([1, 2], {"a": 1, "b": "x"}, [{"k": "p"}, {"k": None}]), (None, None, None)]


def test_map_column_reads_as_dict(con):
    con.execute("CREATE TABLE t (m MAP<STRING, BIGINT>)")
    try:
        con.execute("INSERT INTO t VALUES (?)", [[{"key": "a", "value": 1}, {"key": "b", "value": 2}]])
    except lakestream.Error as e:
        pytest.skip(f"no way to write a MAP value from SQL parameters here: {e}")
    assert con.sql("SELECT m FROM t").fetchall() == [({"a": 1, "b": 2},)]


def test_table_values_of_every_type(con):
    con.execute("CREATE TABLE t (b BOOLEAN, i INTEGER, g BIGINT, d DOUBLE, m DECIMAL(18,3), s VARCHAR, "
                "dt DATE, ts TIMESTAMP)")
    row = (True, -7, 1 << 40, 2.5, D("-123456789012345.678"), "text", datetime.date(2000, 2, 29),
           datetime.datetime(2000, 2, 29, 23, 59, 59, 5))
    con.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)", list(row))
    con.execute("INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
    rel = con.sql("SELECT * FROM t")
    assert rel.types == ["BOOLEAN", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL(18,3)", "VARCHAR", "DATE", "TIMESTAMP"]
    rows = rel.fetchall()
    assert rows == [row, (None,) * 8]
    assert [type(v) for v in rows[0]] == [type(v) for v in row]


def test_wide_decimal_column_exact(con):
    v = D("-99999999999999999999999999999999.999999")
    rel = con.sql("SELECT CAST(? AS DECIMAL(38,6))", [v])
    assert rel.fetchall() == [(v,)]


def test_many_rows_cross_chunks_exactly(con):
    rows = con.sql("SELECT range AS i, range * 2 AS j, CAST(range AS VARCHAR) AS s FROM range(10000)").fetchall()
    assert rows == [(i, i * 2, str(i)) for i in range(10000)]


def test_numpy_scalars_as_parameters(con):
    np = pytest.importorskip("numpy")
    assert con.sql("SELECT ?, ?", [np.int32(5), np.float64(2.5)]).fetchall() == [(5, 2.5)]
