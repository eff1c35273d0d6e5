#!/usr/bin/env bash
# FILE sinks never lose or clobber data, and redefining a sink keeps its
# position (issue 14), as a user types it in the shell:
#   * a file belongs to one sink (same path, symlink, relative path, symlinked
#     directory); a different-case name is a different file;
#   * a file edited or truncated by someone else stops the sink, untouched;
#     lines appended by another program stay;
#   * CREATE OR REPLACE SINK after an append-mode error delivers the pending versions;
#   * 'start' = 'latest' | 'earliest' | 'version N' | 'timestamp ...', ALTER SINK SET;
#   * SHOW SINKS and DESCRIBE SINK show the next version.
# Usage: sink_files.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
DB=$TMP/db
D=$TMP/out
mkdir -p "$D"

run() {
  RC=0
  "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  OUT=$(cat "$TMP/stdout"; echo x); OUT=${OUT%x}
  ERR=$(cat "$TMP/stderr"; echo x); ERR=${ERR%x}
}
sql() { run "$BIN" -csv "$DB" -c "$1"; }
ok() {  # ok NAME: the last statement succeeded
  if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi
}
refused() {  # refused NAME PART...: the last statement failed with every PART in stderr
  local name=$1; shift
  local part
  for part in "$@"; do
    if [[ $RC == 0 || "$ERR" != *"$part"* ]]; then
      fail "$name" "want failure with: $part" "rc $RC" "stderr: $ERR"
      return
    fi
  done
  pass "$name"
}
same() {  # same NAME GOT WANT
  if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "want: $(printf '%q' "$3")" "got:  $(printf '%q' "$2")"; fi
}
# The value of SHOW SINKS column COLUMN for sink NAME.
show() {
  sql "SHOW SINKS"
  printf '%s' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
col = rows[0].index(sys.argv[2])
print(next(r[col] for r in rows[1:] if r[0] == sys.argv[1]))' "$1" "$2"
}

# --- one file, one sink ---
sql "CREATE TABLE t (id INT, name STRING, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')"
ok "create the source"
sql "CREATE SINK a FROM t INTO FILE '$D/a.jsonl'"
ok "sink a owns a.jsonl"
sql "CREATE SINK b FROM t INTO FILE '$D/a.jsonl'"
refused "a second sink on the same path is refused, naming the owner" "Sink b: file $D/a.jsonl is already the target of sink a" "DROP SINK a"
ln -s "$D/a.jsonl" "$D/link.jsonl"
sql "CREATE SINK b FROM t INTO FILE '$D/link.jsonl'"
refused "a symlink to the file is the same file" "already the target of sink a"
ln -s "$D" "$TMP/outlink"
sql "CREATE SINK b FROM t INTO FILE '$TMP/outlink/a.jsonl'"
refused "a path through a symlinked directory is the same file" "already the target of sink a"
ln "$D/a.jsonl" "$D/hard.jsonl"
sql "CREATE SINK b FROM t INTO FILE '$D/hard.jsonl'"
refused "a hard link is the same file" "already the target of sink a"
pushd "$D" >/dev/null
for rel in a.jsonl ./a.jsonl ../out/a.jsonl; do
  sql "CREATE SINK b FROM t INTO FILE '$rel'"
  refused "relative path $rel is the same file" "already the target of sink a"
done
# A sink on a relative path that does not exist yet, then one on another spelling of it.
sql "CREATE SINK r1 FROM t INTO FILE 'rel.jsonl'"
ok "a relative path is accepted"
sql "CREATE SINK r2 FROM t INTO FILE './sub/../rel.jsonl'"
refused "another spelling of that relative path is refused" "already the target of sink r1"
popd >/dev/null
sql "CREATE SINK b FROM t INTO FILE '$DB/_lakestream/catalog.json'"
refused "a file inside the database directory is refused" "Sink b: file $DB/_lakestream/catalog.json is inside the database directory"
sql "CREATE SINK b FROM t INTO FILE '$D/A.jsonl'"
ok "a different case is a different file on Linux"
sql "DROP SINK b"
sql "CREATE OR REPLACE SINK a FROM t INTO FILE '$D/a.jsonl'"
ok "replacing the owner on its own file is fine"
sql "DROP SINK r1"
sql "CREATE SINK r2 FROM t INTO FILE '$D/rel.jsonl'"
ok "after DROP SINK the file is free"

