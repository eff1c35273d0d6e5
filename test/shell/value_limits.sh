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

data_files() { find "$DB" -name '*.parquet' | wc -l; }

expect_sql "create" "CREATE TABLE h (id INTEGER, s VARCHAR); INSERT INTO h VALUES (1, 'one')" $'num_affected_rows\n1'
files=$(data_files)

refused_sql "a 256 MiB value is refused" "INSERT INTO h SELECT 2, repeat('a', 268435456)" \
  "column s of table h: a value of 268,435,456 bytes exceeds the largest value lakestream stores (268,434,432 bytes); store the value outside the table"
expect_sql "the table still reads" "SELECT count(*) AS n, max(s) AS s FROM h" $'n,s\n1,one'
if [[ $(data_files) == "$files" ]]; then pass "no data file left behind"; else
  fail "no data file left behind" "before: $files, after: $(data_files)"; fi
refused_sql "UPDATE to a too large value is refused" "UPDATE h SET s = repeat('u', 268434433)" \
  "column s of table h: a value of 268,434,433 bytes exceeds"
expect_sql "the row keeps its value" "SELECT id, s FROM h" $'id,s\n1,one'

# A value larger than a page (1 MiB) is stored whole, in a page of its own;
# many mid-size values in one statement are split into pages by size.
expect_sql "a 20 MB value is stored" "INSERT INTO h SELECT 3, repeat('b', 20000000)" $'num_affected_rows\n1'
expect_sql "and reads back" "SELECT id, length(s) AS len, substr(s, 19999996) AS tail FROM h ORDER BY id" \
  $'id,len,tail\n1,3,""\n3,20000000,bbbbb'
expect_sql "many mid-size values" "INSERT INTO h SELECT i + 10, repeat('c', 1000000) FROM range(270) t(i)" $'num_affected_rows\n270'
expect_sql "read back" "SELECT count(*) AS n, sum(length(s)) AS bytes FROM h WHERE id >= 10" $'n,bytes\n270,270000000'

# The engine's own string limit: repeat() stops at 1 GiB, before allocating.
refused_sql "repeat past 1 GiB" "SELECT length(repeat('ab', 600000000))" \
  "repeat: 600000000 copies of a 2-byte string would take more than 1 GiB (1073741824 bytes), the longest string repeat builds; repeat fewer times"

expect_sql "DELETE works" "DELETE FROM h" $'num_affected_rows\n272'
expect_sql "and leaves an empty table" "SELECT count(*) AS n FROM h" $'n\n0'

finish
