"""The core layer: connect, sql/execute, fetching, show, quote_identifier,
context managers, read-only and on-disk databases."""
import os
import subprocess
import sys

import pytest

import lakestream


def test_import_from_build_tree():
    # The package the tests use is the one built into <build>/python.
    assert os.path.isfile(lakestream._lakestream.__file__)
    assert lakestream.__version__


def test_sql_returns_relation_with_columns_and_types(con):
    rel = con.sql("SELECT 42 AS answer, 'x' AS s, 1.5 AS d, CAST(2.25 AS DECIMAL(10,2)) AS m")
    assert rel.columns == ["answer", "s", "d", "m"]
    assert rel.types[0] == "INTEGER" and rel.types[1] == "VARCHAR" and rel.types[3] == "DECIMAL(10,2)"
    assert rel.fetchall() == [(42, "x", 1.5, __import__("decimal").Decimal("2.25"))]


def test_sql_for_statement_without_rows_returns_none(con):
    assert con.sql("CREATE TABLE t (id BIGINT, name VARCHAR)") is None
    assert con.sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')") is None
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(2,)]


def test_fetchone_fetchmany_fetchall_walk_the_rows_once(con):
    rel = con.sql("SELECT range AS i FROM range(5000)")  # more than two chunks
    assert len(rel) == 5000
    assert rel.fetchone() == (0,)
    assert rel.fetchmany(3) == [(1,), (2,), (3,)]
    batch = rel.fetchmany(2500)  # crosses a chunk boundary
    assert [r[0] for r in batch] == list(range(4, 2504))
    rest = rel.fetchall()
    assert [r[0] for r in rest] == list(range(2504, 5000))
    assert rel.fetchone() is None
    assert rel.fetchall() == []
    assert rel.fetchmany(10) == []


def test_execute_returns_connection_and_fetches(con):
    assert con.execute("SELECT 1 AS a UNION ALL SELECT 2") is con
    assert con.fetchone() == (1,)
    assert con.fetchall() == [(2,)]
    assert con.execute("SELECT 7").fetchall() == [(7,)]


def test_parameters_qmark_and_dollar(con):
    con.execute("CREATE TABLE t (id BIGINT, name VARCHAR)")
    con.execute("INSERT INTO t VALUES (?, ?)", [1, "a"])
    con.execute("INSERT INTO t VALUES ($2, $1)", ("b", 2))
    assert con.execute("SELECT name FROM t WHERE id = ?", [2]).fetchall() == [("b",)]
    assert con.sql("SELECT id FROM t WHERE name = $1", ["a"]).fetchall() == [(1,)]
    # A parameter is a value, never SQL text.
    evil = "a'; DROP TABLE t; --"
    assert con.execute("SELECT count(*) FROM t WHERE name = ?", [evil]).fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(2,)]


def test_wrong_parameter_count_names_the_parameter(con):
    with pytest.raises(lakestream.InvalidInputException, match=r"parameter \$2"):
        con.execute("SELECT ? + ?", [1])


def test_bad_parameter_container_is_a_type_error(con):
    # A dict is for $name parameters (test_functions.py), so with ? it says so.
    with pytest.raises(ValueError, match=r"no \$name parameters"):
        con.execute("SELECT ?", {"a": 1})
    with pytest.raises(TypeError, match="list or tuple"):
        con.execute("SELECT ?", "abc")


def test_several_statements_keep_the_last_result(con):
    rows = con.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2); SELECT sum(a) FROM t").fetchall()
    assert rows == [(3,)]


def test_quote_identifier_round_trips_any_name(con):
    for name in ["plain", "with space", 'quo"te', "select", "ünï", "a;b--c"]:
        q = lakestream.quote_identifier(name)
        con.execute(f"CREATE TABLE {q} ({q} INTEGER)")
        con.execute(f"INSERT INTO {q} VALUES (1)")
        rel = con.sql(f"SELECT {q} FROM {q}")
        assert rel.columns == [name]
        assert rel.fetchall() == [(1,)]
    assert lakestream.quote_identifier('a"b') == '"a""b"'
    with pytest.raises(TypeError):
        lakestream.quote_identifier(3)


def test_table_reads_a_table_by_name(con):
    con.execute('CREATE TABLE "my table" (x INTEGER)')
    con.execute('INSERT INTO "my table" VALUES (5)')
    assert con.table("my table").fetchall() == [(5,)]


def test_show_prints_a_table(con, capsys):
    con.sql("SELECT 1 AS id, 'alpha' AS name, NULL AS nothing").show()
    out = capsys.readouterr().out
    lines = out.strip().split("\n")
    assert "id" in lines[1] and "name" in lines[1]
    assert "INTEGER" in lines[2] and "VARCHAR" in lines[2]
    assert "alpha" in out and "NULL" in out
    assert lines[-1] == "1 row"


def test_show_elides_the_middle_of_long_results(con, capsys):
    con.sql("SELECT range AS i FROM range(100)").show(max_rows=6)
    out = capsys.readouterr().out
    assert "..." in out and " 0 " in out and " 99 " in out and " 50 " not in out
    assert out.strip().endswith("100 rows (6 shown)")


def test_context_manager_closes(tmp_path):
    with lakestream.connect() as c:
        assert c.sql("SELECT 1").fetchall() == [(1,)]
    assert c.closed
    with pytest.raises(lakestream.InterfaceError, match="closed"):
        c.execute("SELECT 1")
    c.close()  # idempotent


def test_database_on_disk_persists_and_reopens(tmp_path):
    path = str(tmp_path / "lake")
    with lakestream.connect(path) as c:
        c.execute("CREATE TABLE t (id BIGINT)")
        c.execute("INSERT INTO t VALUES (1), (2), (3)")
    with lakestream.connect(path) as c:
        assert c.sql("SELECT sum(id) FROM t").fetchall() == [(6,)]


def test_read_only_rejects_writes_but_reads(tmp_path):
    path = str(tmp_path / "lake")
    with lakestream.connect(path) as c:
        c.execute("CREATE TABLE t (id BIGINT)")
        c.execute("INSERT INTO t VALUES (1)")
    with lakestream.connect(path, read_only=True) as c:
        assert c.sql("SELECT id FROM t").fetchall() == [(1,)]
        with pytest.raises(lakestream.Error, match="read"):
            c.execute("INSERT INTO t VALUES (2)")
    with lakestream.connect(path) as c:
        assert c.sql("SELECT count(*) FROM t").fetchall() == [(1,)]


def test_memory_spellings_open_separate_databases():
    for spelling in [None, "", ":memory:"]:
        with lakestream.connect(spelling) as c:
            c.execute("CREATE TABLE t (a INTEGER)")  # would fail if shared


def test_connect_rejects_a_non_path():
    with pytest.raises(lakestream.InterfaceError, match="path"):
        lakestream.connect(42)


def test_import_works_in_a_fresh_interpreter_without_numpy_or_pandas():
    # numpy/pandas are optional: import and plain fetching work without them,
    # and df()/fetchnumpy() say what to install.
    code = (
        "import sys; sys.modules['numpy'] = None; sys.modules['pandas'] = None\n"
        "import lakestream\n"
        "con = lakestream.connect()\n"
        "assert con.sql('SELECT 1').fetchall() == [(1,)]\n"
        "for f in ('df', 'fetchnumpy'):\n"
        "    try:\n"
        "        getattr(con.sql('SELECT 1'), f)()\n"
        "    except lakestream.InterfaceError as e:\n"
        "        print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "apt-get install python3-pandas" in out
    assert "apt-get install python3-numpy" in out
