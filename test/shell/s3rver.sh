#!/usr/bin/env bash
# Object storage against a second, independent S3 implementation: s3rver
# (npm, installed into tools/s3rver by scripts/install-deps; docs/
# object-storage.md "Tests"). s3rver ignores If-None-Match, so:
#   * straight to it, a commit is refused naming ALLOW_UNSAFE_RENAME (the
#     client's probe sees the header ignored), and single-writer mode works;
#   * through tools/s3rver/conditional_put_proxy.py (If-None-Match emulated
#     by HEAD then PUT under a lock) the usual scenarios run, each statement
#     in its own process: a table written by one process read by the next,
#     time travel and the change feed, two processes racing INSERTs lose no
#     commit, COPY TO / read_parquet, a database on s3://, a landing folder.
# Exits 77 (SKIPPED) without node or the s3rver package.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
S3RVER_DIR="$ROOT/tools/s3rver"
if ! command -v node >/dev/null || [[ ! -f "$S3RVER_DIR/node_modules/s3rver/package.json" ]]; then
  echo "SKIPPED: node or the s3rver package is missing (scripts/install-deps installs it into tools/s3rver with npm)"
  exit 77
fi
mkdir -p "$TMP/data" "$TMP/home" "$TMP/work"
node "$S3RVER_DIR/serve.js" "$TMP/data" "$TMP/port" 2>"$TMP/s3rver.log" &
S3RVER_PID=$!
trap 'kill $S3RVER_PID ${PROXY_PID:-} 2>/dev/null; chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 200); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
[[ -s "$TMP/port" ]] || { echo "s3rver did not start: $(cat "$TMP/s3rver.log")"; exit 1; }
PORT=$(cat "$TMP/port")
python3 "$S3RVER_DIR/conditional_put_proxy.py" "$PORT" "$TMP/proxy_port" 2>"$TMP/proxy.log" &
PROXY_PID=$!
for _ in $(seq 200); do [[ -s "$TMP/proxy_port" ]] && break; sleep 0.05; done
PROXY=$(cat "$TMP/proxy_port")
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_REGION AWS_ENDPOINT_URL_S3 AWS_S3_ALLOW_UNSAFE_RENAME
# s3rver's one account; every request is signed (SigV4) as against S3.
export HOME="$TMP/home" AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export AWS_ENDPOINT_URL="http://127.0.0.1:$PROXY" AWS_S3_URL_STYLE=path LAKESTREAM_S3_MAX_ATTEMPTS=3
export LAKESTREAM_S3_LEASE_SECONDS=3
cd "$TMP/work" || exit 1
q() { "$BIN" "$1" -csv -c "$2" 2>&1 | tail -n +2; }  # one query's CSV rows, without the header line
r() { "$BIN" "$1" -csv -c "$2" 2>&1; }                # statements: their whole output (errors included)
check() {  # check NAME EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ "$3" == *"$2"* ]]; then pass "$1"; else fail "$1" "expected to contain: $2" "actual: $3"; fi
}

# --- Straight to s3rver: it ignores If-None-Match, and the client notices.
out=$(AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" r "$TMP/direct" \
  "CREATE TABLE d (id BIGINT) LOCATION 's3://lake/direct'; INSERT INTO d VALUES (1)")
contains "a store that ignores If-None-Match is refused" "ignores If-None-Match" "$out"
contains "... naming the single-writer mode" "ALLOW_UNSAFE_RENAME" "$out"
out=$(AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_S3_ALLOW_UNSAFE_RENAME=true r "$TMP/direct2" \
  "CREATE TABLE d (id BIGINT) LOCATION 's3://lake/direct2'; INSERT INTO d VALUES (1), (2)")
check "single-writer mode (ALLOW_UNSAFE_RENAME) commits to it" "num_affected_rows
2" "$out"
AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" r "$TMP/direct3" "CREATE TABLE d LOCATION 's3://lake/direct2'" >/dev/null
check "... and any process reads that table" "3" "$(AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" q "$TMP/direct3" "SELECT sum(id) FROM d")"

