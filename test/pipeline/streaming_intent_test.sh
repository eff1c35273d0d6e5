#!/usr/bin/env bash
# The user's gold table (../shared/user-posts/dlt-gold-to-kafka.txt): an
# INCREMENTAL LIVE TABLE that aggregates LIVE.silver without STREAM() is kept
# as a materialized view, so the aggregate is there after the first run and
# follows silver's changes run after run (no empty table, no duplicates);
# the run says so on the terminal and as a WARN event in event_log.
# Usage: streaming_intent_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-intent-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cat >"$WORK/gold.sql" <<'SQL'
CREATE TABLE IF NOT EXISTS silver_processed (category STRING, amount BIGINT) TBLPROPERTIES ('change_tracking' = 'true');

CREATE INCREMENTAL LIVE TABLE gold_aggregated
TBLPROPERTIES (delta.enableChangeDataFeed = true)
AS
SELECT
  category,
  SUM(amount) AS total_amount,
  COUNT(*) AS transaction_count
FROM LIVE.silver_processed
GROUP BY category;
SQL
"$LS" run "$WORK/gold.sql" --db "$WORK/db" --plain >"$WORK/run1.log" 2>&1 || { cat "$WORK/run1.log"; fail "first run"; }
grep -q "warning: streaming table gold_aggregated reads no stream (LIVE.silver_processed is read whole" "$WORK/run1.log" ||
  { cat "$WORK/run1.log"; fail "the run should say why gold_aggregated is kept as a materialized view"; }
grep -q "write CREATE OR REFRESH MATERIALIZED VIEW gold_aggregated AS" "$WORK/run1.log" || fail "the warning should name the modern form"
"$LS" "$WORK/db" -c "INSERT INTO silver_processed VALUES ('books', 3), ('games', 5), ('books', 2)" >/dev/null
"$LS" run "$WORK/gold.sql" --db "$WORK/db" --plain >"$WORK/run2.log" 2>&1 || { cat "$WORK/run2.log"; fail "second run"; }
got=$(query "$WORK/db" "SELECT category || ':' || total_amount || ':' || transaction_count FROM gold_aggregated ORDER BY category" | tr '\n' ' ')
[ "$got" = "books:5:2 games:5:1 " ] || fail "gold_aggregated after run 2: $got"
"$LS" "$WORK/db" -c "UPDATE silver_processed SET amount = 10 WHERE category = 'games'" >/dev/null
"$LS" run "$WORK/gold.sql" --db "$WORK/db" --plain >"$WORK/run3.log" 2>&1 || { cat "$WORK/run3.log"; fail "third run"; }
got=$(query "$WORK/db" "SELECT category || ':' || total_amount || ':' || transaction_count FROM gold_aggregated ORDER BY category" | tr '\n' ' ')
[ "$got" = "books:5:2 games:10:1 " ] || fail "gold_aggregated after an UPDATE of silver (run 3): $got"
# Its change feed holds the changed group only (what a Kafka sink on it sends).
last=$(query "$WORK/db" "DESCRIBE HISTORY gold_aggregated" | head -1 | cut -d, -f1)
got=$(query "$WORK/db" "SELECT category || ':' || _change_type FROM table_changes('gold_aggregated', $last) ORDER BY _change_type" | tr '\n' ' ')
[ "$got" = "games:update_postimage games:update_preimage " ] || fail "the last refresh's change feed: $got"
warns=$(query "$WORK/db" "SELECT count(*) FROM event_log WHERE level = 'WARN' AND message LIKE '%kept as a materialized view%'")
[ "$warns" -ge 3 ] || fail "event_log should hold a WARN event per run naming the change (got $warns)"
echo "ok: streaming_intent_test"
