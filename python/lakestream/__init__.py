"""lakestream: an embedded streaming lakehouse engine, from Python.

    import lakestream
    con = lakestream.connect("lake")          # or lakestream.connect() in memory
    con.sql("SELECT 42 AS answer").fetchall() # [(42,)]
    lakestream.sql("SELECT 42").fetchall()    # DuckDB's habit: a default in-memory connection

See docs/python.md. The Zettapark and PySpark-style layers are the
subpackages lakestream.zettapark and lakestream.pyspark.
"""

from . import _lakestream
from ._core.connection import Connection, Cursor, connect
from ._core.cursor import BINARY, DATETIME, NUMBER, ROWID, STRING
from ._core.default_connection import (create_function, default_connection, execute, from_df, read_csv, read_json,
                                      read_parquet, register, remove_function, sql, table, unregister)
from ._core.errors import (BinderException, CatalogException, ConstraintException, ConversionException,
                           CorruptionException, DatabaseError, DataError, Error, IntegrityError, InterfaceError,
                           InternalError, InterruptException, InvalidInputException, IOException,
                           NotSupportedError, OperationalError, ParserException, ProgrammingError,
                           TransactionException, Warning)
from ._core.relation import Relation
from ._core.types import Binary, Date, DateFromTicks, Time, TimeFromTicks, Timestamp, TimestampFromTicks

__version__ = _lakestream.__version__

# PEP 249 module globals.
apilevel = "2.0"
# Threads may share the module, not connections: give each thread its own
# (Connection.cursor() opens one on the same database).
threadsafety = 1
paramstyle = "qmark"  # ? ; $1, $2, ... (numeric) work as well


def quote_identifier(name):
    """`name` as a quoted SQL identifier: safe to splice into SQL text
    whatever characters the name holds (quote_identifier('a"b') is '"a""b"')."""
    if not isinstance(name, str):
        raise TypeError(f"quote_identifier: the name must be a str, not {type(name).__name__}")
    return _lakestream.quote_identifier(name)


__all__ = [
    "connect", "Connection", "Cursor", "Relation", "quote_identifier",
    "default_connection", "sql", "execute", "table", "read_parquet", "read_csv", "read_json", "from_df",
    "create_function", "remove_function", "register", "unregister",
    "apilevel", "threadsafety", "paramstyle",
    "Error", "Warning", "InterfaceError", "DatabaseError", "DataError", "OperationalError", "IntegrityError",
    "InternalError", "ProgrammingError", "NotSupportedError", "ParserException", "BinderException",
    "CatalogException", "InvalidInputException", "ConstraintException", "TransactionException",
    "IOException", "InterruptException", "ConversionException", "CorruptionException",
    "STRING", "BINARY", "NUMBER", "DATETIME", "ROWID",
    "Date", "Time", "Timestamp", "DateFromTicks", "TimeFromTicks", "TimestampFromTicks", "Binary",
]
