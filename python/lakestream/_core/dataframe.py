"""pandas DataFrames (and dicts of numpy arrays) as tables, as DuckDB reads
them: by the name of the Python variable that holds one (a replacement scan:
SELECT * FROM df), registered under a name (register), or from_df(). Each
column is handed to the engine as one typed array (lakestream._lakestream's
register_table / the replacement scan copy it into the engine's chunks), never
as SQL text. The types: docs/python.md "DataFrames by name"."""

import datetime
import sys

from .errors import NotSupportedError, ProgrammingError

_PACKAGE = __name__.split(".")[0]


def caller_frame():
    """The frame of the code that called into the package: the first frame
    up the stack whose module is not lakestream's own."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != _PACKAGE and not module.startswith(_PACKAGE + "."):
            return frame
        frame = frame.f_back
    return None


def _is_dataframe(obj):
    pd = sys.modules.get("pandas")  # never imported here: a frame can only exist once pandas is
    return pd is not None and isinstance(obj, pd.DataFrame)


def _is_array_dict(obj):
    """A dict of numpy arrays (only those: any other dict is not a table)."""
    np = sys.modules.get("numpy")
    return (np is not None and isinstance(obj, dict) and bool(obj)
            and all(isinstance(k, str) and isinstance(v, np.ndarray) for k, v in obj.items()))


def is_table(obj):
    return _is_dataframe(obj) or _is_array_dict(obj)


class Lookup:
    """The replacement scan of one statement: a name the statement reads and
    the database does not have is looked up as a variable of the caller's
    frame, then of each frame up the stack (locals, then globals), as DuckDB
    does. A conversion error is kept in `error` (the statement then fails as
    "not found" and the caller raises this error instead)."""

    def __init__(self, frame):
        self._frame = frame
        self.error = None

    def __call__(self, name):
        try:
            obj = self._find(name)
            return None if obj is None else columns(obj, name)
        except BaseException as e:  # noqa: B036 - re-raised by the caller after the statement
            self.error = e
            return None

    def _find(self, name):
        frame = self._frame
        lower = name.lower()
        while frame is not None:
            for scope in (frame.f_locals, frame.f_globals):
                obj = scope.get(name)
                if obj is not None and is_table(obj):
                    return obj
                if lower != name:
                    continue
                # An unquoted name may be spelled in another case in Python (myDF).
                for key, value in scope.items():
                    if isinstance(key, str) and key.lower() == lower and is_table(value):
                        return value
            frame = frame.f_back
        return None

    def release(self):
        self._frame = None


def columns(obj, what):
    """The columns of a DataFrame or dict of arrays as (name, kind, values,
    valid) for the native register_table: values a contiguous numpy array of
    the kind's type, valid None or a numpy bool array (False: NULL)."""
    import numpy as np
    if _is_dataframe(obj):
        out = [_column(str(name), obj.iloc[:, i], what, np) for i, name in enumerate(obj.columns)]
    elif isinstance(obj, dict):
        out = [_column(str(name), values, what, np) for name, values in obj.items()]
    else:
        raise ProgrammingError(f"{what}: a pandas DataFrame or a dict of numpy arrays, not {type(obj).__name__}")
    if not out:
        raise ProgrammingError(f"{what}: the DataFrame has no columns")
    return out


def _valid(np, missing):
    """The validity array for a bool array of missing values, None without any."""
    return ~missing if missing.any() else None


def _column(name, data, what, np):
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(data, pd.Series):
        return _series(name, data, what, np, pd)
    if not isinstance(data, np.ndarray):
        data = np.asarray(data)
    if data.ndim != 1:
        raise ProgrammingError(f"{what}: column {name} is a {data.ndim}-dimensional array; give one dimension")
    return _array(name, data, what, np, pd)


