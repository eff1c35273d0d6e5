#!/usr/bin/env bash
# `lakestream sink DB NAME --follow` wakes on a commit (issue 30, push
# delivery): with the poll set to 30 s, a row inserted by another process
# into the table under an auto materialized view reaches the view's FILE sink
# within 10 s, which only a notification (inotify on the view's _delta_log/)
# can do. Each row is delivered once, and the follower still stops on SIGINT.
# Usage: sink_follow_push.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
DB=$TMP/db
OUTFILE=$TMP/out.jsonl
FOLLOW_PID=""
cleanup_follow() { [[ -n "$FOLLOW_PID" ]] && kill "$FOLLOW_PID" 2>/dev/null; true; }
trap 'cleanup_follow; chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT

sql() { run "$BIN" -csv "$DB" -c "$1"; }
# write SQL: retries while the follower holds the write lock for a pass.
write() {
  for _ in $(seq 100); do
    sql "$1"
    [[ $RC == 0 ]] && return 0
    [[ "$ERR" == *"already open for writing"* ]] || { fail "write: $1" "rc $RC" "stderr: $ERR"; return 1; }
    sleep 0.05
  done
  fail "write: $1" "the write lock never came free"
}
lines() { [[ -f "$OUTFILE" ]] && wc -l <"$OUTFILE" | tr -d ' ' || echo 0; }
# wait_lines N SECONDS: until the sink's file has N lines; prints the seconds it took.
wait_lines() {
  local start=$SECONDS
  while (( $(lines) < $1 && SECONDS - start < $2 )); do sleep 0.05; done
  echo $((SECONDS - start))
}

write "CREATE TABLE orders (id INT, amount INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')"
write "CREATE MATERIALIZED VIEW big AS SELECT id, amount FROM orders WHERE amount > 10"
write "CREATE SINK out FROM big INTO FILE '$OUTFILE' WITH ('format' = 'upsert', 'key' = 'id', 'start' = 'earliest')"
sql "SHOW MATERIALIZED VIEWS"
[[ "$OUT" == *"big,auto"* ]] && pass "the view refreshes itself" || fail "the view refreshes itself" "$OUT"

"$BIN" sink "$DB" out --follow --interval 30 2>"$TMP/follow.log" >/dev/null &
FOLLOW_PID=$!
# The first pass (nothing to deliver) has run when the progress line appears.
for _ in $(seq 200); do grep -q "lag 0 versions" "$TMP/follow.log" 2>/dev/null && break; sleep 0.05; done
grep -q "lag 0 versions" "$TMP/follow.log" && pass "the follower made its first pass" || fail "first pass" "$(cat "$TMP/follow.log")"

# The next poll is 30 s away: only a notification delivers within 10 s.
write "INSERT INTO orders VALUES (1, 50)"
took=$(wait_lines 1 10)
[[ $(lines) == 1 ]] && pass "a commit after the follower's pass is delivered at once (${took}s, poll 30s)" \
  || fail "delivered by notification" "lines $(lines) after ${took}s" "$(cat "$TMP/follow.log")"

# A row the view filters out changes the table, not the view: nothing to deliver.
write "INSERT INTO orders VALUES (2, 5)"
write "INSERT INTO orders VALUES (3, 70)"
took=$(wait_lines 2 10)
[[ $(lines) == 2 ]] && pass "the next commit wakes it again (${took}s)" || fail "second wake" "lines $(lines)"
write "UPDATE orders SET amount = 80 WHERE id = 1"
took=$(wait_lines 3 10)
[[ $(lines) == 3 ]] && pass "an update of the view's row is delivered too (${took}s)" || fail "update delivered" "lines $(lines)"

kill -INT "$FOLLOW_PID"
RC=0; wait "$FOLLOW_PID" || RC=$?
FOLLOW_PID=""
same() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "want: $3" "got: $2"; fi; }
same "the follower stops on SIGINT" "$RC" 0
# Each change once, in commit order: 1 (50), 3 (70), 1 (80).
got=$(python3 -c '
import json, sys
print(" ".join("%s:%s" % (json.loads(l)["key"], json.loads(l)["value"]["amount"]) for l in open(sys.argv[1])))' "$OUTFILE")
same "every change delivered once, in order" "$got" "1:50 3:70 1:80"
sql "SHOW SINKS"
[[ "$OUT" == *"out,"* ]] && pass "SHOW SINKS lists the sink" || fail "SHOW SINKS" "$OUT"
finish
