"""spark.read: every option is honoured or refused by name, never ignored.

Files (csv, json, parquet) are read by the engine's read_files() with
Spark's options translated to its own (docs/pipelines.md "read_files()");
Delta tables by name, at a past version (versionAsOf, timestampAsOf) or as
their change feed (readChangeFeed, and Delta's older name readChangeData),
through table_changes(). docs/python-pyspark.md lists the mapping.
"""

from ..errors import AnalysisException
from ..._frame.sql import literal, quote_name
from ..._frame.writer import table_name_sql
from ._options import OptionsBuilder


def _flag(name, value):
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise AnalysisException("read option %s must be true or false, not %r" % (name, value))


def _one_char(name, value):
    text = str(value)
    if text == "\\t":
        text = "\t"
    if len(text) != 1:
        raise AnalysisException("read option %s must be one character, not %r" % (name, value))
    return text


def _schema_ddl(schema):
    """A StructType or a DDL string ('id INT, name STRING') as read_files' schema text."""
    if isinstance(schema, str):
        return schema
    fields = getattr(schema, "fields", None)
    if fields is None:
        raise AnalysisException("schema must be a StructType or a DDL string such as 'id INT, name STRING', not %r"
                                % (schema,))
    return ", ".join("%s %s" % (quote_name(f.name), f.datatype.sql()) for f in fields)


# Spark options accepted as they are and meaning what Spark means, per format.
# Keys are lower-case (options compare case-insensitively); each maps a
# Spark value to read_files' (name, SQL literal) arguments.
def _csv_options(options):
    args = []
    infer = False  # Spark's default for CSV: every column a string
    for key, value in options.items():
        if key == "header":
            args.append(("header", "true" if _flag(key, value) else "false"))
        elif key in ("sep", "delimiter"):
            args.append(("delimiter", literal(_one_char(key, value))))
        elif key == "quote":
            args.append(("quote", literal(_one_char(key, value))))
        elif key == "inferschema":
            infer = _flag(key, value)
        else:
            _common_option("csv", key, value, args)
    if not infer and "schema" not in options:
        args.append(("inferColumnTypes", "false"))
    return args


def _json_options(options):
    args = []
    for key, value in options.items():
        if key == "multiline":
            args.append(("multiLine", "true" if _flag(key, value) else "false"))
        elif key == "primitivesasstring":
            if _flag(key, value):
                args.append(("inferColumnTypes", "false"))
        elif key == "prefersdecimal":
            args.append(("prefersDecimal", "true" if _flag(key, value) else "false"))
        else:
            _common_option("json", key, value, args)
    return args


def _parquet_options(options):
    args = []
    for key, value in options.items():
        if key == "mergeschema":
            if _flag(key, value):
                raise AnalysisException("read option mergeSchema = true is not supported yet for parquet; read files "
                                        "with one schema, or give .schema(...)")
        else:
            _common_option("parquet", key, value, args)
    return args


def _common_option(fmt, key, value, args):
    if key == "schema":
        args.append(("schema", literal(_schema_ddl(value))))
    elif key in ("rescueddatacolumn", "schemahints"):  # Databricks' read_files options, as they are
        args.append(({"rescueddatacolumn": "rescuedDataColumn", "schemahints": "schemaHints"}[key], literal(str(value))))
    elif key == "encoding" or key == "charset":
        if str(value).strip().lower().replace("-", "") != "utf8":
            raise AnalysisException("read option %s = %r is not supported yet: lakestream reads UTF-8 files" % (key, value))
    elif key == "mode":
        if str(value).strip().upper() != "FAILFAST":
            raise AnalysisException(
                "read option mode = %r is not supported yet: lakestream stops at a malformed record, naming the file "
                "and line (Spark's FAILFAST); set mode to FAILFAST, or keep what does not fit with "
                ".option(\"rescuedDataColumn\", \"_rescued_data\")" % (value,))
    elif key == "path":
        pass
    else:
        raise AnalysisException(
            "read option %r is not supported yet for format %s; lakestream takes %s (docs/python-pyspark.md)"
            % (key, fmt, _SUPPORTED[fmt]))


_SUPPORTED = {
    "csv": "header, sep/delimiter, quote, inferSchema, schema, mode=FAILFAST, encoding=UTF-8, rescuedDataColumn, "
           "schemaHints",
    "json": "multiLine, primitivesAsString, prefersDecimal, schema, mode=FAILFAST, encoding=UTF-8, rescuedDataColumn, "
            "schemaHints",
    "parquet": "mergeSchema=false, schema, rescuedDataColumn, schemaHints",
}
_FILE_OPTIONS = {"csv": _csv_options, "json": _json_options, "parquet": _parquet_options}
_DELTA_OPTIONS = ("versionasof", "timestampasof", "readchangefeed", "readchangedata", "startingversion",
                  "endingversion", "startingtimestamp", "endingtimestamp", "path")


