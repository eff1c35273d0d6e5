"""pyspark.sql.DataFrame: the shared lazy Frame with Spark's method names.

A streaming DataFrame (from spark.readStream) is the same object over a
placeholder source (streaming/source.py): every operation works on it, and
only writeStream runs it; an action such as collect() raises as in Spark.
"""

import os
import uuid

from ..errors import AnalysisException
from ..._frame.column import sql_expr
from ..._frame.frame import Frame, GroupedFrame, _flatten
from ..._frame.sql import literal, quote_name, unquote_name
from ..._frame.writer import save_as_table
from .column import Column, wrap
from .row import Row


def _text_column(text, what, allow_alias=False):
    """The user's own SQL expression text as a Column (the shared layer's
    sql_expr: checked to be one expression, and known to read unlisted
    columns)."""
    return wrap(sql_expr(text, allow_alias=allow_alias, what=what))


class DataFrame(Frame):
    column_class = Column
    row_class = Row

    @property
    def sparkSession(self):
        return self._session

    # -- streaming ----------------------------------------------------------
    @property
    def isStreaming(self):
        from .streaming.source import sources_in
        return bool(sources_in(self._sql()))

    def _refuse_streaming(self, what):
        if self.isStreaming:
            raise AnalysisException(
                "Queries with streaming sources must be executed with writeStream.start(): %s() on a streaming "
                "DataFrame. Use writeStream (with foreachBatch to see each batch), or spark.table(...) for the "
                "rows as they are now" % what)

    @property
    def writeStream(self):
        if not self.isStreaming:
            raise AnalysisException("'writeStream' can be called only on streaming Dataset/DataFrame; this one "
                                    "is a batch DataFrame: use df.write")
        from .streaming.readwriter import DataStreamWriter
        return DataStreamWriter(self)

    @property
    def write(self):
        self._refuse_streaming("write")
        return DataFrameWriter(self)

    def _describe(self):
        with self._session._lock:
            return Frame._describe(self)

    def _head(self, n):
        with self._session._lock:
            return Frame._head(self, n)

    def _run(self, sql, params=None):
        with self._session._lock:
            return Frame._run(self, sql, params)

    # -- actions ------------------------------------------------------------
    def collect(self):
        self._refuse_streaming("collect")
        with self._session._lock:  # the rows are fetched on the shared connection too
            return Frame.collect(self)

    def count(self):
        self._refuse_streaming("count")
        with self._session._lock:  # the rows are fetched on the shared connection too
            return Frame.count(self)

    def toPandas(self):
        self._refuse_streaming("toPandas")
        with self._session._lock:  # the rows are fetched on the shared connection too
            return Frame.to_pandas(self)

    to_pandas = toPandas

    def take(self, num):
        return self.limit(num).collect()

    def head(self, n=None):
        if n is None:
            rows = self.take(1)
            return rows[0] if rows else None
        return self.take(n)

    def first(self):
        return self.head()

    def isEmpty(self):
        return len(self.take(1)) == 0

    def show(self, n=20, truncate=True, vertical=False):
        self._refuse_streaming("show")
        names, rows = self._head(n)
        width = 20 if truncate is True else (int(truncate) if truncate else 0)

        def cell(v):
            text = "null" if v is None else str(v)
            if width and len(text) > width:
                text = text[:width - 3] + "..." if width > 3 else text[:width]
            return text

        cells = [[cell(v) for v in r] for r in rows]
        if vertical:
            for i, r in enumerate(cells):
                print("-RECORD %d%s" % (i, "-" * 20))
                for name, v in zip(names, r):
                    print(" %s | %s" % (name, v))
            return
        widths = [max([len(nm)] + [len(r[i]) for r in cells]) for i, nm in enumerate(names)]
        line = "+" + "+".join("-" * w for w in widths) + "+"
        print(line)
        print("|" + "|".join(nm.rjust(w) for nm, w in zip(names, widths)) + "|")
        print(line)
        for r in cells:
            print("|" + "|".join(v.rjust(w) for v, w in zip(r, widths)) + "|")
        print(line)
        if len(rows) == n:
            print("only showing top %d rows" % n)

    def printSchema(self):
        print("root")
        for f in self.schema.fields:
            t = f.datatype
            name = t.simple_string() if hasattr(t, "simple_string") else str(t)
            print(" |-- %s: %s (nullable = %s)" % (f.name, name, "true" if f.nullable else "false"))

    @property
    def dtypes(self):
        """(name, Spark's simpleString of the type): int, bigint, string, decimal(10,2), ..."""
        short = {"integer": "int", "long": "bigint", "short": "smallint", "byte": "tinyint"}
        out = []
        for f in self.schema.fields:
            name = f.datatype.simple_string() if hasattr(f.datatype, "simple_string") else str(f.datatype)
            out.append((f.name, short.get(name, name)))
        return out

    def explain(self, extended=False):
        print(self._sql())

    # -- operations with Spark's names ----------------------------------------
    def filter(self, condition):
        if isinstance(condition, str):
            condition = _text_column(condition, "filter()")
        return Frame.filter(self, condition)

    where = filter

    def select(self, *cols):
        return Frame.select(self, *[wrap(c) for c in _flatten(cols)])

    def cache(self):
        """Spark's cache is a hint for reuse; lakestream runs the query at each
        action (reading the tables as they are then), so this returns the
        DataFrame unchanged. Write the rows to a table to keep a snapshot."""
        return self

    def persist(self, storageLevel=None):
        return self

    def unpersist(self, blocking=False):
        return self

    @property
    def is_cached(self):
        return False

    def selectExpr(self, *exprs):
        return Frame.select(self, *[_text_column(e, "selectExpr()", allow_alias=True) for e in _flatten(exprs)])

    def withColumn(self, colName, col):
        return self.with_column(colName, col)

    def withColumns(self, colsMap):
        return self.with_columns(list(colsMap.keys()), list(colsMap.values()))

    def withColumnRenamed(self, existing, new):
        return self.with_column_renamed(existing, new)

    def drop(self, *cols):
        # Spark ignores names that are not columns.
        names = {c.lower() for c in self.columns}
        keep = [c for c in _flatten(cols) if not isinstance(c, str) or c.lower() in names]
        return Frame.drop(self, *keep) if keep else self

    def orderBy(self, *cols, ascending=None):
        return self.sort(*cols, ascending=ascending)

    def groupBy(self, *cols):
        return GroupedData(self, _flatten(cols))

    groupby = groupBy

    def agg(self, *exprs):
        return GroupedData(self, []).agg(*exprs)

    def dropDuplicates(self, subset=None):
        if subset:
            raise AnalysisException("dropDuplicates(subset) is not supported; use distinct() over the columns "
                                    "you select, or groupBy(subset).agg(...)")
        return self.distinct()

    drop_duplicates = dropDuplicates

    def unionAll(self, other):
        return self.union_all(other)

    def union(self, other):
        return self.union_all(other)  # Spark's union keeps duplicates

    def unionByName(self, other, allowMissingColumns=False):
        if allowMissingColumns:
            raise AnalysisException("unionByName(allowMissingColumns=True) is not supported")
        return self.union_all_by_name(other)

    def crossJoin(self, other):
        return self.cross_join(other)

    def exceptAll(self, other):
        raise AnalysisException("exceptAll is not supported; subtract() removes duplicates as well")

    def alias(self, alias):
        """The name a MERGE (DeltaTable.merge) gives this DataFrame as its source."""
        new = self._derive(self._block.copy())
        new._raw = self._raw
        new._lsq_alias = alias
        return new

    def createOrReplaceTempView(self, name):
        """A temporary view of the engine (CREATE OR REPLACE TEMP VIEW) on the
        session's connection: spark.table(name) and spark.sql text read it
        wherever the binder finds the name, and nowhere else (not inside
        string literals or other names)."""
        self._create_temp_view(name, "createOrReplaceTempView", replace=True)

    def createTempView(self, name):
        self._create_temp_view(name, "createTempView", replace=False)

    def _create_temp_view(self, name, what, replace):
        self._refuse_streaming(what)
        if not isinstance(name, str) or not name:
            raise AnalysisException("%s() takes a view name, not %r" % (what, name))
        if self._params:
            raise AnalysisException("not supported yet: %s() of a DataFrame with query parameters (spark.sql "
                                    "with args); write the values into the query as literals" % what)
        with self._session._lock:
            self._session._conn.execute("CREATE %sTEMP VIEW %s AS %s" % (
                "OR REPLACE " if replace else "", quote_name(unquote_name(name)), self._sql()))

    def __getitem__(self, item):
        if isinstance(item, str):
            return self._col(item)
        if isinstance(item, Column):
            return self.filter(item)
        if isinstance(item, (list, tuple)):
            return self.select(*item)
        raise TypeError("df[...] takes a column name, a Column or a list of names, not %r" % (item,))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in {c.lower() for c in self.columns} or name in self.columns:
            return self._col(name)
        raise AttributeError("DataFrame has no attribute or column %r (columns: %s)" % (name, ", ".join(self.columns)))


