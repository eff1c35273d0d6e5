"""The lazy DataFrame core: each operation builds SQL text, nothing runs
until an action (collect, count, to_pandas, a write).

A Frame is one SELECT block (source, select list, WHERE, GROUP BY, ORDER BY,
LIMIT). An operation adds to the block when SQL allows it in the same
SELECT, and otherwise wraps the block as a derived table: filter after
select becomes ``SELECT * FROM (SELECT ...) AS "__q3" WHERE ...``. The text
of a Frame over a table stream therefore reads the stream in one statement,
and a write (INSERT ... SELECT, CREATE TABLE ... AS, MERGE ... USING) built
from it is one statement too: the engine moves the stream's offset exactly
when that statement commits.

Facades subclass Frame (adding their own method names); every operation
returns ``type(self)``. Names and values reach the SQL only through
sql.quote_name / sql.literal.
"""

import itertools
import re

from .column import (Alias, Case, Column, Lit, Raw, Ref, Scope, SortKey, SqlText, Star,
                     Subquery, col_node, sql_expr, strip_alias, to_node)
from .row import Row, gc_paused
from .sql import quote_name, unquote_name
from .types import StructField, StructType, parse_type

# Statement texts that may stand as a subquery; others (SHOW, DESCRIBE, DDL,
# DML) are run as they are by the frame's actions.
_QUERY_START = re.compile(r"^\s*(\(|SELECT\b|WITH\b|VALUES\b|FROM\b|TABLE\b)", re.I)

_ids = itertools.count(1)


class Block:
    """One SELECT: every field is SQL text."""

    __slots__ = ("source", "items", "names", "where", "group_by", "having", "distinct", "order_by", "limit",
                 "offset")

    def __init__(self, source):
        self.source = source
        self.items = None      # None means *
        self.names = None      # the output name of each item, when known
        self.where = []
        self.group_by = None
        self.having = []
        self.distinct = False
        self.order_by = []
        self.limit = None
        self.offset = None

    def copy(self):
        b = Block(self.source)
        b.items = None if self.items is None else list(self.items)
        b.names = None if self.names is None else list(self.names)
        b.where = list(self.where)
        b.group_by = None if self.group_by is None else list(self.group_by)
        b.having = list(self.having)
        b.distinct = self.distinct
        b.order_by = list(self.order_by)
        b.limit = self.limit
        b.offset = self.offset
        return b

    def passthrough(self):
        """Lower names of the columns this SELECT passes on unchanged from its
        source (the item is the bare column), when it only projects."""
        # (not under an ORDER BY: it may name a computed column a new select list would drop)
        if (self.names is None or self.group_by is not None or self.distinct or self.order_by
                or self.limit is not None or self.offset is not None):
            return None
        return {n.lower() for n, item in zip(self.names, self.items) if item == quote_name(n)}

    def is_plain(self):
        """SELECT * FROM source [WHERE ...] [ORDER BY ...]: a projection,
        filter or grouping may still go into this SELECT."""
        return (self.items is None and self.group_by is None and not self.distinct
                and self.limit is None and self.offset is None)

    def sql(self):
        text = "SELECT " + ("DISTINCT " if self.distinct else "")
        text += "*" if self.items is None else ", ".join(self.items)
        text += " FROM " + self.source
        if self.where:
            text += " WHERE " + " AND ".join(self.where)
        if self.group_by is not None:
            text += (" GROUP BY " + ", ".join(self.group_by)) if self.group_by else ""
        if self.having:
            text += " HAVING " + " AND ".join(self.having)
        if self.order_by:
            text += " ORDER BY " + ", ".join(self.order_by)
        if self.limit is not None:
            text += " LIMIT %d" % self.limit
        if self.offset is not None:
            text += " OFFSET %d" % self.offset
        return text


