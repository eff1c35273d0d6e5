#!/usr/bin/env bash
# Shell tests: a value no readable Parquet page holds is refused before the
# commit, and a table never becomes unreadable (docs/parquet.md "Limits").
# Once, a 256 MiB value was committed in a page the reader then refused:
# every later statement on the table, DELETE included, failed. About 800 MB
# of memory at peak (the engine holds the 256 MiB string about three times).
# Usage: value_limits.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

# run SQL: sets OUT, ERR, RC.
run() {
  RC=0
  "$BIN" "$DB" -csv -c "$1" </dev/null >"$TMP/out" 2>"$TMP/err" || RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
# expect NAME SQL WANT_STDOUT: wants exit code 0 and exactly that output.
expect() {
  run "$2"
  if [[ $RC == 0 && "$OUT" == "$3" ]]; then pass "$1"; else
    fail "$1" "want rc 0 and: $(printf '%q' "$3")" "got rc $RC: $(printf '%q' "$OUT")" "stderr: $ERR"
  fi
}
# refused NAME SQL STDERR_PART: wants exit code 1 and the error.
refused() {
  run "$2"
  if [[ $RC == 1 && "$ERR" == *"$3"* ]]; then pass "$1"; else
    fail "$1" "want rc 1 and stderr containing: $3" "got rc $RC, stderr: $ERR"
  fi
}
data_files() { find "$DB" -name '*.parquet' | wc -l; }

expect "create" "CREATE TABLE h (id INTEGER, s VARCHAR); INSERT INTO h VALUES (1, 'one')" $'num_affected_rows\n1'
files=$(data_files)

refused "a 256 MiB value is refused" "INSERT INTO h SELECT 2, repeat('a', 268435456)" \
  "column s of table h: a value of 268,435,456 bytes exceeds the largest value lakestream stores (268,434,432 bytes); store the value outside the table"
expect "the table still reads" "SELECT count(*) AS n, max(s) AS s FROM h" $'n,s\n1,one'
if [[ $(data_files) == "$files" ]]; then pass "no data file left behind"; else
  fail "no data file left behind" "before: $files, after: $(data_files)"; fi
refused "UPDATE to a too large value is refused" "UPDATE h SET s = repeat('u', 268434433)" \
  "column s of table h: a value of 268,434,433 bytes exceeds"
expect "the row keeps its value" "SELECT id, s FROM h" $'id,s\n1,one'

# A value larger than a page (1 MiB) is stored whole, in a page of its own;
# many mid-size values in one statement are split into pages by size.
expect "a 20 MB value is stored" "INSERT INTO h SELECT 3, repeat('b', 20000000)" $'num_affected_rows\n1'
expect "and reads back" "SELECT id, length(s) AS len, substr(s, 19999996) AS tail FROM h ORDER BY id" \
  $'id,len,tail\n1,3,""\n3,20000000,bbbbb'
expect "many mid-size values" "INSERT INTO h SELECT i + 10, repeat('c', 1000000) FROM range(270) t(i)" $'num_affected_rows\n270'
expect "read back" "SELECT count(*) AS n, sum(length(s)) AS bytes FROM h WHERE id >= 10" $'n,bytes\n270,270000000'

# The engine's own string limit: repeat() stops at 1 GiB, before allocating.
refused "repeat past 1 GiB" "SELECT length(repeat('ab', 600000000))" \
  "repeat: 600000000 copies of a 2-byte string would take more than 1 GiB (1073741824 bytes), the longest string repeat builds; repeat fewer times"

expect "DELETE works" "DELETE FROM h" $'num_affected_rows\n272'
expect "and leaves an empty table" "SELECT count(*) AS n FROM h" $'n\n0'

finish
