#!/usr/bin/env bash
# `lakestream run --continuous` picks up a file dropped while it runs, and
# SIGTERM stops it after the commit in progress with exit code 0.
# Usage: continuous_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-pipeline-cont.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$WORK"' EXIT
cp "$(dirname "$0")/pipeline.sql" "$WORK/"
mkdir -p "$WORK/out"
mkdir -p "$WORK/landing"
make_file "$WORK/landing" first.json 0 10

"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --continuous --interval 200ms --plain > "$WORK/run.log" 2>&1 &
pid=$!
wait_for() {  # wait_for PATTERN SECONDS
  for ((i = 0; i < $2 * 10; i++)); do
    grep -q "$1" "$WORK/run.log" && return 0
    sleep 0.1
  done
  cat "$WORK/run.log"; fail "timed out waiting for '$1'"
}
wait_for "pass 1 gold_file" 30
make_file "$WORK/landing" dropped.json 100 5 2
wait_for "bronze (streaming table): updated, files 2, rows in 15" 30
wait_for "silver (streaming table): updated, files 0, rows in 15" 30
wait_for "gold_file (sink): updated" 30
sleep 1  # idle passes, which the event log must not record
kill -TERM $pid
status=0
wait $pid || status=$?
pid=""
[ $status = 0 ] || { cat "$WORK/run.log"; fail "SIGTERM should stop the runner with exit code 0, got $status"; }
grep -q "stopped after" "$WORK/run.log" || fail "the runner should say it stopped"
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = 15 ] || fail "bronze should hold 15 rows"
# The dropped file's rows reached gold and the sink's file.
[ "$(query "$WORK/db" 'SELECT sum(n), sum(total) FROM gold')" = "$(query "$WORK/db" 'SELECT count(*), sum(amount) FROM silver')" ] \
  || fail "gold should reflect every silver row"
tail -n 1 "$WORK/out/gold.jsonl" | grep -q '"key"' || fail "the sink's file should hold gold's changes"
# The event log holds the passes that changed something, and only those.
passes=$(sed -n 's/^stopped after \([0-9]*\) passes.*/\1/p' "$WORK/run.log")
logged=$(query "$WORK/db" "SELECT count(DISTINCT update_id) FROM event_log")
busy=$(query "$WORK/db" "SELECT count(DISTINCT update_id) FROM event_log WHERE event_type = 'flow_progress' AND get_json_object(details, '\$.flow_progress.state') <> 'up to date'")
[ "$logged" -ge 2 ] && [ "$logged" = "$busy" ] && [ "$logged" -lt "$passes" ] \
  || fail "the event log should record the $busy passes that changed something of $passes, holds $logged"
echo "continuous_test: ok"