# --- nobody else's bytes are clobbered ---
sql "INSERT INTO t VALUES (1, 'x')"  # version 1
sql "RUN SINK a"
same "first line delivered" "$(cat "$D/a.jsonl")" '{"id":1,"name":"x"}'
printf '{"note":"appended elsewhere"}\n' >>"$D/a.jsonl"
sql "INSERT INTO t VALUES (2, 'y')"  # version 2
sql "RUN SINK a"
ok "run after another program appended"
same "the other program's line is kept, ours follow it" "$(cat "$D/a.jsonl")" \
  '{"id":1,"name":"x"}
{"note":"appended elsewhere"}
{"id":2,"name":"y"}'

# Someone edits a line the sink wrote (same length: only the recorded hash tells).
sed -i 's/"name":"x"/"name":"X"/' "$D/a.jsonl"
EDITED='{"id":1,"name":"X"}
{"note":"appended elsewhere"}
{"id":2,"name":"y"}'
sql "INSERT INTO t VALUES (3, 'z')"  # version 3
sql "RUN SINK a"
refused "an edited file stops the sink, naming the file and the fix" "Sink a: " "file $D/a.jsonl" \
  "never truncates or overwrites bytes it did not write" "progress is kept at version 2" \
  "ALTER SINK a SET ('start' = 'version 3')"