# --- Through the proxy: one process writes, the next ones read.
out=$(r "$TMP/a" "CREATE TABLE t (id BIGINT, v VARCHAR) LOCATION 's3://lake/tables/t' TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
INSERT INTO t VALUES (1, 'a'), (2, 'b')")
check "CREATE TABLE and INSERT on s3rver" "num_affected_rows
2" "$out"
check "the writer's next process reads its table" "2,3" "$(q "$TMP/a" "SELECT count(*), sum(id) FROM t")"
r "$TMP/b" "CREATE TABLE t LOCATION 's3://lake/tables/t'" >/dev/null
check "another database attaches the table" "1,a
2,b" "$(q "$TMP/b" "SELECT * FROM t ORDER BY id")"
r "$TMP/a" "INSERT INTO t VALUES (3, 'c'); UPDATE t SET v = 'B' WHERE id = 2" >/dev/null
check "time travel after more commits" "2|3|6" "$(q "$TMP/b" "SELECT count(*) FROM t VERSION AS OF 1" | tr '\n' '|')$(q "$TMP/b" "SELECT count(*), sum(id) FROM t" | tr ',' '|')"
check "the change feed across processes" "update_postimage,2,B
update_preimage,2,b" "$(q "$TMP/b" "SELECT _change_type, id, v FROM table_changes('t', 3) ORDER BY _change_type")"

# --- Two processes race INSERTs: the emulated conditional PUT keeps every commit.
# (each writer its own database attaching the table: two processes of different databases)
pids=()
for w in 1 2; do
  r "$TMP/w$w" "CREATE TABLE t LOCATION 's3://lake/tables/t'" >/dev/null
  ( for i in 1 2 3; do r "$TMP/w$w" "INSERT INTO t VALUES ($((w * 100 + i)), 'w$w')" >>"$TMP/race.log"; done ) &
  pids+=($!)
done
wait "${pids[@]}"
check "the racing INSERTs all succeed" "" "$(grep -i error "$TMP/race.log")"
check "two racing writers lose no commit" "9" "$(q "$TMP/b" "SELECT count(*) FROM t")"
check "... and every version is one commit" "9,9" \
  "$(q "$TMP/b" "SELECT max(_commit_version), count(DISTINCT _commit_version) FROM table_changes('t', 0)")"

# --- Files: COPY TO an s3:// path, read_parquet back.
r "$TMP/a" "COPY (SELECT id, v FROM t WHERE id < 10) TO 's3://lake/export/part.parquet'" >/dev/null
check "COPY TO s3rver, read_parquet back" "3,6" "$(q "$TMP/b" "SELECT count(*), sum(id) FROM read_parquet('s3://lake/export/part.parquet')")"
# A file larger than the speculative footer read: s3rver answers the suffix
# range `bytes=-65536` with the file's first bytes, which the client notices.
r "$TMP/a" "COPY (SELECT range AS id, CAST(range * 7919 % 1000003 AS VARCHAR) || 'x' AS s FROM range(0, 40000))
  TO 's3://lake/export/big.parquet'" >/dev/null
size=$(stat -c %s "$TMP/data/lake/export/big.parquet._S3rver_object" 2>/dev/null || echo 0)
[[ $size -gt 65536 ]] && pass "the large file is larger than the footer read ($size bytes)" ||
  fail "the large file is larger than the footer read" "$size bytes"
check "a Parquet file larger than the footer read reads back" "40000,799980000" \
  "$(q "$TMP/b" "SELECT count(*), sum(id) FROM read_parquet('s3://lake/export/big.parquet')")"

# --- A database on s3rver: the catalog is objects, the lease conditional PUTs.
DB=s3://lake/db
r "$DB" "CREATE TABLE m (id BIGINT); INSERT INTO m VALUES (1), (2), (3)" >/dev/null
check "a database on s3rver: the next process sees its table" "3" "$(q "$DB" "SELECT count(*) FROM m")"
r "$DB" "CREATE TABLE m2 AS SELECT id * 10 AS x FROM m" >/dev/null
check "... CTAS in a third process" "60" "$(q "$DB" "SELECT sum(x) FROM m2")"
check "... -readonly opens it" "m,m2" "$("$BIN" "$DB" -readonly -csv -c "SHOW TABLES" 2>&1 | tail -n +2 | cut -d, -f1 | sort | tr '\n' ',' | sed 's/,$//')"

finish
