#!/usr/bin/env bash
# Shell tests: INTERVAL values as a user types them (docs/sql-time.md): shown
# in the shell's output, usable to compute stored DATE/TIMESTAMP values, and
# refused by name as a table column (Delta cannot store INTERVAL), leaving no
# table behind.
# Usage: interval_values.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

expect_sql "intervals render" "SELECT INTERVAL '1 day 2 hours' AS a, INTERVAL -13 MONTH AS b, TIMESTAMP '2024-01-03 01:00:00' - TIMESTAMP '2024-01-01' AS c" \
  $'a,b,c\n1 day 02:00:00,-1 year -1 month,2 days 01:00:00'

expect_sql "create" "CREATE TABLE ev (id INTEGER, d DATE, ts TIMESTAMP)" ""
expect_sql "insert computed values" \
  "INSERT INTO ev SELECT 1, DATE '2024-01-31' + INTERVAL 1 MONTH, TIMESTAMP '2024-01-31 10:00:00' + INTERVAL '1 month 2 hours'" \
  $'num_affected_rows\n1'
expect_sql "stored values read back in a new process" "SELECT d, ts, ts - CAST(d AS TIMESTAMP) AS gap FROM ev" \
  $'d,ts,gap\n2024-02-29,2024-02-29 12:00:00,12:00:00'

refused_sql "an INTERVAL column is refused by name" "CREATE TABLE bad (id INTEGER, span INTERVAL)" \
  "column span: type INTERVAL cannot be stored in a Delta table"
refused_sql "CTAS of an INTERVAL is refused by name" "CREATE TABLE bad2 AS SELECT id, INTERVAL 1 DAY AS span FROM ev" \
  "column span: type INTERVAL cannot be stored in a Delta table"
refused_sql "no table is left behind" "SELECT * FROM bad2" "bad2"
refused_sql "inserting an INTERVAL into a TIMESTAMP column names the types" "INSERT INTO ev VALUES (2, NULL, INTERVAL 1 DAY)" "INTERVAL"
expect_sql "the table is unchanged" "SELECT count(*) AS n FROM ev" $'n\n1'

finish
