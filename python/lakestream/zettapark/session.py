"""Session: the Zettapark/Snowpark entry point over a lakestream database.

    session = Session.builder.configs({"database": "lake"}).create()

``database`` is the database directory (streams and the change feed need
one; without it the session is in memory); ``read_only`` opens it for
reading. The connection settings of a remote service (account, user,
password, ...) are accepted so existing builder code runs, and have no
effect: lakestream runs in this process.
"""

from .._core.dataframe import is_table as _is_table
from .._frame.sql import literal, quote_name, type_sql, unquote_name
from .._frame.writer import table_name_sql
from .dataframe import DataFrame, Table

# Settings of a remote Snowflake/ClickZetta connection: nothing to connect to here.
_REMOTE_KEYS = {"account", "user", "username", "password", "role", "warehouse", "schema", "host", "port",
                "protocol", "service", "instance", "workspace", "vcluster", "authenticator", "private_key",
                "token", "application", "session_parameters", "region", "url", "sdk_job_timeout", "hints"}
_LOCAL_KEYS = {"database", "read_only", "connection"}


class SessionBuilder:
    def __init__(self):
        self._options = {}

    def config(self, key, value):
        return self.configs({key: value})

    def configs(self, options):
        if not isinstance(options, dict):
            raise TypeError("configs() takes a dict of settings, not %r" % (options,))
        for k, v in options.items():
            low = str(k).lower()
            if low not in _LOCAL_KEYS and low not in _REMOTE_KEYS:
                raise ValueError("unknown session setting %r; lakestream reads: database (a directory, or "
                                 "':memory:'), read_only, connection (an open lakestream connection)" % (k,))
            self._options[low] = v
        return self

    def create(self):
        return Session(self._options)

    getOrCreate = create
    get_or_create = create


class _BuilderDescriptor:
    def __get__(self, obj, owner):
        return SessionBuilder()