def _series(name, s, what, np, pd):
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        inner = dtype.categories.dtype
        s = s.astype(inner) if inner.kind == "O" or not s.isna().any() else s.astype(object)
        return _series(name, s, what, np, pd)
    if isinstance(dtype, pd.DatetimeTZDtype):
        return _series(name, s.dt.tz_convert("UTC").dt.tz_localize(None), what, np, pd)
    if isinstance(dtype, np.dtype):
        return _array(name, s.to_numpy(), what, np, pd)
    # A pandas extension type (Int64, Float64, boolean, string): a mask of its own.
    missing = np.asarray(s.isna(), dtype=bool)
    kind = getattr(dtype, "kind", "O")
    if kind in "iub":
        target = np.bool_ if kind == "b" else np.int64
        values = s.to_numpy(dtype=target, na_value=False if kind == "b" else 0)
        spec = _array(name, values, what, np, pd)
        return (spec[0], spec[1], spec[2], _valid(np, missing))
    if kind == "f":
        values = s.to_numpy(dtype=np.float64, na_value=np.nan)
        return (name, "float64", np.ascontiguousarray(values), _valid(np, missing | np.isnan(values)))
    return _objects(name, s.to_numpy(dtype=object, na_value=None), what, np, pd, missing)


def _array(name, a, what, np, pd):
    kind = a.dtype.kind
    if kind == "b":
        return (name, "bool", np.ascontiguousarray(a, dtype=np.bool_), None)
    if kind in "iu":
        if a.dtype.itemsize < 4 or (kind == "i" and a.dtype.itemsize == 4):
            return (name, "int32", np.ascontiguousarray(a, dtype=np.int32), None)
        if kind == "u" and a.dtype.itemsize == 8 and a.size and a.max() > np.iinfo(np.int64).max:
            raise NotSupportedError(f"{what}: column {name} holds unsigned 64-bit values above BIGINT's largest, "
                                    f"{np.iinfo(np.int64).max}; convert it to float64 or str first")
        return (name, "int64", np.ascontiguousarray(a, dtype=np.int64), None)
    if kind == "f":
        values = np.ascontiguousarray(a, dtype=np.float64)
        return (name, "float64", values, _valid(np, np.isnan(values)))
    if kind == "M":
        values = np.ascontiguousarray(a.astype("datetime64[us]").view(np.int64))
        return (name, "timestamp", values, _valid(np, np.isnat(a)))
    if kind in "OUS":
        return _objects(name, np.asarray(a, dtype=object), what, np, pd, None)
    raise NotSupportedError(f"{what}: column {name} of numpy type {a.dtype} is not supported yet; the supported "
                            "column types are bool, integers, floats, datetime64, str (docs/python.md)")


def _objects(name, a, what, np, pd, missing):
    """An object column: str/bytes, or Python dates, datetimes, bools,
    ints or floats (with None/NaN/NaT/pd.NA as NULL)."""
    if missing is None:
        missing = np.asarray(pd.isna(a), dtype=bool) if pd is not None else np.array([v is None for v in a], dtype=bool)
    present = a[~missing]
    first = present[0] if len(present) else ""
    if isinstance(first, (str, bytes)):
        return (name, "str", np.ascontiguousarray(a, dtype=object), _valid(np, missing))
    if isinstance(first, datetime.datetime) and pd is not None:
        stamps = pd.to_datetime(pd.Series(a, dtype=object), utc=first.tzinfo is not None)
        return _series(name, stamps, what, np, pd)
    if isinstance(first, datetime.date):
        days = np.array([v if not m else None for v, m in zip(a, missing)], dtype="datetime64[D]")
        return (name, "date", np.ascontiguousarray(days.view(np.int64).astype(np.int32)), _valid(np, missing))
    for python_type, dtype in ((bool, np.bool_), (int, np.int64), (float, np.float64)):
        if isinstance(first, python_type) and all(isinstance(v, python_type) for v in present):
            filled = a.copy()
            filled[missing] = python_type(0)
            spec = _array(name, filled.astype(dtype), what, np, pd)
            valid = spec[3] if spec[3] is not None else None
            both = ~missing if valid is None else (valid & ~missing)
            return (spec[0], spec[1], spec[2], both if not both.all() else None)
    raise NotSupportedError(f"{what}: column {name} holds Python {type(first).__name__} objects, which are not "
                            "supported yet; convert the column to str, a number or datetime64 first "
                            "(e.g. df[\"%s\"].astype(str))" % name)
