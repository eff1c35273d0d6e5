"""Streaming sources as SQL placeholders.

A streaming DataFrame is an ordinary lazy DataFrame whose FROM is a
placeholder subquery: it has the source's columns (so columns, schema and
every operation work) and reads no rows (``WHERE FALSE``). The placeholder's
alias is a marker unique to the source, registered here. When the query
starts, the placeholder text is replaced in the query's SQL: by a read of
the query's table stream for each micro-batch, or by the table itself for
the materialized view behind a streaming aggregation.
"""

import itertools
import os
import re

from ...._frame.sql import literal, quote_name

_counter = itertools.count(1)
_SOURCES = {}

# Spark's change data feed columns, and the table stream's columns they come from.
CDF_COLUMNS = ("_change_type", "_commit_version", "_commit_timestamp")
_CHANGE_TYPE_SQL = ("CASE \"__change_type\" WHEN 'INSERT' THEN 'insert' WHEN 'UPDATE_BEFORE' THEN 'update_preimage' "
                    "WHEN 'UPDATE_AFTER' THEN 'update_postimage' WHEN 'DELETE' THEN 'delete' END")


def _marker():
    return "__lakestream_streaming_source_%d_%d" % (os.getpid(), next(_counter))


class TableSource:
    """spark.readStream[.format("delta")].table(t): a Delta table (or a
    materialized view) read as a stream."""

    kind = "table"

    def __init__(self, table, columns, read_change_feed=False, starting_version=None, skip_change_commits=False):
        self.table = table
        self.columns = list(columns)
        self.read_change_feed = read_change_feed
        self.starting_version = starting_version
        self.skip_change_commits = skip_change_commits
        self.marker = _marker()
        self.placeholder = self._subquery("SELECT %s%s FROM %s WHERE FALSE" % (
            self._cols(), self._null_cdf() if read_change_feed else "", quote_name(table)))
        _SOURCES[self.marker] = self

    def _cols(self):
        return ", ".join(quote_name(c) for c in self.columns)

    @staticmethod
    def _null_cdf():
        return (", CAST(NULL AS VARCHAR) AS \"_change_type\", CAST(NULL AS BIGINT) AS \"_commit_version\", "
                "CAST(NULL AS TIMESTAMP) AS \"_commit_timestamp\"")

    def _subquery(self, select):
        return "(%s) AS %s" % (select, quote_name(self.marker))

    def static_sql(self):
        """The source's rows now: what a materialized view over the query reads."""
        return self._subquery("SELECT %s FROM %s" % (self._cols(), quote_name(self.table)))

    def batch_sql(self, stream, skip_versions=()):
        """One micro-batch: the stream's rows, in Spark's shape."""
        if self.read_change_feed:
            return self._subquery("SELECT %s, %s AS \"_change_type\", \"__commit_version\" AS \"_commit_version\", "
                                  "\"__commit_timestamp\" AS \"_commit_timestamp\" FROM %s"
                                  % (self._cols(), _CHANGE_TYPE_SQL, quote_name(stream)))
        where = ""
        if skip_versions:
            where = " WHERE \"__commit_version\" NOT IN (%s)" % ", ".join(literal(int(v)) for v in skip_versions)
        return self._subquery("SELECT %s FROM %s%s" % (self._cols(), quote_name(stream), where))

    def identity(self):
        """What a checkpoint compares (startingVersion and skipChangeCommits
        may change on restart, as in Spark: the checkpoint's position wins)."""
        return {"kind": "table", "table": self.table, "readChangeFeed": self.read_change_feed}

    def description(self):
        return "DeltaSource[%s]" % self.table


class AggregateSource:
    """groupBy(...).agg(...) over a streaming DataFrame: maintained as a
    materialized view over the source table; its changes are the stream."""

    kind = "aggregate"

    def __init__(self, inner, agg_sql, columns):
        self.inner = inner
        self.agg_sql = agg_sql  # over inner.placeholder
        self.columns = list(columns)
        self.marker = _marker()
        self.placeholder = "(%s) AS %s" % (agg_sql, quote_name(self.marker))
        _SOURCES[self.marker] = self

    def view_sql(self):
        return self.agg_sql.replace(self.inner.placeholder, self.inner.static_sql())

    def update_sql(self, stream):
        """Changed groups: new and updated rows of the view's stream."""
        return "(SELECT %s FROM %s WHERE \"__change_type\" IN ('INSERT', 'UPDATE_AFTER')) AS %s" % (
            ", ".join(quote_name(c) for c in self.columns), quote_name(stream), quote_name(self.marker))

    def complete_sql(self, view, stream):
        """Every group, when the view changed (the stream is read, so its offset moves)."""
        return ("(SELECT %s FROM %s CROSS JOIN (SELECT count(*) AS \"__n\" FROM %s) AS \"__changed\" "
                "WHERE \"__changed\".\"__n\" > 0) AS %s") % (
            ", ".join("%s.%s" % (quote_name("__v"), quote_name(c)) for c in self.columns),
            quote_name(view) + " AS " + quote_name("__v"), quote_name(stream), quote_name(self.marker))

    def identity(self):
        return {"kind": "aggregate", "table": self.inner.table}

    @property
    def table(self):
        return self.inner.table

    def description(self):
        return "DeltaSource[%s] (aggregated)" % self.inner.table


def sources_in(sql):
    """The streaming sources a query's SQL reads (an aggregate hides its input)."""
    found = [s for m, s in list(_SOURCES.items()) if quote_name(m) in sql]
    inner = {id(s.inner) for s in found if isinstance(s, AggregateSource)}
    return [s for s in found if id(s) not in inner]


_GENERATED = re.compile(r'"__(q|u|count|l|r)\d*"|"__lakestream_streaming_source_\d+_\d+"')


def normalized(sql):
    """Query text without the names generated per process, for comparing a
    restarted query's definition with its checkpoint's."""
    return _GENERATED.sub('"__"', sql)