class Session:
    """A connection to one lakestream database, with DataFrame access."""

    builder = _BuilderDescriptor()

    def __init__(self, options=None):
        import lakestream
        options = dict(options or {})
        con = options.get("connection")
        if con is None:
            database = options.get("database")
            con = lakestream.connect(database if database is not None else ":memory:",
                                     read_only=bool(options.get("read_only", False)))
            self._owns = True
        else:
            self._owns = False
        self._conn = con
        self._options = options
        self._closed = False

    # -- connection --------------------------------------------------------
    @property
    def connection(self):
        """The core lakestream connection (con.sql / con.execute)."""
        return self._conn

    def close(self):
        if not self._closed and self._owns:
            self._conn.close()
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def get_current_database(self):
        return self._options.get("database")

    # -- DataFrames --------------------------------------------------------
    def sql(self, query, params=None):
        """A lazy DataFrame of ``query``; it runs when an action is called
        (``collect()``), like Snowpark. A statement without rows (CREATE,
        INSERT, ...) runs on ``collect()`` too."""
        if not isinstance(query, str) or not query.strip():
            raise ValueError("sql() needs the text of one statement, not %r" % (query,))
        text = query.strip()
        while text.endswith(";"):
            text = text[:-1].rstrip()
        return DataFrame(self._conn, raw_sql=text, params=params, session=self)

    def table(self, name):
        """A table, materialized view or table stream by name. Reading a
        stream (collect, show, count) leaves its offset where it is;
        writing the DataFrame into a table (save_as_table, merge) consumes
        it in the same commit."""
        return Table(self._conn, name, session=self)

    def create_dataframe(self, data, schema=None):
        """A DataFrame of Python rows (tuples, lists, dicts or Rows). ``schema``
        is a list of column names or a StructType (its types are cast to)."""
        if isinstance(data, DataFrame):
            return data
        if _is_table(data) and (schema is None or isinstance(schema, (list, tuple))):
            # A pandas DataFrame: its columns copied into the session once, typed
            # (docs/python.md "DataFrames by name"), kept while the session lives.
            name = self._conn._register_frame(data, "create_dataframe()")
            names = [str(n) for n in schema] if schema is not None else [str(c) for c in data.columns]
            items = ", ".join("%s AS %s" % (quote_name(str(c)), quote_name(n)) for c, n in zip(data.columns, names))
            return DataFrame(self._conn, raw_sql="SELECT %s FROM %s" % (items, quote_name(name)), session=self)
        if hasattr(data, "itertuples") and hasattr(data, "columns"):  # a pandas DataFrame with a StructType
            if schema is None:
                schema = [str(c) for c in data.columns]
            data = [tuple(_plain(v) for v in r) for r in data.itertuples(index=False, name=None)]
        rows = list(data)
        names, types = _schema_names(schema, rows)
        if not rows:
            if types is None:
                raise ValueError("create_dataframe() of no rows needs a StructType schema (the column types)")
            items = ", ".join("CAST(NULL AS %s) AS %s" % (type_sql(t), quote_name(n)) for n, t in zip(names, types))
            return DataFrame(self._conn, raw_sql="SELECT %s LIMIT 0" % items, session=self)
        values = []
        for r in rows:
            if isinstance(r, dict):
                r = [r.get(n) for n in names]
            elif not isinstance(r, (list, tuple)):
                r = [r]
            if len(r) != len(names):
                raise ValueError("create_dataframe(): row %r has %d values for %d columns (%s)"
                                 % (tuple(r), len(r), len(names), ", ".join(names)))
            values.append("(%s)" % ", ".join(literal(v) for v in r))
        alias = "v(%s)" % ", ".join(quote_name(n) for n in names)
        if types is None:
            items = "*"
        else:
            items = ", ".join("CAST(%s AS %s) AS %s" % (quote_name(n), type_sql(t), quote_name(n))
                              for n, t in zip(names, types))
        text = "SELECT %s FROM (VALUES %s) AS %s" % (items, ", ".join(values), alias)
        return DataFrame(self._conn, raw_sql=text, session=self)

    createDataFrame = create_dataframe

    def write_pandas(self, df, table_name, *, auto_create_table=False, overwrite=False, table_type="",
                     chunk_size=None, compression=None, parallel=None, quote_identifiers=True, **kwargs):
        """Writes a pandas DataFrame into ``table_name`` (one INSERT or CREATE
        TABLE AS statement) and returns the table. chunk_size, compression
        and parallel tune an upload that does not exist here; they change
        nothing."""
        if table_type:
            raise NotImplementedError("write_pandas() of a %s table: lakestream tables are all permanent"
                                      % table_type)
        if kwargs:
            raise NotImplementedError("write_pandas() options %s" % ", ".join(sorted(kwargs)))
        if not auto_create_table and not self.table_exists(table_name):
            raise ValueError("write_pandas(): there is no table %r; pass auto_create_table=True to create it"
                             % (table_name,))
        self.create_dataframe(df).write.save_as_table(table_name, mode="overwrite" if overwrite else "append")
        return self.table(table_name)

    def range(self, start, end=None, step=1):
        """Column ``ID``: start, start+step, ... below end (Snowpark's range)."""
        if end is None:
            start, end = 0, start
        for v in (start, end, step):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError("range() takes ints, not %r" % (v,))
        if step == 0:
            raise ValueError("range() step must not be 0")
        text = "SELECT %s + range * %s AS %s FROM range(%s)" % (
            literal(start), literal(step), quote_name("ID"), literal(max(0, -(-(end - start) // step))))
        return DataFrame(self._conn, raw_sql=text, session=self)

    def table_exists(self, name):
        from .._frame.writer import table_columns
        return table_columns(self._conn, table_name_sql(name)) is not None


def _plain(value):
    """A numpy scalar as the Python value it holds (numpy.int64 is no int)."""
    item = getattr(value, "item", None)
    return item() if callable(item) and type(value).__module__ == "numpy" else value


def _schema_names(schema, rows):
    from .._frame.types import StructType
    if schema is None:
        first = rows[0] if rows else None
        if isinstance(first, dict):
            return list(first.keys()), None
        if first is not None and getattr(first, "_fields", None):
            return list(first._fields), None
        if first is None:
            raise ValueError("create_dataframe() needs a schema (column names) for no rows")
        n = len(first) if isinstance(first, (list, tuple)) else 1
        return ["_%d" % (i + 1) for i in range(n)], None
    if isinstance(schema, StructType):
        return [f.name for f in schema.fields], [f.datatype for f in schema.fields]
    if isinstance(schema, (list, tuple)) and all(isinstance(n, str) for n in schema):
        return [unquote_name(n) for n in schema], None
    raise TypeError("create_dataframe() schema is a list of column names or a StructType, not %r" % (schema,))
