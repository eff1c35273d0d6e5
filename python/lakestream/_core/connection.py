"""Connection: a database opened by lakestream.connect(), and the DB-API
2.0 cursor interface on it."""

import contextlib as _contextlib
import os
import threading
import warnings as _warnings

from .. import _lakestream
from . import dataframe, functions, readers
from .errors import InterfaceError, ProgrammingError, translate
from .relation import Relation


def _run(call, *args):
    try:
        return call(*args)
    except _lakestream.NativeError as e:
        raise translate(e) from None


def _run_with_frames(call, *args):
    """Runs a statement with the replacement scan of the caller's frame: a
    name it reads that the database does not have may be a pandas DataFrame
    variable (dataframe.Lookup). A DataFrame that could not be converted
    raises its own error rather than "table not found"."""
    lookup = dataframe.Lookup(dataframe.caller_frame())
    try:
        return call(*args, lookup)
    except _lakestream.NativeError as e:
        if lookup.error is not None:
            raise lookup.error from None
        raise translate(e) from None
    finally:
        lookup.release()


def _in_main_thread():
    # Ctrl-C reaches only the main thread: there the extension watches for it
    # while a statement runs (and interrupts the statement).
    return threading.current_thread() is threading.main_thread()


def _warn(native, stacklevel):
    for text in native.warnings:
        _warnings.warn(text, RuntimeWarning, stacklevel=stacklevel + 1)


