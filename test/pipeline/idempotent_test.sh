#!/usr/bin/env bash
# A pipeline run twice in a row commits nothing the second time; files added
# between runs are ingested once; a declaration cycle is an error naming it.
# Usage: idempotent_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-pipeline-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$(dirname "$0")/pipeline.sql" "$WORK/"
mkdir -p "$WORK/out"
make_file "$WORK/landing" a.json 0 40
make_file "$WORK/landing" b.json 40 40

"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/run1.log" || { cat "$WORK/run1.log"; fail "first run"; }
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = 80 ] || fail "bronze should hold 80 rows"
[ "$(query "$WORK/db" 'SELECT count(*) FROM silver')" = 50 ] || fail "silver should hold 50 ids"
before=$(versions "$WORK/db")
lines=$(wc -l < "$WORK/out/gold.jsonl")
[ "$lines" = 4 ] || fail "the file sink should hold one upsert per group, has $lines lines"

"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/run2.log" || { cat "$WORK/run2.log"; fail "second run"; }
after=$(versions "$WORK/db")
[ "$before" = "$after" ] || fail "the second run committed: before [$before] after [$after]"
[ "$(grep -c "pass 1 .*: up to date" "$WORK/run2.log")" = 5 ] || { cat "$WORK/run2.log"; fail "the second run should report all 5 flows up to date"; }
[ "$(wc -l < "$WORK/out/gold.jsonl")" = "$lines" ] || fail "the second run delivered to the sink again"

# Files added between runs are ingested once, even over several runs.
make_file "$WORK/landing/more" c.json 80 30 2
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/run3.log" || { cat "$WORK/run3.log"; fail "third run"; }
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/run4.log" || { cat "$WORK/run4.log"; fail "fourth run"; }
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = 110 ] || fail "bronze should hold 110 rows after the new file"
[ "$(query "$WORK/db" 'SELECT count(DISTINCT id), count(*) FROM silver')" = "50,50" ] || fail "silver: one row per id"
# silver holds, per id, the event with the greatest seq.
[ "$(query "$WORK/db" 'SELECT count(*) FROM silver s JOIN (SELECT id, max(seq) AS m FROM bronze GROUP BY id) b ON s.id = b.id WHERE s.seq = b.m')" = 50 ] \
  || fail "silver does not hold the newest event per id"
[ "$(query "$WORK/db" 'SELECT count(*) FROM big_orders')" = "$(query "$WORK/db" 'SELECT count(*) FROM bronze WHERE amount >= 50')" ] \
  || fail "big_orders should hold every bronze row with amount >= 50 once"

# A cycle is an error that names it.
cat > "$WORK/cycle.sql" <<'SQL'
CREATE OR REFRESH STREAMING TABLE a AS SELECT * FROM STREAM(b);
CREATE OR REFRESH STREAMING TABLE b AS SELECT * FROM STREAM(a);
SQL
if "$LS" run "$WORK/cycle.sql" --db "$WORK/db2" > "$WORK/cycle.log" 2>&1; then fail "a cycle should fail"; fi
grep -q "cycle: a -> b -> a" "$WORK/cycle.log" || { cat "$WORK/cycle.log"; fail "the cycle error should name a -> b -> a"; }
echo "idempotent_test: ok"
