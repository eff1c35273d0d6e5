#!/usr/bin/env bash
# Scan of one Delta table on the local S3 test server vs the same files on
# disk, same run: wall time of `SELECT count(*), sum(id), max(v)` (best of 3,
# including process start and table attach) and the S3 requests and bytes
# per scan (counted by the server). A second line reads one of eight BIGINT
# columns of a wide table: the bytes a projected scan fetches (range GETs of
# that column's chunks) against the table's Parquet bytes.
# Usage: bench/s3_scan.sh build/release/lakestream [ROWS]
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream [ROWS]}
ROWS=${2:-1000000}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/bench/lib/s3_bench.sh"
"$BIN" "$TMP/local" -c "CREATE TABLE t (id BIGINT, v VARCHAR) LOCATION '$TMP/table';
INSERT INTO t SELECT i, 'value ' || (i % 1000) FROM range(0, $ROWS) r(i);
CREATE TABLE w (id BIGINT, h1 BIGINT, h2 BIGINT, h3 BIGINT, h4 BIGINT, h5 BIGINT, h6 BIGINT, h7 BIGINT) LOCATION '$TMP/wide';
INSERT INTO w SELECT i, hash(i), hash(i + 1), hash(i + 2), hash(i + 3), hash(i + 4), hash(i + 5), hash(i + 6) FROM range(0, $ROWS) r(i);" >/dev/null
cp -r "$TMP/table" "$TMP/s3/lake/table"
cp -r "$TMP/wide" "$TMP/s3/lake/wide"
"$BIN" "$TMP/remote" -c "CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT');
CREATE TABLE t LOCATION 's3://lake/table'; CREATE TABLE w LOCATION 's3://lake/wide'" >/dev/null
Q="SELECT count(*), sum(id), max(v) FROM t"
[[ "$("$BIN" "$TMP/local" -csv -c "$Q")" == "$("$BIN" "$TMP/remote" -csv -c "$Q")" ]] || { echo "answers differ"; exit 1; }
disk=$(best "$BIN" "$TMP/local" -c "$Q")
control reset POST >/dev/null
s3=$(best "$BIN" "$TMP/remote" -c "$Q")
read -r req bytes < <(control stats GET)
echo "full scan: rows=$ROWS disk=${disk}s s3=${s3}s ratio=$(echo "scale=2; $s3 / $disk" | bc) requests_per_scan=$((req / 3)) bytes_per_scan=$((bytes / 3))"
P="SELECT min(h3), max(h3) FROM w"
[[ "$("$BIN" "$TMP/local" -csv -c "$P")" == "$("$BIN" "$TMP/remote" -csv -c "$P")" ]] || { echo "answers differ"; exit 1; }
disk=$(best "$BIN" "$TMP/local" -c "$P")
control reset POST >/dev/null
s3=$(best "$BIN" "$TMP/remote" -c "$P")
read -r req bytes < <(control stats GET)
parquet=$(find "$TMP/wide" -name '*.parquet' -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "1 of 8 columns: rows=$ROWS disk=${disk}s s3=${s3}s ratio=$(echo "scale=2; $s3 / $disk" | bc) requests_per_scan=$((req / 3)) bytes_per_scan=$((bytes / 3)) table_parquet_bytes=$parquet"
