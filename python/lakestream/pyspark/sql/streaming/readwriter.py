"""spark.readStream and df.writeStream."""

import os

from ...errors import AnalysisException
from .._options import OptionsBuilder
from ...._frame.writer import table_key
from .plan import QueryPlan
from .query import StreamingQuery, parse_interval
from .source import TableSource

_TRUE = ("true", "1", "yes")


def _bool_option(options, name):
    v = options.get(name.lower())
    if v is None:
        return False
    if str(v).lower() in _TRUE:
        return True
    if str(v).lower() in ("false", "0", "no"):
        return False
    raise AnalysisException("option %s must be true or false, not %r" % (name, v))


class DataStreamReader(OptionsBuilder):
    """spark.readStream: .format("delta") (the default), .option(...), .table(t) / .load(path)."""

    _OPTIONS = ("readchangefeed", "readchangedata", "startingversion", "skipchangecommits", "ignorechanges", "ignoredeletes",
                "maxfilespertrigger", "maxbytespertrigger", "path")

    def __init__(self, session):
        self._session = session
        self._format = "delta"
        self._options = {}

    def schema(self, schema):
        raise AnalysisException("readStream.schema(): a Delta table stream has the table's schema; drop .schema(...)")

    def _check(self):
        if self._format not in ("delta", "table"):
            raise AnalysisException(
                "readStream.format(%r) is not supported: lakestream streams Delta tables and materialized views "
                "(format \"delta\"). Ingest files with read_files() or a pipeline (docs/pipelines.md), and Kafka "
                "into a table first" % self._format)
        for k in self._options:
            if k not in self._OPTIONS:
                raise AnalysisException("readStream option %r is not supported; the Delta source takes readChangeFeed, "
                                        "startingVersion, skipChangeCommits" % k)
        for k in ("ignorechanges", "ignoredeletes"):
            if _bool_option(self._options, k):
                raise AnalysisException("option %s is not supported (Spark deprecated it); use skipChangeCommits "
                                        "or readChangeFeed" % k)

    def table(self, tableName):
        self._check()
        name = table_key(tableName)  # "s.t" and "catalog.s.t" name schema s's t
        # readChangeData: Delta's name for it before 2.0, still in many notebooks.
        cdf = _bool_option(self._options, "readChangeFeed") or _bool_option(self._options, "readChangeData")
        skip = _bool_option(self._options, "skipChangeCommits")
        sv = self._options.get("startingversion")
        if sv is not None:
            if isinstance(sv, str) and sv.strip().lower() == "latest":
                sv = "latest"
            else:
                try:
                    sv = int(sv)
                    if sv < 0:
                        raise ValueError
                except (TypeError, ValueError):
                    raise AnalysisException("startingVersion must be a version number >= 0 or \"latest\", not %r"
                                            % (sv,)) from None
        columns = self._session._table_columns(name)
        for c in columns:
            if cdf and c.lower() in ("_change_type", "_commit_version", "_commit_timestamp"):
                raise AnalysisException("table %s has a column %s, which readChangeFeed adds; rename it" % (name, c))
        src = TableSource(name, columns, read_change_feed=cdf, starting_version=sv, skip_change_commits=skip)
        return self._session._streaming_frame(src)

    def load(self, path=None):
        self._check()
        path = path or self._options.get("path")
        if not path:
            raise AnalysisException("readStream.load() needs a path (a Delta table directory) or use .table(name)")
        return self.table(self._session._table_at_path(path))


