"""What a started streaming query runs: its hidden objects and one micro-batch.

Hidden objects are named __lakestream_query_<id>_<role> (checkpoint.py), <id>
being the checkpoint's; they are created once, IF NOT EXISTS, after the
checkpoint naming them is written, so a kill during setup is repaired by the
next start. Roles:

  stream          the table stream the query consumes (on the source table,
                  or on `view` for an aggregation); its offset is the query's
                  progress
  view            a streaming aggregation: a materialized view of the
                  aggregate over the source table, maintained incrementally
  staging         kafka: the batch's key/value rows (change tracking on)
  staging_stream  kafka: an APPEND_ONLY stream on staging, the sink's source
  sink            kafka: a sink with format 'raw' from staging_stream
  batch           foreachBatch: each batch's rows with their batch id
"""

import time
import uuid

from ...errors import AnalysisException
from ...._frame.sql import literal, quote_name
from .checkpoint import Checkpoint
from .query import _crash_point, _now_iso
from .source import AggregateSource, normalized, sources_in

BATCH_ID = "__lakestream_batch_id"


def _one(conn, sql):
    rel = conn.sql(sql)
    row = rel.fetchone() if rel is not None else None
    return row


def _named_row(conn, sql):
    rel = conn.sql(sql)
    row = rel.fetchone()
    return dict(zip(rel.columns, row)) if row else None


def _affected(conn, sql):
    """Runs a DML statement; the number of rows it wrote (DB-API rowcount)."""
    return conn.execute(sql).rowcount


def check_kafka_columns(columns, types):
    """The Kafka sink's column rules (Spark's): a string value, an optional string key, no topic,
    partition or headers column. Shared by writeStream and the batch df.write.format("kafka")."""
    low = {c.lower(): (c, t) for c, t in zip(columns, types)}
    if "value" not in low:
        raise AnalysisException(
            "Required attribute 'value' not found: the Kafka sink sends the column value as each message "
            "(columns: %s). Build it, e.g. .select(to_json(struct(\"*\")).alias(\"value\"))"
            % ", ".join(columns))
    for name in ("partition", "headers"):
        if name in low:
            raise AnalysisException(
                "the Kafka sink does not support the %r column yet (messages are partitioned by the murmur2 "
                "hash of their key and carry lakestream's own headers); drop that column" % name)
    if "topic" in low:
        raise AnalysisException(
            "a 'topic' column is not supported: set the topic with .option(\"topic\", ...) (it would override "
            "the column, as in Spark) and drop the column")
    for name in ("key", "value"):
        if name in low and not low[name][1].upper().startswith("VARCHAR"):
            raise AnalysisException(
                "%s attribute type must be a string: column %s is %s. Cast it "
                "(col(%r).cast(\"string\")) or encode it with to_json(struct(...))"
                % (name, low[name][0], low[name][1], low[name][0]))
    return "key" in low


