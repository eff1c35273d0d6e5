"""DuckDB's module-level habit: lakestream.sql("SELECT 42") with no
connect(), on one in-memory database made at first use (per process)."""

import threading

_lock = threading.Lock()
_connection = None


def default_connection():
    """The module's own connection: an in-memory database, opened at first use."""
    global _connection
    with _lock:
        if _connection is None or _connection.closed:
            from .connection import connect
            _connection = connect(":memory:")
        return _connection


def sql(query, params=None):
    return default_connection().sql(query, params)


def execute(query, parameters=None):
    return default_connection().execute(query, parameters)


def table(name):
    return default_connection().table(name)


def read_parquet(path, **options):
    return default_connection().read_parquet(path, **options)


def read_csv(path, **options):
    return default_connection().read_csv(path, **options)


def read_json(path, **options):
    return default_connection().read_json(path, **options)


def from_df(df):
    return default_connection().from_df(df)


def register(view_name, python_object):
    return default_connection().register(view_name, python_object)


def unregister(view_name):
    return default_connection().unregister(view_name)


def create_function(name, function, parameters=None, return_type=None, **options):
    return default_connection().create_function(name, function, parameters, return_type, **options)


def remove_function(name):
    return default_connection().remove_function(name)