class DataStreamWriter(OptionsBuilder):
    """df.writeStream: format("delta"|"kafka") / foreachBatch(fn), outputMode, options, trigger, start/toTable."""

    _fold_keys = False  # kafka.* options go to librdkafka as written

    def __init__(self, df):
        self._df = df
        self._format = None
        self._options = {}
        self._mode = "append"
        # No trigger(): the next micro-batch starts when a commit to the
        # source arrives (at the latest after 0.1 s), as Spark's default
        # trigger starts one as soon as data is there.
        self._trigger = ("default", 0.1)
        self._foreach = None
        self._name = None

    def outputMode(self, outputMode):
        self._mode = str(outputMode).lower()
        return self

    def queryName(self, queryName):
        self._name = queryName
        return self

    def partitionBy(self, *cols):
        raise AnalysisException("writeStream.partitionBy(): create the target table with PARTITIONED BY instead")

    def trigger(self, processingTime=None, once=None, continuous=None, availableNow=None):
        given = [x for x in (processingTime, once, continuous, availableNow) if x is not None]
        if len(given) != 1:
            raise ValueError("trigger() takes exactly one of processingTime, once, availableNow, continuous")
        if continuous is not None:
            raise AnalysisException("continuous processing is not supported; use processingTime or availableNow")
        if processingTime is not None:
            self._trigger = ("processingTime", parse_interval(processingTime))
        elif once or availableNow:
            self._trigger = ("availableNow",)
        else:
            raise ValueError("trigger(once=False / availableNow=False) is not a trigger")
        return self

    def foreachBatch(self, func):
        if not callable(func):
            raise TypeError("foreachBatch() takes a function (batch_df, batch_id)")
        self._foreach = func
        self._format = "foreachbatch"
        return self

    def foreach(self, f):
        raise AnalysisException("writeStream.foreach() is not supported; use foreachBatch(fn), which gets each "
                                "micro-batch as a DataFrame")

    def _get(self, name):
        for k, v in self._options.items():
            if k.lower() == name.lower():
                return v
        return None

    def _checkpoint(self):
        loc = self._get("checkpointLocation")
        if loc is None:
            root = self._df._session.conf.get("spark.sql.streaming.checkpointLocation", None)
            if root:
                if not self._name:
                    raise AnalysisException("with spark.sql.streaming.checkpointLocation set, name the query "
                                            "(.queryName(...)) so it finds its checkpoint again")
                loc = os.path.join(root, self._name)
        if loc is None:
            raise AnalysisException(
                "checkpointLocation must be specified either through option(\"checkpointLocation\", ...) or "
                "SparkSession.conf.set(\"spark.sql.streaming.checkpointLocation\", ...): it holds the query's "
                "progress, so a restart continues where it stopped")
        return str(loc)

    def start(self, path=None, format=None, outputMode=None, partitionBy=None, queryName=None, _table=None,
              **options):
        if format is not None:
            self.format(format)
        if outputMode is not None:
            self.outputMode(outputMode)
        if partitionBy:
            self.partitionBy(partitionBy)
        if queryName is not None:
            self.queryName(queryName)
        self.options(**options)
        fmt = self._format or "delta"
        if fmt == "console":
            # Spark's debugging sink: each batch printed (at least once, like foreachBatch).
            num_rows = int(self._get("numRows") or 20)
            truncate = str(self._get("truncate") or "true").lower() in ("true", "1")

            def show(batch_df, batch_id):
                print("-------------------------------------------\nBatch: %d\n"
                      "-------------------------------------------" % batch_id)
                batch_df.show(num_rows, truncate)
            self._options = {k: v for k, v in self._options.items() if k.lower() in ("checkpointlocation",)}
            self.foreachBatch(show)
            fmt = self._format
        elif fmt == "memory":
            # Spark's in-memory table named by queryName: here a Delta table of that name.
            if not self._name:
                raise AnalysisException("the memory sink needs .queryName(name): the name of the table it fills")
            fmt, _table = "delta", self._name
        kafka_options = {}
        if fmt == "delta":
            table = _table
            if table is None:
                path = self._get("path") if path is None else path
                if path is None:
                    raise AnalysisException("writeStream.format(\"delta\") needs a target: .toTable(name) or "
                                            ".start(path of a table directory)")
                table = self._df._session._table_at_path(path)
            sink = {"format": "delta", "table": table_key(str(table))}
        elif fmt == "kafka":
            topic = self._get("topic")
            if not topic:
                raise AnalysisException("the Kafka sink needs .option(\"topic\", ...)")
            for k, v in self._options.items():
                if k.lower().startswith("kafka."):
                    kafka_options[k[6:]] = str(v)
                elif k.lower() not in ("topic", "checkpointlocation"):
                    raise AnalysisException("writeStream Kafka option %r is not supported; librdkafka properties "
                                            "are given as kafka.<property>" % k)
            if "bootstrap.servers" not in {k.lower() for k in kafka_options}:
                raise AnalysisException("Option 'kafka.bootstrap.servers' must be specified for the Kafka sink")
            sink = {"format": "kafka", "topic": str(topic)}
        elif fmt == "foreachbatch":
            sink = {"format": "foreachBatch"}
        else:
            raise AnalysisException("writeStream.format(%r) is not supported; use \"delta\", \"kafka\", "
                                    "\"console\", \"memory\" or foreachBatch(fn)" % fmt)
        session = self._df._session
        location = os.path.abspath(self._checkpoint())
        session.streams._check_free(location)
        with session._lock:
            plan = QueryPlan(self._df, sink, self._mode, location, kafka_options, self._foreach)
            plan.setup()
        return StreamingQuery(plan, self._trigger, self._name)

    def toTable(self, tableName, format=None, outputMode=None, partitionBy=None, queryName=None, **options):
        if format is not None and str(format).lower() != "delta":
            raise AnalysisException("toTable(format=%r): tables are Delta tables" % (format,))
        if outputMode:
            self.outputMode(outputMode)
        if queryName:
            self.queryName(queryName)
        if partitionBy:
            self.partitionBy(partitionBy)
        self.options(**options)
        self._format = "delta"
        return self.start(_table=tableName)
