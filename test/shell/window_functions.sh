#!/usr/bin/env bash
# Shell tests: window functions as a user types them in the shell (dedup with
# ROW_NUMBER and QUALIFY, a running total, a named window) and the errors for
# window functions where they cannot be computed (docs/sql-windows.md).
# Usage: window_functions.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

expect_sql "create" "CREATE TABLE ev (id INT, k VARCHAR, ts INT, v INT); INSERT INTO ev VALUES (1, 'a', 1, 10), (2, 'a', 3, 20), (3, 'b', 2, 5), (4, 'a', 2, 1), (5, 'b', 2, 7)" \
  $'num_affected_rows\n5'
# The latest row per key: for b the tie on ts = 2 is broken by id DESC.
expect_sql "dedup with QUALIFY" \
  "SELECT k, id, v FROM ev QUALIFY ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC, id DESC) = 1 ORDER BY k" \
  $'k,id,v\na,2,20\nb,5,7'
expect_sql "dedup with a subquery" \
  "SELECT k, id FROM (SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY ts DESC, id DESC) AS rn FROM ev) q WHERE rn = 1 ORDER BY k" \
  $'k,id\na,2\nb,5'
# Running total per key (ts order 1, 2, 3 for a: 10, 1, 20), and the last two rows' sum.
expect_sql "running total and a ROWS frame" \
  "SELECT id, sum(v) OVER w AS running, sum(v) OVER (w ROWS 1 PRECEDING) AS last2 FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts, id) ORDER BY id" \
  $'id,running,last2\n1,10,10\n2,31,21\n3,5,5\n4,11,11\n5,12,12'
refused_sql "a window function in WHERE names QUALIFY" \
  "SELECT id FROM ev WHERE row_number() OVER (ORDER BY id) = 1" \
  "is not allowed in WHERE; window functions are computed after WHERE, GROUP BY and HAVING: filter on the result with QUALIFY"
refused_sql "row_number without OVER" "SELECT row_number() FROM ev" "row_number() is a window function and needs an OVER clause"
expect_sql "the table is unchanged" "SELECT count(*) AS n FROM ev" $'n\n5'
finish
