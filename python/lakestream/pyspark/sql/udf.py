"""Python UDFs as PySpark writes them: ``F.udf(f, returnType)``, the
``@udf(...)`` decorator, ``spark.udf.register(name, f, returnType)``. Each
becomes a scalar function of the session's connection (the engine calls it
once per row, with None for NULL as Spark does) and a call of it is a Column."""

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

    def __init__(self, func, returnType=None, name=None, deterministic=True):
        if not callable(func):
            raise TypeError(f"udf: the function must be callable, not {type(func).__name__}")
        self.func = func
        self.returnType = returnType if returnType is not None else StringType()
        self._return_sql = _return_sql(returnType, "udf")
        self.deterministic = deterministic
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
            udf_object = UserDefinedFunction(f.func, f.returnType, name=name, deterministic=f.deterministic)
        else:
            udf_object = UserDefinedFunction(f, returnType, name=name)
        udf_object._register_on(self._session, name)
        return udf_object

    def registerJavaFunction(self, name, javaClassName, returnType=None):
        raise AnalysisException(f"udf.registerJavaFunction({name!r}): not supported yet: lakestream runs no JVM; "
                                "register a Python function with spark.udf.register")
