#!/usr/bin/env bash
# Scan of one Delta table on the local S3 test server vs the same files on
# disk, same run: wall time of `SELECT count(*), sum(id), max(v)` (best of 3,
# including process start and table attach) and the S3 requests per scan
# (counted by the server). Usage: bench/s3_scan.sh build/release/lakestream [ROWS]
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream [ROWS]}
ROWS=${2:-1000000}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TMP=$(mktemp -d)
python3 "$ROOT/tools/s3_test_server/s3_test_server.py" --root "$TMP/s3" --port-file "$TMP/port" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/s3/lake"
for _ in $(seq 100); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
"$BIN" "$TMP/local" -c "CREATE TABLE t (id BIGINT, v VARCHAR) LOCATION '$TMP/table';
INSERT INTO t SELECT i, 'value ' || (i % 1000) FROM range(0, $ROWS) r(i);" >/dev/null
cp -r "$TMP/table" "$TMP/s3/lake/table"
"$BIN" "$TMP/remote" -c "CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT');
CREATE TABLE t LOCATION 's3://lake/table'" >/dev/null
Q="SELECT count(*), sum(id), max(v) FROM t"
best() {  # best DB: best-of-3 wall seconds
  local b=999 s e t
  for _ in 1 2 3; do
    s=$(date +%s.%N); "$BIN" "$1" -c "$Q" >/dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); (( $(echo "$t < $b" | bc) )) && b=$t
  done
  echo "$b"
}
[[ "$("$BIN" "$TMP/local" -csv -c "$Q")" == "$("$BIN" "$TMP/remote" -csv -c "$Q")" ]] || { echo "answers differ"; exit 1; }
disk=$(best "$TMP/local")
python3 -c "import urllib.request; urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:$PORT/__control__/reset', method='POST'))"
s3=$(best "$TMP/remote")
stats=$(python3 -c "import urllib.request, json; d=json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/__control__/stats')); print(d['requests'] // 3, d['bytes_out'] // 3)")
echo "rows=$ROWS disk=${disk}s s3=${s3}s ratio=$(echo "scale=2; $s3 / $disk" | bc) requests_per_scan=${stats% *} bytes_per_scan=${stats#* }"
