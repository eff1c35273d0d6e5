#!/usr/bin/env bash
# A database whose directory is on S3 (`lakestream s3://bucket/lake`,
# docs/object-storage.md "A database on S3") against tools/s3_test_server:
# the same statements, each in its own process, give the same answers as on
# a local database (managed tables, CTAS, DML, MERGE, time travel,
# table_changes, streams and their offsets, views, materialized views,
# streaming tables, RENAME, DROP); the catalog is versioned objects and the
# write lock a lease; two processes racing DDL lose none; a second writer is
# refused while the lease is held and gets in once it expires; kill -9
# mid-INSERT loses no committed row; -readonly takes no lease; persistent
# secrets stay local; FILE sinks are refused by name.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SERVER="$ROOT/tools/s3_test_server/s3_test_server.py"
mkdir -p "$TMP/s3/lake" "$TMP/home" "$TMP/work"
python3 "$SERVER" --root "$TMP/s3" --port-file "$TMP/port" >/dev/null 2>"$TMP/server.log" &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null; chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_REGION AWS_ENDPOINT_URL_S3
export HOME="$TMP/home" AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1
export AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_S3_URL_STYLE=path LAKESTREAM_S3_MAX_ATTEMPTS=3
export LAKESTREAM_S3_LEASE_SECONDS=2
cd "$TMP/work" || exit 1
DB=s3://lake/db
OBJ="$TMP/s3/lake/db"  # what the server stores for the prefix
run() { "$BIN" "$DB" -csv -c "$1" 2>&1; }
check() {  # check NAME EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ "$3" == *"$2"* ]]; then pass "$1"; else fail "$1" "expected to contain: $2" "actual: $3"; fi
}
# Requests of one kind the server answered since the last reset.
requests() { python3 -c "import urllib.request, json, sys; print(json.loads(urllib.request.urlopen('http://127.0.0.1:$PORT/__control__/stats').read())['by_method'].get(sys.argv[1], 0))" "$1"; }
reset_stats() { python3 -c "import urllib.request; urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:$PORT/__control__/reset', method='POST'))"; }
# The newest lease record's number + 1, zero-padded (a hand-written record plays another host's process).
next_lease() {
  local newest
  newest=$(ls "$OBJ/_lakestream/lease" 2>/dev/null | sort | tail -1 | sed 's/\.json$//')
  printf '%020d' $((10#${newest:-0} + 1))
}
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

# --- Every statement in its own process, on S3 and on disk: same answers.
STEPS=(  # one process each
  "CREATE TABLE t (id BIGINT, v VARCHAR) WITH PROPERTIES ('change_tracking' = 'true'); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')"
  "CREATE TABLE STREAM s ON TABLE t; CREATE TABLE c AS SELECT id * 10 AS x FROM t; CREATE VIEW vw AS SELECT count(*) AS n, sum(id) AS total FROM t"
  "CREATE MATERIALIZED VIEW mv AS SELECT v, count(*) AS n FROM t GROUP BY v; UPDATE t SET v = 'bb' WHERE id = 2"
  "DELETE FROM t WHERE id = 3; MERGE INTO t USING (SELECT 4 AS id, 'd' AS v UNION ALL SELECT 1, 'aa') src ON t.id = src.id WHEN MATCHED THEN UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v)"
  "SELECT __change_type, id, v FROM s ORDER BY id, __change_type"
  "CREATE TABLE drained AS SELECT id, v, __change_type FROM s"
  "SELECT count(*) FROM s; INSERT INTO t VALUES (5, 'e')"
  "SELECT id, v FROM s; REFRESH MATERIALIZED VIEW mv"
  "SELECT * FROM mv ORDER BY v; SELECT * FROM vw; SELECT * FROM t VERSION AS OF 2 ORDER BY id"
  "SELECT _change_type, id, v, _commit_version FROM table_changes('t', 2) ORDER BY _commit_version, id, _change_type"
  "SELECT * FROM c ORDER BY x; SELECT * FROM drained ORDER BY id, __change_type; ALTER TABLE c RENAME TO c2"
  "SELECT sum(x) FROM c2; CREATE TABLE gone (x INT); INSERT INTO gone VALUES (1)"
  "DROP TABLE gone; SHOW TABLES; SELECT * FROM t ORDER BY id"
)
LOCAL="$TMP/local.db"
want="" got=""
for step in "${STEPS[@]}"; do
  want+="-- $step"$'\n'"$("$BIN" "$LOCAL" -csv -c "$step" 2>&1)"$'\n'
  got+="-- $step"$'\n'"$(run "$step")"$'\n'
done
check "each statement in its own process answers on S3 as on disk" "$want" "$got"
[[ "$got" != *Error* ]] && pass "no statement failed on S3" || fail "no statement failed on S3" "$got"
[[ ! -e "$TMP/work/s3:" ]] && pass "no local folder is made for the URL" || fail "no local folder is made for the URL" "$(ls "$TMP/work")"
ls "$OBJ/_lakestream/catalog" 2>/dev/null | grep -q '^0*[1-9][0-9]*\.json$' && pass "the catalog is versioned objects" ||
  fail "the catalog is versioned objects" "$(ls -R "$OBJ/_lakestream" 2>&1)"
[[ -f "$OBJ/t/_delta_log/00000000000000000000.json" ]] && pass "managed table t is a Delta table under the prefix" ||
  fail "managed table t is a Delta table under the prefix" "$(ls "$OBJ" 2>&1)"
# (The test server keeps emptied folders; objects are its files.)
[[ -z "$(find "$OBJ/gone" -type f 2>/dev/null)" && -d "$OBJ/t" ]] && pass "DROP TABLE deleted only the table's own objects" ||
  fail "DROP TABLE deleted only the table's own objects" "$(ls "$OBJ")"
[[ ! -e "$OBJ/_lakestream/LOCK" && ! -e "$OBJ/_lakestream/catalog.json" ]] && pass "no local-style LOCK or catalog.json on S3" ||
  fail "no local-style LOCK or catalog.json on S3" "$(ls "$OBJ/_lakestream")"

# --- DROP of a table never reaches a sibling prefix (x vs x2).
out=$(run "CREATE TABLE x (a INT); CREATE TABLE x2 (a INT); INSERT INTO x2 VALUES (7); DROP TABLE x; SELECT * FROM x2")
check "DROP TABLE x keeps x2" "num_affected_rows
1
a
7" "$out"
[[ -z "$(find "$OBJ/x" -type f 2>/dev/null)" && -f "$OBJ/x2/_delta_log/00000000000000000001.json" ]] && pass "x's objects are gone, x2's are not" ||
  fail "x's objects are gone, x2's are not" "$(ls "$OBJ")"

# --- RENAME keeps the folder on S3 (no rename there): a new table of the
# old name gets the next free folder, and both keep their data across opens.
out=$(run "CREATE TABLE c (y INT); INSERT INTO c VALUES (7)")
check "CREATE TABLE of a renamed table's old name" "num_affected_rows
1" "$out"
[[ -f "$OBJ/c-2/_delta_log/00000000000000000001.json" && ! -e "$OBJ/c/_delta_log/00000000000000000002.json" ]] &&
  pass "the new table c writes to folder c-2, c2's folder is untouched" || fail "the new table c writes to folder c-2" "$(ls "$OBJ")"
check "both tables read their own rows after reopening" "s,y
60,7" "$(run "SELECT (SELECT sum(x) FROM c2) AS s, (SELECT sum(y) FROM c) AS y")"
out=$(run "DROP TABLE c")
[[ -z "$(find "$OBJ/c-2" -type f 2>/dev/null)" && -f "$OBJ/c/_delta_log/00000000000000000000.json" ]] &&
  pass "DROP TABLE c deletes folder c-2 only" || fail "DROP TABLE c deletes folder c-2 only" "$out" "$(ls "$OBJ")"
check "the renamed table is intact" "s
60" "$(run "SELECT sum(x) AS s FROM c2")"

# --- Read-only: reads, takes no lease, refuses writes.
reset_stats
out=$("$BIN" "$DB" -readonly -csv -c "SELECT count(*) AS n FROM t" 2>&1)
check "-readonly reads the S3 database" "n
4" "$out"
out=$("$BIN" "$DB" -readonly -c "INSERT INTO t VALUES (9, 'z')" 2>&1)
contains "-readonly refuses INSERT" "read-only" "$out"
check "-readonly wrote and deleted nothing (no lease)" "0 0" "$(requests PUT) $(requests DELETE)"
reset_stats
run "INSERT INTO t VALUES (99, 'x'); DELETE FROM t WHERE id = 99" >/dev/null
[[ $(requests PUT) -gt 2 ]] && pass "a writer's requests are counted (the check above can fail)" || fail "a writer's requests are counted" "$(requests PUT)"
out=$("$BIN" s3://lake/nothing -readonly -c "SELECT 1" 2>&1)
contains "-readonly open of an empty prefix says there is no database" "No lakestream database at s3://lake/nothing" "$out"

out=$("$BIN" s3:// -c "SELECT 1" 2>&1)
contains "a URL without a bucket is refused" "names no bucket" "$out"
[[ ! -e "$TMP/work/s3:" ]] && pass "and makes no local folder" || fail "and makes no local folder" "$(ls "$TMP/work")"

# --- Two processes racing DDL (one statement per process, as two users type them): none is lost.
RACE=s3://lake/race  # a database of its own: every open loads each table's log, and this one stays small
race() {  # race PREFIX: CTAS and CREATE VIEW, each in its own process; one line per success
  local i
  for i in 1 2 3; do
    out=$("$BIN" "$RACE" -c "CREATE TABLE $1$i AS SELECT $i AS x" 2>&1) && [[ -z "$out" ]] && echo "$1$i" || echo "ERR $out"
    out=$("$BIN" "$RACE" -c "CREATE VIEW $1v$i AS SELECT $i AS x" 2>&1) && [[ -z "$out" ]] && echo "$1v$i" || echo "ERR $out"
  done >"$TMP/race_$1.out"
}
race ra & A=$!
race rb & B=$!
wait $A $B
created=$(cat "$TMP/race_ra.out" "$TMP/race_rb.out" | grep -v '^ERR' | sort)
errors=$(cat "$TMP/race_ra.out" "$TMP/race_rb.out" | grep '^ERR' | grep -v 'is already open for writing')
check "racing DDL fails only with the busy error, if at all" "" "$errors"
[[ $(echo "$created" | wc -l) -ge 8 ]] && pass "most racing DDL got through" || fail "most racing DDL got through" "$created"
listed=$("$BIN" "$RACE" -csv -c "SHOW TABLES" 2>&1 | grep -E '^r[ab][0-9]' | sed 's/,.*//' | sort)
check "every racing CREATE TABLE that succeeded is in the catalog" "$(echo "$created" | grep -v v)" "$listed"
query=$(echo "$created" | sed 's/.*/SELECT x FROM &/' | paste -sd'|' | sed 's/|/ UNION ALL /g')
want_sum=$(echo "$created" | sed 's/^r[ab]v\{0,1\}//' | paste -sd+ | bc)
check "every racing table and view reads back in one more process" "s
$want_sum" "$("$BIN" "$RACE" -csv -c "SELECT sum(x) AS s FROM ($query)" 2>&1)"

# --- A lease held by another host's process: writers are refused, readers are not; after expiry, writers get in.
now=$(now_ms)
echo "{\"owner\": \"otherhost:4242:x\", \"host\": \"otherhost\", \"pid\": 4242, \"held\": true, \"expires_ms\": $((now + 60000))}" \
  >"$OBJ/_lakestream/lease/$(next_lease).json"
out=$(run "INSERT INTO t VALUES (10, 'j')")
contains "a second writer is refused while the lease is held" "is already open for writing by process 4242 on host otherhost" "$out"
check "a reader is not refused" "n
4" "$(run "SELECT count(*) AS n FROM t")"
now=$(now_ms)
echo "{\"owner\": \"otherhost:4242:x\", \"host\": \"otherhost\", \"pid\": 4242, \"held\": true, \"expires_ms\": $((now + 1500))}" \
  >"$OBJ/_lakestream/lease/$(next_lease).json"
out=$(run "INSERT INTO t VALUES (10, 'j'); SELECT count(*) AS n FROM t")
check "the writer gets in once the lease expires" "num_affected_rows
1
n
5" "$out"

# --- kill -9 mid-INSERT: no committed row lost, the database reopens, the dead writer's lease expires.
# Killed once it holds the lease and has run a while: far too early to have
# written 50M rows, whatever the machine's speed.
"$BIN" "$DB" -c "INSERT INTO t SELECT range + 100, 'big' FROM range(50000000)" >/dev/null 2>&1 &
W=$!
for _ in $(seq 200); do grep -qsE "\"pid\": ?$W[,}]" "$OBJ/_lakestream/lease/"*.json && break; sleep 0.05; done
sleep 0.5
kill -9 $W 2>/dev/null && pass "the INSERT was still running when killed" || fail "the INSERT was still running when killed" "it finished within 0.5 s of taking the lease"
wait $W 2>/dev/null
check "the killed INSERT committed nothing" "n
0" "$(run "SELECT count(*) AS n FROM t WHERE id >= 100")"
out=$(run "SELECT count(*) AS n FROM t WHERE id < 100")
check "after kill -9 every committed row is there" "n
5" "$out"
out=$(run "INSERT INTO t VALUES (11, 'k'); SELECT count(*) AS n FROM t WHERE id < 100")
check "after kill -9 a new writer commits" "num_affected_rows
1
n
6" "$out"
out=$(run "SELECT v FROM t WHERE id = 11")
check "and a second process reads it" "v
k" "$out"

# --- Persistent secrets stay local; FILE sinks are refused by name.
out=$(run "CREATE PERSISTENT SECRET other (TYPE s3, KEY_ID 'k', SECRET 'very-secret', SCOPE 's3://elsewhere/')")
check "CREATE PERSISTENT SECRET on an S3 database" "" "$out"
grep -rq very-secret "$TMP/s3" && fail "the secret is not in the bucket" "$(grep -rl very-secret "$TMP/s3")" || pass "the secret is not in the bucket"
f=$(grep -rl very-secret "$HOME/.lakestream/databases" 2>/dev/null | head -1)
[[ -n "$f" && $(stat -c %a "$f") == 600 ]] && pass "the secret is in the local owner-only store" ||
  fail "the secret is in the local owner-only store" "$(ls -laR "$HOME" 2>&1)"
out=$(run "CREATE SINK fs FROM t INTO FILE 'out.jsonl'")
contains "a FILE sink is refused on an S3 database" "a FILE sink is not supported yet on a database on object storage" "$out"

finish
