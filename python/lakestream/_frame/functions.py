"""Column functions (snake_case, the names Snowpark and PySpark share).

A str argument names a column (``upper("name")``), as in both APIs; use
``lit`` for a string value. Each function maps to one engine function of
the same meaning; the SQL is ``name(args)``.
"""

import re

from .column import Case, Column, Lit, Raw, Ref, Star, col_node, to_node
from .sql import unquote_name


def col(name, df_id=None):
    """A column by name; `back ticks` or "double quotes" around it are stripped."""
    if not isinstance(name, str):
        raise TypeError("col() takes a column name, not %s: %r" % (type(name).__name__, name))
    if name == "*":
        return Column(Star(df_id))
    return Column(Ref(unquote_name(name), df_id))


column = col


def lit(value):
    if isinstance(value, Column):
        return value
    return Column(Lit(value))


def call_function(name, *args):
    """``name(args)`` for any engine function; args are Columns or column names."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", name):
        raise ValueError("%r is not a function name" % (name,))
    parts = [name + "("]
    for i, a in enumerate(args):
        if i:
            parts.append(", ")
        parts.append(col_node(a))
    parts.append(")")
    return Column(Raw(*parts))


call_builtin = call_function
function = call_function


def _fn(sql_name):
    def f(*args):
        return call_function(sql_name, *args)
    f.__name__ = sql_name
    f.__doc__ = "``%s(...)``; str arguments name columns." % sql_name
    return f


def _fn_lits(sql_name, n_cols):
    """A function whose first n_cols arguments are columns and the rest values."""
    def f(*args):
        parts = [sql_name + "("]
        for i, a in enumerate(args):
            if i:
                parts.append(", ")
            parts.append(col_node(a) if i < n_cols else to_node(a))
        parts.append(")")
        return Column(Raw(*parts))
    f.__name__ = sql_name
    return f


# aggregates
sum = _fn("sum")
avg = _fn("avg")
mean = _fn("avg")
min = _fn("min")
max = _fn("max")
any_value = _fn("any_value")
first_value = _fn("first")


def count(e="*"):
    node = col_node(e)
    if isinstance(node, Star):
        return Column(Raw("count(*)"))
    return Column(Raw("count(", node, ")"))


def count_distinct(*cols):
    if len(cols) != 1:
        raise NotImplementedError("count_distinct of %d columns; count one column (or a struct of them)" % len(cols))
    return Column(Raw("count(DISTINCT ", col_node(cols[0]), ")"))


# strings
upper = _fn("upper")
lower = _fn("lower")
length = _fn("length")
trim = _fn("trim")
ltrim = _fn("ltrim")
rtrim = _fn("rtrim")
reverse = _fn("reverse")
concat = _fn("concat")


def concat_ws(sep, *cols):
    parts = ["concat_ws(", to_node(sep)]
    for c in cols:
        parts.extend([", ", col_node(c)])
    parts.append(")")
    return Column(Raw(*parts))


substring = _fn_lits("substring", 1)
substr = substring
replace = _fn_lits("replace", 1)
split_part = _fn_lits("split_part", 1)
lpad = _fn_lits("lpad", 1)
rpad = _fn_lits("rpad", 1)
repeat = _fn_lits("repeat", 1)
left = _fn_lits("left", 1)
right = _fn_lits("right", 1)
contains = _fn_lits("contains", 1)
startswith = _fn_lits("starts_with", 1)
endswith = _fn_lits("ends_with", 1)
regexp_like = _fn_lits("regexp_like", 1)
to_json = _fn("to_json")
struct = _fn("struct")

# null handling and conditionals
coalesce = _fn("coalesce")
nullif = _fn("nullif")
greatest = _fn("greatest")
least = _fn("least")


def iff(condition, expr1, expr2):
    return Column(Raw("iff(", to_node(condition), ", ", to_node(expr1), ", ", to_node(expr2), ")"))


def when(condition, value):
    """CASE WHEN: ``when(c1, v1).when(c2, v2).otherwise(v)``; values are literals or Columns."""
    return Column(Case([(to_node(condition), to_node(value))]))


def is_null(e):
    return Column(Raw("(", col_node(e), " IS NULL)"))


def not_(e):
    return Column(Raw("(NOT ", col_node(e), ")"))


# numbers
abs = _fn("abs")
ceil = _fn("ceil")
floor = _fn("floor")
sqrt = _fn("sqrt")
exp = _fn("exp")
ln = _fn("ln")
log10 = _fn("log10")
sign = _fn("sign")
round = _fn_lits("round", 1)
pow = _fn("pow")
mod = _fn("mod")

# dates and times
current_date = _fn("current_date")
current_timestamp = _fn("current_timestamp")
year = _fn("year")
month = _fn("month")
dayofmonth = _fn("day")
day = _fn("day")
hour = _fn("hour")
minute = _fn("minute")
second = _fn("second")
to_date = _fn_lits("to_date", 1)
to_timestamp = _fn_lits("to_timestamp", 1)


def date_trunc(part, e):
    return Column(Raw("date_trunc(", to_node(part), ", ", col_node(e), ")"))


def date_add(e, days):
    return Column(Raw("date_add(", col_node(e), ", ", to_node(days), ")"))


def cast(e, to):
    return Column(col_node(e)).cast(to)


def asc(e):
    return Column(col_node(e)).asc()


def desc(e):
    return Column(col_node(e)).desc()


def stream_has_data(stream_name):
    return Column(Raw("stream_has_data(", Lit(stream_name), ")"))