class DataFrameReader(OptionsBuilder):
    """spark.read: .table(name), .format(...).option(...).load(path), .csv/.json/.parquet(path)."""

    def __init__(self, session):
        self._session = session
        self._format = "delta"
        self._options = {}
        self._schema = None

    def schema(self, schema):
        self._schema = _schema_ddl(schema)
        return self

    # -- Delta ----------------------------------------------------------------
    def table(self, tableName):
        return self._delta(table_name_sql(tableName), str(tableName))

    def _delta(self, name_sql, name):
        for key in self._options:
            if key not in _DELTA_OPTIONS:
                raise AnalysisException(
                    "read option %r is not supported for Delta tables; lakestream takes versionAsOf, timestampAsOf, "
                    "readChangeFeed (or readChangeData) with startingVersion/endingVersion or "
                    "startingTimestamp/endingTimestamp" % key)
        if self._schema is not None:
            raise AnalysisException("read.schema(): a Delta table has its own schema; drop .schema(...)")
        o = self._options
        cdf = any(_flag(k, o[k]) for k in ("readchangefeed", "readchangedata") if k in o)
        ranges = [k for k in ("startingversion", "endingversion", "startingtimestamp", "endingtimestamp") if k in o]
        if cdf:
            if "versionasof" in o or "timestampasof" in o:
                raise AnalysisException("readChangeFeed reads a range of versions: use startingVersion/endingVersion, "
                                        "not versionAsOf/timestampAsOf")
            if "startingversion" in o and "startingtimestamp" in o:
                raise AnalysisException("give startingVersion or startingTimestamp, not both")
            if "startingversion" in o:
                start = str(int(o["startingversion"]))
            elif "startingtimestamp" in o:
                start = literal(str(o["startingtimestamp"]))
            else:
                raise AnalysisException("readChangeFeed needs startingVersion or startingTimestamp (as in Delta)")
            end = None
            if "endingversion" in o:
                end = str(int(o["endingversion"]))
            elif "endingtimestamp" in o:
                end = literal(str(o["endingtimestamp"]))
            args = ", ".join([literal(name), start] + ([end] if end else []))
            return self._session._frame(source_sql="table_changes(%s) AS %s" % (args, quote_name("__lakestream_changes")))
        if ranges:
            raise AnalysisException("read option %s applies with readChangeFeed = true only" % ranges[0])
        if "versionasof" in o and "timestampasof" in o:
            raise AnalysisException("give versionAsOf or timestampAsOf, not both")
        if "versionasof" in o:
            return self._session._frame(source_sql="%s VERSION AS OF %d" % (name_sql, int(o["versionasof"])))
        if "timestampasof" in o:
            return self._session._frame(source_sql="%s TIMESTAMP AS OF %s" % (name_sql, literal(str(o["timestampasof"]))))
        return self._session._frame(source_sql=name_sql)

    # -- files ----------------------------------------------------------------
    def load(self, path=None, format=None, schema=None, **options):
        if format is not None:
            self.format(format)
        if schema is not None:
            self.schema(schema)
        self.options(**options)
        path = path or self._options.get("path")
        if not path:
            raise AnalysisException("read.load() needs a path")
        if self._format == "delta":
            name = self._session._table_at_path(path)
            return self._delta(table_name_sql(name), name)
        if self._format not in _FILE_OPTIONS:
            raise AnalysisException("read.format(%r) is not supported; use delta, parquet, json or csv" % self._format)
        options = dict(self._options)
        if self._schema is not None:
            options["schema"] = self._schema
        args = [("format", literal(self._format))] + _FILE_OPTIONS[self._format](options)
        paths = path if isinstance(path, (list, tuple)) else [path]
        files = "list_value(%s)" % ", ".join(literal(str(p)) for p in paths) if len(paths) > 1 else literal(str(paths[0]))
        named = "".join(", %s => %s" % (k, v) for k, v in args)
        return self._session._frame(source_sql="read_files(%s%s) AS %s" % (files, named, quote_name("__lakestream_files")))

    def _with(self, fmt, path, schema, spark_options):
        self.format(fmt)
        if schema is not None:
            self.schema(schema)
        for key, value in spark_options.items():
            if value is not None:
                self.option(key, value)
        return self.load(path)

    def csv(self, path, schema=None, sep=None, header=None, inferSchema=None, quote=None, encoding=None, mode=None,
            **options):
        return self._with("csv", path, schema, dict(options, sep=sep, header=header, inferSchema=inferSchema, quote=quote,
                                                     encoding=encoding, mode=mode))

    def json(self, path, schema=None, multiLine=None, primitivesAsString=None, prefersDecimal=None, encoding=None,
             mode=None, **options):
        return self._with("json", path, schema, dict(options, multiLine=multiLine, primitivesAsString=primitivesAsString,
                                                      prefersDecimal=prefersDecimal, encoding=encoding, mode=mode))

    def parquet(self, *paths, **options):
        if not paths:
            raise AnalysisException("read.parquet() needs a path")
        return self._with("parquet", list(paths) if len(paths) > 1 else paths[0], None, options)

    def text(self, *args, **kwargs):
        raise AnalysisException("read.text() is not supported yet; read lines with read.csv(path, sep='\\x01') or "
                                "spark.sql(\"SELECT * FROM read_files(...)\")")

    def orc(self, *args, **kwargs):
        raise AnalysisException("read.orc() is not supported yet; lakestream reads parquet, json, csv and Delta")
