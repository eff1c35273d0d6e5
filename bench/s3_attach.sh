#!/usr/bin/env bash
# Attaching a Delta table with a long history on the local S3 test server vs
# the same files on disk, same run: a table of COMMITS single-row commits
# (a checkpoint every 10, lakestream's default) is attached and counted
# (`CREATE TABLE t LOCATION ...`, then the same with `SELECT count(*) FROM t`,
# which lists the table's files to check they exist; best of 3, process start
# included), with the S3 requests and bytes per run counted by the server.
# POLICY (default classic) is the table's delta.checkpointPolicy: `v2` gives
# V2 spec checkpoints (a checkpointMetadata action).
# Usage: bench/s3_attach.sh build/release/lakestream [COMMITS] [POLICY]
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream [COMMITS]}
COMMITS=${2:-10000}
POLICY=${3:-classic}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/bench/lib/s3_bench.sh"
echo "writing $COMMITS commits ..." >&2
{
  echo "CREATE TABLE t (id BIGINT, v VARCHAR) LOCATION '$TMP/table' TBLPROPERTIES ('delta.checkpointPolicy' = '$POLICY');"
  for ((i = 0; i < COMMITS; i++)); do echo "INSERT INTO t VALUES ($i, 'v$i');"; done
} >"$TMP/setup.sql"
"$BIN" "$TMP/writer" -f "$TMP/setup.sql" >/dev/null
cp -r "$TMP/table" "$TMP/s3/lake/table"
"$BIN" "$TMP/remote" -c "CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT')" >/dev/null
attach() {  # attach DB LOCATION: a fresh attach and count
  rm -rf "$1/t" && "$BIN" "$1" -csv -c "DROP TABLE IF EXISTS t; CREATE TABLE t LOCATION '$2'; SELECT count(*) FROM t"
}
attach_only() {  # attach_only DB LOCATION: a fresh attach (the log is read, no data file is looked at)
  rm -rf "$1/t" && "$BIN" "$1" -csv -c "DROP TABLE IF EXISTS t; CREATE TABLE t LOCATION '$2'"
}
[[ "$(attach "$TMP/local" "$TMP/table")" == "$(attach "$TMP/remote" s3://lake/table)" ]] || { echo "answers differ"; exit 1; }
for what in attach_only attach; do
  disk=$(best $what "$TMP/local" "$TMP/table")
  control reset POST >/dev/null
  s3=$(best $what "$TMP/remote" s3://lake/table)
  read -r req bytes < <(control stats GET)
  label=$([[ $what == attach ]] && echo "attach+count" || echo "attach")
  echo "$label: commits=$COMMITS checkpoints=$POLICY disk=${disk}s s3=${s3}s ratio=$(echo "scale=2; $s3 / $disk" | bc) requests=$((req / 3)) bytes=$((bytes / 3))"
done