same "the edited file is untouched" "$(cat "$D/a.jsonl")" "$EDITED"
same "SHOW SINKS shows the error" "$(show a last_error | grep -c 'never truncates')" "1"
sql "RUN SINK a"
refused "and again on the next run (nothing truncated meanwhile)" "file $D/a.jsonl"
same "still untouched" "$(cat "$D/a.jsonl")" "$EDITED"
sql "ALTER SINK a SET ('start' = 'version 3')"
ok "following the fix: continue after the file as it is"
sql "RUN SINK a"
same "version 3 follows the edited content" "$(cat "$D/a.jsonl")" "$EDITED
{\"id\":3,\"name\":\"z\"}"

: >"$D/a.jsonl"
sql "INSERT INTO t VALUES (4, 'w')"  # version 4
sql "RUN SINK a"
refused "a truncated file stops the sink" "file $D/a.jsonl holds 0 bytes"
rm "$D/a.jsonl"
sql "RUN SINK a"
refused "a deleted file stops the sink instead of starting a new one silently" "file $D/a.jsonl is gone"
sql "DROP SINK a"

printf '{"partial":' >"$D/p.jsonl"
sql "CREATE SINK p FROM t INTO FILE '$D/p.jsonl'"
sql "INSERT INTO t VALUES (5, 'v')"  # version 5
sql "RUN SINK p"
refused "a file ending in someone else's unfinished line is not glued to" "ends in an unfinished line" "$D/p.jsonl"
same "the unfinished line is untouched" "$(cat "$D/p.jsonl")" '{"partial":'
printf '\n' >>"$D/p.jsonl"
sql "RUN SINK p"
same "once the line is ended the pending version follows" "$(cat "$D/p.jsonl")" '{"partial":
{"id":5,"name":"v"}'

# --- replacing after an append-mode error delivers what was pending ---
sql "CREATE TABLE o (id INT, amount INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')"
sql "CREATE SINK s FROM o INTO FILE '$D/s.jsonl' WITH ('format' = 'append')"
sql "INSERT INTO o VALUES (1, 10), (2, 20)"  # o version 1
sql "UPDATE o SET amount = 11 WHERE id = 1"  # o version 2
sql "DELETE FROM o WHERE id = 2"             # o version 3
sql "RUN SINK s"
refused "append stops at the update" "cannot deliver an UPDATE of o at version 2" "'format' = 'upsert'"
same "SHOW SINKS: next version 2 is pending" "$(show s next_version) $(show s pending_versions)" "2 2"
sql "DESCRIBE SINK s"
same "DESCRIBE SINK shows the next version" "$(printf '%s' "$OUT" | grep '^next_version,')" "next_version,2"
sql "CREATE OR REPLACE SINK s FROM o INTO FILE '$D/s.jsonl' WITH ('format' = 'upsert')"
ok "replace with upsert, as the error advises"
same "the replaced sink kept its position" "$(show s next_version)" "2"
sql "RUN SINK s"
same "RUN SINK delivers versions 2 and 3" "$OUT" 'messages,skipped_changes,delivered_version
2,0,3
'
same "the file holds every change exactly once" "$(cat "$D/s.jsonl")" '{"id":1,"amount":10}
{"id":2,"amount":20}
{"key":"1","value":{"id":1,"amount":11}}
{"key":"2","value":null}'

# --- ALTER SINK SET ---
sql "CREATE SINK al FROM o INTO FILE '$D/al.jsonl' WITH ('format' = 'append')"
sql "UPDATE o SET amount = 12 WHERE id = 1"  # o version 4
sql "ALTER SINK al SET ('format' = 'bogus')"
refused "ALTER checks options as CREATE does" "Sink al: unknown format 'bogus'"
sql "ALTER SINK al SET ('linger.ms' = '5')"
refused "ALTER refuses a Kafka property on a FILE sink" "Sink al: unknown option 'linger.ms' for a FILE sink"
sql "ALTER SINK al SET ('format' = 'upsert', 'key' = 'nope')"
refused "ALTER checks the key column" "nope"
same "a refused ALTER changes nothing" "$(show al format) $(show al next_version)" "append 4"
sql "ALTER SINK al SET ('format' = 'debezium', 'tombstones' = 'false')"
ok "ALTER SINK SET format"
same "ALTER kept the position" "$(show al format) $(show al next_version)" "debezium 4"
sql "RUN SINK al"
same "the pending update goes out in the new format" \
  "$(python3 -c 'import json,sys; print([(m["op"], m["before"]["amount"], m["after"]["amount"]) for m in map(json.loads, open(sys.argv[1]))])' "$D/al.jsonl")" \
  "[('u', 11, 12)]"
sql "ALTER SINK nope SET ('format' = 'upsert')"
refused "ALTER of a missing sink names it" "nope"

# --- 'start' ---
sql "CREATE SINK v2 FROM o INTO FILE '$D/v2.jsonl' WITH ('format' = 'upsert', 'start' = 'version 2')"
sql "RUN SINK v2"
same "'start' = 'version 2' delivers versions 2, 3, 4" "$(cat "$D/v2.jsonl")" '{"key":"1","value":{"id":1,"amount":11}}
{"key":"2","value":null}
{"key":"1","value":{"id":1,"amount":12}}'
sql "ALTER SINK v2 SET ('start' = 'version 4')"
sql "RUN SINK v2"
same "ALTER SINK SET start rewinds: version 4 again" "$(tail -n 1 "$D/v2.jsonl") $(wc -l <"$D/v2.jsonl")" \
  '{"key":"1","value":{"id":1,"amount":12}} 4'
sql "CREATE SINK la FROM o INTO FILE '$D/la.jsonl' WITH ('start' = 'latest', 'format' = 'upsert')"
sql "RUN SINK la"
same "'start' = 'latest' has nothing pending" "$OUT$(cat "$D/la.jsonl")" 'messages,skipped_changes,delivered_version
0,0,4
'
sql "CREATE SINK ea FROM o INTO FILE '$D/ea.jsonl' WITH ('start' = 'earliest', 'format' = 'upsert')"
sql "RUN SINK ea"
same "'start' = 'earliest' sends the current rows" "$(cat "$D/ea.jsonl")" '{"key":"1","value":{"id":1,"amount":12}}'
sql "SELECT DISTINCT _commit_timestamp FROM table_changes('o', 3, 3)"
TS3=$(printf '%s' "$OUT" | sed -n 2p)
sql "CREATE SINK ts FROM o INTO FILE '$D/ts.jsonl' WITH ('format' = 'upsert', 'start' = 'timestamp $TS3')"
ok "'start' = 'timestamp $TS3'"
sql "RUN SINK ts"
same "'start' = 'timestamp' of version 3 delivers versions 3 and 4" "$(cat "$D/ts.jsonl")" '{"key":"2","value":null}
{"key":"1","value":{"id":1,"amount":12}}'
sql "CREATE SINK bad FROM o INTO FILE '$D/bad.jsonl' WITH ('start' = 'version 9')"
refused "a version after the next one is refused" "Sink bad: 'start' = 'version 9' is after o's next version 5"
sql "CREATE SINK bad FROM o INTO FILE '$D/bad.jsonl' WITH ('start' = 'yesterday')"
refused "an unknown start names the accepted values" "'version N'" "'timestamp YYYY-MM-DD"
sql "CREATE TABLE late (id INT)"                                              # late version 0
sql "INSERT INTO late VALUES (1)"                                             # late version 1
sql "ALTER TABLE late SET PROPERTIES ('change_tracking' = 'true')"            # late version 2
sql "CREATE SINK bad FROM late INTO FILE '$D/bad.jsonl' WITH ('start' = 'version 1')"
refused "a version without a change feed is refused at CREATE" "Sink bad: cannot start at version 1 of late"
sql "CREATE SINK bad FROM late INTO FILE '$D/bad.jsonl' WITH ('start' = 'version 3')"
ok "the next version is a valid start"

# --- a running follower picks up ALTER SINK between passes ---
# wait_lines FILE N: waits up to 60 s for FILE to hold N lines.
wait_lines() {
  local i
  for i in $(seq 1 600); do
    [[ -f "$1" && $(wc -l <"$1") -ge $2 ]] && return 0
    sleep 0.1
  done
  return 1
}
# The follower holds the database while a pass runs: statements retry then,
# for up to 60 s (a loaded CI machine stretches each pass, and so the time
# the database is held), and a statement that never got the lock says so.
sql_retry() {
  local deadline=$((SECONDS + 60))
  while :; do
    sql "$1"
    [[ $RC != 0 && "$ERR" == *"already open for writing"* ]] || return 0
    if ((SECONDS >= deadline)); then
      echo "sql_retry: still locked after 60 s: $1: $ERR" >&2
      return 0
    fi
    sleep 0.1
  done
}
sql "CREATE TABLE fo (id INT, v INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')"
sql "CREATE SINK fol FROM fo INTO FILE '$D/fol.jsonl'"
"$BIN" sink "$DB" fol --follow --interval 0.5 >/dev/null 2>"$TMP/follow.err" &
FOLLOWER=$!
sql_retry "INSERT INTO fo VALUES (1, 1)"
wait_lines "$D/fol.jsonl" 1 || true
sql_retry "ALTER SINK fol SET ('format' = 'upsert')"
ok "ALTER SINK while a follower runs"
sql_retry "UPDATE fo SET v = 2 WHERE id = 1"
wait_lines "$D/fol.jsonl" 2 || true
kill "$FOLLOWER"
wait "$FOLLOWER" || true
same "the follower wrote the update in the altered format" "$(cat "$D/fol.jsonl")" '{"id":1,"v":1}
{"key":"1","value":{"id":1,"v":2}}'

finish
