#!/usr/bin/env bash
# Shell tests: IN lists and IN subqueries run as hash lookups / hash joins.
# `x IN (<10,000 constants>)` over 100k rows once took 24.5 s and
# `x IN (SELECT ...)` 100k x 100k over 120 s and 1.9 GB; each must now finish
# within a generous 10 s (they take well under a second), with the counts
# computed here by arithmetic. A correlated count(*) with a non-equality
# correlation runs once per distinct outer value (the dependent join).
# Usage: in_subquery_speed.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# timed NAME SQL WANT: the query's csv output must be WANT, within 10 s.
timed() {
  local rc=0 start end
  start=$(date +%s.%N)
  timeout 10 "$BIN" -csv -c "$2" </dev/null >"$TMP/out" 2>"$TMP/err" || rc=$?
  end=$(date +%s.%N)
  local out
  out=$(tail -n 1 "$TMP/out")
  if [[ $rc == 0 && "$out" == "$3" ]]; then pass "$1 ($(awk "BEGIN { printf \"%.2f\", $end - $start }") s)"; else
    fail "$1" "want $3 within 10 s" "got rc $rc (124: timed out): $out" "stderr: $(cat "$TMP/err")"
  fi
}

SETUP="CREATE TABLE big AS SELECT range AS x FROM range(100000); CREATE TABLE other AS SELECT range * 3 AS y FROM range(100000)"
# 10,000 constants: multiples of 7 below 70,000, all in big.
LIST=$(seq 0 7 69993 | paste -sd, -)
timed "IN list of 10,000 constants" "$SETUP; SELECT count(*) FROM big WHERE x IN ($LIST)" "10000"
timed "NOT IN list of 10,000 constants" "$SETUP; SELECT count(*) FROM big WHERE x NOT IN ($LIST)" "90000"
# other holds the multiples of 3 below 300,000: 33,334 of them are below 100,000.
timed "IN (SELECT) 100k x 100k" "$SETUP; SELECT count(*) FROM big WHERE x IN (SELECT y FROM other)" "33334"
timed "NOT IN (SELECT) 100k x 100k" "$SETUP; SELECT count(*) FROM big WHERE x NOT IN (SELECT y FROM other)" "66666"
timed "IN (SELECT) under OR" "$SETUP; SELECT count(*) FROM big WHERE x IN (SELECT y FROM other) OR x = 1" "33335"
timed "IN (SELECT) in the SELECT list" "$SETUP; SELECT sum(CASE WHEN x IN (SELECT y FROM other) THEN 1 ELSE 0 END) FROM big" "33334"
# A NULL in the subquery: NOT IN is never true.
timed "NOT IN (SELECT) with a NULL" "$SETUP; SELECT count(*) FROM big WHERE x NOT IN (SELECT y FROM other UNION ALL SELECT NULL)" "0"
timed "correlated EXISTS 100k x 100k" "$SETUP; SELECT count(*) FROM big WHERE EXISTS (SELECT 1 FROM other WHERE other.y = big.x)" "33334"
# A non-equality correlation under count(*): computed once per distinct outer
# value (1,000 of them, 100 rows each), not per outer row (1e9 comparisons).
# Value a counts the b < 10 a of 0..9,999: 10 a, so the sum is 100 * 10 * 499,500.
timed "correlated count(*) with b < a, 100k x 10k" "CREATE TABLE g AS SELECT range % 1000 AS a FROM range(100000); \
CREATE TABLE s AS SELECT range AS b FROM range(10000); \
SELECT count(*), sum(n) FROM (SELECT (SELECT count(*) FROM s WHERE s.b < g.a * 10) AS n FROM g) q" "100000,499500000"
finish
