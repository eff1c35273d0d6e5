#!/usr/bin/env bash
# Attaching a Delta table with a long history on the local S3 test server vs
# the same files on disk, same run: a table of COMMITS single-row commits
# (a checkpoint every 100, as lakestream writes them) is attached and counted
# (`CREATE TABLE t LOCATION ...; SELECT count(*) FROM t`, best of 3, process
# start included), with the S3 requests and bytes per attach counted by the
# server. Usage: bench/s3_attach.sh build/release/lakestream [COMMITS]
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream [COMMITS]}
COMMITS=${2:-10000}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TMP=$(mktemp -d)
python3 "$ROOT/tools/s3_test_server/s3_test_server.py" --root "$TMP/s3" --port-file "$TMP/port" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/s3/lake"
for _ in $(seq 100); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
echo "writing $COMMITS commits ..." >&2
{
  echo "CREATE TABLE t (id BIGINT, v VARCHAR) LOCATION '$TMP/table';"
  for ((i = 0; i < COMMITS; i++)); do echo "INSERT INTO t VALUES ($i, 'v$i');"; done
} >"$TMP/setup.sql"
"$BIN" "$TMP/writer" -f "$TMP/setup.sql" >/dev/null
cp -r "$TMP/table" "$TMP/s3/lake/table"
"$BIN" "$TMP/remote" -c "CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT')" >/dev/null
attach() {  # attach DB LOCATION: a fresh attach and count
  rm -rf "$1/t" && "$BIN" "$1" -csv -c "DROP TABLE IF EXISTS t; CREATE TABLE t LOCATION '$2'; SELECT count(*) FROM t"
}
best() {  # best DB LOCATION: best-of-3 wall seconds
  local b=999 s e t
  for _ in 1 2 3; do
    s=$(date +%s.%N); attach "$1" "$2" >/dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); (( $(echo "$t < $b" | bc) )) && b=$t
  done
  echo "$b"
}
[[ "$(attach "$TMP/local" "$TMP/table")" == "$(attach "$TMP/remote" s3://lake/table)" ]] || { echo "answers differ"; exit 1; }
disk=$(best "$TMP/local" "$TMP/table")
python3 -c "import urllib.request; urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:$PORT/__control__/reset', method='POST'))"
s3=$(best "$TMP/remote" s3://lake/table)
stats=$(python3 -c "import urllib.request, json; d=json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/__control__/stats')); print(d['requests'] // 3, d['bytes_out'] // 3)")
echo "commits=$COMMITS disk=${disk}s s3=${s3}s ratio=$(echo "scale=2; $s3 / $disk" | bc) requests_per_attach=${stats% *} bytes_per_attach=${stats#* }"
