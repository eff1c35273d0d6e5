"""StreamingQuery: micro-batches as single SQL statements.

Each micro-batch consumes the query's hidden table stream in ONE statement,
so the stream's offset moves exactly when that statement commits:

  delta        INSERT INTO target (cols) SELECT ... FROM <stream-backed query>
  kafka        INSERT INTO <staging> (key, value) SELECT ... FROM <query>, then
               RUN SINK <sink> (format 'raw', reading an append-only stream on
               the staging table). A kill between or inside the two steps is
               covered by the sink's resume; every trigger first runs the sink,
               so staged rows are sent before new ones are consumed.
  foreachBatch INSERT INTO <batch table> SELECT <batch id>, ... FROM <query>,
               then fn(DataFrame of that batch, batch id), then the checkpoint
               records the batch done. A kill before that re-runs fn with the
               same batch id (at least once, as Spark documents).
"""

import datetime
import os
import re
import signal
import threading
import time
import uuid

from ...errors import AnalysisException, StreamingQueryException


def _crash_point(name):
    """Tests kill the process here (LAKESTREAM_PYSPARK_CRASH_POINT=name)."""
    if os.environ.get("LAKESTREAM_PYSPARK_CRASH_POINT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|millisecond|milliseconds|s|sec|second|seconds|m|min|minute|"
                       r"minutes|h|hour|hours)?\s*$", re.I)
_UNIT = {"ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1, "sec": 1, "second": 1, "seconds": 1,
         "m": 60, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hour": 3600, "hours": 3600}


def parse_interval(text):
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    m = _DURATION.match(str(text))
    if not m:
        raise ValueError("processingTime %r is not an interval; write it like '1 second', '500 milliseconds' or "
                         "'2 minutes'" % (text,))
    return float(m.group(1)) * _UNIT[(m.group(2) or "ms").lower()]


class StreamingQuery:
    """A running query (pyspark.sql.streaming.StreamingQuery)."""

    def __init__(self, plan, trigger, name):
        self._plan = plan
        self._session = plan.session
        # ("availableNow",) | ("processingTime", seconds) | ("default", seconds):
        # the default trigger also starts a micro-batch on a commit to the source.
        self._trigger = trigger
        self._waiter = None
        self._name = name
        self._run_id = str(uuid.uuid4())
        self._stop = threading.Event()
        self._exception = None
        self._progress = []
        self._status_message = "Initializing sources"
        self._data_available = False
        self._trigger_active = False
        self._active = True
        self._thread = threading.Thread(target=self._loop, name="lakestream-stream-%s" % plan.checkpoint.id,
                                        daemon=True)
        self._session.streams._add(self)
        self._thread.start()

    # -- Spark's API --------------------------------------------------------
    @property
    def id(self):
        return self._plan.query_uuid

    @property
    def runId(self):
        return self._run_id

    @property
    def name(self):
        return self._name

    @property
    def isActive(self):
        return self._active

    @property
    def lastProgress(self):
        return self._progress[-1] if self._progress else None

    @property
    def recentProgress(self):
        return list(self._progress)

    @property
    def status(self):
        return {"message": self._status_message if self._active else "Stopped",
                "isDataAvailable": self._data_available, "isTriggerActive": self._trigger_active}

    def exception(self):
        return self._exception

    def awaitTermination(self, timeout=None):
        """Waits for the query to stop (availableNow: when nothing is pending).
        With a timeout: True when it stopped, False when the time ran out.
        Raises StreamingQueryException when the query failed."""
        self._thread.join(timeout)
        if self._exception is not None:
            raise self._exception
        if timeout is not None:
            return not self._thread.is_alive()
        return None

    def processAllAvailable(self):
        """Blocks until every change committed to the source before the call is processed."""
        if self._exception is not None:
            raise self._exception
        if not self._active:
            return
        try:
            self._drain()
        except Exception as e:  # noqa: BLE001 - the query fails with any error, as in Spark
            self._fail(e)
            self._stop.set()
            raise self._exception

    def stop(self):
        self._stop.set()
        if self._waiter is not None:
            self._waiter.wake()
        if threading.current_thread() is not self._thread:
            self._thread.join()

    def explain(self, extended=False):
        print(self._plan.describe())

    def __repr__(self):
        return "<StreamingQuery id=%s name=%s active=%s>" % (self.id, self._name, self._active)

    # -- running ------------------------------------------------------------
    def _fail(self, e):
        if self._exception is None:
            self._exception = e if isinstance(e, StreamingQueryException) else StreamingQueryException(
                "Query %s[id = %s, runId = %s] terminated with exception: %s" % (
                    self._name + " " if self._name else "", self.id, self._run_id, e), e)

    def _loop(self):
        try:
            if self._trigger[0] == "availableNow":
                self._drain()
            else:
                interval = self._trigger[1]
                while not self._stop.is_set():
                    started = time.monotonic()
                    if self._trigger[0] == "default":
                        # Before the batch reads the source: a commit during it wakes the wait below.
                        with self._session._lock:
                            self._waiter = self._plan.conn._follow_commits(self._plan.source.table, self._waiter)
                    self._drain()
                    self._status_message = "Waiting for next trigger"
                    left = max(interval - (time.monotonic() - started), 0.05)
                    if self._waiter is not None:
                        self._waiter.wait(left)  # a commit (or stop()) ends it early
                    else:
                        self._stop.wait(left)
        except Exception as e:  # noqa: BLE001
            self._fail(e)
        finally:
            self._active = False
            self._status_message = "Stopped"
            self._session.streams._remove(self)

    def _drain(self):
        """Micro-batches until nothing is pending (each consumes all there is)."""
        while not self._stop.is_set():
            with self._session._lock:
                self._trigger_active = True
                try:
                    progress = self._plan.run_batch()
                finally:
                    self._trigger_active = False
            self._data_available = progress is not None
            if progress is None:
                self._status_message = "Waiting for data to arrive"
                return
            progress["name"] = self._name
            progress["runId"] = self._run_id
            self._progress.append(progress)
            del self._progress[:-100]


class StreamingQueryManager:
    """spark.streams: the session's active queries."""

    def __init__(self):
        self._queries = []
        self._lock = threading.Lock()

    def _add(self, q):
        with self._lock:
            for other in self._queries:
                if other._plan.checkpoint.location == q._plan.checkpoint.location and other.isActive:
                    raise AnalysisException("a query with checkpoint %s is already active (id %s); stop it first"
                                            % (q._plan.checkpoint.location, other.id))
            self._queries.append(q)

    def _check_free(self, location):
        with self._lock:
            for other in self._queries:
                if other._plan.checkpoint.location == location and other.isActive:
                    raise AnalysisException("a query with checkpoint %s is already active (id %s); stop it first"
                                            % (location, other.id))

    def _remove(self, q):
        with self._lock:
            if q in self._queries:
                self._queries.remove(q)

    @property
    def active(self):
        with self._lock:
            return [q for q in self._queries if q.isActive]

    def get(self, query_id):
        for q in self.active:
            if q.id == query_id:
                return q
        return None

    def awaitAnyTermination(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            qs = self.active
            if not qs:
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            qs[0]._thread.join(0.1)
