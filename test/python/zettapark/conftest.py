import pytest

from lakestream.zettapark import Session


@pytest.fixture
def session(tmp_path):
    """A session over a fresh database directory (streams need one)."""
    s = Session.builder.configs({"database": str(tmp_path / "lake")}).create()
    yield s
    s.close()


def rows(df_or_rows):
    """Rows as plain tuples sorted (NULLs first), for order-free comparisons."""
    got = df_or_rows.collect() if hasattr(df_or_rows, "collect") else df_or_rows
    return sorted((tuple(r) for r in got), key=lambda t: tuple((v is not None, v) for v in t))


def stream_offset(session, stream):
    for r in session.sql("SHOW STREAMS").collect():
        if r["name"] == stream:
            return r["offset_version"]
    raise AssertionError("no stream %r in SHOW STREAMS" % stream)
