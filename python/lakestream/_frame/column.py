"""Column expressions: a small tree rendered to SQL text on demand.

A column reference remembers the DataFrame it was taken from (df["id"]),
or none (col("id")). It is rendered against a *scope* when the DataFrame
that uses it builds its SQL: in a join the scope qualifies it with the
side it came from; over a join's result it maps it to the output name the
join gave it. Everything else renders the same in any scope.

Results of operators are built with ``type(self)``, so a facade that
subclasses Column keeps its class through expressions.
"""

from .sql import checked_expression, literal, quote_name, type_sql, unquote_name


class Scope:
    """Renders column references; the default leaves them unqualified."""

    def ref(self, df_id, name):
        return quote_name(name)

    def ref_name(self, df_id, name):
        return name

    def star(self, df_id):
        return "*"


DEFAULT_SCOPE = Scope()


class Node:
    def render(self, scope):
        raise NotImplementedError

    def output_name(self):
        return None


class Ref(Node):
    def __init__(self, name, df_id=None):
        self.name = name
        self.df_id = df_id

    def render(self, scope):
        return scope.ref(self.df_id, self.name)

    def output_name(self):
        return self.name


class Star(Node):
    def __init__(self, df_id=None):
        self.df_id = df_id

    def render(self, scope):
        return scope.star(self.df_id)


class Lit(Node):
    def __init__(self, value):
        self.value = value
        self.sql = literal(value)  # checked now, so a bad value fails where it was written

    def render(self, scope):
        return self.sql


class Raw(Node):
    """Fixed SQL text (a function name, an operator) around child nodes:
    ``parts`` alternates text and nodes."""

    def __init__(self, *parts):
        self.parts = parts

    def render(self, scope):
        return "".join(p if isinstance(p, str) else p.render(scope) for p in self.parts)


class SqlText(Node):
    """A user's own SQL expression text (sql_expr, filter("a > 1"))."""

    def __init__(self, text):
        self.text = text

    def render(self, scope):
        return self.text


class Alias(Node):
    def __init__(self, child, name):
        self.child = child
        self.name = name

    def render(self, scope):
        return "%s AS %s" % (self.child.render(scope), quote_name(self.name))

    def render_bare(self, scope):
        return self.child.render(scope)

    def output_name(self):
        return self.name


class SortKey(Node):
    def __init__(self, child, descending=False, nulls_first=None):
        self.child = child
        self.descending = descending
        self.nulls_first = nulls_first

    def render(self, scope):
        text = self.child.render(scope) + (" DESC" if self.descending else " ASC")
        if self.nulls_first is not None:
            text += " NULLS FIRST" if self.nulls_first else " NULLS LAST"
        return text


class Subquery(Node):
    """A DataFrame used inside an expression (x.isin(df))."""

    def __init__(self, frame):
        if frame._params:
            raise NotImplementedError("a DataFrame with query parameters inside an expression (isin)")
        self.frame = frame

    def render(self, scope):
        return self.frame._sql()


class Case(Node):
    def __init__(self, branches, otherwise=None):
        self.branches = branches  # [(cond node, value node)]
        self.otherwise = otherwise

    def render(self, scope):
        parts = ["CASE"]
        for cond, value in self.branches:
            parts.append("WHEN %s THEN %s" % (cond.render(scope), value.render(scope)))
        if self.otherwise is not None:
            parts.append("ELSE " + self.otherwise.render(scope))
        parts.append("END")
        return " ".join(parts)


def strip_alias(node):
    while isinstance(node, Alias):
        node = node.child
    return node


