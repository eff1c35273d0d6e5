#!/usr/bin/env bash
# APPLY CHANGES / AUTO CDC flows in `lakestream run`: the flow runs after its
# source and before its readers, shows as kind "apply changes", a second run
# with nothing new commits nothing, and a flow whose target is not declared (or
# is declared with a query) is an error naming the line and the fix.
# Usage: apply_changes_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-cdc-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The reader comes first in the file and the flow before its declaration: the order comes from the graph.
cat > "$WORK/pipeline.sql" <<'SQL'
CREATE OR REFRESH MATERIALIZED VIEW live_count TBLPROPERTIES ('refresh' = 'manual') AS
SELECT count(*) AS n, sum(amount) AS total FROM LIVE.current_orders;

APPLY CHANGES INTO LIVE.current_orders FROM STREAM(LIVE.raw) KEYS (id)
APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op);

CREATE OR REFRESH STREAMING TABLE raw
AS SELECT * FROM read_files('landing/', format => 'json', schema => 'id BIGINT, amount BIGINT, op STRING, seq BIGINT');

CREATE OR REFRESH STREAMING TABLE current_orders;
SQL
mkdir -p "$WORK/landing"
printf '%s\n' '{"id": 1, "amount": 10, "op": "U", "seq": 1}' '{"id": 2, "amount": 20, "op": "U", "seq": 1}' \
  '{"id": 1, "amount": 15, "op": "U", "seq": 2}' > "$WORK/landing/a.json"

"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once --plain > "$WORK/run1.log" 2>&1 || { cat "$WORK/run1.log"; fail "first run"; }
grep -q "current_orders.*apply changes" "$WORK/run1.log" || { cat "$WORK/run1.log"; fail "the summary should show current_orders as an apply changes flow"; }
[ "$(query "$WORK/db" 'SELECT n, total FROM live_count')" = "2,35" ] || fail "live_count should see the applied changes (2 orders, 35)"

before=$(versions "$WORK/db")
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once --plain > "$WORK/run2.log" 2>&1 || { cat "$WORK/run2.log"; fail "second run"; }
[ "$before" = "$(versions "$WORK/db")" ] || fail "a run with nothing new committed"
grep -q "current_orders.*up to date" "$WORK/run2.log" || { cat "$WORK/run2.log"; fail "current_orders should be up to date"; }

printf '%s\n' '{"id": 2, "amount": null, "op": "D", "seq": 5}' '{"id": 1, "amount": 99, "op": "U", "seq": 1}' > "$WORK/landing/b.json"
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once --plain > "$WORK/run3.log" 2>&1 || { cat "$WORK/run3.log"; fail "third run"; }
[ "$(query "$WORK/db" 'SELECT id, amount, seq FROM current_orders')" = "1,15,2" ] || fail "the delete and the stale event should leave id 1 at 15"
[ "$(query "$WORK/db" 'SELECT n, total FROM live_count')" = "1,15" ] || fail "live_count should follow the delete"

# Errors name the line and the fix.
printf 'CREATE TABLE src (id INT, seq INT);\nAPPLY CHANGES INTO nowhere FROM STREAM(src) KEYS (id) SEQUENCE BY seq;\n' > "$WORK/bad1.sql"
if "$LS" run "$WORK/bad1.sql" --db "$WORK/db2" > "$WORK/bad1.log" 2>&1; then fail "an undeclared target should fail"; fi
grep -q "line 2: APPLY CHANGES INTO nowhere needs its target declared.*CREATE OR REFRESH STREAMING TABLE nowhere" "$WORK/bad1.log" \
  || { cat "$WORK/bad1.log"; fail "the error should name the line and the declaration to add"; }
printf 'CREATE TABLE src (id INT, seq INT);\nCREATE OR REFRESH STREAMING TABLE t AS SELECT * FROM STREAM(src);\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq;\n' > "$WORK/bad2.sql"
if "$LS" run "$WORK/bad2.sql" --db "$WORK/db3" > "$WORK/bad2.log" 2>&1; then fail "a target with a query should fail"; fi
grep -q "line 3: .*must be a streaming table declared without a query" "$WORK/bad2.log" \
  || { cat "$WORK/bad2.log"; fail "the error should say the target must be declared without a query"; }
echo "apply_changes_test: ok"
