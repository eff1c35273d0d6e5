"""Python scalar functions registered on a connection: DuckDB's
create_function / remove_function, and what PySpark's udf and pandas_udf
build on. The engine calls the function once per row, or once per batch of
rows with pandas Series (type='pandas'; docs/python.md, "Python functions")."""

import datetime
import decimal
import inspect

from .errors import ProgrammingError

# Python annotation -> SQL type, for functions declared by their annotations.
_ANNOTATION_TYPES = {
    int: "BIGINT",
    float: "DOUBLE",
    str: "VARCHAR",
    bool: "BOOLEAN",
    bytes: "VARCHAR",
    decimal.Decimal: "DECIMAL(38,10)",
    datetime.date: "DATE",
    datetime.datetime: "TIMESTAMP",
}


def sql_type(spec, what):
    """The SQL type text of `spec`: a type name ("BIGINT", "decimal(10,2)"),
    a Python type (int, str, ...), or an object with a SQL spelling (a
    PySpark DataType's simpleString())."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, type) and spec in _ANNOTATION_TYPES:
        return _ANNOTATION_TYPES[spec]
    to_sql = getattr(spec, "sql", None)  # the frame types (LongType(), ...) spell themselves
    if callable(to_sql):
        return to_sql()
    raise ProgrammingError(
        f"{what}: {spec!r} is not a type; give a SQL type name such as 'BIGINT', 'DOUBLE', "
        "'VARCHAR', 'DECIMAL(18,2)', or one of int, float, str, bool, bytes, decimal.Decimal, "
        "datetime.date, datetime.datetime")


def _annotations(function):
    try:
        return inspect.get_annotations(function, eval_str=True)
    except (TypeError, NameError, AttributeError):
        return {}


def declare(name, function, parameters, return_type):
    """(parameter type texts or None, return type text) for create_function."""
    if not callable(function):
        raise ProgrammingError(f"create_function({name!r}): the function must be callable, "
                               f"not {type(function).__name__}")
    what = f"create_function({name!r})"
    hints = _annotations(function)
    if parameters is not None:
        if isinstance(parameters, (str, bytes)) or not hasattr(parameters, "__iter__"):
            raise ProgrammingError(f"{what}: parameters must be a list of types, e.g. ['BIGINT', 'VARCHAR']")
        parameters = [sql_type(p, what) for p in parameters]
    else:
        # Annotations declare the parameters when every one has one;
        # otherwise the function takes its arguments as the query gives them.
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            signature = None
        if signature is not None:
            annotated = [hints.get(p) for p in signature.parameters]
            if annotated and all(a in _ANNOTATION_TYPES for a in annotated):
                parameters = [_ANNOTATION_TYPES[a] for a in annotated]
    if return_type is None:
        returns = hints.get("return")
        if returns not in _ANNOTATION_TYPES:
            raise ProgrammingError(
                f"{what}: give return_type= (e.g. 'BIGINT') or annotate the function's return type "
                "(def f(x: int) -> int)")
        return_type = returns
    return parameters, sql_type(return_type, what)


def null_handling_flag(null_handling, name):
    if null_handling in ("default", None):
        return False
    if null_handling == "special":
        return True
    raise ProgrammingError(f"create_function({name!r}): null_handling must be 'default' (NULL in, NULL out "
                           f"without a call) or 'special' (called with None), not {null_handling!r}")


def vectorized(name, function):
    """The batch callable the native create_vectorized_function takes: the
    batch's arguments as pandas Series (one per argument, NULL as pandas'
    missing value) to `function`, its result (a Series, numpy array or list
    of one value per row) back as the columns register_table takes."""
    from . import _optional, dataframe

    def call(native):
        batch = _optional.to_pandas(native)
        out = function(*(batch.iloc[:, i] for i in range(batch.shape[1])))
        pd = _optional._pandas()
        if isinstance(out, pd.DataFrame):
            if out.shape[1] != 1:
                raise ProgrammingError(f"function {name}: a vectorized function returns one column, "
                                       f"not a DataFrame of {out.shape[1]}")
        else:
            if not hasattr(out, "__len__") or isinstance(out, (str, bytes)):
                raise ProgrammingError(f"function {name}: a vectorized function returns a pandas Series "
                                       f"(one value per row), not {type(out).__name__}")
            out = pd.DataFrame({"result": pd.Series(out).reset_index(drop=True)})
        return dataframe.columns(out, f"the result of {name}")

    return call