class FrameScope(Scope):
    """References over one Frame's output: a df["x"] taken before a join is
    mapped to the name the join gave that column."""

    def __init__(self, frame):
        self.frame = frame

    def ref(self, df_id, name):
        return quote_name(self.ref_name(df_id, name))

    def ref_name(self, df_id, name):
        return self.frame._output_name_of(df_id, name)

    def star(self, df_id):
        names = self.frame._star_map.get(df_id) if df_id is not None else None
        if names is None:
            return "*"
        return ", ".join(quote_name(n) for n in names)


class TwoSideScope(Scope):
    """References in a join condition or a MERGE: each side has an alias;
    a reference is qualified with the side its DataFrame belongs to."""

    def __init__(self, left, left_alias, right, right_alias, what="join"):
        self.sides = ((left, left_alias), (right, right_alias))
        self.what = what
        self.side_names = ("target", "source") if what == "merge" else ("left_df", "right_df")

    def ref(self, df_id, name):
        hits = [(f, a) for f, a in self.sides if df_id is not None and df_id in f._ancestors]
        if len(hits) == 2:
            raise ValueError(
                "column %r belongs to both sides of the %s (the same DataFrame on both sides); "
                "join a copy instead: copy.copy(df) gives the same rows with references of its own"
                % (name, self.what))
        if not hits:
            # col("x"): qualify it with the side that has the column
            low = name.lower()
            hits = [(f, a) for f, a in self.sides if low in (c.lower() for c in f.columns)]
            if len(hits) == 2:
                a, b = self.side_names
                if df_id is not None:
                    raise ValueError(
                        "column %r comes from a DataFrame that is on neither side of the %s, and both sides "
                        "have a column of that name; take it from one of the two DataFrames "
                        "(%s[%r] or %s[%r])" % (name, self.what, a, name, b, name))
                raise ValueError(
                    "column %r is ambiguous in the %s: both sides have it; "
                    "name it through its DataFrame, %s[%r] or %s[%r]" % (name, self.what, a, name, b, name))
            if not hits:
                return quote_name(name)  # the engine reports the unknown name
        frame, alias = hits[0]
        return "%s.%s" % (quote_name(alias), quote_name(frame._output_name_of(df_id, name)))

    def star(self, df_id):
        for f, a in self.sides:
            if df_id is not None and df_id in f._ancestors:
                return quote_name(a) + ".*"
        return "*"