class GroupedData(GroupedFrame):
    """df.groupBy(...): agg, count, sum, avg, min, max."""

    def agg(self, *exprs):
        if len(exprs) == 1 and isinstance(exprs[0], dict):
            exprs = (list(exprs[0].items()),)
        exprs = tuple(wrap(e) for e in _flatten(exprs))
        result = GroupedFrame.agg(self, *exprs)
        from .streaming.source import AggregateSource, sources_in
        srcs = sources_in(result._sql())
        if not srcs:
            return result
        for s in srcs:
            if isinstance(s, AggregateSource):
                raise AnalysisException("an aggregation over a streaming aggregation is not supported")
            if s.read_change_feed or s.starting_version is not None:
                raise AnalysisException(
                    "a streaming aggregation over %s with readChangeFeed or startingVersion is not supported: "
                    "lakestream maintains it as a materialized view of the whole table (Spark's default start); "
                    "drop those options" % s.table)
        if len(srcs) > 1:
            raise AnalysisException("a streaming aggregation reads one stream")
        source = AggregateSource(srcs[0], result._sql(), result.columns)
        return result._session._streaming_frame(source)


class DataFrameWriter:
    """df.write: mode(...), format("delta"/"parquet"/"json"/"csv"), option(...), partitionBy(...),
    saveAsTable / insertInto / parquet / json / csv / save. Every option is honoured or refused by name."""

    # Delta writer options and what they mean here (docs/python-pyspark.md).
    _DELTA_OPTIONS = ("overwriteschema", "mergeschema")
    _PARQUET_OPTIONS = ("compression",)
    # compression is accepted here only to be refused with its own message.
    _JSON_OPTIONS = ("compression",)
    # Spark's CSV writer options -> COPY's; Spark writes no header by default.
    _CSV_OPTIONS = ("header", "sep", "delimiter", "quote", "nullvalue", "compression")
    _FILE_OPTIONS = {"parquet": _PARQUET_OPTIONS, "json": _JSON_OPTIONS, "csv": _CSV_OPTIONS}

    def __init__(self, df):
        self._df = df
        self._mode = "errorifexists"
        self._format = "delta"
        self._options = {}
        self._partition_by = None

    def mode(self, saveMode):
        m = str(saveMode).lower()
        m = {"error": "errorifexists", "default": "errorifexists"}.get(m, m)
        self._mode = m
        return self

    def format(self, source):
        fmt = str(source).lower()
        if fmt not in ("delta", "parquet", "json", "csv", "kafka"):
            raise AnalysisException("write.format(%r) is not supported yet: lakestream writes Delta tables "
                                    "(saveAsTable), Parquet, JSON and CSV files (.parquet/.json/.csv(path)) and "
                                    "Kafka topics (.format(\"kafka\").save())" % (source,))
        self._format = fmt
        return self

    def option(self, key, value):
        self._options[str(key).lower()] = value
        return self

    def options(self, **options):
        for k, v in options.items():
            self.option(k, v)
        return self

    def partitionBy(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        self._partition_by = [str(c) for c in cols]
        return self

    def _check_options(self, allowed):
        for key, value in self._options.items():
            if key not in allowed:
                raise AnalysisException("write option %r is not supported for format %s; lakestream takes %s"
                                        % (key, self._format, ", ".join(allowed) or "none"))
            if key == "mergeschema" and _truthy(value):
                raise AnalysisException("write option mergeSchema = true is not supported yet: a write with new "
                                        "columns fails; add them first with ALTER TABLE ... ADD COLUMN")
            if key == "overwriteschema" and _truthy(value) and self._mode != "overwrite":
                raise AnalysisException("write option overwriteSchema applies with mode(\"overwrite\") only")

    def saveAsTable(self, name, format=None, mode=None, partitionBy=None, **options):
        if format is not None:
            self.format(format)
        if self._format != "delta":
            raise AnalysisException("saveAsTable() writes a Delta table; format %r applies to .parquet(path)"
                                    % self._format)
        if mode:
            self.mode(mode)
        if partitionBy:
            self.partitionBy(partitionBy)
        self.options(**options)
        self._check_options(self._DELTA_OPTIONS)
        with self._df._session._lock:
            save_as_table(self._df, name, self._mode, partition_by=self._partition_by)

    def insertInto(self, tableName, overwrite=False):
        if self._partition_by:
            raise AnalysisException("insertInto() uses the table's own partitioning; drop partitionBy(...)")
        self._check_options(self._DELTA_OPTIONS)
        with self._df._session._lock:
            save_as_table(self._df, tableName, "overwrite" if overwrite else "append")

    def parquet(self, path, mode=None, partitionBy=None, compression=None):
        """One Parquet file at ``path`` (COPY ... TO), which spark.read.parquet(path) reads back."""
        if compression is not None:
            self.option("compression", compression)
        self._write_file("parquet", path, mode, partitionBy)

    def json(self, path, mode=None, compression=None, **options):
        """One JSON-lines file at ``path`` (COPY ... TO (FORMAT json)), which spark.read.json(path) reads back."""
        if compression is not None:
            self.option("compression", compression)
        self.options(**options)
        self._write_file("json", path, mode, None)

    def csv(self, path, mode=None, compression=None, sep=None, quote=None, header=None, nullValue=None, **options):
        """One CSV file at ``path`` (COPY ... TO (FORMAT csv)); no header line unless header=True, as in Spark."""
        for key, value in (("compression", compression), ("sep", sep), ("quote", quote), ("header", header),
                           ("nullValue", nullValue)):
            if value is not None:
                self.option(key, value)
        self.options(**options)
        self._write_file("csv", path, mode, None)

    def _write_file(self, fmt, path, mode, partition_by):
        self._format = fmt
        if mode:
            self.mode(mode)
        if partition_by or self._partition_by:
            raise AnalysisException("write.%s(partitionBy=...) is not supported yet: lakestream writes one %s "
                                    "file; partition a Delta table with saveAsTable(partitionBy=...)"
                                    % (fmt, fmt.upper() if fmt != "parquet" else "Parquet"))
        self._check_options(self._FILE_OPTIONS[fmt])
        if path is None:
            raise AnalysisException("write.%s() needs a path" % fmt)
        target = os.path.abspath(str(path))
        if os.path.exists(target):
            if self._mode == "ignore":
                return
            if self._mode == "errorifexists":
                raise AnalysisException("[PATH_ALREADY_EXISTS] Path %s already exists. Set mode as \"overwrite\" "
                                        "to overwrite the existing path" % target)
            if self._mode == "append":
                raise AnalysisException("write.%s in mode append is not supported yet: lakestream writes one "
                                        "file; write a new path, or use a Delta table (saveAsTable)" % fmt)
        copy_options = ["FORMAT %s" % fmt]
        for key, value in self._options.items():
            if key == "compression":
                if fmt != "parquet":
                    raise AnalysisException("write option compression is not supported yet for %s: lakestream "
                                            "writes %s files uncompressed" % (fmt, fmt))
                copy_options.append("COMPRESSION %s" % quote_name(str(value).lower()))
            elif key == "header":
                copy_options.append("HEADER %s" % ("true" if _truthy(value) else "false"))
            elif key in ("sep", "delimiter"):
                copy_options.append("DELIMITER %s" % literal(str(value)))
            elif key == "quote":
                copy_options.append("QUOTE %s" % literal(str(value)))
            elif key == "nullvalue":
                copy_options.append("NULL %s" % literal(str(value)))
        if fmt == "csv" and "header" not in self._options:
            copy_options.append("HEADER false")
        copy = "COPY (%s) TO %s (%s)" % (self._df._sql(), literal(target), ", ".join(copy_options))
        with self._df._session._lock:
            self._df._session._conn.execute(copy, list(self._df._params) if self._df._params else None)

    def save(self, path=None, format=None, mode=None, partitionBy=None, **options):
        if format is not None:
            self.format(format)
        self.options(**options)
        if self._format in self._FILE_OPTIONS:
            return self._write_file(self._format, path or self._options.pop("path", None), mode, partitionBy)
        if self._format == "kafka":
            return self._write_kafka(path, mode, partitionBy)
        raise AnalysisException("write.format(\"delta\").save(path) is not supported yet: lakestream names its "
                                "tables; use saveAsTable(name), or CREATE TABLE name LOCATION 'path' then "
                                "insertInto(name)")


    def _write_kafka(self, path, mode, partition_by):
        """A batch to Kafka (Spark's df.write.format("kafka").save()): the rows go through a Kafka sink
        (docs/sinks.md, format raw) made for this one write and dropped after it; RUN SINK returns when
        the broker has acknowledged every message."""
        from .streaming.plan import check_kafka_columns
        if mode:
            self.mode(mode)
        if self._mode not in ("append", "errorifexists"):
            raise AnalysisException("Save mode %s not allowed for Kafka. Allowed save modes are Append and "
                                    "ErrorIfExists (default)" % self._mode)
        if path is not None or partition_by or self._partition_by:
            raise AnalysisException("the Kafka sink takes no path and no partitionBy; set .option(\"topic\", ...)")
        topic = self._options.get("topic")
        if not topic:
            raise AnalysisException("the Kafka sink needs .option(\"topic\", ...)")
        kafka_options = {}
        for key, value in self._options.items():
            if key.startswith("kafka."):
                kafka_options[key[6:]] = str(value)
            elif key != "topic":
                raise AnalysisException("write Kafka option %r is not supported; librdkafka properties are given "
                                        "as kafka.<property>" % key)
        if "bootstrap.servers" not in kafka_options:
            raise AnalysisException("Option 'kafka.bootstrap.servers' must be specified for the Kafka sink")
        df = self._df
        types = [f.datatype.sql() if hasattr(f.datatype, "sql") else str(f.datatype) for f in df.schema.fields]
        has_key = check_kafka_columns(df.columns, types)
        prefix = "__lakestream_write_%s_" % uuid.uuid4().hex[:12]
        staging, stream, sink = (quote_name(prefix + n) for n in ("staging", "stream", "sink"))
        with_items = [("format", "raw"), ("topic", str(topic))] + sorted(kafka_options.items())
        conn = df._session._conn
        failed = False
        with df._session._lock:
            try:
                conn.execute("CREATE TABLE %s (\"key\" VARCHAR, \"value\" VARCHAR) "
                             "TBLPROPERTIES ('change_tracking' = 'true')" % staging)
                conn.execute("CREATE TABLE STREAM %s ON TABLE %s WITH PROPERTIES ('TABLE_STREAM_MODE' = "
                             "'APPEND_ONLY')" % (stream, staging))
                conn.execute("CREATE SINK %s FROM %s INTO KAFKA WITH (%s)" % (
                    sink, stream, ", ".join("%s = %s" % (literal(k), literal(v)) for k, v in with_items)))
                key = "\"key\"" if has_key else "CAST(NULL AS VARCHAR)"
                conn.execute("INSERT INTO %s (\"key\", \"value\") SELECT %s, \"value\" FROM (%s) AS \"__w\""
                             % (staging, key, df._sql()), list(df._params) if df._params else None)
                conn.execute("RUN SINK " + sink)
            except BaseException:
                failed = True
                raise
            finally:
                for drop in ("DROP SINK IF EXISTS " + sink, "DROP STREAM IF EXISTS " + stream,
                             "DROP TABLE IF EXISTS " + staging):
                    try:
                        conn.execute(drop)
                    except Exception:  # noqa: BLE001
                        if not failed:  # else the write's own error is the one to report
                            raise


def _truthy(value):
    return str(value).strip().lower() in ("true", "1", "yes")


def _quote(name):
    return quote_name(name)
