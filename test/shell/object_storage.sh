#!/usr/bin/env bash
# Object storage (docs/object-storage.md) against tools/s3_test_server (a
# local S3-compatible server that checks SigV4 signatures and enforces
# If-None-Match): Spark-written tables under ../shared/delta-tables uploaded
# there read exactly as from disk (every version, change feeds); INSERT
# commits with conditional PUTs, and two processes racing lose no commit;
# read_parquet / read_files / COPY TO on s3:// paths; credentials from a
# secret, the environment and ~/.aws/credentials; retried 500s, clear 403 and
# 404 errors; a store without conditional writes refused unless single-writer
# mode is on; external access off refuses s3://.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SERVER="$ROOT/tools/s3_test_server/s3_test_server.py"
SHARED="${LAKESTREAM_SHARED_DIR:-$ROOT/../shared}/delta-tables"
[[ -d "$SHARED" ]] || SHARED=/work/shared/delta-tables
mkdir -p "$TMP/s3/lake" "$TMP/s3/plain"
python3 "$SERVER" --root "$TMP/s3" --port-file "$TMP/port" --max-keys 3 --verbose >/dev/null 2>"$TMP/server.log" &
SERVER_PID=$!
python3 "$SERVER" --root "$TMP/s3" --port-file "$TMP/port_nc" --reject-conditional >/dev/null 2>&1 &
SERVER_NC_PID=$!
trap 'kill $SERVER_PID $SERVER_NC_PID 2>/dev/null; chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -s "$TMP/port" && -s "$TMP/port_nc" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
PORT_NC=$(cat "$TMP/port_nc")
control() { python3 -c "import urllib.request,sys; print(urllib.request.urlopen(urllib.request.Request(sys.argv[1], method='POST' if sys.argv[2]=='post' else 'GET')).read().decode())" "http://127.0.0.1:$PORT/__control__/$1" "${2:-post}"; }
# Credentials from a persistent secret (the usual way); no AWS_* variables leak in from the caller.
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_PROFILE AWS_REGION
export HOME="$TMP/home" LAKESTREAM_S3_MAX_ATTEMPTS=4
SECRET="CREATE PERSISTENT SECRET lake (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', REGION 'us-east-1', ENDPOINT 'http://127.0.0.1:$PORT', URL_STYLE 'path', SCOPE 's3://lake/');"
DB="$TMP/db"
LOCAL="$TMP/local"
run() { "$BIN" "$DB" -c "$1" 2>&1; }
runl() { "$BIN" "$LOCAL" -c "$1" 2>&1; }
# Each query's CSV rows sorted (the order of rows is not part of the answer).
sorted_results() {  # sorted_results DB QUERY...
  local db=$1 q
  shift
  for q in "$@"; do echo "-- $q"; "$BIN" "$db" -csv -c "$q" 2>&1 | sort; done
}
check() {  # check NAME EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ "$3" == *"$2"* ]]; then pass "$1"; else fail "$1" "expected to contain: $2" "actual: $3"; fi
}
out=$(run "$SECRET")
check "the S3 secret is created" "" "$out"

