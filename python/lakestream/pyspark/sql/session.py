"""SparkSession over one lakestream database.

    spark = SparkSession.builder.config("lakestream.database", "lake").getOrCreate()

One session holds one core connection; streaming queries run their
micro-batches on it from their own threads, one statement at a time (the
session's lock), since a connection is not shared by threads at once.
"""

import os
import re
import threading

import lakestream

from ..._core.dataframe import is_table as _is_table
from ..errors import AnalysisException
from ..._frame.sql import literal, quote_name
from ..._frame.writer import table_name_sql
from .dataframe import DataFrame
from .readwriter import DataFrameReader
from .streaming.query import StreamingQueryManager
from .streaming.readwriter import DataStreamReader

DATABASE_KEYS = ("lakestream.database", "spark.lakestream.database")

# Statements spark.sql() leaves lazy (they only read); anything else runs at once, as in Spark.
_QUERY_START = re.compile(r"^\s*(\(|SELECT\b|WITH\b|VALUES\b|FROM\b|TABLE\b|SHOW\b|DESCRIBE\b|DESC\b|EXPLAIN\b)",
                          re.I)


class RuntimeConfig:
    """spark.conf: get/set/unset of the session's settings (only lakestream.* and
    spark.sql.streaming.checkpointLocation change anything)."""

    def __init__(self, values):
        self._values = dict(values)

    def get(self, key, default=None):
        return self._values.get(key, default)

    def set(self, key, value):
        if key in DATABASE_KEYS and value != self._values.get(key):
            raise AnalysisException("%s cannot change in a running session; stop it and build a new one" % key)
        self._values[key] = value

    def unset(self, key):
        self._values.pop(key, None)

    def getAll(self):
        return dict(self._values)

    def isModifiable(self, key):
        return key not in DATABASE_KEYS


class _Builder:
    def __init__(self):
        self._conf = {}

    def config(self, key=None, value=None, conf=None, map=None):
        if conf is not None:
            for k, v in (conf.getAll() if hasattr(conf, "getAll") else conf.items()):
                self._conf[k] = v
        if map is not None:
            self._conf.update(map)
        if key is not None:
            self._conf[key] = value
        return self

    def appName(self, name):
        self._conf["spark.app.name"] = name
        return self

    def master(self, master):
        self._conf["spark.master"] = master
        return self

    def enableHiveSupport(self):
        return self

    def getOrCreate(self):
        database = None
        for k in DATABASE_KEYS:
            if k in self._conf:
                database = self._conf[k]
        with SparkSession._class_lock:
            active = SparkSession._active
            if active is not None and not active._stopped:
                if database is not None and os.path.abspath(str(database)) != active._database:
                    raise AnalysisException(
                        "a SparkSession on database %s is active; stop it (spark.stop()) before building one on %s"
                        % (active._database, database))
                for k, v in self._conf.items():
                    if k not in DATABASE_KEYS:
                        active.conf.set(k, v)
                return active
            session = SparkSession(database, self._conf)
            SparkSession._active = session
            return session

    create = getOrCreate


class _BuilderAccess:
    def __get__(self, obj, owner):
        return _Builder()


