#!/usr/bin/env bash
# `lakestream run --continuous` starts its next pass when a table it reads
# from outside the pipeline commits (issue 30, push delivery): with the
# interval at 30 s, a row another process inserts reaches the streaming table
# within 10 s, which only the commit notification (inotify on the input's
# _delta_log/) can do.
# Usage: continuous_wake_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-pipeline-wake.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$WORK"' EXIT
"$LS" "$WORK/db" -c "CREATE TABLE orders (id BIGINT, amount BIGINT) TBLPROPERTIES ('change_tracking' = 'true');
                     INSERT INTO orders VALUES (1, 10)" >/dev/null
echo "CREATE OR REFRESH STREAMING TABLE copied AS SELECT id, amount FROM STREAM(orders);" > "$WORK/p.sql"
"$LS" run "$WORK/p.sql" --db "$WORK/db" --continuous --interval 30s --plain > "$WORK/run.log" 2>&1 &
pid=$!
wait_for() {  # wait_for PATTERN SECONDS
  for ((i = 0; i < $2 * 10; i++)); do
    grep -q "$1" "$WORK/run.log" && return 0
    sleep 0.1
  done
  cat "$WORK/run.log"; fail "timed out waiting for '$1'"
}
wait_for "pass 1 copied (streaming table): created" 20
# The next pass is 30 s away: only the commit's notification starts one within 10 s.
for _ in $(seq 100); do  # the runner may hold the write lock for a moment
  "$LS" "$WORK/db" -c "INSERT INTO orders VALUES (2, 20)" >/dev/null 2>"$WORK/insert.err" && break
  sleep 0.05
done
wait_for "copied (streaming table): updated, files 0, rows in 2, rows out 2" 10
kill -TERM $pid
status=0
wait $pid || status=$?
pid=""
[ $status = 0 ] || { cat "$WORK/run.log"; fail "SIGTERM should stop the runner with exit code 0, got $status"; }
[ "$(query "$WORK/db" 'SELECT count(*), sum(amount) FROM copied')" = "2,30" ] || fail "copied should hold both rows once"
echo "continuous_wake_test: ok"
