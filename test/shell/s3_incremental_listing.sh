#!/usr/bin/env bash
# A streaming table over an S3 landing folder lists it incrementally
# (read_files useIncrementalListing, docs/object-storage.md): after a
# process's first (full) listing, each refresh asks the store only for the
# keys after the newest file already ingested (ListObjectsV2 start-after), so
# a growing folder is not listed whole on every pass; a file whose key sorts
# before ones already ingested is found by the next full listing (the next
# process, or backfillInterval); 'false' lists everything every time. Every
# file lands exactly once. Against tools/s3_test_server (3 keys per page, so
# incremental listings page too).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$TMP/s3/lake/landing"
python3 "$ROOT/tools/s3_test_server/s3_test_server.py" --root "$TMP/s3" --port-file "$TMP/port" --max-keys 3 --verbose \
  >/dev/null 2>"$TMP/server.log" &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -s "$TMP/port" ]] && break; sleep 0.05; done
PORT=$(cat "$TMP/port")
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_PROFILE AWS_REGION
export HOME="$TMP/home"
DB="$TMP/db"
"$BIN" "$DB" -c "CREATE PERSISTENT SECRET lake (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', REGION 'us-east-1',
  ENDPOINT 'http://127.0.0.1:$PORT', URL_STYLE 'path', SCOPE 's3://lake/')" >/dev/null || fail "secret" "could not create it"

land() { printf '{"id": %d, "file": "f%s"}\n' "$2" "$1" >"$TMP/s3/lake/landing/$1.json"; }
# refresh [OPTIONS]: the streaming table statement, read_files options appended.
refresh() {
  echo "CREATE OR REFRESH STREAMING TABLE events AS SELECT * FROM STREAM read_files('s3://lake/landing/', format => 'json'$1);"
}
# The listing requests the server saw since the last mark, as "full" or "after=<key>".
mark() { LOG_AT=$(wc -l <"$TMP/server.log"); }
listings() {
  tail -n +$((LOG_AT + 1)) "$TMP/server.log" | grep -o '"GET /lake/?[^ ]*' | grep 'list-type=2' | grep -v continuation-token |
    python3 -c "
import sys, urllib.parse
for line in sys.stdin:
    q = dict(urllib.parse.parse_qsl(line.split('?', 1)[1]))
    print('after=' + q['start-after'] if 'start-after' in q else 'full')"
}
# wait_for TEXT: until the running shell has printed TEXT (its refresh is
# done), so files land between refreshes whatever the machine's load.
wait_for() { for _ in $(seq 1200); do grep -q "$1" "$TMP/out" 2>/dev/null && return; sleep 0.05; done; }
ids() { "$BIN" "$DB" -csv -c "SELECT string_agg(CAST(id AS VARCHAR), ' ' ORDER BY id) AS ids, count(*) - count(DISTINCT id) AS dup FROM events" | tail -1; }
check() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi; }

for d in 01 02 03 04 05; do land "2024-01-$d" "${d#0}"; done
mark
# One process: a refresh, new files with later keys, a refresh, one with an
# earlier key (a late file), a refresh.
rm -f "$TMP/out"
{
  refresh ""; echo ".print refreshed-1"
  wait_for refreshed-1; land 2024-01-06 6; land 2024-01-07 7
  refresh ""; echo ".print refreshed-2"
  wait_for refreshed-2; land 2024-01-00 100
  refresh ""
} | "$BIN" "$DB" >"$TMP/out" 2>&1 || fail "the pipeline runs" "$(cat "$TMP/out")"
check "first refresh lists in full, later ones only after the newest ingested key" \
  "full after=landing/2024-01-05.json after=landing/2024-01-07.json" "$(listings | xargs)"
check "new files land once; the late file waits for a full listing" "1 2 3 4 5 6 7,0" "$(ids)"

# A new process starts with a full listing: the late file lands.
mark
refresh "" | "$BIN" "$DB" >"$TMP/out" 2>&1 || fail "second process" "$(cat "$TMP/out")"
check "a new process lists in full" "full" "$(listings | xargs)"
check "the late file lands, nothing twice" "1 2 3 4 5 6 7 100,0" "$(ids)"

# backfillInterval: a full listing again once it has passed, in one process.
mark
rm -f "$TMP/out"
{
  refresh ", backfillInterval => '8 seconds'"; echo ".print refreshed-1"
  wait_for refreshed-1; land 2024-01-00b 101
  refresh ", backfillInterval => '8 seconds'"; echo ".print refreshed-2"
  wait_for refreshed-2; sleep 8.1
  refresh ", backfillInterval => '8 seconds'"
} | "$BIN" "$DB" >"$TMP/out" 2>&1 || fail "backfill process" "$(cat "$TMP/out")"
check "backfillInterval brings back a full listing" \
  "full after=landing/2024-01-07.json full" "$(listings | xargs)"
check "the file found by the backfill lands once" "1 2 3 4 5 6 7 100 101,0" "$(ids)"

# useIncrementalListing => 'false': every refresh lists in full.
mark
{ refresh ", useIncrementalListing => 'false'"; sleep 0.3; refresh ", useIncrementalListing => 'false'"; } |
  "$BIN" "$DB" >"$TMP/out" 2>&1 || fail "full-listing process" "$(cat "$TMP/out")"
check "useIncrementalListing 'false' lists in full every time" "full full" "$(listings | xargs)"
out=$("$BIN" "$DB" -c "SELECT * FROM read_files('s3://lake/landing/', format => 'json', useIncrementalListing => 'sometimes')" 2>&1)
[[ "$out" == *"useIncrementalListing must be 'auto', 'true' or 'false'"* ]] && pass "a bad mode is refused by name" ||
  fail "a bad mode is refused by name" "$out"
out=$("$BIN" "$DB" -c "SELECT * FROM read_files('s3://lake/landing/', format => 'json', backfillInterval => 'often')" 2>&1)
[[ "$out" == *"backfillInterval takes a duration"* ]] && pass "a bad interval is refused by name" ||
  fail "a bad interval is refused by name" "$out"
finish