class Connection:
    """A connection to a lakestream database (docs/python.md).

    Each statement commits when it completes (lakestream has no multi-
    statement transactions): commit() and rollback() exist for DB-API code
    and do nothing. The DB-API cursor methods (execute, fetchone, ...,
    description, rowcount) work on the connection itself, as in DuckDB, and
    on the cursors cursor() returns.
    """

    def __init__(self, native, database):
        self._native = native
        self._database = database
        self._result = None  # the NativeResult of the last execute()
        self._rowcount = -1

    # ---- running statements ------------------------------------------------
    def execute(self, query, parameters=None, params=None):
        """Runs `query` (one or more statements; the last one's result is kept
        for fetchone/fetchmany/fetchall/description). `parameters` (a list or
        tuple; `params=` is the same) fill the ? or $1, $2, ... placeholders.
        Returns the connection."""
        if params is not None:
            if parameters is not None:
                raise InterfaceError("execute(): pass the parameters once, as parameters= or params=")
            parameters = params
        self._check_query(query)
        self._set_result(None)  # a failing statement leaves no stale rows to fetch
        native = _run_with_frames(self._native.execute, query, parameters, _in_main_thread(), False)
        self._set_result(native)
        return self

    def executemany(self, query, seq_of_parameters):
        """Runs `query` once per parameter list, parsing it once. Stops at the
        first error (the statements before it stay committed). rowcount is
        the total of the affected rows."""
        self._check_query(query)
        self._set_result(None)
        native, affected = _run(self._native.executemany, query, seq_of_parameters)
        self._set_result(native)
        if native is not None and _is_dml_result(native):
            self._rowcount = affected
        return self

    def sql(self, query, params=None):
        """Runs `query` now. A statement that returns rows gives a Relation;
        one that does not (CREATE, INSERT, ...) gives None."""
        self._check_query(query)
        # A SELECT streams: its rows are produced when first read (df() copies
        # each chunk into the arrays as it arrives); any other statement first
        # reads the rest.
        native = _run_with_frames(self._native.execute, query, params, _in_main_thread(), True)
        _warn(native, 2)
        if _is_row_result(native):
            return Relation(native, self)
        return None

    query = sql

    def table(self, name):
        """All rows of the table, view or table stream `name` (a Relation)."""
        if not isinstance(name, str):
            raise ProgrammingError(f"table(name): the name must be a str, not {type(name).__name__}")
        return self.sql("SELECT * FROM " + _lakestream.quote_identifier(name))

    # ---- files, as DuckDB's Python API reads them (readers.py) ---------------
    def read_parquet(self, path, **options):
        """The rows of a Parquet file (or list of files, or glob) as a Relation."""
        return self.sql(readers.parquet_query(path, **options))

    def read_csv(self, path, **options):
        """The rows of a CSV file as a Relation; header=, sep= and quotechar=
        as in DuckDB (the types are inferred)."""
        return self.sql(readers.csv_query(path, **options))

    def from_df(self, df):
        """The rows of a pandas DataFrame (or dict of numpy arrays) as a
        Relation: its columns are copied into the engine once, typed (NaN,
        None, NaT and pd.NA are NULL)."""
        name = self._register_frame(df, "from_df()")
        try:
            return self.sql("SELECT * FROM " + _lakestream.quote_identifier(name))
        finally:
            self._native.unregister_table(name)

    # ---- DataFrames by name, as DuckDB's register (dataframe.py) -------------
    def register(self, view_name, python_object):
        """Makes a pandas DataFrame (or dict of numpy arrays) readable as
        `view_name` on this connection: its columns are copied now, once.
        A table, view or stream of the database with that name comes first.
        Returns the connection."""
        if not isinstance(view_name, str) or not view_name:
            raise ProgrammingError("register(view_name, df): the name must be a non-empty str")
        self._check_open()
        if not dataframe.is_table(python_object):
            raise ProgrammingError(f"register({view_name!r}, ...): a pandas DataFrame or a dict of numpy arrays, "
                                   f"not {type(python_object).__name__}")
        _run(self._native.register_table, view_name, dataframe.columns(python_object, view_name))
        return self

    def unregister(self, view_name):
        """Forgets what register(view_name, ...) made readable. Returns the connection."""
        self._native.unregister_table(view_name)
        return self

    _frame_counter = 0

    def _register_frame(self, df, what):
        """Registers `df` under a name of its own and returns the name."""
        self._check_open()
        if not dataframe.is_table(df):
            raise ProgrammingError(f"{what}: a pandas DataFrame or a dict of numpy arrays, not {type(df).__name__}")
        Connection._frame_counter += 1
        name = f"__lakestream_df_{id(self):x}_{Connection._frame_counter}"
        _run(self._native.register_table, name, dataframe.columns(df, what))
        return name

    def read_json(self, path, **options):
        """The rows of a JSON file (JSON lines, or a whole-file array/object) as a Relation."""
        return self.sql(readers.json_query(path, **options))

    # ---- Python functions (functions.py) ------------------------------------
    def create_function(self, name, function, parameters=None, return_type=None, type="native", *,
                        null_handling="default", side_effects=False, **unsupported):
        """Registers `function` as the scalar SQL function `name` on this
        connection, as DuckDB's create_function does: type='native' calls it
        once per row with Python values; type='pandas' once per batch of rows
        (up to 2048) with one pandas Series per argument, returning a Series
        of one value per row (NULLs arrive as pandas' missing values).
        `parameters` (a list of SQL type names or Python types) and
        `return_type` default to the function's annotations; without
        parameter types it takes any arguments as given. null_handling='special'
        calls a native function for NULL arguments too (as None);
        side_effects=True marks it non-deterministic. Returns the connection."""
        if unsupported:
            raise ProgrammingError(f"create_function({name!r}): not supported yet: "
                                   f"{', '.join(sorted(unsupported))}")
        kind = str(getattr(type, "name", type)).lower()
        if kind == "arrow":
            raise ProgrammingError(f"create_function({name!r}): not supported yet: type='arrow' (lakestream has no "
                                   "Arrow); type='pandas' calls the function with pandas Series per batch")
        if kind not in ("native", "pandas"):
            raise ProgrammingError(f"create_function({name!r}): type must be 'native' or 'pandas', not {type!r}")
        if kind == "pandas":
            if return_type is None:
                raise ProgrammingError(f"create_function({name!r}): a pandas function needs return_type= "
                                       "(e.g. 'DOUBLE'): its annotations say Series, not the SQL type")
            params = None if parameters is None else [functions.sql_type(p, name) for p in parameters]
            _run(self._native.create_vectorized_function, name, functions.vectorized(name, function), params,
                 functions.sql_type(return_type, name), not side_effects)
            return self
        params, returns = functions.declare(name, function, parameters, return_type)
        handles_nulls = functions.null_handling_flag(null_handling, name)
        _run(self._native.create_function, name, function, params, returns, handles_nulls, not side_effects)
        return self

    def remove_function(self, name):
        """Drops the function `name` created on this connection; an error when there is none."""
        if not _run(self._native.remove_function, name):
            raise ProgrammingError(f"remove_function: no function {name!r} was created on this connection")
        return self

    # ---- DB-API cursor interface --------------------------------------------
    def fetchone(self):
        return self._current().fetchone()

    def fetchmany(self, size=None):
        if size is None:
            size = self.arraysize
        if size < 0:
            raise InterfaceError(f"fetchmany(size={size!r}): size must be a number >= 0")
        return self._current().fetch(size)

    def fetchall(self):
        return self._current().fetch(-1)

    def fetchnumpy(self):
        return Relation(self._current()).fetchnumpy()

    def df(self):
        return Relation(self._current()).df()

    fetchdf = df
    fetch_df = df

    def __iter__(self):
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    arraysize = 1

    @property
    def description(self):
        """Per column: (name, type_code, None, None, precision, scale, None)
        (PEP 249); None when the last statement returned no rows."""
        if self._result is None or not _is_row_result(self._result):
            return None
        from .cursor import describe
        return describe(self._result)

    @property
    def rowcount(self):
        """Rows the last INSERT/UPDATE/DELETE/MERGE affected, the number of rows
        a query returned, or -1 when neither applies."""
        return self._rowcount

    def setinputsizes(self, sizes):
        pass

    def setoutputsize(self, size, column=None):
        pass

    def commit(self):
        """Does nothing: every statement commits when it completes."""

    def rollback(self):
        """Does nothing: every statement commits when it completes (there is
        never an open transaction to roll back)."""

    # SET statements of connect(config=...) that belong to a connection, not
    # its database (threads): repeated on each cursor, which is a connection.
    _per_connection_settings = ()

    def cursor(self):
        """A new DB-API cursor: a second connection to the same database,
        usable from another thread, with this connection's `threads`."""
        self._check_open()
        cursor = Cursor(_run(self._native.duplicate), self._database, self)
        cursor._per_connection_settings = self._per_connection_settings
        for statement in self._per_connection_settings:
            cursor.execute(statement)
        return cursor

    def _follow_commits(self, table, waiter=None):
        """A native commit waiter (one is made when `waiter` is None) that also
        follows `table`: its wait(seconds) returns True soon after a commit to
        the table, by this process or (for a table on local disk) another.
        Streaming queries wait on it between triggers."""
        waiter = waiter if waiter is not None else _lakestream.NativeCommitWaiter()
        _run(self._native.follow_table, waiter, table)
        return waiter

    def interrupt(self):
        """Stops the statement running on this connection (call it from
        another thread); it raises InterruptException and commits nothing."""
        self._native.interrupt()

    @_contextlib.contextmanager
    def holding_writes(self):
        """A block during which no other process commits to this database:
        the connection keeps the database's write lock from its start to its
        end (otherwise a statement holds it only while it writes). For a check
        and the statement it guards; keep the block short, other writers wait."""
        self._check_open()
        _run(self._native.hold_writes)
        try:
            yield self
        finally:
            self._native.release_writes()

    def close(self):
        """Closes the connection (the database closes with its last
        connection). Idempotent."""
        self._native.close()
        self._result = None

    @property
    def closed(self):
        return not self._native.is_open

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self.closed else "open"
        return f"<lakestream.Connection {self._database!r} ({state})>"

    # ---- helpers -----------------------------------------------------------
    def _check_open(self):
        if self.closed:
            raise InterfaceError("the connection is closed; open a new one with lakestream.connect()")

    def _check_query(self, query):
        self._check_open()
        if not isinstance(query, str):
            raise ProgrammingError(f"the query must be a str of SQL, not {type(query).__name__}")

    def _set_result(self, native):
        self._result = native
        if native is None:
            self._rowcount = -1
            return
        _warn(native, 3)
        self._rowcount = _affected_rows(native)

    def _current(self):
        self._check_open()
        if self._result is None:
            raise ProgrammingError("no statement has run on this connection yet: call execute() first")
        return self._result


