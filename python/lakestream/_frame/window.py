"""Window specifications and window functions, shared by the PySpark and
Zettapark layers: ``F.row_number().over(Window.partitionBy("k").orderBy(F.desc("ts")))``
renders ``row_number() OVER (PARTITION BY "k" ORDER BY "ts" DESC)`` (the
window functions of docs/sql-windows.md)."""

import sys

from .column import Column, Node, Raw, SortKey, col_node, to_node
from .functions import _fn

UNBOUNDED_PRECEDING = -sys.maxsize - 1  # Spark's Window.unboundedPreceding (Long.MinValue)
UNBOUNDED_FOLLOWING = sys.maxsize
CURRENT_ROW = 0


def _bound(value, what):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s: a frame bound is an int (negative: preceding, 0: current row, positive: following), "
                        "not %r" % (what, value))
    if value <= UNBOUNDED_PRECEDING:
        return "UNBOUNDED PRECEDING"
    if value >= UNBOUNDED_FOLLOWING:
        return "UNBOUNDED FOLLOWING"
    if value == 0:
        return "CURRENT ROW"
    return "%d PRECEDING" % -value if value < 0 else "%d FOLLOWING" % value


def _columns(cols):
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        cols = tuple(cols[0])
    return tuple(cols)


class WindowSpec:
    """PARTITION BY, ORDER BY and a frame; each method returns a new spec."""

    def __init__(self, partition=(), order=(), frame=None):
        self._partition = partition
        self._order = order
        self._frame = frame

    def partition_by(self, *cols):
        return WindowSpec(_columns(cols), self._order, self._frame)

    def order_by(self, *cols):
        return WindowSpec(self._partition, _columns(cols), self._frame)

    def rows_between(self, start, end):
        return WindowSpec(self._partition, self._order, ("ROWS", _bound(start, "rowsBetween"), _bound(end, "rowsBetween")))

    def range_between(self, start, end):
        if not self._order and start not in (UNBOUNDED_PRECEDING, CURRENT_ROW):
            raise ValueError("rangeBetween with an offset needs orderBy(...) of one numeric or date column")
        return WindowSpec(self._partition, self._order, ("RANGE", _bound(start, "rangeBetween"), _bound(end, "rangeBetween")))

    partitionBy = partition_by
    orderBy = order_by
    rowsBetween = rows_between
    rangeBetween = range_between

    def _nodes(self):
        parts = []
        if self._partition:
            parts.append("PARTITION BY ")
            for i, c in enumerate(self._partition):
                parts += ([", "] if i else []) + [col_node(c)]
        if self._order:
            parts.append(" ORDER BY " if parts else "ORDER BY ")
            for i, c in enumerate(self._order):
                node = c._node if isinstance(c, Column) else col_node(c)
                if not isinstance(node, SortKey):
                    node = SortKey(node, False)
                parts += ([", "] if i else []) + [node]
        if self._frame:
            kind, start, end = self._frame
            parts.append("%s%s BETWEEN %s AND %s" % (" " if parts else "", kind, start, end))
        return parts


class Window:
    """Window.partitionBy(...).orderBy(...).rowsBetween(...), as in PySpark
    (and Snowpark's partition_by/order_by/rows_between)."""

    unboundedPreceding = UNBOUNDED_PRECEDING
    unboundedFollowing = UNBOUNDED_FOLLOWING
    currentRow = CURRENT_ROW
    UNBOUNDED_PRECEDING = UNBOUNDED_PRECEDING
    UNBOUNDED_FOLLOWING = UNBOUNDED_FOLLOWING
    CURRENT_ROW = CURRENT_ROW

    @staticmethod
    def partition_by(*cols):
        return WindowSpec().partition_by(*cols)

    @staticmethod
    def order_by(*cols):
        return WindowSpec().order_by(*cols)

    @staticmethod
    def rows_between(start, end):
        return WindowSpec().rows_between(start, end)

    @staticmethod
    def range_between(start, end):
        return WindowSpec().range_between(start, end)

    partitionBy = partition_by
    orderBy = order_by
    rowsBetween = rows_between
    rangeBetween = range_between


def over(column, window):
    """``column OVER (window)``: a window function or aggregate over a window."""
    if not isinstance(window, WindowSpec):
        raise TypeError("over() takes a WindowSpec (Window.partitionBy(...).orderBy(...)), not %r" % (window,))
    node = column._expr_node() if isinstance(column, Column) else col_node(column)
    return Raw(node, " OVER (", *window._nodes(), ")")


# The ranking functions take no arguments: the shared call builder renders them.
row_number = _fn("row_number")
rank = _fn("rank")
dense_rank = _fn("dense_rank")
percent_rank = _fn("percent_rank")
cume_dist = _fn("cume_dist")


def ntile(n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError("ntile(n) takes a positive int, not %r" % (n,))
    return Column(Raw("ntile(%d)" % n))


def _shift(sql_name):
    def f(e, offset=1, default=None):
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise TypeError("%s(offset=...) is an int, not %r" % (sql_name, offset))
        parts = [sql_name + "(", col_node(e), ", %d" % offset]
        if default is not None:
            parts += [", ", to_node(default)]
        return Column(Raw(*parts, ")"))
    f.__name__ = sql_name
    return f


lag = _shift("lag")
lead = _shift("lead")

__all__ = ["Window", "WindowSpec", "over", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
           "lag", "lead", "Node"]
