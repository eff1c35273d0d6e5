"""SQL text from Python values and user-supplied names.

Every piece of SQL the DataFrame layers generate from user input passes
through one of the helpers here: names through ``quote_name`` (which is
``lakestream.quote_identifier``), values through ``literal``, type names
through ``type_sql``. Nothing else pastes user strings into statements.
"""

import datetime
import decimal
import math
import re

_core_quote = None


def quote_name(name):
    """``name`` as a quoted SQL identifier, safe whatever it holds."""
    global _core_quote
    if not isinstance(name, str):
        raise TypeError("a column or table name must be a str, not %s: %r" % (type(name).__name__, name))
    if _core_quote is None:
        try:
            from lakestream import quote_identifier as q  # the core's one quoting rule
        except ImportError:  # the SQL-generation tests run without the extension
            def q(n):
                return '"' + n.replace('"', '""') + '"'
        _core_quote = q
    return _core_quote(name)


def checked_expression(text, what, select_item=False):
    """A user's SQL expression text, checked by the engine's parser to be
    exactly ONE expression (select_item: one select-list item, "a + 1 AS b"
    or "*"): no ';', no second statement, no clause after it. Only such text
    is spliced into the statements the DataFrame layers build; anything else
    is a ParserException naming ``what`` (the call it was given to)."""
    if not isinstance(text, str):
        raise TypeError("%s takes SQL expression text, not %s: %r" % (what, type(text).__name__, text))
    if not text.strip():
        raise ValueError("%s takes a SQL expression as non-empty text, not %r" % (what, text))
    import lakestream
    from lakestream import _lakestream
    error = _lakestream.check_expression(text, select_item)
    if error:
        raise lakestream.ParserException(
            "%s: %r is not one SQL expression: %s\nPass one expression (such as \"a > 1\"%s); statements run "
            "with session.sql()" % (what, text, error.rstrip(), ", optionally with AS name" if select_item else ""))
    return text


def unquote_name(name):
    """The identifier a user wrote: `back ticks` and "double quotes" are
    stripped (a doubled quote inside stands for one), anything else is the
    name itself. Snowpark and Spark code writes F.col("`__change_type`")."""
    if not isinstance(name, str):
        raise TypeError("a column or table name must be a str, not %s: %r" % (type(name).__name__, name))
    if len(name) >= 2:
        for q in ('`', '"'):
            if name[0] == q and name[-1] == q:
                inner = name[1:-1]
                # a lone quote inside would mean the name is not one quoted identifier
                if q not in inner.replace(q + q, ""):
                    return inner.replace(q + q, q)
    return name


def quote_user_name(name):
    """A user's name (possibly already quoted) as a quoted identifier."""
    return quote_name(unquote_name(name))


def string_literal(text):
    return "'" + text.replace("'", "''") + "'"


def literal(value):
    """``value`` as a SQL literal of the type lakestream maps it to:
    None NULL, bool BOOLEAN, int INTEGER/BIGINT/DECIMAL(38,0), float DOUBLE,
    Decimal DECIMAL, str VARCHAR, date DATE, datetime TIMESTAMP (aware ones
    converted to UTC), dict STRUCT. Anything else is a TypeError."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        if abs(value) >= 10 ** 38:
            raise ValueError("integer %d is too large for a SQL literal (DECIMAL(38,0) holds 38 digits)" % value)
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "CAST('NaN' AS DOUBLE)"
        if math.isinf(value):
            return "CAST('%s' AS DOUBLE)" % ("inf" if value > 0 else "-inf")
        text = repr(value)
        # an exponent makes the parser read a DOUBLE (not a DECIMAL), exactly
        return text if ("e" in text or "E" in text) else text + "e0"
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError("Decimal %s has no SQL literal (DECIMAL holds finite values only)" % value)
        sign, digits, exp = value.as_tuple()
        scale = max(0, -exp)
        precision = max(len(digits) + max(exp, 0), scale, 1)
        if precision > 38:
            raise ValueError("Decimal %s needs %d digits; DECIMAL holds at most 38" % (value, precision))
        return "CAST(%s AS DECIMAL(%d,%d))" % (string_literal(format(value, "f")), precision, scale)
    if isinstance(value, str):
        return string_literal(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return "TIMESTAMP " + string_literal(value.isoformat(sep=" "))
    if isinstance(value, datetime.date):
        return "DATE " + string_literal(value.isoformat())
    if isinstance(value, dict):
        if not value:
            raise ValueError("an empty dict has no SQL literal (a STRUCT needs at least one field)")
        parts = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError("a STRUCT literal needs str keys, not %r" % (k,))
            parts.append(string_literal(k))
            parts.append(literal(v))
        return "named_struct(" + ", ".join(parts) + ")"
    if isinstance(value, (list, tuple)):
        raise NotImplementedError(
            "a list literal (%r): lakestream SQL has no list constructor yet; "
            "read lists from a table instead" % (value,))
    raise TypeError("no SQL literal for a %s value: %r" % (type(value).__name__, value))


# Type names a user may pass as text to cast(): letters, digits, spaces and
# the punctuation of DECIMAL(10,2), INT[], ARRAY<INT>, STRUCT<a: INT>; no
# quotes, semicolons or comments, so the text cannot end the statement.
_TYPE_TEXT = re.compile(r"^[A-Za-z][A-Za-z0-9_ ,()<>:\[\]]*$")

_TYPE_ALIASES = {
    "long": "BIGINT", "int": "INTEGER", "integer": "INTEGER", "bigint": "BIGINT",
    "string": "VARCHAR", "str": "VARCHAR", "text": "VARCHAR", "varchar": "VARCHAR",
    "double": "DOUBLE", "float": "FLOAT", "bool": "BOOLEAN", "boolean": "BOOLEAN",
    "date": "DATE", "timestamp": "TIMESTAMP", "timestamp_ntz": "TIMESTAMP_NTZ",
    "decimal": "DECIMAL(38,0)", "number": "DECIMAL(38,0)", "numeric": "DECIMAL(38,0)",
}


def _balanced(text):
    """Parentheses that never close more than they opened, so type text
    cannot close the CAST( it is put in."""
    depth = 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def type_sql(t):
    """The SQL spelling of a type given as a DataType object or as text."""
    if hasattr(t, "sql") and callable(t.sql):
        return t.sql()
    if isinstance(t, str):
        text = t.strip()
        alias = _TYPE_ALIASES.get(text.lower())
        if alias:
            return alias
        if not _TYPE_TEXT.match(text) or not _balanced(text):
            raise ValueError("%r is not a type name (examples: 'BIGINT', 'DECIMAL(10,2)', 'VARCHAR')" % (t,))
        return text
    raise TypeError("a type must be a DataType or a type name, not %s: %r" % (type(t).__name__, t))
