"""Snowpark-style functions: ``from lakestream.zettapark import functions as F``.

The shared functions (lakestream._frame.functions) returning this
package's Column, plus the Snowpark names: ``when_matched`` /
``when_not_matched`` (merge clauses), ``countDistinct``, ``sql_expr``, ...
A str argument names a column; use ``lit`` for a string value.
"""

import functools as _functools

from .._frame import functions as _core
from .._frame.column import Column as _CoreColumn
from .._frame.column import sql_expr as _sql_expr
from .._frame.merge import MatchedClause as WhenMatchedClause
from .._frame.merge import NotMatchedClause as WhenNotMatchedClause
from .column import CaseExpr, Column


def _wrap(f, cls=Column):
    @_functools.wraps(f)
    def g(*args, **kwargs):
        out = f(*args, **kwargs)
        return cls(out._node) if isinstance(out, _CoreColumn) else out
    return g


col = _wrap(_core.col)
column = _wrap(_core.column)
lit = _wrap(_core.lit)
call_function = _wrap(_core.call_function)
call_builtin = _wrap(_core.call_builtin)
function = _wrap(_core.function)
sum = _wrap(_core.sum)
avg = _wrap(_core.avg)
mean = _wrap(_core.mean)
min = _wrap(_core.min)
max = _wrap(_core.max)
count = _wrap(_core.count)
count_distinct = _wrap(_core.count_distinct)
any_value = _wrap(_core.any_value)
upper = _wrap(_core.upper)
lower = _wrap(_core.lower)
length = _wrap(_core.length)
trim = _wrap(_core.trim)
ltrim = _wrap(_core.ltrim)
rtrim = _wrap(_core.rtrim)
reverse = _wrap(_core.reverse)
concat = _wrap(_core.concat)
concat_ws = _wrap(_core.concat_ws)
substring = _wrap(_core.substring)
substr = _wrap(_core.substr)
replace = _wrap(_core.replace)
split_part = _wrap(_core.split_part)
lpad = _wrap(_core.lpad)
rpad = _wrap(_core.rpad)
repeat = _wrap(_core.repeat)
left = _wrap(_core.left)
right = _wrap(_core.right)
contains = _wrap(_core.contains)
startswith = _wrap(_core.startswith)
endswith = _wrap(_core.endswith)
regexp_like = _wrap(_core.regexp_like)
to_json = _wrap(_core.to_json)
struct = _wrap(_core.struct)
coalesce = _wrap(_core.coalesce)
nullif = _wrap(_core.nullif)
greatest = _wrap(_core.greatest)
least = _wrap(_core.least)
iff = _wrap(_core.iff)
is_null = _wrap(_core.is_null)
not_ = _wrap(_core.not_)
abs = _wrap(_core.abs)
ceil = _wrap(_core.ceil)
floor = _wrap(_core.floor)
sqrt = _wrap(_core.sqrt)
exp = _wrap(_core.exp)
ln = _wrap(_core.ln)
log10 = _wrap(_core.log10)
sign = _wrap(_core.sign)
round = _wrap(_core.round)
pow = _wrap(_core.pow)
mod = _wrap(_core.mod)
current_date = _wrap(_core.current_date)
current_timestamp = _wrap(_core.current_timestamp)
year = _wrap(_core.year)
month = _wrap(_core.month)
day = _wrap(_core.day)
dayofmonth = _wrap(_core.dayofmonth)
hour = _wrap(_core.hour)
minute = _wrap(_core.minute)
second = _wrap(_core.second)
to_date = _wrap(_core.to_date)
to_timestamp = _wrap(_core.to_timestamp)
date_trunc = _wrap(_core.date_trunc)
date_add = _wrap(_core.date_add)
cast = _wrap(_core.cast)
asc = _wrap(_core.asc)
desc = _wrap(_core.desc)
stream_has_data = _wrap(_core.stream_has_data)

when = _wrap(_core.when, CaseExpr)
countDistinct = count_distinct
builtin = call_function
char_length = length
power = pow
ceiling = ceil


def sql_expr(sql):
    """A Column of the caller's own SQL expression text (as Snowpark's
    sql_expr): the engine's parser checks it is one expression."""
    return Column(_sql_expr(sql, what="sql_expr()")._node)


def when_matched(condition=None):
    """A MERGE clause: ``when_matched([condition]).update({...})`` or ``.delete()``."""
    return WhenMatchedClause(condition)


def when_not_matched(condition=None):
    """A MERGE clause: ``when_not_matched([condition]).insert({...})``."""
    return WhenNotMatchedClause(condition)

# window functions (use with .over(Window.partition_by(...).order_by(...)))
from .._frame import window as _window  # noqa: E402

row_number = _wrap(_window.row_number)
rank = _wrap(_window.rank)
dense_rank = _wrap(_window.dense_rank)
percent_rank = _wrap(_window.percent_rank)
cume_dist = _wrap(_window.cume_dist)
ntile = _wrap(_window.ntile)
lag = _wrap(_window.lag)
lead = _wrap(_window.lead)

