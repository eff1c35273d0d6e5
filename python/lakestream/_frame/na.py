"""NULL handling: Snowpark's fillna/dropna, PySpark's na.fill/na.drop."""

from . import types as T
from .column import Raw, Ref, to_node
from .sql import quote_name, unquote_name


def fill_null(frame, value, subset=None):
    """NULLs replaced by ``value`` (or {column: value}) in the columns of a
    matching type (a number fills numeric columns, a str string columns,
    a bool boolean ones), as Snowpark's fillna and PySpark's na.fill."""
    if isinstance(subset, str):
        subset = [subset]
    if isinstance(value, dict):
        if subset is not None:
            raise ValueError("fillna(): give either a dict of values or a subset, not both")
        values = {unquote_name(k).lower(): v for k, v in value.items()}
    else:
        names = subset if subset is not None else frame.columns
        values = {unquote_name(n).lower(): value for n in names}
    fields = {f.name.lower(): f for f in frame.schema.fields}
    unknown = [k for k in values if k not in fields]
    if unknown:
        raise ValueError("fillna(): no column %s; the columns are: %s" % (", ".join(map(repr, unknown)),
                                                                          ", ".join(frame.columns)))
    numeric = (T.IntegerType, T.LongType, T.FloatType, T.DoubleType, T.DecimalType, T.ShortType, T.ByteType)
    mapping = {}
    for low, v in values.items():
        f = fields[low]
        t = f.datatype
        fits = ((isinstance(v, bool) and isinstance(t, T.BooleanType))
                or (not isinstance(v, bool) and isinstance(v, (int, float)) and isinstance(t, numeric))
                or (isinstance(v, str) and isinstance(t, T.StringType))
                or v is None)
        if fits:
            c = frame.column_class(Raw("coalesce(", Ref(f.name), ", ", to_node(v), ")"))
            mapping[low] = (f.name, c)
    return frame._replace_columns(mapping) if mapping else frame


def drop_null(frame, how="any", thresh=None, subset=None):
    """Rows with NULLs removed: how="any" (a NULL in any column of
    ``subset``), "all" (every one NULL), or ``thresh`` (fewer than that
    many non-NULL values)."""
    if how not in ("any", "all"):
        raise ValueError("dropna() how %r is not one of: any, all" % (how,))
    names = [unquote_name(n) for n in ([subset] if isinstance(subset, str) else
                                       (subset if subset is not None else frame.columns))]
    if not names:
        return frame
    refs = [quote_name(n) for n in names]
    if thresh is not None:
        if not isinstance(thresh, int) or isinstance(thresh, bool):
            raise ValueError("dropna() thresh must be an int, not %r" % (thresh,))
        count = " + ".join("(CASE WHEN %s IS NULL THEN 0 ELSE 1 END)" % r for r in refs)
        cond = "(%s) >= %d" % (count, thresh)
    elif how == "any":
        cond = "(%s)" % " AND ".join("%s IS NOT NULL" % r for r in refs)
    else:
        cond = "(%s)" % " OR ".join("%s IS NOT NULL" % r for r in refs)
    block = frame._open_block()
    block.where.append(cond)
    return frame._derive(block)
