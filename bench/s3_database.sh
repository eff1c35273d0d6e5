#!/usr/bin/env bash
# A database on the local S3 test server (`lakestream s3://lake/db`) vs a
# local database directory, same run: 100 single-row INSERTs into a managed
# table in one process (`-f`, each INSERT its own statement: write lease,
# Delta commit, release), then reopening the database (a process that opens
# it and counts the rows: catalog listing and read, the table's log),
# best of 3, with the S3 requests counted by the server.
# Usage: bench/s3_database.sh build/release/lakestream [INSERTS]
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream [INSERTS]}
INSERTS=${2:-100}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/bench/lib/s3_bench.sh"
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL_S3
export HOME="$TMP/home" AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1
export AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_S3_URL_STYLE=path
for ((i = 0; i < INSERTS; i++)); do echo "INSERT INTO t VALUES ($i, 'v$i');"; done >"$TMP/inserts.sql"
n=0
inserts() {  # inserts DB: a fresh table, then the INSERTs
  n=$((n + 1))
  "$BIN" "$1" -c "CREATE TABLE t$n (id BIGINT, v VARCHAR)" >/dev/null
  sed "s/INTO t /INTO t$n /" "$TMP/inserts.sql" | "$BIN" "$1" >/dev/null
}
reopen() { "$BIN" "$1" -csv -c "SELECT count(*) FROM t1"; }
disk_insert=$(best inserts "$TMP/local")
control reset POST >/dev/null
s3_insert=$(best inserts s3://lake/db)
read -r req_insert _ < <(control stats GET)
[[ "$(reopen "$TMP/local")" == "$(reopen s3://lake/db)" ]] || { echo "answers differ"; exit 1; }
disk_open=$(best reopen "$TMP/local")
control reset POST >/dev/null
s3_open=$(best reopen s3://lake/db)
read -r req_open _ < <(control stats GET)
echo "inserts=$INSERTS disk=${disk_insert}s s3=${s3_insert}s requests_per_insert=$((req_insert / 3 / (INSERTS + 1)))"
echo "reopen (3 tables of $INSERTS commits) disk=${disk_open}s s3=${s3_open}s requests_per_reopen=$((req_open / 3))"