def _flatten(args):
    """f(a, b) and f([a, b]) mean the same, as in Snowpark and PySpark."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


def _collect_refs(node, scope, out):
    """Adds the lower output names ``node`` reads to ``out``; False when it
    reads something that cannot be listed (*, a subquery, raw SQL text)."""
    if isinstance(node, Ref):
        out.add(scope.ref_name(node.df_id, node.name).lower())
        return True
    if isinstance(node, (Star, Subquery, SqlText)):
        return False
    if isinstance(node, Raw):
        return all(_collect_refs(p, scope, out) for p in node.parts if not isinstance(p, str))
    if isinstance(node, (Alias, SortKey)):
        return _collect_refs(node.child, scope, out)
    if isinstance(node, Case):
        kids = [k for pair in node.branches for k in pair] + ([node.otherwise] if node.otherwise is not None else [])
        return all(_collect_refs(k, scope, out) for k in kids)
    return isinstance(node, Lit)


class Frame:
    """A lazy query. ``conn`` is a lakestream core connection."""

    row_class = Row
    column_class = Column
    _derived_class = None  # a facade's Table sets its DataFrame class: operations on a table give DataFrames

    def __init__(self, conn, source_sql=None, raw_sql=None, params=None, session=None):
        self._conn = conn
        self._session = session
        self._id = next(_ids)
        self._ancestors = frozenset([self._id])
        self._colmap = {}     # (df id, lower name) -> output name (after joins)
        self._star_map = {}   # df id -> output names of that DataFrame's columns (after joins)
        if raw_sql is not None and "--" in raw_sql:
            raw_sql += "\n"  # ends a trailing -- comment before text is put after the query
        self._raw = raw_sql   # statement text to run as is while no operation was applied
        self._params = tuple(params or ())
        self._schema = None
        if raw_sql is not None:
            source_sql = "(%s) AS %s" % (raw_sql, quote_name("__q%d" % self._id))
        self._block = Block(source_sql)

    # -- derivation --------------------------------------------------------
    def _derive(self, block, colmap=None, star_map=None, ancestors=None):
        cls = self._derived_class or type(self)
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        new._id = next(_ids)
        new._ancestors = (ancestors if ancestors is not None else self._ancestors) | {new._id}
        new._colmap = self._colmap if colmap is None else colmap
        new._star_map = self._star_map if star_map is None else star_map
        new._raw = None
        new._schema = None
        new._block = block
        return new

    def __copy__(self):
        """The same query with a fresh identity, for joining a DataFrame with itself."""
        new = self._derive(self._block.copy(), ancestors=frozenset())
        new._raw = self._raw
        return new

    def __deepcopy__(self, memo):
        return self.__copy__()  # the connection is shared, never copied

    def _wrapped(self):
        return Block("(%s) AS %s" % (self._sql(), quote_name("__q%d" % next(_ids))))

    def _open_block(self):
        """A copy of this block when it is plain, else a new one over it."""
        return self._block.copy() if self._block.is_plain() else self._wrapped()

    def _scope(self):
        return FrameScope(self)

    def _output_name_of(self, df_id, name):
        return self._colmap.get((df_id, name.lower()), name)

    def _col(self, name):
        """df["x"] / df.x: a reference that remembers this DataFrame."""
        if not isinstance(name, str):
            raise TypeError("a column name must be a str, not %s: %r" % (type(name).__name__, name))
        if name == "*":
            return self.column_class(Star(self._id))
        return self.column_class(Ref(unquote_name(name), self._id))

    def _sql(self):
        return self._raw if self._raw is not None else self._block.sql()

    @property
    def queries(self):
        return {"queries": [self._sql()], "post_actions": []}

    # -- running -----------------------------------------------------------
    def _run(self, sql, params=None):
        return self._conn.sql(sql, list(params) if params else None)

    def _describe(self):
        if self._schema is None:
            if self._raw is not None and self._raw.lstrip()[:4].upper() in ("SHOW", "DESC"):
                # DESCRIBE of a SHOW is not a statement; these only read the catalog, so run them
                rel = self._run(self._raw, self._params)
                pairs = zip(rel.columns, rel.types)
            else:
                pairs = [(r[0], r[1]) for r in self._run("DESCRIBE " + self._sql(), self._params).fetchall()]
            self._schema = StructType([StructField(n, parse_type(t), True) for n, t in pairs])
        return self._schema

    @property
    def schema(self):
        return self._describe()

    @property
    def columns(self):
        return self._describe().names

    def collect(self):
        make = self.row_class._make
        if self._raw is not None:
            # session.sql() text may be any statement: DML reports its count
            # (as Snowpark's collect does), DDL a status row
            cur = self._conn.execute(self._raw, list(self._params) if self._params else None)
            desc = cur.description
            if desc:
                with gc_paused():
                    return self.row_class._make_all(cur.fetchall(), [d[0] for d in desc])
            if cur.rowcount is not None and cur.rowcount >= 0:
                return [make((cur.rowcount,), ("num_affected_rows",))]
            return [make(("Statement executed successfully.",), ("status",))]
        rel = self._run(self._sql(), self._params)
        with gc_paused():
            return self.row_class._make_all(rel.fetchall(), rel.columns)

    def to_local_iterator(self):
        rel = self._run(self._sql(), self._params)
        if rel is None:
            return
        fields = tuple(rel.columns)
        make = self.row_class._make
        while True:
            batch = rel.fetchmany(1024)
            if not batch:
                return
            for values in batch:
                yield make(values, fields)

    def _raw_statement(self):
        """The untouched text of a statement that cannot be a subquery (SHOW,
        DESCRIBE, EXPLAIN, DDL, DML), else None: such a frame's actions run
        the statement as it is instead of wrapping it."""
        if self._raw is None or _QUERY_START.match(self._raw):
            return None
        return self._raw

    def count(self):
        raw = self._raw_statement()
        if raw is not None:
            rel = self._run(raw, self._params)
            return 0 if rel is None else len(rel.fetchall())
        rel = self._run("SELECT count(*) FROM (%s) AS %s" % (self._sql(), quote_name("__count")), self._params)
        return rel.fetchone()[0]

    def to_pandas(self):
        rel = self._run(self._sql(), self._params)
        if rel is None:
            raise ValueError("to_pandas(): the statement returns no rows")
        return rel.df()

    def _head(self, n):
        """(column names, first n rows as tuples)."""
        if n is None or n < 0:
            raise ValueError("the number of rows must be a non-negative int, not %r" % (n,))
        raw = self._raw_statement()
        if raw is not None:  # SHOW STREAMS, DESCRIBE t, ...: not a subquery, so no LIMIT around it
            rel = self._run(raw, self._params)
            return ([], []) if rel is None else (list(rel.columns), rel.fetchmany(n) if n else [])
        limited = self.limit(n)
        rel = limited._run(limited._sql(), limited._params)
        if rel is None:
            return [], []
        return list(rel.columns), rel.fetchall()

    # -- operations --------------------------------------------------------
    def filter(self, condition):
        if isinstance(condition, str):  # SQL expression text, as Snowpark and PySpark accept
            condition = sql_expr(condition, what="filter()")
        if not isinstance(condition, Column):
            raise TypeError("filter() takes a Column expression, not %s: %r" % (type(condition).__name__, condition))
        scope = self._scope()
        node = condition._expr_node()
        block = self._block.copy() if self._reads_only_passthrough([node], scope) else self._open_block()
        block.where.append(node.render(scope))
        return self._derive(block)

    def _reads_only_passthrough(self, nodes, scope):
        """Whether ``nodes`` read only columns this SELECT passes on unchanged
        (then a filter or projection can go into the same SELECT: its WHERE
        and select list see those columns as they are)."""
        passthrough = self._block.passthrough()
        if passthrough is None:
            return False
        refs = set()
        return all(_collect_refs(n, scope, refs) for n in nodes) and refs <= passthrough

    where = filter

    def select_expr(self, *exprs):
        """SELECT of SQL expression texts ("a + 1 AS b")."""
        return self.select([sql_expr(e, allow_alias=True, what="select_expr()") for e in _flatten(exprs)])

    def fill_null(self, value, subset=None):
        """NULLs replaced by ``value`` (or {column: value}); see na.fill_null."""
        from .na import fill_null
        return fill_null(self, value, subset)

    def drop_null(self, how="any", thresh=None, subset=None):
        """Rows with NULLs removed; see na.drop_null."""
        from .na import drop_null
        return drop_null(self, how, thresh, subset)

    def _select_items(self, cols, scope):
        items = []
        for c in cols:
            node = col_node(c) if isinstance(c, str) else (c._node if isinstance(c, Column) else None)
            if node is None:
                raise TypeError("select() takes column names or Columns, not %s: %r" % (type(c).__name__, c))
            if isinstance(node, SortKey):
                raise TypeError("select() of a sort key (asc()/desc()): use sort() to order rows")
            items.append(node.render(scope))
        return items

    def select(self, *cols):
        cols = _flatten(cols)
        if not cols:
            raise ValueError("select() needs at least one column")
        scope = self._scope()
        nodes = [col_node(c) if isinstance(c, str) else (c._node if isinstance(c, Column) else None) for c in cols]
        picked = self._pick_items(nodes, scope)
        if picked is not None:  # a subset of this SELECT's columns, computed ones included
            block = self._block.copy()
            block.names, block.items = [n for n, _ in picked], [item for _, item in picked]
            return self._derive(block)
        if None not in nodes and self._reads_only_passthrough(nodes, scope):
            block = self._block.copy()
        else:
            block = self._open_block()
        block.items = self._select_items(cols, scope)
        names = [n.output_name() for n in nodes] if None not in nodes else None
        if names is not None and None not in names:
            # a bare reference keeps its column's spelling from this SELECT
            block.names = [scope.ref_name(n.df_id, n.name) if isinstance(n, Ref) else n.output_name()
                           for n in nodes]
        else:
            block.names = None
        return self._derive(block)

    def _pick_items(self, nodes, scope):
        """[(name, item)] of this SELECT for ``nodes`` that are all bare
        references to its columns, else None."""
        if self._block.passthrough() is None or not all(isinstance(n, Ref) for n in nodes):
            return None
        current = {n.lower(): (n, item) for n, item in zip(self._block.names, self._block.items)}
        picked = [current.get(scope.ref_name(n.df_id, n.name).lower()) for n in nodes]
        return None if None in picked else picked

    def _replace_columns(self, mapping):
        """SELECT every column, with ``mapping`` (lower name -> (name, Column))
        replacing the column of that name or added at the end.

        When the new expressions read only columns this SELECT passes on
        unchanged, they go into the same SELECT: a chain of with_column
        calls stays one level deep instead of nesting a derived table per
        call (the parser allows 500 levels)."""
        scope = self._scope()
        b = self._block
        if self._reads_only_passthrough([c._expr_node() for _, c in mapping.values()], scope):
            block, current = b.copy(), list(zip(b.names, b.items))
        else:
            block, current = self._open_block(), [(n, quote_name(n)) for n in self.columns]
        items, names, done = [], [], set()
        for name, item in current:
            low = name.lower()
            if low in mapping and low not in done:
                new_name, c = mapping[low]
                item = Alias(c._expr_node(), new_name).render(scope)
                name = new_name
                done.add(low)
            items.append(item)
            names.append(name)
        for low, (new_name, c) in mapping.items():
            if low not in done:
                items.append(Alias(c._expr_node(), new_name).render(scope))
                names.append(new_name)
        block.items = items
        block.names = names
        return self._derive(block)

    def with_column(self, name, column):
        return self.with_columns([name], [column])

    def with_columns(self, names, columns):
        if len(names) != len(columns):
            raise ValueError("with_columns() needs as many names (%d) as columns (%d)" % (len(names), len(columns)))
        mapping = {}
        for n, c in zip(names, columns):
            if not isinstance(n, str):
                raise TypeError("a column name must be a str, not %r" % (n,))
            if not isinstance(c, Column):
                c = self.column_class(to_node(c))
            n = unquote_name(n)
            mapping[n.lower()] = (n, c)
        return self._replace_columns(mapping)

    def _current_items(self):
        """(block to extend, [(output name, item text)]): this SELECT when it
        only projects with known names, else a new one over it."""
        if self._block.passthrough() is not None:
            return self._block.copy(), list(zip(self._block.names, self._block.items))
        return self._open_block(), [(n, quote_name(n)) for n in self.columns]

    def with_column_renamed(self, existing, new):
        if isinstance(existing, Column):
            existing = existing._output_name()
        existing = unquote_name(existing)
        new = unquote_name(new)
        block, current = self._current_items()
        found = [item for n, item in current if n.lower() == existing.lower()]
        if not found:
            raise ValueError("with_column_renamed(): no column %r; the columns are: %s"
                             % (existing, ", ".join(n for n, _ in current)))
        if any(item != quote_name(n) for n, item in current if n.lower() == existing.lower()):
            # a computed column: rename it over this SELECT
            block, current = self._open_block(), [(n, quote_name(n)) for n in self.columns]
        items, names = [], []
        for n, item in current:
            if n.lower() == existing.lower():
                item = "%s AS %s" % (item, quote_name(new))
                n = new
            items.append(item)
            names.append(n)
        block.items, block.names = items, names
        return self._derive(block)

    def drop(self, *cols):
        cols = _flatten(cols)
        drop = set()
        for c in cols:
            name = c._output_name() if isinstance(c, Column) else unquote_name(c)
            if name is None:
                raise TypeError("drop() takes column names or column references, not %r" % (c,))
            drop.add(name.lower())
        block, current = self._current_items()
        keep = [(n, item) for n, item in current if n.lower() not in drop]
        if not keep:
            raise ValueError("drop() would remove every column (%s)" % ", ".join(n for n, _ in current))
        block.items = [item for _, item in keep]
        block.names = [n for n, _ in keep]
        return self._derive(block)

    def sort(self, *cols, ascending=None):
        cols = _flatten(cols)
        if not cols:
            raise ValueError("sort() needs at least one column")
        if ascending is None:
            ascending = [True] * len(cols)
        elif isinstance(ascending, (bool, int)):
            ascending = [bool(ascending)] * len(cols)
        elif len(ascending) != len(cols):
            raise ValueError("sort(): %d columns but %d ascending flags" % (len(cols), len(ascending)))
        scope = self._scope()
        keys = []
        for c, asc in zip(cols, ascending):
            node = col_node(c) if isinstance(c, str) else c._node if isinstance(c, Column) else None
            if node is None:
                raise TypeError("sort() takes column names or Columns, not %r" % (c,))
            if not isinstance(node, SortKey):
                node = SortKey(strip_alias(node), not asc)
            keys.append(node.render(scope))
        block = self._block.copy() if self._block.limit is None and self._block.offset is None else self._wrapped()
        block.order_by = keys
        return self._derive(block)

    def limit(self, n, offset=0):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError("limit() takes a non-negative int, not %r" % (n,))
        if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
            raise ValueError("limit() offset must be a non-negative int, not %r" % (offset,))
        block = self._block.copy() if self._block.limit is None and self._block.offset is None else self._wrapped()
        block.limit = n
        block.offset = offset or None
        return self._derive(block)

    def distinct(self):
        block = self._block.copy() if (not self._block.order_by and self._block.limit is None
                                       and self._block.offset is None and self._block.group_by is None) \
            else self._wrapped()
        block.distinct = True
        return self._derive(block)

    def group_by(self, *cols):
        return GroupedFrame(self, _flatten(cols))

    def agg(self, *exprs):
        return GroupedFrame(self, []).agg(*exprs)

    def _set_op(self, other, op, by_name=False):
        if not isinstance(other, Frame):
            raise TypeError("%s needs a DataFrame, not %s" % (op, type(other).__name__))
        left = self._sql()
        if by_name:
            names = self.columns
            other_names = {n.lower(): n for n in other.columns}
            missing = [n for n in names if n.lower() not in other_names]
            if missing or len(other_names) != len(names):
                raise ValueError("union_by_name(): the DataFrames have different columns: %s and %s"
                                 % (", ".join(names), ", ".join(other.columns)))
            right_items = ", ".join(quote_name(other_names[n.lower()]) for n in names)
        else:
            right_items = "*"
        text = "SELECT * FROM (%s) AS %s %s SELECT %s FROM (%s) AS %s" % (
            left, quote_name("__u%d" % next(_ids)), op, right_items, other._sql(), quote_name("__u%d" % next(_ids)))
        new = self._derive(Block("(%s) AS %s" % (text, quote_name("__q%d" % next(_ids)))),
                           colmap={}, star_map={}, ancestors=frozenset())
        new._params = self._params + other._params
        return new

    def union_all(self, other):
        return self._set_op(other, "UNION ALL")

    def union(self, other):
        return self._set_op(other, "UNION")

    def union_all_by_name(self, other):
        return self._set_op(other, "UNION ALL", by_name=True)

    def union_by_name(self, other):
        return self._set_op(other, "UNION", by_name=True)

    def intersect(self, other):
        return self._set_op(other, "INTERSECT")

    def except_(self, other):
        return self._set_op(other, "EXCEPT")

    subtract = except_
    minus = except_

    def join(self, right, on=None, how="inner", lsuffix="", rsuffix="", using_columns=None, join_type=None):
        if not isinstance(right, Frame):
            raise TypeError("join() needs a DataFrame to join with, not %s" % type(right).__name__)
        how = join_type or how or "inner"
        if using_columns is not None:
            on = using_columns
        from .join import JOIN_KINDS
        kind = JOIN_KINDS.get(str(how).lower().replace(" ", ""))
        if kind is None:
            raise ValueError("join type %r is not one of: %s" % (how, ", ".join(sorted(JOIN_KINDS))))
        if kind == "CROSS JOIN" and on is not None:
            raise ValueError("a cross join takes no join condition")
        if on is None and kind not in ("CROSS JOIN",):
            if how == "inner" and join_type is None:
                kind = "CROSS JOIN"  # join(df) without a condition: every pair, as in Snowpark
            else:
                raise ValueError("a %s join needs a condition (a Column) or column names to join on" % how)
        from .join import join_frames
        return join_frames(self, right, on, kind, lsuffix, rsuffix)

    def cross_join(self, right, lsuffix="", rsuffix=""):
        return self.join(right, None, "cross", lsuffix, rsuffix)

    def alias(self, name):
        raise NotImplementedError("DataFrame.alias(): refer to columns through their DataFrame (df[\"x\"]) "
                                  "or copy.copy(df) to join a DataFrame with itself")


class GroupedFrame:
    """frame.group_by(keys); ``agg`` gives the grouped Frame."""

    def __init__(self, frame, keys):
        self._frame = frame
        self._keys = keys

    def agg(self, *exprs):
        if len(exprs) == 1 and isinstance(exprs[0], dict):
            exprs = list(exprs[0].items())
        exprs = _flatten(exprs) if len(exprs) == 1 and isinstance(exprs[0], list) else list(exprs)
        frame = self._frame
        from . import functions as fn
        cols = []
        for e in exprs:
            if isinstance(e, tuple) and len(e) == 2 and isinstance(e[1], str):
                name, func = e
                f = getattr(fn, func.lower(), None) if func.lower() in _AGG_NAMES else None
                if f is None:
                    raise ValueError("aggregate %r is not one of: %s" % (func, ", ".join(sorted(_AGG_NAMES))))
                e = f(name)
            if not isinstance(e, Column):
                raise TypeError("agg() takes Columns such as sum(\"x\"), (name, \"sum\") pairs or a dict, not %r" % (e,))
            cols.append(e)
        if not cols and not self._keys:
            raise ValueError("agg() needs at least one aggregate")
        scope = frame._scope()
        block = frame._open_block()
        if block.order_by:  # an order before grouping means nothing and may name ungrouped columns
            block = frame._wrapped()
        key_nodes = [col_node(k) if isinstance(k, str) else k._node for k in self._keys]
        block.items = [k.render(scope) for k in key_nodes] + [c._node.render(scope) for c in cols]
        block.group_by = [strip_alias(k).render(scope) for k in key_nodes]
        if not self._keys:
            block.group_by = []
        return frame._derive(block)

    def _simple(self, func, cols):
        from . import functions as fn
        f = getattr(fn, func)
        if not cols:
            raise ValueError("%s() needs column names" % func)
        return self.agg(*[f(c) for c in cols])

    def count(self):
        from . import functions as fn
        return self.agg(fn.count().alias("count"))

    def sum(self, *cols):
        return self._simple("sum", cols)

    def avg(self, *cols):
        return self._simple("avg", cols)

    mean = avg

    def min(self, *cols):
        return self._simple("min", cols)

    def max(self, *cols):
        return self._simple("max", cols)


_AGG_NAMES = {"sum", "avg", "mean", "min", "max", "count", "count_distinct", "any_value"}
