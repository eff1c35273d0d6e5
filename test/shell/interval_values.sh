#!/usr/bin/env bash
# Shell tests: INTERVAL values as a user types them (docs/sql-time.md): shown
# in the shell's output, usable to compute stored DATE/TIMESTAMP values, and
# refused by name as a table column (Delta cannot store INTERVAL), leaving no
# table behind.
# Usage: interval_values.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

run() {
  RC=0
  "$BIN" "$DB" -csv -c "$1" </dev/null >"$TMP/out" 2>"$TMP/err" || RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
expect() {
  run "$2"
  if [[ $RC == 0 && "$OUT" == "$3" ]]; then pass "$1"; else
    fail "$1" "want rc 0 and: $(printf '%q' "$3")" "got rc $RC: $(printf '%q' "$OUT")" "stderr: $ERR"
  fi
}
refused() {
  run "$2"
  if [[ $RC == 1 && "$ERR" == *"$3"* ]]; then pass "$1"; else
    fail "$1" "want rc 1 and stderr containing: $3" "got rc $RC, stderr: $ERR"
  fi
}

expect "intervals render" "SELECT INTERVAL '1 day 2 hours' AS a, INTERVAL -13 MONTH AS b, TIMESTAMP '2024-01-03 01:00:00' - TIMESTAMP '2024-01-01' AS c" \
  $'a,b,c\n1 day 02:00:00,-1 year -1 month,2 days 01:00:00'

expect "create" "CREATE TABLE ev (id INTEGER, d DATE, ts TIMESTAMP)" ""
expect "insert computed values" \
  "INSERT INTO ev SELECT 1, DATE '2024-01-31' + INTERVAL 1 MONTH, TIMESTAMP '2024-01-31 10:00:00' + INTERVAL '1 month 2 hours'" \
  $'num_affected_rows\n1'
expect "stored values read back in a new process" "SELECT d, ts, ts - CAST(d AS TIMESTAMP) AS gap FROM ev" \
  $'d,ts,gap\n2024-02-29,2024-02-29 12:00:00,12:00:00'

refused "an INTERVAL column is refused by name" "CREATE TABLE bad (id INTEGER, span INTERVAL)" \
  "column span: type INTERVAL cannot be stored in a Delta table"
refused "CTAS of an INTERVAL is refused by name" "CREATE TABLE bad2 AS SELECT id, INTERVAL 1 DAY AS span FROM ev" \
  "column span: type INTERVAL cannot be stored in a Delta table"
refused "no table is left behind" "SELECT * FROM bad2" "bad2"
refused "inserting an INTERVAL into a TIMESTAMP column names the types" "INSERT INTO ev VALUES (2, NULL, INTERVAL 1 DAY)" "INTERVAL"
expect "the table is unchanged" "SELECT count(*) AS n FROM ev" $'n\n1'

finish
