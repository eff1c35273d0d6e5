"""MERGE, UPDATE and DELETE on a table, each one SQL statement.

``MERGE INTO t AS "__t" USING (<source query>) AS "__s" ON ...`` reads a
source over a table stream in the same statement as the write, so the
stream's offset moves atomically with the merge's commit.
"""

from .column import Column, to_node
from .frame import Frame, FrameScope, TwoSideScope
from .sql import quote_name, unquote_name


class MatchedClause:
    """WHEN MATCHED [AND condition] THEN UPDATE SET ... | DELETE."""

    def __init__(self, condition=None):
        _check_condition(condition)
        self.condition = condition
        self.action = None
        self.assignments = None

    def update(self, assignments):
        if not isinstance(assignments, dict) or not assignments:
            raise TypeError("update() takes a non-empty dict {column name: value or Column}, not %r" % (assignments,))
        self.action, self.assignments = "update", assignments
        return self

    def delete(self):
        self.action = "delete"
        return self


class NotMatchedClause:
    """WHEN NOT MATCHED [AND condition] THEN INSERT [(cols)] VALUES (...)."""

    def __init__(self, condition=None):
        _check_condition(condition)
        self.condition = condition
        self.values = None

    def insert(self, values):
        if isinstance(values, dict):
            if not values:
                raise TypeError("insert() takes a non-empty dict {column name: value or Column} or a list")
        elif isinstance(values, (list, tuple)):
            if not values:
                raise TypeError("insert() takes a non-empty list of values (one per target column) or a dict")
            values = list(values)
        else:
            raise TypeError("insert() takes a dict {column name: value or Column} or a list, not %r" % (values,))
        self.values = values
        return self


def _check_condition(condition):
    if condition is not None and not isinstance(condition, Column):
        raise TypeError("a WHEN condition must be a Column expression, not %r" % (condition,))


def _target_name(key):
    if isinstance(key, Column):
        name = key._output_name()
        if name is None:
            raise TypeError("an assignment target must be a column, not the expression %r" % (key,))
        return quote_name(name)
    if isinstance(key, str):
        return quote_name(unquote_name(key))
    raise TypeError("an assignment target must be a column name, not %r" % (key,))


def merge_sql(target, target_sql, source, on, clauses):
    """The MERGE statement text. ``target`` is the target table's Frame and
    ``target_sql`` its quoted name; ``source`` a Frame; ``on`` a Column."""
    if not isinstance(source, Frame):
        raise TypeError("merge() source must be a DataFrame, not %s" % type(source).__name__)
    if not isinstance(on, Column):
        raise TypeError("merge() join_expr must be a Column condition, not %r" % (on,))
    clauses = list(clauses)
    if not clauses:
        raise ValueError("merge() needs at least one when_matched() / when_not_matched() clause")
    ta, sa = "__t", "__s"
    scope = TwoSideScope(target, ta, source, sa, what="merge")
    parts = ["MERGE INTO %s AS %s USING (%s) AS %s ON %s" % (
        target_sql, quote_name(ta), source._sql(), quote_name(sa), on._expr_node().render(scope))]
    for c in clauses:
        cond = "" if c.condition is None else " AND " + c.condition._expr_node().render(scope)
        if isinstance(c, MatchedClause):
            if c.action is None:
                raise ValueError("when_matched() needs .update({...}) or .delete()")
            if c.action == "delete":
                parts.append("WHEN MATCHED%s THEN DELETE" % cond)
            else:
                sets = ", ".join("%s = %s" % (_target_name(k), to_node(v).render(scope))
                                 for k, v in c.assignments.items())
                parts.append("WHEN MATCHED%s THEN UPDATE SET %s" % (cond, sets))
        elif isinstance(c, NotMatchedClause):
            if c.values is None:
                raise ValueError("when_not_matched() needs .insert({...})")
            if isinstance(c.values, dict):
                cols = ", ".join(_target_name(k) for k in c.values)
                vals = ", ".join(to_node(v).render(scope) for v in c.values.values())
                parts.append("WHEN NOT MATCHED%s THEN INSERT (%s) VALUES (%s)" % (cond, cols, vals))
            else:
                vals = ", ".join(to_node(v).render(scope) for v in c.values)
                parts.append("WHEN NOT MATCHED%s THEN INSERT VALUES (%s)" % (cond, vals))
        else:
            raise TypeError("merge() clauses come from when_matched() and when_not_matched(), not %r" % (c,))
    return " ".join(parts)


def _source_scope(target, source, what):
    """With a source DataFrame: the target and source aliases and a scope that
    qualifies each column with its side (UPDATE ... FROM, DELETE ... USING)."""
    if not isinstance(source, Frame):
        raise TypeError("%s() source must be a DataFrame, not %s" % (what, type(source).__name__))
    ta, sa = "__t", "__s"
    return ta, sa, TwoSideScope(target, ta, source, sa, what="merge")


def update_sql(target, target_sql, assignments, condition=None, source=None):
    """UPDATE t SET ... [FROM (source)] [WHERE condition]. With a source, a
    target row that meets two source rows is an error (as in MERGE)."""
    if not isinstance(assignments, dict) or not assignments:
        raise TypeError("update() takes a non-empty dict {column name: value or Column}, not %r" % (assignments,))
    if source is None:
        scope = FrameScope(target)
        head = "UPDATE %s SET " % target_sql
        tail = ""
    else:
        ta, sa, scope = _source_scope(target, source, "update")
        head = "UPDATE %s AS %s SET " % (target_sql, quote_name(ta))
        tail = " FROM (%s) AS %s" % (source._sql(), quote_name(sa))
    sets = ", ".join("%s = %s" % (_target_name(k), to_node(v).render(scope)) for k, v in assignments.items())
    text = head + sets + tail
    if condition is not None:
        _check_condition(condition)
        text += " WHERE " + condition._expr_node().render(scope)
    return text


def delete_sql(target, target_sql, condition=None, source=None):
    """DELETE FROM t [USING (source)] [WHERE condition]."""
    if source is None:
        scope = FrameScope(target)
        text = "DELETE FROM %s" % target_sql
    else:
        ta, sa, scope = _source_scope(target, source, "delete")
        text = "DELETE FROM %s AS %s USING (%s) AS %s" % (target_sql, quote_name(ta), source._sql(), quote_name(sa))
    if condition is not None:
        _check_condition(condition)
        text += " WHERE " + condition._expr_node().render(scope)
    return text


def run_counts(conn, stmt, params=None):
    """Run a DML statement; its counts as {column: value}. MERGE returns a
    row of counts; UPDATE/DELETE/INSERT report num_affected_rows as the
    DB-API rowcount."""
    cur = conn.execute(stmt, list(params) if params else None)
    desc = cur.description
    if desc:
        row = cur.fetchone()
        return dict(zip([d[0] for d in desc], row)) if row is not None else {}
    count = getattr(cur, "rowcount", -1)
    return {"num_affected_rows": count} if count is not None and count >= 0 else {}
