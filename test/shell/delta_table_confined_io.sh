#!/usr/bin/env bash
# With external access off a table's own I/O stays beneath its folder,
# whichever code path reads (storage/table/table_file_system.hpp): a past
# version (time travel), the change feed's change data files and the log
# itself refuse a path or a link leading out, naming it; with access on they
# read as before (Delta allows absolute paths).
# Usage: delta_table_confined_io.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TMP=$(cd "$TMP" && pwd -P)  # the resolved form, as messages show paths
DB=$TMP/db
OUTSIDE=$TMP/outside
mkdir -p "$OUTSIDE"

ok() { if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi; }
no42() { [[ "$OUT" != *42* ]] && pass "$1" || fail "$1" "rows of the outside file shown: $OUT"; }

run "$BIN" "$DB" -c "CREATE TABLE t (id INT) TBLPROPERTIES ('change_tracking' = 'true'); INSERT INTO t VALUES (1);
  COPY (SELECT 42 AS id) TO '$OUTSIDE/o.parquet'"
ok "setup: a change-tracked table and a Parquet file outside the database"
log=$DB/t/_delta_log
size=$(stat -c %s "$OUTSIDE/o.parquet")
[[ -f "$log/00000000000000000001.json" && ! -e "$log/00000000000000000002.json" ]] &&
  pass "setup: the table is at version 1" || fail "setup: unexpected log" "$(ls "$log")"

# Version 2 adds the outside file, version 3 removes it: the latest version
# reads nothing outside, version 2 would.
printf '{"add":{"path":"%s","partitionValues":{},"size":%s,"modificationTime":0,"dataChange":true,"stats":"{\\"numRecords\\":1}"}}\n' \
  "$OUTSIDE/o.parquet" "$size" >"$log/00000000000000000002.json"
printf '{"remove":{"path":"%s","deletionTimestamp":1,"dataChange":true}}\n' "$OUTSIDE/o.parquet" \
  >"$log/00000000000000000003.json"
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t ORDER BY id"
expect "-safe: the latest version reads its own file" 0 $'id\n1\n'
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t VERSION AS OF 2 ORDER BY id"
expect_err "-safe: time travel refuses the outside file" 1 "Permission Error" \
  "its log names the data file '$OUTSIDE/o.parquet'" "outside the table's folder $DB/t"
no42 "-safe: time travel shows no row of the outside file"
run "$BIN" -safe -csv "$DB" -c "SELECT count(*) AS n FROM table_changes('t', 2, 2)"
[[ $RC != 0 && "$OUT" != *42* ]] && pass "-safe: the change feed of version 2 refuses the outside file" ||
  fail "-safe: change feed of version 2" "rc $RC" "out: $OUT" "err: $ERR"
run "$BIN" -csv "$DB" -c "SELECT id FROM t VERSION AS OF 2 ORDER BY id"
expect "access on: time travel reads the absolute path as Delta allows" 0 $'id\n1\n42\n'

# Version 4: a change data file outside the table.
cp "$OUTSIDE/o.parquet" "$OUTSIDE/cdc.parquet"
printf '{"cdc":{"path":"%s","partitionValues":{},"size":%s,"dataChange":false}}\n' "$OUTSIDE/cdc.parquet" "$size" \
  >"$log/00000000000000000004.json"
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM table_changes('t', 4, 4)"
expect_err "-safe: the change feed refuses a change data file outside the table" 1 "Permission Error" \
  "$OUTSIDE/cdc.parquet" "outside the table's folder $DB/t"
no42 "-safe: the change feed shows no row of the outside change data file"

# Version 5: a commit file that is a link leading out of the table. The
# file it names (inside.parquet) is the table's own: only the link is wrong.
cp "$OUTSIDE/o.parquet" "$DB/t/inside.parquet"
printf '{"add":{"path":"inside.parquet","partitionValues":{},"size":%s,"modificationTime":0,"dataChange":true,"stats":"{\\"numRecords\\":1}"}}\n' \
  "$size" >"$OUTSIDE/forged.json"
ln -s "$OUTSIDE/forged.json" "$log/00000000000000000005.json"
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t ORDER BY id"
[[ $RC != 0 && "$ERR" == *00000000000000000005.json* ]] &&
  pass "-safe: a commit that is a link leading out is refused, naming it" ||
  fail "-safe: linked commit not refused" "rc $RC" "out: $OUT" "err: $ERR"
no42 "-safe: no row the linked commit adds is shown"
run "$BIN" -csv "$DB" -c "SELECT id FROM t ORDER BY id"
expect "access on: the linked commit is read as before" 0 $'id\n1\n42\n'

finish