class QueryPlan:
    def __init__(self, df, sink, output_mode, checkpoint_location, kafka_options=None, foreach=None):
        self.session = df._session
        self.conn = df._conn
        self.sql = df._sql()
        self.columns = df.columns
        self.types = [f.datatype.sql() if hasattr(f.datatype, "sql") else str(f.datatype) for f in df.schema.fields]
        sources = sources_in(self.sql)
        if not sources:
            raise AnalysisException(
                "writeStream needs a streaming DataFrame (from spark.readStream...); this one reads no stream. "
                "Write a batch DataFrame with df.write.saveAsTable(...)")
        if len(sources) > 1:
            raise AnalysisException(
                "the query reads %d streams (%s); lakestream runs a streaming query over one streaming source. "
                "Join the stream with a table (spark.table(...)) instead of another stream"
                % (len(sources), ", ".join(s.table for s in sources)))
        self.source = source = sources[0]
        self.aggregated = isinstance(source, AggregateSource)
        mode = (output_mode or "append").lower()
        if mode not in ("append", "update", "complete"):
            raise AnalysisException("outputMode %r is not one of: append, update, complete" % (output_mode,))
        if self.aggregated and mode == "append":
            raise AnalysisException(
                "Append output mode not supported when there are streaming aggregations on streaming DataFrames "
                "without watermark (the query aggregates %s). Use outputMode(\"update\") to send the changed groups "
                "of each batch, or outputMode(\"complete\") to send every group; watermarks are not supported yet"
                % source.table)
        if not self.aggregated and mode == "complete":
            raise AnalysisException(
                "Complete output mode not supported when there are no streaming aggregations on streaming "
                "DataFrames (the query over %s does not aggregate); use outputMode(\"append\")" % source.table)
        if sink["format"] == "delta" and self.aggregated and mode == "update":
            raise AnalysisException(
                "Data source delta does not support Update output mode (the aggregation over %s would need an "
                "upsert): use outputMode(\"complete\") to rewrite %s with every group each batch, or "
                "foreachBatch(fn) with a MERGE" % (source.table, sink["table"]))
        self.mode = mode
        self.sink = sink
        self.kafka_options = dict(kafka_options or {})
        self.foreach = foreach
        if sink["format"] == "kafka":
            self._check_kafka_columns()
        definition = {"source": source.identity(), "sink": sink, "outputMode": mode,
                      "query": normalized(self.sql)}
        self.checkpoint = Checkpoint.open(checkpoint_location, self.session._database, definition, AnalysisException)
        self.checkpoint.data.setdefault("query_uuid", str(uuid.uuid4()))
        self.query_uuid = self.checkpoint.data["query_uuid"]
        self.objects = self.checkpoint.objects

    # -- checks -------------------------------------------------------------
    def _check_kafka_columns(self):
        self.has_key = check_kafka_columns(self.columns, self.types)

    # -- setup --------------------------------------------------------------
    def setup(self):
        ck = self.checkpoint
        o = self.objects
        if ck.data["objects_created"]:
            try:
                self.conn.sql("DESCRIBE STREAM " + quote_name(o["stream"]))
            except Exception as e:  # noqa: BLE001 - any failure means the stream is unusable
                raise AnalysisException(
                    "checkpoint %s continues the query whose progress is table stream %s, which cannot be read: %s. "
                    "Recreate nothing by hand: use a new checkpointLocation to start the query over"
                    % (ck.location, o["stream"], e))
            if self.sink["format"] == "kafka" and ck.data.get("kafka_options") != self.kafka_options:
                self.conn.execute("ALTER SINK %s SET (%s)" % (quote_name(o["sink"]), self._kafka_with()))
                ck.data["kafka_options"] = dict(self.kafka_options)
                ck.save()
            self._ensure_target()
            return
        ck.save()  # names the objects before they exist, so a kill here is finished by the next start
        run = self.conn.execute
        if self.aggregated:
            run("CREATE MATERIALIZED VIEW IF NOT EXISTS %s AS %s" % (quote_name(o["view"]), self.source.view_sql()))
            run("CREATE TABLE STREAM IF NOT EXISTS %s ON TABLE %s WITH PROPERTIES ('TABLE_STREAM_MODE' = 'STANDARD', "
                "'SHOW_INITIAL_ROWS' = 'true')" % (quote_name(o["stream"]), quote_name(o["view"])))
        else:
            s = self.source
            at, initial = "", "false"
            sv = s.starting_version
            if sv is None:
                initial = "true"
            elif sv == "latest":
                pass
            elif sv == 0:
                at, initial = " VERSION AS OF 0", "true"
            else:
                at = " VERSION AS OF %d" % (sv - 1)
            mode = "STANDARD" if s.read_change_feed else "APPEND_ONLY"
            run("CREATE TABLE STREAM IF NOT EXISTS %s ON TABLE %s%s WITH PROPERTIES ('TABLE_STREAM_MODE' = '%s', "
                "'SHOW_INITIAL_ROWS' = '%s')" % (quote_name(o["stream"]), quote_name(s.table), at, mode, initial))
        fmt = self.sink["format"]
        if fmt == "kafka":
            run("CREATE TABLE IF NOT EXISTS %s (\"key\" VARCHAR, \"value\" VARCHAR) "
                "TBLPROPERTIES ('change_tracking' = 'true')" % quote_name(o["staging"]))
            run("CREATE TABLE STREAM IF NOT EXISTS %s ON TABLE %s WITH PROPERTIES ('TABLE_STREAM_MODE' = 'APPEND_ONLY')"
                % (quote_name(o["staging_stream"]), quote_name(o["staging"])))
            run("CREATE SINK IF NOT EXISTS %s FROM %s INTO KAFKA WITH (%s)"
                % (quote_name(o["sink"]), quote_name(o["staging_stream"]), self._kafka_with(create=True)))
            ck.data["kafka_options"] = dict(self.kafka_options)
        elif fmt == "foreachBatch":
            run("CREATE TABLE IF NOT EXISTS %s AS SELECT CAST(-1 AS BIGINT) AS %s, \"__q\".* FROM (%s) AS \"__q\" "
                "LIMIT 0" % (quote_name(o["batch"]), quote_name(BATCH_ID), self._placeholder_sql()))
        self._ensure_target()
        ck.data["objects_created"] = True
        ck.save()

    def _placeholder_sql(self):
        return self.sql  # the placeholder reads no rows and no stream

    def _ensure_target(self):
        if self.sink["format"] != "delta":
            return
        target = quote_name(self.sink["table"])
        try:
            self.conn.sql("DESCRIBE TABLE " + target)
            return
        except Exception as e:  # noqa: BLE001
            if "does not exist" not in str(e):
                raise
        # toTable creates a missing table with the query's columns, as Spark does.
        self.conn.execute("CREATE TABLE IF NOT EXISTS %s AS SELECT * FROM (%s) AS \"__q\" LIMIT 0"
                          % (target, self._placeholder_sql()))

    def _kafka_with(self, create=False):
        items = []
        if create:
            items += [("format", "raw"), ("topic", self.sink["topic"])]
        items += sorted(self.kafka_options.items())
        return ", ".join("%s = %s" % (literal(k), literal(str(v))) for k, v in items)

    # -- one micro-batch ----------------------------------------------------
    def _offset(self):
        row = _named_row(self.conn, "DESCRIBE STREAM " + quote_name(self.objects["stream"]))
        return int(row["offset_version"]) if row else None

    def _has_data(self):
        row = _one(self.conn, "SELECT stream_has_data(%s)" % literal(self.objects["stream"]))
        return bool(row and row[0])

    def _changes_to_skip(self):
        """Without readChangeFeed a batch carries appended rows only: commits
        that update or delete rows fail the query, or are skipped with
        skipChangeCommits (whole commits, inserts included, as in Spark)."""
        s = self.source
        if self.aggregated or s.read_change_feed:
            return []
        offset = self._offset()
        latest = self._latest_version(s.table)
        if offset is None or latest <= offset:
            return []
        rel = self.conn.sql(
            "SELECT _commit_version, min(_change_type), max(_change_type) FROM table_changes(%s, %d, %d) "
            "WHERE _change_type <> 'insert' GROUP BY _commit_version ORDER BY _commit_version"
            % (literal(s.table), offset + 1, latest))
        rows = rel.fetchall()
        if not rows:
            return []
        if s.skip_change_commits:
            return [r[0] for r in rows]
        version, lo, hi = rows[0]
        what = "DELETE" if lo == "delete" and hi == "delete" else ("UPDATE or DELETE" if lo == "delete" else "UPDATE")
        raise AnalysisException(
            "Detected a data update (%s) in the source table %s at version %d. A streaming read of a Delta table "
            "carries appended rows only, so this query cannot continue past that version (nothing from it was "
            "consumed). Set .option(\"skipChangeCommits\", \"true\") on readStream to ignore commits that update or "
            "delete rows (the same checkpoint continues), or use .option(\"readChangeFeed\", \"true\") to read every "
            "change with its _change_type (insert, update_preimage, update_postimage, delete; that needs a new "
            "checkpointLocation %s)" % (what, s.table, version, "instead of " + self.checkpoint.location))

    def _latest_version(self, table):
        """The table's current version (DESCRIBE DETAIL: a column for tables, a
        version row for materialized views)."""
        rel = self.conn.sql("DESCRIBE DETAIL " + quote_name(table))
        cols = list(rel.columns)
        rows = rel.fetchall()
        if "version" in cols and rows:
            return int(rows[0][cols.index("version")])
        for r in rows:
            if len(r) >= 2 and r[0] == "version":
                return int(r[1])
        raise AnalysisException("cannot find the current version of %s in DESCRIBE DETAIL" % table)

    def _batch_sql(self, skip):
        s = self.source
        o = self.objects
        if self.aggregated:
            text = s.update_sql(o["stream"]) if self.mode == "update" else s.complete_sql(o["view"], o["stream"])
        else:
            text = s.batch_sql(o["stream"], skip)
        return self.sql.replace(s.placeholder, text)

    def _deliver_staged(self):
        self.conn.sql("RUN SINK " + quote_name(self.objects["sink"]))

    def _rerun_pending_foreach(self):
        ck = self.checkpoint
        row = _one(self.conn, "SELECT max(%s) FROM %s" % (quote_name(BATCH_ID), quote_name(self.objects["batch"])))
        pending = row[0] if row else None
        if pending is not None and pending > ck.data["foreach_completed"]:
            self._call_foreach(pending)
            return pending
        return None

    def _call_foreach(self, batch_id):
        ck = self.checkpoint
        cols = ", ".join(quote_name(c) for c in self.columns)
        df = self.session._frame_over("SELECT %s FROM %s WHERE %s = %d" % (
            cols, quote_name(self.objects["batch"]), quote_name(BATCH_ID), batch_id))
        self.foreach(df, batch_id)
        _crash_point("after_foreach")
        ck.data["foreach_completed"] = batch_id
        ck.data["last_batch_id"] = max(ck.data["last_batch_id"], batch_id)
        ck.save()
        self.conn.execute("DELETE FROM %s WHERE %s <= %d" % (quote_name(self.objects["batch"]), quote_name(BATCH_ID),
                                                            batch_id))

    def run_batch(self):
        """Runs one micro-batch if the source has something pending; its progress, or None."""
        fmt = self.sink["format"]
        ck = self.checkpoint
        if fmt == "kafka":
            self._deliver_staged()  # what a killed batch staged goes out before anything new is consumed
        elif fmt == "foreachBatch":
            self._rerun_pending_foreach()
        if not self._has_data():
            return None
        started = time.monotonic()
        batch_id = ck.data["last_batch_id"] + 1
        # The check for updates and the statement that consumes the batch run
        # with the write lock held between them: no other process commits an
        # update the check did not see.
        with self.conn.holding_writes():
            start_offset = self._offset()
            skip = self._changes_to_skip()
            rows = self._consume(self._batch_sql(skip), batch_id)
        if fmt == "kafka":
            _crash_point("after_stage")
            self._deliver_staged()
            _crash_point("after_sink")
        elif fmt == "foreachBatch" and rows != 0:
            _crash_point("after_stage")
            self._call_foreach(batch_id)
        ck.data["last_batch_id"] = batch_id
        ck.save()
        elapsed = max(time.monotonic() - started, 1e-6)
        end_offset = self._offset()
        return {
            "id": self.query_uuid, "timestamp": _now_iso(), "batchId": batch_id, "numInputRows": rows,
            "inputRowsPerSecond": 0.0, "processedRowsPerSecond": rows / elapsed,
            "durationMs": {"triggerExecution": int(elapsed * 1000), "addBatch": int(elapsed * 1000)},
            "sources": [{"description": self.source.description(), "startOffset": {"version": start_offset},
                         "endOffset": {"version": end_offset}, "latestOffset": {"version": end_offset},
                         "numInputRows": rows, "skippedChangeCommits": list(skip)}],
            "sink": {"description": self._sink_description(), "numOutputRows": rows},
        }

    def _consume(self, query, batch_id):
        """The one statement that consumes a batch from the stream (moving its
        offset): into the target table, the Kafka staging table or the
        foreachBatch table. Returns the rows it wrote."""
        fmt = self.sink["format"]
        o = self.objects
        if fmt == "delta":
            cols = ", ".join(quote_name(c) for c in self.columns)
            # complete: the table holds the whole result, rewritten by the same one statement
            verb = "INSERT INTO"
            if self.mode == "complete" and _one(self.conn, "SELECT count(*) FROM %s" % quote_name(o["stream"]))[0]:
                verb = "INSERT OVERWRITE"  # else the changes cancelled out: keep the table, move the offset
            return _affected(self.conn, "%s %s (%s) SELECT %s FROM (%s) AS \"__lakestream_batch\"" % (
                verb, quote_name(self.sink["table"]), cols, cols, query))
        if fmt == "kafka":
            key = "\"key\"" if self.has_key else "CAST(NULL AS VARCHAR)"
            return _affected(self.conn, "INSERT INTO %s (\"key\", \"value\") SELECT %s, \"value\" FROM (%s) AS "
                                        "\"__lakestream_batch\"" % (quote_name(o["staging"]), key, query))
        return _affected(self.conn, "INSERT INTO %s SELECT %d, \"__b\".* FROM (%s) AS \"__b\"" % (
            quote_name(o["batch"]), batch_id, query))

    def _sink_description(self):
        fmt = self.sink["format"]
        if fmt == "delta":
            return "DeltaSink[%s]" % self.sink["table"]
        if fmt == "kafka":
            return "KafkaSink[%s] via sink %s" % (self.sink["topic"], self.objects["sink"])
        return "ForeachBatchSink"

    def describe(self):
        return "streaming query %s: %s -> %s (%s mode), hidden objects %s" % (
            self.query_uuid, self.source.description(), self._sink_description(), self.mode,
            ", ".join(sorted(self.objects.values())))