# --- Spark-written tables: s3:// reads exactly as the same files on disk.
# CI reads three (a change feed, a checkpoint, partitions); LAKESTREAM_S3_ALL_TABLES=1 reads six.
TABLES=(cdf-table simple_table_with_checkpoint delta-0.8.0-partitioned)
[[ "${LAKESTREAM_S3_ALL_TABLES:-0}" == 1 ]] && TABLES+=(simple_table simple_table_with_cdc cdf-table-non-partitioned)
for t in "${TABLES[@]}"; do
  [[ -d "$SHARED/$t" ]] || { fail "shared table $t exists" "$SHARED/$t missing"; continue; }
  cp -r "$SHARED/$t" "$TMP/s3/lake/$t"
  chmod -R u+w "$TMP/s3/lake/$t"
  name=$(echo "$t" | tr -c 'a-z0-9_\n' '_')
  out=$(run "CREATE TABLE s3_$name LOCATION 's3://lake/$t'")
  check "attach s3://lake/$t" "" "$out"
  out=$(runl "CREATE TABLE s3_$name LOCATION '$SHARED/$t'")
  check "attach $t from disk" "" "$out"
  latest=$(ls "$SHARED/$t/_delta_log" | grep '^[0-9]*\.json$' | sort | tail -1 | sed 's/\.json$//; s/^0*//')
  queries=("SELECT count(*) FROM s3_$name" "SELECT * FROM s3_$name")
  for ((v = 0; v <= ${latest:-0}; v++)); do queries+=("SELECT * FROM s3_$name VERSION AS OF $v"); done
  if [[ "$t" == cdf* ]]; then queries+=("SELECT * FROM table_changes('s3_$name', 0)"); fi
  want=$(sorted_results "$LOCAL" "${queries[@]}")
  got=$(sorted_results "$DB" "${queries[@]}")
  check "$t: every version (and change feed) from S3 equals disk" "$want" "$got"
  [[ "$want" != *Error* ]] || fail "$t reads without error" "$want"
done

