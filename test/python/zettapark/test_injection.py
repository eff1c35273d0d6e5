"""Expression strings cannot add statements (docs/python-zettapark.md
"Expression text"): every entry point that takes SQL expression text hands
it to the engine's parser as ONE expression first, so a text that would end
the statement and start another is refused before anything runs, and the
table the attempt tries to drop is still there."""
import pytest

import lakestream
from lakestream.zettapark import functions as F

from conftest import rows

# Each closes what the facade opened, ends the statement and starts another.
ATTACKS = [
    "1=1); DROP TABLE y; SELECT (1",
    "1=1) ; DROP TABLE y ; --",
    "id); DROP TABLE y; SELECT (id",
    "1=1 /* ) */ ); DROP TABLE y; SELECT (1",
    "id > 0;",
    "id > 0; DROP TABLE y",
    "id FROM t; DROP TABLE y; --",
    "id) FROM t; DROP TABLE y; SELECT (1",
    "id > 0 --\n); DROP TABLE y; SELECT (1",
]


@pytest.fixture
def t(session):
    session.sql("CREATE TABLE t (id BIGINT, name VARCHAR)").collect()
    session.sql("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')").collect()
    session.sql("CREATE TABLE y (id BIGINT)").collect()
    session.sql("INSERT INTO y VALUES (7)").collect()
    return session.table("t")


def y_intact(session):
    return rows(session.table("y")) == [(7,)] and rows(session.table("t")) == [(1, "a"), (2, "b"), (3, "c")]


def refused(what, text):
    return pytest.raises(lakestream.ParserException, match=r"%s: .* is not one SQL expression" % what)


ENTRY_POINTS = {
    "filter": lambda s, t, a: t.filter(a).collect(),
    "where": lambda s, t, a: t.where(a).collect(),
    "select_expr": lambda s, t, a: t.select_expr(a).collect(),
    "selectExpr": lambda s, t, a: t.selectExpr("name", a).collect(),
    "sql_expr in select": lambda s, t, a: t.select(F.sql_expr(a)).collect(),
    "sql_expr in filter": lambda s, t, a: t.filter(F.sql_expr(a)).collect(),
    "sql_expr in with_column": lambda s, t, a: t.with_column("x", F.sql_expr(a)).collect(),
    "sql_expr in sort": lambda s, t, a: t.sort(F.sql_expr(a)).collect(),
    "sql_expr in group_by/agg": lambda s, t, a: t.group_by(F.sql_expr(a)).agg(F.max(F.sql_expr(a))).collect(),
    "sql_expr in join": lambda s, t, a: t.join(s.table("y"), F.sql_expr(a)).collect(),
    "Table.delete": lambda s, t, a: t.delete(F.sql_expr(a)),
    "Table.update": lambda s, t, a: t.update({"name": F.sql_expr(a)}, F.sql_expr(a)),
    "Table.merge": lambda s, t, a: t.merge(s.table("y"), F.sql_expr(a),
                                           [F.when_matched(F.sql_expr(a)).delete()]),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_no_entry_point_runs_a_second_statement(session, t, entry):
    for attack in ATTACKS:
        what = "select_expr\\(\\)" if entry == "select_expr" else "(filter|select_expr|sql_expr)\\(\\)"
        with refused(what, attack):
            ENTRY_POINTS[entry](session, t, attack)
        assert y_intact(session), (entry, attack)


def test_the_error_names_the_call_the_text_and_the_parser_position(session, t):
    with pytest.raises(lakestream.ParserException) as e:
        t.filter("1=1); DROP TABLE y; SELECT (1")
    msg = str(e.value)
    assert msg.startswith("filter(): '1=1); DROP TABLE y; SELECT (1' is not one SQL expression: syntax error")
    assert "line 1, column 4" in msg


def test_one_expression_still_works(session, t):
    assert rows(t.filter("name NOT IN ('b', 'b; DROP TABLE y')")) == [(1, "a"), (3, "c")]  # ';' inside a literal
    assert rows(t.filter("id > 1 -- a trailing comment")) == [(2, "b"), (3, "c")]
    assert rows(t.select_expr("id + 1 AS next", "name n")) == [(2, "a"), (3, "b"), (4, "c")]
    assert rows(t.select_expr("*").filter("id = 2")) == [(2, "b")]
    assert rows(t.filter(F.sql_expr("id IN (SELECT id - 6 FROM y)"))) == [(1, "a")]  # a subquery is one expression
    assert rows(t.select(F.sql_expr("upper(name) /* c */"))) == [("A",), ("B",), ("C",)]
    assert y_intact(session)


def test_parameters_and_empty_text_are_refused(t):
    with pytest.raises(lakestream.ParserException, match="no parameters"):
        t.filter("id > ?")
    with pytest.raises(lakestream.ParserException, match="no parameters"):
        t.filter("id > $1")
    with pytest.raises(ValueError, match="non-empty text"):
        t.filter("   ")


def test_type_text_cannot_close_the_cast(session, t):
    with pytest.raises(ValueError, match="is not a type name"):
        t.update({"name": F.col("name").cast("VARCHAR) WHERE (id = 1")})
    with pytest.raises(ValueError, match="is not a type name"):
        F.col("id").cast("INT) + (1")
    assert rows(t.select(F.col("id").cast("DECIMAL(10,2)"))) == [(1,), (2,), (3,)]
    assert y_intact(session)