class Cursor(Connection):
    """A DB-API cursor (Connection.cursor()): its own connection to the same
    database. `connection` is the Connection it came from."""

    def __init__(self, native, database, connection):
        super().__init__(native, database)
        self.connection = connection

    def __repr__(self):
        return f"<lakestream.Cursor {self._database!r}>"


def _is_dml_result(native):
    return list(native.names) == ["num_affected_rows"] and native.row_count == 1


def _is_row_result(native):
    """Whether a statement returns rows: INSERT, UPDATE, DELETE and MERGE
    return only their affected-row count (Connection.rowcount), so not."""
    return len(native.names) > 0 and not _is_dml_result(native)


def _affected_rows(native):
    if _is_dml_result(native):
        return native.rows(0, 1)[0][0]
    return native.row_count if native.names else -1


def connect(database=":memory:", read_only=False, config=None):
    """Opens the lakestream database `database` (a directory, created when
    missing; ":memory:", "" or None for a new in-memory database) and returns
    a Connection. read_only=True makes every writing statement fail.
    config: {'enable_external_access': False, 'allowed_directories': [...],
    'allowed_paths': [...]} (docs/security.md), 'threads': N (threads each
    query of this connection may use, 1 to 1024; docs/performance.md),
    'memory_limit': '2GB' and 'temp_directory': '/path' (the working memory
    queries may use before they spill to disk, and where; docs/memory.md)."""
    if database is None:
        database = ""
    if isinstance(database, os.PathLike):
        database = os.fspath(database)
    if not isinstance(database, str):
        raise InterfaceError(f"connect(database=...): a path (str) or ':memory:', not {type(database).__name__}")
    settings = _config_settings(config or {})
    path = "" if database in ("", ":memory:") else database
    native = _run(_lakestream.NativeConnection, path, bool(read_only))
    connection = Connection(native, database or ":memory:")
    # The allowed places first: they cannot change once access is off
    # (docs/security.md). The settings belong to the database, which a
    # second connect() to the same directory shares.
    try:
        for statement in settings:
            connection.execute(statement)
    except BaseException:
        connection.close()
        raise
    connection._per_connection_settings = tuple(s for s in settings if s.startswith("SET threads"))
    return connection