class Column:
    """A column expression. ``Column("name")`` is a reference by name."""

    __slots__ = ("_node",)

    def __init__(self, expr):
        if isinstance(expr, Node):
            self._node = expr
        elif isinstance(expr, str):
            self._node = Star() if expr == "*" else Ref(unquote_name(expr))
        else:
            raise TypeError("Column() takes a column name, not %s: %r" % (type(expr).__name__, expr))

    # -- building ---------------------------------------------------------
    def _new(self, node):
        return type(self)(node)

    def _bin(self, op, other):
        return self._new(Raw("(", self._node, " %s " % op, to_node(other), ")"))

    def _rbin(self, op, other):
        return self._new(Raw("(", to_node(other), " %s " % op, self._node, ")"))

    def _expr_node(self):
        """The expression without any alias (for WHERE, GROUP BY, ON)."""
        return strip_alias(self._node)

    def _output_name(self):
        return self._node.output_name()

    def _sql(self, scope=DEFAULT_SCOPE):
        return self._node.render(scope)

    # Python would turn `a and b` / `if col:` into a silent bool of the object.
    def __bool__(self):
        raise TypeError("a Column has no truth value: use & for AND, | for OR, ~ for NOT "
                        "(with parentheses around comparisons: (a > 1) & (b < 2))")

    __hash__ = object.__hash__

    def __iter__(self):
        raise TypeError("a Column is not iterable")

    def __repr__(self):
        return "Column[%s]" % self._sql()

    # -- comparisons and arithmetic ----------------------------------------
    def __eq__(self, other):
        return self._bin("=", other)

    def __ne__(self, other):
        return self._bin("<>", other)

    def __lt__(self, other):
        return self._bin("<", other)

    def __le__(self, other):
        return self._bin("<=", other)

    def __gt__(self, other):
        return self._bin(">", other)

    def __ge__(self, other):
        return self._bin(">=", other)

    def __add__(self, other):
        return self._bin("+", other)

    def __radd__(self, other):
        return self._rbin("+", other)

    def __sub__(self, other):
        return self._bin("-", other)

    def __rsub__(self, other):
        return self._rbin("-", other)

    def __mul__(self, other):
        return self._bin("*", other)

    def __rmul__(self, other):
        return self._rbin("*", other)

    def __truediv__(self, other):
        return self._bin("/", other)

    def __rtruediv__(self, other):
        return self._rbin("/", other)

    def __mod__(self, other):
        return self._bin("%", other)

    def __rmod__(self, other):
        return self._rbin("%", other)

    def __neg__(self):
        return self._new(Raw("(- ", self._node, ")"))

    def __pos__(self):
        return self

    def __and__(self, other):
        return self._bin("AND", other)

    def __rand__(self, other):
        return self._rbin("AND", other)

    def __or__(self, other):
        return self._bin("OR", other)

    def __ror__(self, other):
        return self._rbin("OR", other)

    def __invert__(self):
        return self._new(Raw("(NOT ", self._node, ")"))

    # -- predicates ---------------------------------------------------------
    def isin(self, *values):
        """``x IN (values)``; values as arguments or one list, or a one-column DataFrame."""
        if len(values) == 1 and isinstance(values[0], (list, tuple, set, frozenset)):
            values = list(values[0])
        if len(values) == 1 and _is_frame(values[0]):
            return self._new(Raw("(", self._node, " IN (", Subquery(values[0]), "))"))
        if not values:
            return self._new(Lit(False))  # IN () is empty: false for every row, as in Spark/Snowpark
        parts = ["(", self._node, " IN ("]
        for i, v in enumerate(values):
            if i:
                parts.append(", ")
            parts.append(to_node(v))
        parts.append("))")
        return self._new(Raw(*parts))

    def is_null(self):
        return self._new(Raw("(", self._node, " IS NULL)"))

    def is_not_null(self):
        return self._new(Raw("(", self._node, " IS NOT NULL)"))

    def equal_null(self, other):
        """Null-safe equality (``IS NOT DISTINCT FROM``)."""
        return self._new(Raw("is_not_distinct_from(", self._node, ", ", to_node(other), ")"))

    def between(self, low, high):
        return self._new(Raw("(", self._node, " BETWEEN ", to_node(low), " AND ", to_node(high), ")"))

    def like(self, pattern):
        return self._bin("LIKE", pattern)

    def ilike(self, pattern):
        return self._bin("ILIKE", pattern)

    def rlike(self, pattern):
        return self._new(Raw("regexp_like(", self._node, ", ", to_node(pattern), ")"))

    def startswith(self, prefix):
        return self._new(Raw("starts_with(", self._node, ", ", to_node(prefix), ")"))

    def endswith(self, suffix):
        return self._new(Raw("ends_with(", self._node, ", ", to_node(suffix), ")"))

    def contains(self, text):
        return self._new(Raw("contains(", self._node, ", ", to_node(text), ")"))

    def substr(self, pos, length):
        return self._new(Raw("substring(", self._node, ", ", to_node(pos), ", ", to_node(length), ")"))

    # -- naming, types, ordering --------------------------------------------
    def alias(self, name):
        return self._new(Alias(self._expr_node(), unquote_name(name)))

    def cast(self, to):
        return self._new(Raw("CAST(", self._expr_node(), " AS %s)" % type_sql(to)))

    def try_cast(self, to):
        return self._new(Raw("TRY_CAST(", self._expr_node(), " AS %s)" % type_sql(to)))

    def over(self, window):
        """This aggregate or window function over ``window`` (a WindowSpec)."""
        from .window import over
        return self._new(over(self, window))

    def asc(self):
        return self._new(SortKey(self._expr_node(), False))

    def desc(self):
        return self._new(SortKey(self._expr_node(), True))

    def asc_nulls_first(self):
        return self._new(SortKey(self._expr_node(), False, True))

    def asc_nulls_last(self):
        return self._new(SortKey(self._expr_node(), False, False))

    def desc_nulls_first(self):
        return self._new(SortKey(self._expr_node(), True, True))

    def desc_nulls_last(self):
        return self._new(SortKey(self._expr_node(), True, False))


def sql_expr(text, allow_alias=False, what="sql_expr()"):
    """A Column of the caller's own SQL expression text. The engine's parser
    checks it is ONE expression (sql.checked_expression): text that would
    end the statement or add to it is refused, naming ``what``. Parenthesised
    unless it may carry an alias (a select item "a + 1 AS b")."""
    text = checked_expression(text, what, select_item=allow_alias)
    if "--" in text:
        text += "\n"  # ends a trailing comment before the text that follows
    return Column(SqlText(text if allow_alias else "(" + text + ")"))


def _is_frame(value):
    from .frame import Frame
    return isinstance(value, Frame)


def to_node(value):
    """A Column's tree, or a literal for any other value."""
    if isinstance(value, Column):
        return value._expr_node()
    if isinstance(value, Node):
        return value
    return Lit(value)


def col_node(value):
    """A Column's tree, or a column reference for a str (function arguments
    name columns, as in Snowpark and PySpark)."""
    if isinstance(value, str):
        return Star() if value == "*" else Ref(unquote_name(value))
    if isinstance(value, Column):
        return value._expr_node()
    raise TypeError("expected a column name or a Column, not %s: %r" % (type(value).__name__, value))


def _case_when(self, condition, value):
    node = self._node
    if not isinstance(node, Case) or node.otherwise is not None:
        raise TypeError("when() continues a when(...) expression: F.when(c1, v1).when(c2, v2).otherwise(v)")
    return self._new(Case(node.branches + [(to_node(condition), to_node(value))]))


def _case_otherwise(self, value):
    node = self._node
    if not isinstance(node, Case) or node.otherwise is not None:
        raise TypeError("otherwise() ends a when(...) expression: F.when(c1, v1).otherwise(v)")
    return self._new(Case(node.branches, to_node(value)))


Column.when = _case_when
Column.otherwise = _case_otherwise
