"""pyspark.sql.functions: the shared functions with PySpark's names.

A str argument names a column (``upper("name")``); use ``lit`` for a
string value. Every function returns a pyspark Column.
"""

import re as _re

from ..._core.errors import ParserException as _ParserException
from ..._frame import functions as _f
from ..._frame.sql import unquote_name as _unquote_name
from ..._frame.column import Raw, col_node, sql_expr, to_node
from .column import Column, wrap
from .udf import PandasUDFType, UserDefinedFunction, pandas_udf, udf  # noqa: F401  (F.udf, F.pandas_udf)


def _w(f, name=None):
    def g(*args, **kwargs):
        return wrap(f(*args, **kwargs))
    g.__name__ = name or getattr(f, "__name__", "function")
    g.__doc__ = f.__doc__
    return g


def col(name):
    """A column by name; `back ticks` around it are stripped (col("`__change_type`"))."""
    return wrap(_f.col(name))


column = col


def lit(value):
    return wrap(_f.lit(value))


# "<expression> [AS] name" at the end of expr()'s text: Spark's expr() takes
# an alias ("a * 2 AS doubled").
_TRAILING_ALIAS = _re.compile(r'^(.*?\S)\s+(?:[Aa][Ss]\s+)?("(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*)\s*$',
                              _re.S)


def expr(sql_text):
    """A SQL expression written as text, as in Spark (``expr("amount * 2")``,
    ``expr("amount * 2 AS doubled")``). The engine's parser checks that the
    text (without a trailing alias) is one expression; it is put in
    parentheses and not otherwise changed, and the alias names the column."""
    try:
        return wrap(sql_expr(sql_text, what="expr()"))
    except _ParserException as first:
        aliased = _TRAILING_ALIAS.match(sql_text) if isinstance(sql_text, str) else None
        if aliased:
            try:
                return wrap(sql_expr(aliased.group(1), what="expr()")).alias(_unquote_name(aliased.group(2)))
            except _ParserException:
                pass
        raise first


def when(condition, value):
    return wrap(_f.when(condition, value))


def count(e="*"):
    return wrap(_f.count(e))


def countDistinct(*cols):
    return wrap(_f.count_distinct(*cols))


count_distinct = countDistinct


def sum_distinct(e):
    return Column(Raw("sum(DISTINCT ", col_node(e), ")"))


sumDistinct = sum_distinct


def isnull(e):
    return wrap(_f.is_null(e))


def isnotnull(e):
    return Column(Raw("(", col_node(e), " IS NOT NULL)"))


def struct(*cols):
    """struct(a, b) / struct([a, b]): a STRUCT whose fields are named after the columns."""
    if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
        cols = tuple(cols[0])
    return wrap(_f.struct(*cols))


def to_json(e, options=None):
    if options:
        raise NotImplementedError("to_json(options=...): lakestream writes JSON one way (docs/sinks.md Formats); "
                                  "drop the options")
    return wrap(_f.to_json(e))


def date_format(e, fmt):
    return Column(Raw("strftime(", col_node(e), ", ", to_node(fmt), ")"))


def concat_ws(sep, *cols):
    return wrap(_f.concat_ws(sep, *cols))


def asc(e):
    return wrap(_f.asc(e))


def desc(e):
    return wrap(_f.desc(e))


_SAME = ["sum", "avg", "mean", "min", "max", "upper", "lower", "length", "trim", "ltrim", "rtrim", "reverse",
         "concat", "substring", "coalesce", "greatest", "least", "abs", "ceil", "floor", "sqrt", "exp",
         "log10", "round", "pow", "year", "month", "dayofmonth", "hour", "minute", "second", "to_date",
         "to_timestamp", "date_trunc", "current_date", "current_timestamp", "lpad", "rpad", "repeat",
         "nullif", "any_value", "cast"]
for _name in _SAME:
    globals()[_name] = _w(getattr(_f, _name), _name)
first = _w(_f.first_value, "first")
ln = log = _w(_f.ln, "ln")
power = globals()["pow"]
instr = None
del instr
startswith = _w(_f.startswith, "startswith")
endswith = _w(_f.endswith, "endswith")
regexp_like = rlike = _w(_f.regexp_like, "regexp_like")
__all__ = [n for n in list(globals()) if not n.startswith("_")]


# -- window functions (use with .over(Window...)) -----------------------------
from ..._frame import window as _window  # noqa: E402


def row_number():
    return wrap(_window.row_number())


def rank():
    return wrap(_window.rank())


def dense_rank():
    return wrap(_window.dense_rank())


def percent_rank():
    return wrap(_window.percent_rank())


def cume_dist():
    return wrap(_window.cume_dist())


def ntile(n):
    return wrap(_window.ntile(n))


def lag(col, offset=1, default=None):
    return wrap(_window.lag(col, offset, default))


def lead(col, offset=1, default=None):
    return wrap(_window.lead(col, offset, default))