# connect(config=...) keys, in the order they must be applied.
_CONFIG_KEYS = ("allowed_directories", "allowed_paths", "enable_external_access", "threads", "memory_limit",
                "temp_directory")


def _config_settings(config):
    """The SET statements for connect(config=...); NotSupportedError for other keys."""
    if not isinstance(config, dict):
        raise InterfaceError(f"connect(config=...): a dict of settings, not {type(config).__name__}")
    unknown = [k for k in config if k not in _CONFIG_KEYS]
    if unknown:
        from .errors import NotSupportedError
        raise NotSupportedError(f"connect(config={config!r}): unknown setting {unknown[0]!r}; the settings are "
                                f"{', '.join(_CONFIG_KEYS)} (docs/security.md)")

    def quote(text):
        if not isinstance(text, (str, os.PathLike)):
            raise InterfaceError(f"connect(config=...): a path must be a str, not {type(text).__name__}")
        return "'" + os.fspath(text).replace("'", "''") + "'"

    statements = []
    for key in _CONFIG_KEYS:
        if key not in config:
            continue
        value = config[key]
        if key == "threads":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InterfaceError("connect(config=...): threads must be a whole number from 1 to 1024")
            statements.append(f"SET threads = {value}")
        elif key in ("memory_limit", "temp_directory"):
            if not isinstance(value, (str, os.PathLike)):
                raise InterfaceError(f"connect(config=...): {key} must be a str, e.g. "
                                     + ("'2GB'" if key == "memory_limit" else "'/tmp/spill'"))
            statements.append(f"SET {key} = {quote(value)}")
        elif key == "enable_external_access":
            if not isinstance(value, bool):
                raise InterfaceError("connect(config=...): enable_external_access must be True or False")
            statements.append(f"SET enable_external_access = {'true' if value else 'false'}")
        else:
            items = [value] if isinstance(value, (str, os.PathLike)) else list(value)
            statements.append(f"SET {key} = [{', '.join(quote(v) for v in items)}]")
    return statements
