#!/usr/bin/env bash
# Databricks pipeline SQL runs as written (test/pipeline/databricks.sql):
# parameters from SET and --conf, a missing one named with its line, append
# flows that each read their source once, COMMENT kept in the Delta
# description, and a misspelt delta.* property refused before anything runs.
# Usage: databricks_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-databricks-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$(dirname "$0")/databricks.sql" "$WORK/"
make_file "$WORK/in" a.json 0 40
make_file "$WORK/returns" r.json 1000 5

# Without --conf landing=..., the run stops before doing anything and says how to set it.
if "$LS" run "$WORK/databricks.sql" --db "$WORK/db" > "$WORK/noconf.log" 2>&1; then fail "a missing parameter should fail"; fi
grep -q 'databricks.sql line 10: the pipeline parameter ${landing} is not set; set it with --conf landing=VALUE' "$WORK/noconf.log" \
  || { cat "$WORK/noconf.log"; fail "the missing parameter error should name it, its line and --conf"; }
[ ! -d "$WORK/db" ] || [ -z "$(ls "$WORK/db" | grep -v '^\.' || true)" ] || fail "nothing should be created without the parameter"

"$LS" run "$WORK/databricks.sql" --db "$WORK/db" --conf landing=in > "$WORK/run1.log" || { cat "$WORK/run1.log"; fail "first run"; }
[ "$(query "$WORK/db" 'SELECT count(*) FROM raw_orders')" = 40 ] || fail "raw_orders should hold 40 rows"
# Each flow appended its source once, by name.
[ "$(query "$WORK/db" "SELECT kind || ':' || count(*) FROM all_events GROUP BY kind ORDER BY kind" | tr '\n' ' ')" = "order:40 return:5 " ] \
  || fail "all_events should hold 40 orders and 5 returns: $(query "$WORK/db" 'SELECT kind, count(*) FROM all_events GROUP BY kind')"
# SET min_amount = 20 reached the view; the gold table reads it.
expect=$(query "$WORK/db" 'SELECT count(*) FROM raw_orders WHERE amount >= 20')
[ "$(query "$WORK/db" 'SELECT sum(n) FROM deal_gold1')" = "$expect" ] || fail "deal_gold1 should count the orders of amount >= 20 ($expect)"
# COMMENT "..." is the Delta table's description.
"$LS" "$WORK/db" -readonly -csv -c "DESCRIBE DETAIL raw_orders" | grep -q ",Orders as they land," || fail "raw_orders' description"
grep -q '"description":"Gold Deals"' "$WORK/db/deal_gold1/_delta_log/00000000000000000000.json" || fail "deal_gold1's Delta description"
"$LS" "$WORK/db" -readonly -csv -c "SHOW TBLPROPERTIES deal_gold1" | grep -qx "quality,gold" || fail "deal_gold1's quality property"

# --conf overrides SET; new files reach each flow once; a run with nothing new changes nothing.
make_file "$WORK/in" b.json 40 10 2
"$LS" run "$WORK/databricks.sql" --db "$WORK/db" --conf landing=in --conf min_amount=0 > "$WORK/run2.log" || { cat "$WORK/run2.log"; fail "second run"; }
[ "$(query "$WORK/db" "SELECT count(*) FROM all_events WHERE kind = 'order'")" = 50 ] || fail "the flow should append the 10 new orders once"
[ "$(query "$WORK/db" "SELECT count(*) FROM all_events WHERE kind = 'return'")" = 5 ] || fail "the returns flow read nothing new"
[ "$(query "$WORK/db" 'SELECT sum(n) FROM deal_gold1')" = 50 ] || fail "with --conf min_amount=0 every order counts"
before=$(versions "$WORK/db")
"$LS" run "$WORK/databricks.sql" --db "$WORK/db" --conf=landing=in --conf min_amount=0 > "$WORK/run3.log" || { cat "$WORK/run3.log"; fail "third run"; }
[ "$before" = "$(versions "$WORK/db")" ] || fail "a run with nothing new committed"

# A misspelt Delta property is refused with the nearest known key, before anything runs.
sed 's/"delta.appendOnly" = "true"/"delta.appendOnyl" = "true"/' "$WORK/databricks.sql" > "$WORK/typo.sql"
if "$LS" run "$WORK/typo.sql" --db "$WORK/db" --conf landing=in > "$WORK/typo.log" 2>&1; then fail "a misspelt delta property should fail"; fi
grep -q "unknown Delta table property delta.appendOnyl; did you mean delta.appendOnly?" "$WORK/typo.log" || { cat "$WORK/typo.log"; fail "the typo error"; }

# A bad --conf is a usage error.
set +e
"$LS" run "$WORK/databricks.sql" --conf 'no equals' > "$WORK/usage.log" 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "a malformed --conf should exit 2, got $rc"
grep -q -- "--conf takes KEY=VALUE" "$WORK/usage.log" || { cat "$WORK/usage.log"; fail "the --conf usage error"; }
echo "databricks_test: ok"
