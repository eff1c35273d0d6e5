"""read_parquet / read_csv / read_json, DuckDB's Python readers, on the
engine's read_files() (docs/pipelines.md "read_files()"). Each keyword is
honoured or refused by name."""

import os

from .errors import NotSupportedError, ProgrammingError


def _literal(text):
    return "'" + str(text).replace("'", "''") + "'"


def _paths(path):
    if isinstance(path, (list, tuple)):
        if not path:
            raise ProgrammingError("read_*(): the list of paths is empty")
        return "list_value(" + ", ".join(_literal(os.fspath(p)) for p in path) + ")"
    if not isinstance(path, (str, os.PathLike)):
        raise ProgrammingError(f"read_*(): a path (str) or a list of paths, not {type(path).__name__}")
    return _literal(os.fspath(path))


def _bool(name, value):
    if not isinstance(value, bool):
        raise ProgrammingError(f"read_*({name}=...): True or False, not {value!r}")
    return "true" if value else "false"


def _one_char(name, value):
    if not isinstance(value, str) or len(value) != 1:
        raise ProgrammingError(f"read_csv({name}=...): one character, not {value!r}")
    return _literal(value)


def _refuse(function, options, supported):
    if options:
        name = sorted(options)[0]
        raise NotSupportedError(f"{function}({name}=...) is not supported yet; {function} takes {supported}")


def read_files_query(path, fmt, arguments):
    named = "".join(f", {k} => {v}" for k, v in arguments)
    return f"SELECT * FROM read_files({_paths(path)}, format => {_literal(fmt)}{named})"


def parquet_query(path, **options):
    _refuse("read_parquet", options, "a path or a list of paths")
    return read_files_query(path, "parquet", [])


def csv_query(path, header=None, sep=None, delimiter=None, delim=None, quotechar=None, quote=None, **options):
    _refuse("read_csv", options, "header, sep (delimiter, delim), quotechar (quote)")
    arguments = []
    if header is not None:
        arguments.append(("header", _bool("header", header)))
    separators = [s for s in (sep, delimiter, delim) if s is not None]
    if len(separators) > 1:
        raise ProgrammingError("read_csv(): give the separator once (sep, delimiter or delim)")
    if separators:
        arguments.append(("delimiter", _one_char("sep", separators[0])))
    quotes = [q for q in (quotechar, quote) if q is not None]
    if quotes:
        arguments.append(("quote", _one_char("quotechar", quotes[0])))
    return read_files_query(path, "csv", arguments)


def json_query(path, **options):
    _refuse("read_json", options, "a path or a list of paths (JSON lines, or a whole-file array or object)")
    return read_files_query(path, "json", [])


def _cell(value):
    """A pandas/numpy cell as the Python value a SQL literal is made from;
    missing values (None, NaN, NaT) are NULL, as pandas means them."""
    if value is None:
        return None
    try:
        import math
        if isinstance(value, float) and math.isnan(value):
            return None
    except TypeError:
        pass
    if type(value).__name__ in ("NaTType",):
        return None
    to_py = getattr(value, "to_pydatetime", None)
    if callable(to_py):
        return to_py()
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        return _cell(item())
    return value


def from_df_query(df):
    """The rows of a pandas DataFrame as a query (its rows become a VALUES
    list: meant for small frames; write a large one to Parquet and read that)."""
    from .._frame.sql import literal, quote_name
    columns = getattr(df, "columns", None)
    if columns is None or not hasattr(df, "itertuples"):
        raise ProgrammingError(f"from_df(): a pandas DataFrame, not {type(df).__name__}")
    names = [str(c) for c in columns]
    if not names:
        raise ProgrammingError("from_df(): the DataFrame has no columns")
    if len(df) == 0:
        raise NotSupportedError("from_df() of a DataFrame without rows is not supported yet (its column types "
                                "cannot be told from values); write it to Parquet and use read_parquet()")
    rows = []
    for record in df.itertuples(index=False, name=None):
        rows.append("(" + ", ".join(literal(_cell(v)) for v in record) + ")")
    return "SELECT * FROM (VALUES %s) AS %s(%s)" % (", ".join(rows), quote_name("df"),
                                                    ", ".join(quote_name(n) for n in names))
