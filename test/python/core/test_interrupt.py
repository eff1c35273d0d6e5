"""con.interrupt() from another thread stops a long query; the GIL is free
while the engine runs, so other Python threads keep running."""
import threading
import time

import pytest

import lakestream

# 10^12 row pairs: hours if nothing stops it.
LONG_QUERY = "SELECT count(*) FROM range(1000000) a, range(1000000) b"


def run_in_thread(con, sql):
    outcome = {}

    def target():
        try:
            outcome["rows"] = con.execute(sql).fetchall()
        except BaseException as e:  # checked by the caller
            outcome["error"] = e

    # daemon: a failing test must not leave the interpreter waiting for hours
    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t, outcome


def test_interrupt_stops_a_long_query(con):
    t, outcome = run_in_thread(con, LONG_QUERY)
    # While the query runs the GIL is released: this thread keeps counting.
    ticks = 0
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        ticks += 1
    assert t.is_alive(), "the query finished before it could be interrupted"
    start = time.monotonic()
    con.interrupt()
    t.join(10)
    assert not t.is_alive(), "interrupt did not stop the query within 10 s"
    assert time.monotonic() - start < 5
    assert ticks > 1000
    assert isinstance(outcome.get("error"), lakestream.InterruptException)
    assert isinstance(outcome["error"], lakestream.OperationalError)
    assert "interrupt" in str(outcome["error"]).lower()
    # The connection works afterwards (the request is cleared).
    assert con.execute("SELECT 1").fetchall() == [(1,)]


def test_interrupted_insert_commits_nothing(con):
    con.execute("CREATE TABLE t (a BIGINT)")
    t, outcome = run_in_thread(con, "INSERT INTO t SELECT a.range FROM range(1000000) a, range(1000000) b")
    time.sleep(0.3)
    con.interrupt()
    t.join(10)
    assert not t.is_alive()
    assert isinstance(outcome.get("error"), lakestream.InterruptException)
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]


def test_interrupt_when_idle_has_no_effect(con):
    con.interrupt()
    assert con.execute("SELECT 2").fetchall() == [(2,)]


def test_close_from_another_thread_stops_the_query(con):
    t, outcome = run_in_thread(con, LONG_QUERY)
    time.sleep(0.3)
    con.close()
    t.join(10)
    assert not t.is_alive()
    assert isinstance(outcome.get("error"), lakestream.Error)
    with pytest.raises(lakestream.InterfaceError):
        con.execute("SELECT 1")


def test_ctrl_c_in_the_main_thread_interrupts_the_statement(con):
    # A notebook's interrupt button sends SIGINT: the running statement stops
    # (commits nothing) and KeyboardInterrupt is raised, as for Python code.
    import os
    import signal

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach only the main thread")
    con.execute("CREATE TABLE t (a BIGINT)")
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        con.execute("INSERT INTO t SELECT a.range FROM range(1000000) a, range(1000000) b")
    assert time.monotonic() - start < 5
    timer.join()
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]
    assert con.sql("SELECT 3").fetchall() == [(3,)]