class SparkSession:
    builder = _BuilderAccess()
    _active = None
    _class_lock = threading.Lock()

    def __init__(self, database=None, conf=None):
        conf = dict(conf or {})
        self._database = os.path.abspath(str(database)) if database not in (None, "", ":memory:") else ":memory:"
        self._conn = lakestream.connect(None if self._database == ":memory:" else self._database)
        self._lock = threading.RLock()
        self._stopped = False
        conf.setdefault("lakestream.database", self._database)
        self.conf = RuntimeConfig(conf)
        self.streams = StreamingQueryManager()

    @classmethod
    def getActiveSession(cls):
        return cls._active if cls._active is not None and not cls._active._stopped else None

    active = getActiveSession

    # -- frames ---------------------------------------------------------------
    def _frame(self, source_sql=None, raw_sql=None):
        return DataFrame(self._conn, source_sql=source_sql, raw_sql=raw_sql, session=self)

    def _frame_over(self, select_sql):
        return self._frame(source_sql="(%s) AS %s" % (select_sql, quote_name("__lakestream_rows")))

    def _streaming_frame(self, source):
        return self._frame(source_sql=source.placeholder)

    def _table_columns(self, name):
        with self._lock:
            try:
                rel = self._conn.sql("DESCRIBE " + quote_name(name))
            except lakestream.Error as e:
                if "does not exist" not in str(e):
                    raise
                raise AnalysisException("[TABLE_OR_VIEW_NOT_FOUND] The table or view %s cannot be found: %s"
                                        % (name, e)) from None
            return [r[0] for r in rel.fetchall()]

    def _table_at_path(self, path):
        """The table of this database stored in directory ``path``."""
        want = os.path.realpath(str(path))
        with self._lock:
            for row in self._conn.sql("SHOW TABLES").fetchall():
                name = row[0]
                try:
                    detail = self._conn.sql("DESCRIBE DETAIL " + quote_name(name))
                    d = dict(zip(detail.columns, detail.fetchone()))
                except lakestream.Error:
                    continue
                if d.get("location") and os.path.realpath(d["location"]) == want:
                    return name
        raise AnalysisException(
            "%s is not the directory of a table of database %s: lakestream reads Delta tables by name. Attach the "
            "directory as a table with spark.sql(\"CREATE TABLE name LOCATION '%s'\") and read it with "
            "spark.read.table(\"name\")" % (path, self._database, path))

    # -- Spark's API ------------------------------------------------------------
    def sql(self, sqlQuery, args=None, **kwargs):
        """A DataFrame of the query. Statements that only read stay lazy;
        DDL and DML run now (as in Spark) and give their result rows."""
        if kwargs:
            raise AnalysisException("spark.sql(%s=...): string formatting of queries is not supported; pass "
                                    "parameters as args=[...] with ? markers" % ", ".join(kwargs))
        params = list(args) if isinstance(args, (list, tuple)) else None
        if isinstance(args, dict):
            raise AnalysisException("named parameters (args={...}) are not supported; use ? markers and a list")
        if _QUERY_START.match(sqlQuery):
            df = DataFrame(self._conn, raw_sql=sqlQuery, params=params, session=self)
            return df
        with self._lock:
            rel = self._conn.sql(sqlQuery, params)
            if rel is None:
                return self._frame_over("SELECT 1 AS \"ok\" WHERE FALSE")
            names, rows = list(rel.columns), rel.fetchall()
        return self._rows_frame(names, rows)

    def _rows_frame(self, names, rows):
        if not rows:
            items = ", ".join("NULL AS %s" % quote_name(n) for n in names) or "1 AS \"ok\""
            return self._frame_over("SELECT %s WHERE FALSE" % items)
        values = ", ".join("(" + ", ".join(literal(v) for v in r) + ")" for r in rows)
        return self._frame(source_sql="(VALUES %s) AS %s(%s)" % (
            values, quote_name("__lakestream_rows"), ", ".join(quote_name(n) for n in names)))

    def table(self, tableName):
        return self._frame(source_sql=table_name_sql(tableName))

    def range(self, start, end=None, step=1, numPartitions=None):
        if end is None:
            start, end = 0, start
        return self._frame_over("SELECT range AS \"id\" FROM range(%d, %d, %d)" % (int(start), int(end), int(step)))

    def createDataFrame(self, data, schema=None):
        if _is_table(data):
            return self._pandas_frame(data, schema)
        rows = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in data]
        if schema is None:
            if data and isinstance(data[0], dict):
                names = list(data[0].keys())
            elif data and hasattr(data[0], "_fields"):
                names = list(data[0]._fields)
            else:
                raise AnalysisException("createDataFrame needs a schema (a list of column names) for tuples")
        elif isinstance(schema, (list, tuple)):
            names = [str(n) for n in schema]
        elif hasattr(schema, "names"):
            names = list(schema.names)
        else:
            names = [part.strip().split()[0] for part in str(schema).split(",")]
        return self._rows_frame(names, rows)

    def _pandas_frame(self, data, schema):
        """createDataFrame(pandas_df): the frame's columns copied into the
        session once, typed (docs/python.md "DataFrames by name"), kept while
        the session lives (the DataFrame is lazy and may be read again)."""
        with self._lock:
            name = self._conn._register_frame(data, "createDataFrame()")
        if schema is None:
            return self._frame(source_sql=quote_name(name))
        names = list(schema.names) if hasattr(schema, "names") else (
            [str(n) for n in schema] if isinstance(schema, (list, tuple)) else
            [part.strip().split()[0] for part in str(schema).split(",")])
        items = ", ".join("%s AS %s" % (quote_name(str(c)), quote_name(n)) for c, n in zip(data.columns, names))
        return self._frame_over("SELECT %s FROM %s" % (items, quote_name(name)))

    @property
    def read(self):
        return DataFrameReader(self)

    @property
    def catalog(self):
        from .catalog import Catalog
        return Catalog(self)

    @property
    def udf(self):
        from .udf import UDFRegistration
        return UDFRegistration(self)

    @property
    def readStream(self):
        return DataStreamReader(self)

    @property
    def version(self):
        return lakestream.__version__

    def stop(self):
        for q in self.streams.active:
            q.stop()
        with SparkSession._class_lock:
            if SparkSession._active is self:
                SparkSession._active = None
        self._stopped = True
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
