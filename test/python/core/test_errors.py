"""Engine error kinds map to the exception classes of docs/python.md, and the
text is the engine's message unchanged (compared with the shell's)."""
import os
import subprocess
import sys

import pytest

import lakestream

# (setup SQL, failing SQL, exception class, DB-API base class)
CASES = [
    ("", "SELEC 1", lakestream.ParserException, lakestream.ProgrammingError),
    ("", "SELECT x", lakestream.BinderException, lakestream.ProgrammingError),
    ("", "SELECT * FROM missing_table", lakestream.CatalogException, lakestream.ProgrammingError),
    ("CREATE TABLE t (a INTEGER)", "CREATE TABLE t (a INTEGER)", lakestream.CatalogException,
     lakestream.ProgrammingError),
    ("CREATE TABLE t (id BIGINT NOT NULL)", "INSERT INTO t VALUES (NULL)", lakestream.ConstraintException,
     lakestream.IntegrityError),
    ("", "SELECT 'abc'::INTEGER", lakestream.ConversionException, lakestream.DataError),
]


@pytest.mark.parametrize("setup,sql,cls,base", CASES, ids=[c[2].__name__ + ":" + c[1] for c in CASES])
def test_error_kind_maps_to_class_with_engine_message(setup, sql, cls, base):
    con = lakestream.connect()
    if setup:
        con.execute(setup)
    with pytest.raises(cls) as info:
        con.execute(sql)
    assert isinstance(info.value, base)
    assert isinstance(info.value, lakestream.DatabaseError)
    assert isinstance(info.value, lakestream.Error)
    message = str(info.value)
    # The same text the shell prints for the same statements.
    shell = os.environ.get("LAKESTREAM_SHELL")
    if shell:
        script = (setup + ";\n" if setup else "") + sql
        out = subprocess.run([shell, ":memory:", "-c", script], capture_output=True, text=True)
        assert message.strip() in (out.stdout + out.stderr)
    # and through sql() as well
    con2 = lakestream.connect()
    if setup:
        con2.execute(setup)
    with pytest.raises(cls, match=None) as again:
        con2.sql(sql)
    assert str(again.value) == message


def test_every_engine_kind_has_a_class():
    from lakestream._core.errors import ERROR_CLASSES
    expected = {
        "PARSER": (lakestream.ParserException, lakestream.ProgrammingError),
        "BINDER": (lakestream.BinderException, lakestream.ProgrammingError),
        "CATALOG": (lakestream.CatalogException, lakestream.ProgrammingError),
        "CONSTRAINT": (lakestream.ConstraintException, lakestream.IntegrityError),
        "CONFLICT": (lakestream.TransactionException, lakestream.OperationalError),
        "CONVERSION": (lakestream.ConversionException, lakestream.DataError),
        "IO": (lakestream.IOException, lakestream.OperationalError),
        "CORRUPTION": (lakestream.CorruptionException, lakestream.DatabaseError),
        "NOT_IMPLEMENTED": (lakestream.NotSupportedError, lakestream.DatabaseError),
        "INVALID_INPUT": (lakestream.InvalidInputException, lakestream.ProgrammingError),
        "INTERNAL": (lakestream.InternalError, lakestream.DatabaseError),
        "INTERRUPTED": (lakestream.InterruptException, lakestream.OperationalError),
    }
    assert set(ERROR_CLASSES) == set(expected)
    for kind, (cls, base) in expected.items():
        assert ERROR_CLASSES[kind] is cls and issubclass(cls, base)


def test_invalid_input_for_bad_parameters(con):
    with pytest.raises(lakestream.InvalidInputException) as info:
        con.execute("SELECT $1, $2", [1, 2, 3])
    assert "parameter" in str(info.value)


def test_unconvertible_parameter_is_a_conversion_error(con):
    con.execute("CREATE TABLE t (a INTEGER)")
    with pytest.raises(lakestream.ConversionException, match="abc"):
        con.execute("INSERT INTO t VALUES (?)", ["abc"])


def test_io_error_opening_a_file_as_database(tmp_path):
    f = tmp_path / "not_a_dir"
    f.write_text("x")
    with pytest.raises(lakestream.IOException) as info:
        lakestream.connect(str(f))
    assert str(f) in str(info.value)


def test_two_connects_to_one_directory_share_the_database(tmp_path):
    path = str(tmp_path / "lake")
    first = lakestream.connect(path)
    second = lakestream.connect(str(tmp_path / "." / "lake"))  # another spelling of the same directory
    first.execute("CREATE TABLE t (a INTEGER)")
    second.execute("INSERT INTO t VALUES (1)")
    assert first.execute("SELECT a FROM t").fetchall() == [(1,)]
    with lakestream.connect(path, read_only=True) as ro:  # a reader beside the writer
        assert ro.execute("SELECT a FROM t").fetchall() == [(1,)]
        with pytest.raises(lakestream.Error, match="read"):
            ro.execute("INSERT INTO t VALUES (2)")
    first.close()
    assert second.execute("SELECT count(*) FROM t").fetchall() == [(1,)]
    second.close()
    with lakestream.connect(path, read_only=True) as ro:  # all closed: reopens read-only
        assert ro.execute("SELECT count(*) FROM t").fetchall() == [(1,)]


def test_an_idle_connection_keeps_nobody_out_and_a_held_lock_is_named(tmp_path):
    path = str(tmp_path / "lake")
    with lakestream.connect(path) as setup:
        setup.execute("CREATE TABLE t (x INT)")
    code = ("import sys, lakestream\n"
            "con = lakestream.connect(sys.argv[1])\n"
            "print('open', flush=True)\n"
            "sys.stdin.readline()\n"
            "with con.holding_writes():\n"
            "    print('holding', flush=True)\n"
            "    sys.stdin.readline()\n")
    holder = subprocess.Popen([sys.executable, "-c", code, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        # The other process is open and idle: writing and reading work.
        with lakestream.connect(path) as con:
            con.execute("INSERT INTO t VALUES (1)")
            assert con.execute("SELECT count(*) FROM t").fetchall() == [(1,)]
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "holding"
        # Now it holds the write lock: a write waits, then names it; reading goes on.
        with lakestream.connect(path) as con:
            with pytest.raises(lakestream.IOException) as info:
                con.execute("INSERT INTO t VALUES (2)")
            assert isinstance(info.value, lakestream.OperationalError)
            assert path in str(info.value) and "already open for writing by process %d" % holder.pid in str(info.value)
            assert con.execute("SELECT count(*) FROM t").fetchall() == [(1,)]
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(10)


def test_errors_leave_the_connection_usable(con):
    for bad in ["SELEC", "SELECT nope", "SELECT * FROM nope"]:
        with pytest.raises(lakestream.Error):
            con.execute(bad)
    assert con.execute("SELECT 1").fetchall() == [(1,)]


def test_failed_statement_in_a_script_stops_the_rest(con):
    con.execute("CREATE TABLE t (a INTEGER)")
    with pytest.raises(lakestream.CatalogException):
        con.execute("INSERT INTO t VALUES (1); INSERT INTO missing VALUES (2); INSERT INTO t VALUES (3)")
    assert con.execute("SELECT a FROM t").fetchall() == [(1,)]


def test_non_string_query_is_a_programming_error(con):
    with pytest.raises(lakestream.ProgrammingError, match="str"):
        con.execute(b"SELECT 1")
