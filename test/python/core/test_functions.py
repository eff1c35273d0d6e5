"""Python scalar functions (issue 31): DuckDB's con.create_function /
remove_function and the module-level forms; the engine calls the function
once per row."""
import datetime
import decimal
import threading

import pytest

import lakestream


def test_create_function_with_types_in_select_where_and_insert():
    con = lakestream.connect()
    con.create_function("add_tax", lambda amount, rate: amount * (1 + rate), ["DOUBLE", "DOUBLE"], "DOUBLE")
    con.execute("CREATE TABLE orders (id INT, amount DOUBLE)")
    con.execute("INSERT INTO orders VALUES (1, 100), (2, 50), (3, NULL)")
    got = con.sql("SELECT id, add_tax(amount, 0.1) FROM orders ORDER BY id").fetchall()
    assert got[0] == (1, pytest.approx(110.0)) and got[1] == (2, pytest.approx(55.0))
    assert got[2] == (3, None)  # NULL in, NULL out, the function not called
    assert con.sql("SELECT count(*) FROM orders WHERE add_tax(amount, 0.0) > 60").fetchall() == [(1,)]
    con.execute("CREATE TABLE taxed AS SELECT id, add_tax(amount, 0.5) AS total FROM orders")
    assert con.sql("SELECT total FROM taxed WHERE id = 2").fetchall() == [(75.0,)]


def test_types_come_from_annotations_and_results_are_cast():
    con = lakestream.connect()

    def label(n: int) -> str:
        return f"n={n}"

    def next_day(d: datetime.date) -> datetime.date:
        return d + datetime.timedelta(days=1)

    def cents(x: float) -> decimal.Decimal:
        return decimal.Decimal(round(x * 100))

    con.create_function("label", label)
    con.create_function("day_after", next_day)
    con.create_function("cents", cents)
    assert con.sql("SELECT label(41 + 1), day_after(DATE '2024-02-28'), cents(1.5)").fetchall() == [
        ("n=42", datetime.date(2024, 2, 29), decimal.Decimal("150"))]
    # The declared return type is the column's type.
    con.execute("CREATE TABLE typed AS SELECT label(1) AS a, day_after(DATE '2024-01-01') AS b, cents(0.1) AS c")
    assert [row[:2] for row in con.sql("DESCRIBE typed").fetchall()] == [
        ("a", "VARCHAR"), ("b", "DATE"), ("c", "DECIMAL(38,10)")]


def test_null_handling_special_calls_with_none():
    con = lakestream.connect()
    con.create_function("or_zero", lambda x: 0 if x is None else x, ["BIGINT"], "BIGINT", null_handling="special")
    assert con.sql("SELECT or_zero(NULL), or_zero(5)").fetchall() == [(0, 5)]
    with pytest.raises(lakestream.ProgrammingError, match="null_handling must be 'default'"):
        con.create_function("bad", lambda x: x, ["BIGINT"], "BIGINT", null_handling="sometimes")


def test_a_python_exception_fails_the_statement_with_its_text():
    con = lakestream.connect()

    def picky(x):
        if x == 3:
            raise ValueError("three is not allowed")
        return x

    con.create_function("picky", picky, ["BIGINT"], "BIGINT")
    con.execute("CREATE TABLE src AS SELECT range AS x FROM range(5)")
    con.execute("CREATE TABLE dst (x BIGINT)")
    with pytest.raises(lakestream.Error, match=r"picky.*ValueError: three is not allowed"):
        con.execute("INSERT INTO dst SELECT picky(x) FROM src")
    assert con.sql("SELECT count(*) FROM dst").fetchall() == [(0,)]


def test_a_result_of_the_wrong_type_names_the_function():
    con = lakestream.connect()
    con.create_function("wrong", lambda x: "not a number", ["BIGINT"], "BIGINT")
    with pytest.raises(lakestream.Error, match="wrong"):
        con.sql("SELECT wrong(1)").fetchall()


def test_refusals_name_the_problem():
    con = lakestream.connect()
    with pytest.raises(lakestream.Error, match="built-in scalar function"):
        con.create_function("upper", lambda s: s, ["VARCHAR"], "VARCHAR")
    with pytest.raises(lakestream.ProgrammingError, match="give return_type="):
        con.create_function("f", lambda x: x)
    with pytest.raises(lakestream.Error, match="is not a SQL type"):
        con.create_function("f", lambda x: x, ["BIGINTEGER"], "BIGINT")
    with pytest.raises(lakestream.ProgrammingError, match="not supported yet: type"):
        con.create_function("f", lambda x: x, ["BIGINT"], "BIGINT", type="arrow")
    with pytest.raises(lakestream.ProgrammingError, match="no function 'nope'"):
        con.remove_function("nope")


def test_functions_belong_to_their_connection_and_can_be_removed():
    con = lakestream.connect()
    con.create_function("plus_one", lambda x: x + 1, [int], int)
    assert con.sql("SELECT plus_one(1)").fetchall() == [(2,)]
    with pytest.raises(lakestream.Error, match="plus_one"):
        con.cursor().sql("SELECT plus_one(1)").fetchall()
    con.remove_function("plus_one")
    with pytest.raises(lakestream.Error, match="plus_one"):
        con.sql("SELECT plus_one(1)").fetchall()


def test_module_level_create_function():
    lakestream.create_function("shout", lambda s: s.upper() + "!", ["VARCHAR"], "VARCHAR")
    assert lakestream.sql("SELECT shout('hi')").fetchall() == [("HI!",)]
    lakestream.remove_function("shout")


def test_parallel_query_calls_it_from_worker_threads_with_the_gil():
    con = lakestream.connect(config={"threads": 4})
    seen = set()

    def twice(x):
        seen.add(threading.get_ident())
        return 2 * x

    con.create_function("twice", twice, ["BIGINT"], "BIGINT")
    con.execute("CREATE TABLE big AS SELECT range AS i FROM range(200000)")
    assert con.sql("SELECT sum(twice(i)) FROM big").fetchall() == [(199999 * 200000,)]
    assert seen  # called at all; how many threads depends on the machine


def test_named_parameters_from_a_dict():
    con = lakestream.connect()
    con.execute("CREATE TABLE t (id INT, name VARCHAR)")
    con.execute("INSERT INTO t VALUES ($id, $name)", {"id": 1, "name": "books"})
    con.executemany("INSERT INTO t VALUES ($id, $name)", [{"name": "games", "id": 2}, {"id": 3, "$name": "toys"}])
    assert con.sql("SELECT name FROM t WHERE id >= $low ORDER BY id", {"low": 2}).fetchall() == [("games",), ("toys",)]
    # One value per name, whatever number of uses.
    assert con.execute("SELECT $x + $x, $y", {"x": 20, "y": "a"}).fetchall() == [(40, "a")]
    with pytest.raises(ValueError, match=r"parameter \$name has no value in the dict"):
        con.execute("INSERT INTO t VALUES ($id, $name)", {"id": 4})
    with pytest.raises(ValueError, match="'nmae', which the statement does not use"):
        con.execute("INSERT INTO t VALUES ($id, $name)", {"id": 4, "name": "x", "nmae": "y"})
    with pytest.raises(ValueError, match="no \\$name parameters"):
        con.execute("SELECT ?", {"a": 1})
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(3,)]
