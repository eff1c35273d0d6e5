"""Snowpark-style functions: ``from lakestream.zettapark import functions as F``.

The shared functions (lakestream._frame.functions) returning this
package's Column, plus the Snowpark names: ``when_matched`` /
``when_not_matched`` (merge clauses), ``countDistinct``, ``sql_expr``, ...
A str argument names a column; use ``lit`` for a string value.
"""

import functools as _functools

from .._frame import functions as _core
from .._frame.column import Column as _CoreColumn
from .._frame.column import Raw as _Raw
from .._frame.merge import MatchedClause as WhenMatchedClause
from .._frame.merge import NotMatchedClause as WhenNotMatchedClause
from .column import CaseExpr, Column


def _wrap(f, cls=Column):
    @_functools.wraps(f)
    def g(*args, **kwargs):
        out = f(*args, **kwargs)
        return cls(out._node) if isinstance(out, _CoreColumn) else out
    return g


_NAMES = [
    "col", "column", "lit", "call_function", "call_builtin", "function",
    "sum", "avg", "mean", "min", "max", "count", "count_distinct", "any_value",
    "upper", "lower", "length", "trim", "ltrim", "rtrim", "reverse", "concat", "concat_ws",
    "substring", "substr", "replace", "split_part", "lpad", "rpad", "repeat", "left", "right",
    "contains", "startswith", "endswith", "regexp_like", "to_json", "struct",
    "coalesce", "nullif", "greatest", "least", "iff", "is_null", "not_",
    "abs", "ceil", "floor", "sqrt", "exp", "ln", "log10", "sign", "round", "pow", "mod",
    "current_date", "current_timestamp", "year", "month", "day", "dayofmonth", "hour", "minute", "second",
    "to_date", "to_timestamp", "date_trunc", "date_add", "cast", "asc", "desc", "stream_has_data",
]
for _n in _NAMES:
    globals()[_n] = _wrap(getattr(_core, _n))

when = _wrap(_core.when, CaseExpr)
countDistinct = count_distinct  # noqa: F821 (defined by the loop above)
builtin = call_function  # noqa: F821
upper_case = upper  # noqa: F821
lower_case = lower  # noqa: F821
char_length = length  # noqa: F821
power = pow  # noqa: F821
ceiling = ceil  # noqa: F821


def sql_expr(sql):
    """A Column of the caller's own SQL expression text (as Snowpark's
    sql_expr): the text is the user's SQL, used as written."""
    if not isinstance(sql, str) or not sql.strip():
        raise ValueError("sql_expr() takes SQL expression text, not %r" % (sql,))
    return Column(_Raw("(", sql, ")"))


def when_matched(condition=None):
    """A MERGE clause: ``when_matched([condition]).update({...})`` or ``.delete()``."""
    return WhenMatchedClause(condition)


def when_not_matched(condition=None):
    """A MERGE clause: ``when_not_matched([condition]).insert({...})``."""
    return WhenNotMatchedClause(condition)