# --- Writing: INSERT commits to S3; a fresh table created on S3.
out=$(run "CREATE TABLE s3_new (id BIGINT, v VARCHAR) LOCATION 's3://lake/new'; INSERT INTO s3_new VALUES (1, 'a'), (2, 'b');
INSERT INTO s3_new VALUES (3, 'c'); SELECT count(*), sum(id) FROM s3_new;")
contains "CREATE TABLE and INSERT on S3" "3	6" "$(echo "$out" | tr -s ' ' | sed 's/ *│ */\t/g')"
[[ -f "$TMP/s3/lake/new/_delta_log/00000000000000000002.json" ]] && pass "commits are objects _delta_log/N.json" ||
  fail "commits are objects _delta_log/N.json" "$(ls -R "$TMP/s3/lake/new")"
ls "$TMP/s3/lake/new" | grep -q '\.parquet$' && pass "data files are uploaded" || fail "data files are uploaded" "$(ls "$TMP/s3/lake/new")"

# Two processes of two databases (so no local lock orders them) insert into
# the same S3 table at once: conditional PUTs make exactly one win each
# version; the loser re-reads and commits the next one. No row is lost.
out=$("$BIN" "$TMP/db_w2" -c "$SECRET CREATE TABLE s3_new LOCATION 's3://lake/new'" 2>&1)
check "a second database attaches the same S3 table" "" "$out"
WRITERS=()
for w in 1 2; do
  wdb="$DB"; [[ $w == 2 ]] && wdb="$TMP/db_w2"
  ( for i in $(seq 1 8); do "$BIN" "$wdb" -c "INSERT INTO s3_new VALUES ($((w * 100 + i)), 'w$w')" >>"$TMP/writer$w.log" 2>&1; done ) &
  WRITERS+=($!)
done
wait "${WRITERS[@]}"
out=$(run "SELECT count(*) FROM s3_new")
contains "two concurrent writers: all 19 rows are there" "19" "$out"
commits=$(ls "$TMP/s3/lake/new/_delta_log" | grep -c '^[0-9]*\.json$')
check "two concurrent writers: one commit per INSERT (2 + 1 + 16)" "19" "$commits"
errs=$(grep -h -i "error" "$TMP/writer1.log" "$TMP/writer2.log" | head -3)
# A writer may give up after too many conflicts only with a clear error; rows it reported are there.
[[ -z "$errs" ]] && pass "no writer failed" || fail "no writer failed" "$errs"
conflicts=$(grep -c '"PUT /lake/new/_delta_log/[0-9]*.json HTTP/1.1" 412' "$TMP/server.log")
echo "  (conflicting commits answered 412: $conflicts)"

# --- read_parquet / read_files / COPY TO.
out=$(run "COPY (SELECT id, v FROM s3_new WHERE id < 10) TO 's3://lake/exports/small.parquet'")
contains "COPY TO s3://" "3" "$out"
[[ -f "$TMP/s3/lake/exports/small.parquet" ]] && pass "COPY TO uploads the object" || fail "COPY TO uploads the object" ""
out=$(run "SELECT sum(id) FROM read_parquet('s3://lake/exports/*.parquet')")
contains "read_parquet('s3://...*.parquet')" "6" "$out"
mkdir -p "$TMP/s3/lake/landing/day=1" && printf '{"a":1}\n{"a":2}\n' >"$TMP/s3/lake/landing/day=1/x.json" &&
  printf '{"a":40}\n' >"$TMP/s3/lake/landing/y.json" && printf '{"a":500}\n' >"$TMP/s3/lake/landing/_skip.json"
out=$(run "SELECT sum(a) FROM read_files('s3://lake/landing')")
contains "read_files('s3://lake/landing') (folder, hidden files skipped)" "43" "$out"
out=$(run "SELECT sum(a) FROM read_files('s3://lake/landing/*.json')")
contains "read_files glob does not cross '/'" "40" "$out"

# --- Faults: 500s are retried; 403 and 404 are clear errors.
control reset >/dev/null
want=$(runl "SELECT count(*) FROM s3_cdf_table")
control "fail?status=500&count=2&method=GET" >/dev/null
out=$(run "SELECT count(*) FROM s3_cdf_table")
check "two 500s then success: the read is retried" "$want" "$out"
control "fail?status=503&count=1&code=SlowDown" >/dev/null
out=$(run "SELECT count(*) FROM s3_cdf_table")
check "503 SlowDown is retried" "$want" "$out"
control "fail?status=500&count=50&match=/lake/cdf-table" >/dev/null
out=$(run "SELECT count(*) FROM s3_cdf_table")
contains "500s past the retry budget: error names the attempts" "failed after 4 attempts" "$out"
control reset >/dev/null
out=$(run "SELECT * FROM read_parquet('s3://lake/exports/missing.parquet')")
contains "404: the error names the missing key" "no file matches 's3://lake/exports/missing.parquet'" "$out"
out=$("$BIN" "$TMP/db2" -c "CREATE SECRET bad (TYPE s3, KEY_ID 'test-key', SECRET 'wrong', ENDPOINT 'http://127.0.0.1:$PORT');
SELECT * FROM read_parquet('s3://lake/exports/small.parquet')" 2>&1)
contains "403: bucket, key and status named" "bucket 'lake', key 'exports/small.parquet' failed: HTTP 403" "$out"
contains "403: says where the credentials came from" "secret bad" "$out"

# --- Ranged reads: a projection of one of eight columns fetches that column's
# chunk (range GETs of the footer and the chunk), not the object.
out=$(run "COPY (SELECT i AS id, hash(i) AS h1, hash(i + 1) AS h2, hash(i + 2) AS h3, hash(i + 3) AS h4, hash(i + 4) AS h5,
  hash(i + 5) AS h6, hash(i + 6) AS h7 FROM range(0, 200000) r(i)) TO 's3://lake/exports/wide.parquet'")
contains "COPY TO a wide Parquet object" "200000" "$out"
control reset >/dev/null
out=$("$BIN" "$DB" -csv -c "SELECT max(h3) AS hi, min(h3) AS lo FROM read_parquet('s3://lake/exports/wide.parquet')" 2>&1)
want=$("$BIN" "$DB" -csv -c "SELECT max(hash(i + 2)) AS hi, min(hash(i + 2)) AS lo FROM range(0, 200000) r(i)" 2>&1)
check "a projected read of an S3 Parquet object is exact" "$want" "$out"
bytes=$(control stats get | python3 -c "import json, sys; print(json.load(sys.stdin)['bytes_out'])")
size=$(stat -c %s "$TMP/s3/lake/exports/wide.parquet")
if ((bytes > 0 && bytes < size / 4)); then pass "1 of 8 columns transfers about 1/8 of the object ($bytes of $size bytes)"; else
  fail "1 of 8 columns transfers about 1/8 of the object" "transferred $bytes of $size bytes"; fi
# A truncated object: the footer check names the object.
head -c 100000 "$TMP/s3/lake/exports/wide.parquet" >"$TMP/s3/lake/exports/cut.parquet"
out=$(run "SELECT count(h1) FROM read_parquet('s3://lake/exports/cut.parquet')")
contains "a truncated S3 Parquet object: the error names it" "s3://lake/exports/cut.parquet: corrupt Parquet file: bad magic at the end" "$out"
rm "$TMP/s3/lake/exports/cut.parquet"

# --- A missing bucket or prefix is an error naming the bucket, the key, the status and the fix.
ANY="CREATE SECRET anyb (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT');"
for q in "CREATE TABLE nb LOCATION 's3://nobucket/t'" "CREATE TABLE nb (id INT) LOCATION 's3://nobucket/t'" \
  "SELECT * FROM read_parquet('s3://nobucket/x.parquet')" "SELECT * FROM read_files('s3://nobucket/landing')" \
  "COPY (SELECT 1 AS a) TO 's3://nobucket/out.parquet'"; do
  out=$(run "$ANY $q")
  contains "missing bucket: $q: names the bucket and the status" "bucket 'nobucket'" "$out"
  contains "missing bucket: $q: HTTP 404 NoSuchBucket" "HTTP 404 NoSuchBucket" "$out"
  contains "missing bucket: $q: says how to fix it" "create it, or correct the bucket name in the path or the ENDPOINT of the S3 secret; settings from secret anyb" "$out"
done
[[ ! -d "$TMP/s3/nobucket" ]] && pass "a missing bucket is not created" || fail "a missing bucket is not created" ""
out=$(run "CREATE TABLE np LOCATION 's3://lake/no/such/prefix'")
contains "missing prefix: names the bucket and the prefix listed" "bucket 'lake' has no object under the key prefix 'no/such/prefix/_delta_log/'" "$out"
out=$(run "SELECT * FROM np")
contains "missing prefix: no table was attached" "np" "$out"

# --- Credentials from the environment and from ~/.aws/credentials.
out=$(AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" \
  "$BIN" "$TMP/db3" -c "SELECT count(*) FROM read_parquet('s3://lake/exports/small.parquet')" 2>&1)
contains "AWS_* environment variables" "3" "$out"
mkdir -p "$HOME/.aws" && printf '[other]\naws_access_key_id = test-key\naws_secret_access_key = test-secret\n' >"$HOME/.aws/credentials"
out=$(AWS_PROFILE=other AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" \
  "$BIN" "$TMP/db3" -c "SELECT count(*) FROM read_parquet('s3://lake/exports/small.parquet')" 2>&1)
contains "~/.aws/credentials profile" "3" "$out"

# --- A store without conditional writes: refused unless single-writer mode.
DBNC="$TMP/dbnc"
out=$("$BIN" "$DBNC" -c "CREATE SECRET nc (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT_NC');
CREATE TABLE t (id INT) LOCATION 's3://lake/nc'" 2>&1)
contains "no If-None-Match support: the commit is refused naming ALLOW_UNSAFE_RENAME" "ALLOW_UNSAFE_RENAME" "$out"
out=$("$BIN" "$DBNC" -c "CREATE SECRET nc2 (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', ENDPOINT 'http://127.0.0.1:$PORT_NC', ALLOW_UNSAFE_RENAME true);
CREATE TABLE t2 (id INT) LOCATION 's3://lake/nc2'; INSERT INTO t2 VALUES (7); SELECT sum(id) FROM t2" 2>&1)
contains "single-writer mode commits without conditional writes" "7" "$out"

# --- External access off: s3:// is network access.
out=$("$BIN" "$DB" -c "SET enable_external_access = false; SELECT * FROM read_parquet('s3://lake/exports/small.parquet')" 2>&1)
contains "enable_external_access = false refuses s3://" "object storage is network access" "$out"
out=$(run "SELECT * FROM read_parquet('gs://lake/x.parquet')")
contains "another scheme is refused by name" "only local paths and s3://bucket/key URLs are supported" "$out"
finish
