#!/usr/bin/env bash
# A table's transaction log is written by its commits only, and with external
# access off a table reads only files beneath its own folder
# (docs/security.md):
#   * COPY ... TO and FILE sinks refuse a target under a _delta_log/ (or the
#     database's _lakestream/), with external access on or off, and leave no
#     file there (a forged checkpoint or commit would be read as the table's);
#   * a commit that names a data file outside the table's folder (absolute,
#     file://, `..`) is refused under -safe, naming the file; it is read as
#     before with external access on (Delta allows absolute paths).
# Usage: delta_log_confined.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TMP=$(cd "$TMP" && pwd -P)  # the resolved form, as messages show paths
DB=$TMP/db
OUTSIDE=$TMP/outside
mkdir -p "$OUTSIDE"

ok() { if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi; }
absent() { if [[ ! -e "$2" && ! -L "$2" ]]; then pass "$1"; else fail "$1" "$2 exists"; fi; }

run "$BIN" "$DB" -c "CREATE TABLE t (id INT) TBLPROPERTIES ('change_tracking' = 'true'); INSERT INTO t VALUES (1);
  COPY (SELECT 42 AS id) TO '$OUTSIDE/o.parquet';
  CREATE TABLE ext (id INT) LOCATION '$TMP/ext'"
ok "setup: a table, a Parquet file outside, a table with LOCATION outside the database"
log=$DB/t/_delta_log
checkpoint=$log/00000000000000000002.checkpoint.parquet

# --- no statement writes under _delta_log/ or _lakestream/ ---
for flag in "" -safe; do
  run "$BIN" $flag "$DB" -c "COPY t TO '$checkpoint'"
  expect_err "COPY TO into a _delta_log is refused ${flag:-(access on)}" 1 \
    "COPY ... TO cannot write $checkpoint: it is inside the transaction log $log of a Delta table"
  absent "the refused COPY wrote no checkpoint ${flag:-(access on)}" "$checkpoint"
done
[[ -z "$(ls -a "$log" | grep '\.tmp$' || true)" ]] && pass "the refused COPY left no temp file in the log" ||
  fail "temp file left in the log" "$(ls -a "$log")"
run "$BIN" "$DB" -c "COPY t TO '$DB/t/_delta_log/../_delta_log/x.parquet'"
expect_err "COPY TO into a _delta_log through '..' is refused" 1 "inside the transaction log $log"
ln -s "$log" "$TMP/loglink"
run "$BIN" "$DB" -c "COPY t TO '$TMP/loglink/00000000000000000002.checkpoint.parquet'"
expect_err "COPY TO into a _delta_log through a link is refused" 1 "inside the transaction log $log"
absent "nothing was written through the link" "$checkpoint"
run "$BIN" "$DB" -c "COPY t TO '$DB/_lakestream/catalog.parquet'"
expect_err "COPY TO into _lakestream/ is refused" 1 "inside the database's _lakestream/ folder"
absent "nothing was written into _lakestream/" "$DB/_lakestream/catalog.parquet"

sink_file=$TMP/ext/_delta_log/00000000000000000001.json
run "$BIN" "$DB" -c "CREATE SINK s FROM t INTO FILE '$sink_file'"
expect_err "a FILE sink into a _delta_log is refused" 1 \
  "Sink s cannot write $sink_file: it is inside the transaction log $TMP/ext/_delta_log of a Delta table"
absent "the refused sink left no (empty) commit file" "$sink_file"
run "$BIN" -csv "$DB" -c "SELECT count(*) AS n FROM ext"
expect "the table the sink aimed at still reads" 0 $'n\n0\n'

# --- data files outside the table's folder ---
size=$(stat -c %s "$OUTSIDE/o.parquet")
forge() {  # forge PATH: commit version 2 of t adds the data file PATH
  printf '{"add":{"path":"%s","partitionValues":{},"size":%s,"modificationTime":0,"dataChange":true,"stats":"{\\"numRecords\\":1}"}}\n' \
    "$1" "$size" >"$log/00000000000000000002.json"
}
for named in "file://$OUTSIDE/o.parquet" "$OUTSIDE/o.parquet" "../../outside/o.parquet"; do
  forge "$named"
  run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t ORDER BY id"
  expect_err "-safe: a commit naming $named is refused" 1 "Permission Error" "its log names the data file '$named'" \
    "$OUTSIDE/o.parquet, outside the table's folder $DB/t"
  [[ "$OUT" != *42* ]] && pass "-safe: no row of the outside file is shown ($named)" || fail "outside rows shown" "$OUT"
done
forge "file://$OUTSIDE/o.parquet"
run "$BIN" -csv "$DB" -c "SELECT id FROM t ORDER BY id"
expect "with external access on, an absolute data file path is read (Delta allows it)" 0 $'id\n1\n42\n'

# A data file inside the folder that is a link leading out is not followed.
cp "$OUTSIDE/o.parquet" "$OUTSIDE/o2.parquet"
ln -s "$OUTSIDE/o2.parquet" "$DB/t/linked.parquet"
forge "linked.parquet"
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t ORDER BY id"
expect_err "-safe: a data file that is a link leading out is refused" 1 "Permission Error" "$OUTSIDE/o2.parquet"
# Version 2 rewritten without the add (removing it would leave a gap in the log).
echo '{"commitInfo":{"operation":"WRITE"}}' >"$log/00000000000000000002.json"
run "$BIN" -safe -csv "$DB" -c "SELECT id FROM t ORDER BY id"
expect "-safe: the table's own files read as before" 0 $'id\n1\n'

finish
