"""Python UDFs as PySpark writes them: ``F.udf(f, returnType)``, the
``@udf(...)`` decorator, ``spark.udf.register(name, f, returnType)``, and
``F.pandas_udf`` (Series to Series). Each becomes a scalar function of the
session's connection (the engine calls a udf once per row, with None for
NULL as Spark does, and a pandas_udf once per batch of rows with pandas
Series) and a call of it is a Column."""

import itertools
import re

from ..._core.functions import sql_type
from ..._frame import functions as _f
from ..errors import AnalysisException
from .column import wrap
from .types import StringType

_ids = itertools.count(1)


def _return_sql(return_type, what):
    if return_type is None:
        return_type = StringType()  # PySpark's default
    sql = getattr(return_type, "sql", None)
    if callable(sql):
        return sql()
    return sql_type(return_type, what)


class UserDefinedFunction:
    """A Python function usable in DataFrame expressions. Calling it with
    columns (or column names) gives the Column of its result."""

    def __init__(self, func, returnType=None, name=None, deterministic=True, vectorized=False):
        if not callable(func):
            raise TypeError(f"udf: the function must be callable, not {type(func).__name__}")
        self.func = func
        self.returnType = returnType if returnType is not None else StringType()
        self._return_sql = _return_sql(returnType, "udf")
        self.deterministic = deterministic
        self.vectorized = vectorized  # a pandas_udf: called per batch with pandas Series
        self._sql_name = name
        self._registered = set()  # ids of the sessions it is registered on
        base = re.sub(r"[^A-Za-z0-9_]", "_", getattr(func, "__name__", "udf")) or "udf"
        self.__name__ = name or base
        self._generated_name = f"udf_{base}_{next(_ids)}"

    def asNondeterministic(self):
        self.deterministic = False
        self._registered.clear()
        return self

    def _register_on(self, session, name):
        if self.vectorized:
            session._conn.create_function(name, self.func, None, self._return_sql, type="pandas",
                                          side_effects=not self.deterministic)
        else:
            session._conn.create_function(name, self.func, None, self._return_sql, null_handling="special",
                                          side_effects=not self.deterministic)
        self._registered.add(id(session))

    def __call__(self, *cols):
        from .session import SparkSession
        session = SparkSession.getActiveSession()
        if session is None:
            raise AnalysisException(f"udf {self.__name__}: no active SparkSession to run it in; "
                                    "create one with SparkSession.builder.getOrCreate() first")
        name = self._sql_name or self._generated_name
        if id(session) not in self._registered:
            self._register_on(session, name)
        return wrap(_f.call_function(name, *cols))


def udf(f=None, returnType=None):
    """``udf(f, returnType)``, ``@udf`` and ``@udf(returnType=...)`` / ``@udf("int")``."""
    if f is None or isinstance(f, str) or hasattr(f, "sql"):
        # Used as a decorator with a return type: @udf("int"), @udf(IntegerType()).
        chosen = f if f is not None else returnType
        return lambda func: UserDefinedFunction(func, chosen)
    return UserDefinedFunction(f, returnType)


_SCALAR_PANDAS_UDF = 200  # PandasUDFType.SCALAR


class PandasUDFType:
    """The pre-3.0 way to say which kind of pandas_udf: only SCALAR (Series
    to Series) is supported."""
    SCALAR = _SCALAR_PANDAS_UDF
    SCALAR_ITER = 204
    GROUPED_MAP = 201
    GROUPED_AGG = 202


def _check_pandas_udf(func, functionType):
    if functionType is not None and functionType != _SCALAR_PANDAS_UDF:
        raise AnalysisException("pandas_udf: not supported yet: functionType "
                                f"{functionType} (only PandasUDFType.SCALAR, Series to Series; grouped-map and "
                                "grouped-aggregate pandas UDFs are not); use a Series -> Series function")
    hints = getattr(func, "__annotations__", {}) or {}
    returns = hints.get("return")
    if returns is not None and not (getattr(returns, "__name__", "") in ("Series", "DataFrame") or
                                    "Series" in str(returns) or "Iterator" in str(returns)):
        raise AnalysisException(f"pandas_udf {getattr(func, '__name__', '')}: not supported yet: a "
                                f"Series -> {getattr(returns, '__name__', returns)} (grouped-aggregate) pandas UDF; "
                                "aggregate with F.sum/F.avg/..., or return a Series of one value per row")
    if "Iterator" in str(returns):
        raise AnalysisException(f"pandas_udf {getattr(func, '__name__', '')}: not supported yet: an "
                                "Iterator[Series] -> Iterator[Series] pandas UDF; write Series -> Series")


def pandas_udf(f=None, returnType=None, functionType=None):
    """``pandas_udf(f, returnType)``, ``@pandas_udf("double")`` and
    ``@pandas_udf(returnType=...)``: the function takes one pandas Series per
    argument (a batch of rows) and returns a Series of as many values."""
    if f is None or isinstance(f, (str, int)) or hasattr(f, "sql"):
        # A decorator with a return type (and maybe a functionType): @pandas_udf("double").
        chosen = f if f is not None and not isinstance(f, int) else returnType
        kind = functionType if functionType is not None else (returnType if isinstance(returnType, int) else None)
        if isinstance(chosen, int):
            chosen = None

        def decorate(func):
            _check_pandas_udf(func, kind)
            return UserDefinedFunction(func, chosen, vectorized=True)
        return decorate
    _check_pandas_udf(f, functionType)
    return UserDefinedFunction(f, returnType, vectorized=True)


class UDFRegistration:
    """spark.udf: register(name, f, returnType) makes `name` callable from
    SQL (spark.sql) and returns the UDF for DataFrame expressions."""

    def __init__(self, session):
        self._session = session

    def register(self, name, f, returnType=None):
        if isinstance(f, UserDefinedFunction):
            if returnType is not None:
                raise TypeError(f"udf.register({name!r}): the UDF has its return type already; "
                                "do not give returnType again")
            udf_object = UserDefinedFunction(f.func, f.returnType, name=name, deterministic=f.deterministic,
                                             vectorized=f.vectorized)
        else:
            udf_object = UserDefinedFunction(f, returnType, name=name)
        udf_object._register_on(self._session, name)
        return udf_object

    def registerJavaFunction(self, name, javaClassName, returnType=None):
        raise AnalysisException(f"udf.registerJavaFunction({name!r}): not supported yet: lakestream runs no JVM; "
                                "register a Python function with spark.udf.register")
