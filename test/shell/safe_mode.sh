#!/usr/bin/env bash
# What statements may reach outside the database (docs/security.md), as a
# user types it in the shell:
#   * -safe: nothing outside the database directory is read or written
#     (read_files, read_parquet, COPY TO/FROM, LOCATION, FILE and Kafka
#     sinks), `..` and symlinks that lead out are caught, the switch stays
#     off, .read is disabled;
#   * allowed_directories / allowed_paths open chosen places again;
#   * -readonly refuses COPY ... TO, CREATE SINK and RUN SINK, writing nothing;
#   * COPY TO and FILE sinks refuse a target that is a symbolic link and leave
#     what it points to untouched; a symlinked parent directory is fine.
# Usage: safe_mode.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TMP=$(cd "$TMP" && pwd -P)  # the resolved form, as messages show paths
DB=$TMP/db
OUTSIDE=$TMP/outside
mkdir -p "$OUTSIDE" "$TMP/in" "$TMP/other"

run() {
  RC=0
  "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  OUT=$(cat "$TMP/stdout")
  ERR=$(cat "$TMP/stderr")
}
ok() {  # ok NAME: the last command succeeded
  if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi
}
refused() {  # refused NAME PART...: the last command failed with every PART in stderr
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
absent() { if [[ ! -e "$2" && ! -L "$2" ]]; then pass "$1"; else fail "$1" "$2 exists"; fi; }
same() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "want: $3" "got:  $2"; fi; }

echo 'id,name' >"$TMP/in/a.csv"; echo '1,x' >>"$TMP/in/a.csv"
echo 'id,name' >"$TMP/other/b.csv"; echo '2,y' >>"$TMP/other/b.csv"
echo 'root:secret' >"$OUTSIDE/secret.txt"

run "$BIN" "$DB" -c "CREATE TABLE t (id INT, name STRING) TBLPROPERTIES ('change_tracking' = 'true');
  INSERT INTO t VALUES (1, 'a'), (2, 'b');
  COPY t TO '$OUTSIDE/t.parquet'; COPY t TO '$DB/t.parquet';
  CREATE SINK s FROM t INTO FILE '$OUTSIDE/s.jsonl'"
ok "setup: a table, parquet files inside and outside, a FILE sink"

# --- -safe ---
run "$BIN" -safe "$DB" -c "SELECT * FROM read_files('$OUTSIDE/secret.txt', format => 'csv')"
refused "-safe: read_files outside is refused" "Permission Error: read_files cannot read $OUTSIDE/secret.txt" \
  "enable_external_access = false" "allowed: the database directory $DB"
[[ "$ERR" != *root:secret* ]] && pass "-safe: the refused file's contents are not shown" || fail "contents leaked" "$ERR"
run "$BIN" -safe "$DB" -c "SELECT count(*) FROM read_parquet('$OUTSIDE/t.parquet')"
refused "-safe: read_parquet outside is refused" "read_parquet cannot read $OUTSIDE/t.parquet"
run "$BIN" -safe -csv "$DB" -c "SELECT count(*) AS n FROM read_parquet('$DB/t.parquet')"
ok "-safe: read_parquet inside the database directory works"
same "-safe: the file inside is read" "$OUT" $'n\n2'
run "$BIN" -safe "$DB" -c "COPY t TO '$OUTSIDE/new.parquet'"
refused "-safe: COPY TO outside is refused" "COPY ... TO cannot write $OUTSIDE/new.parquet"
absent "-safe: nothing was written outside" "$OUTSIDE/new.parquet"
run "$BIN" -safe "$DB" -c "COPY t FROM '$OUTSIDE/t.parquet'"
refused "-safe: COPY FROM outside is refused" "COPY ... FROM cannot read $OUTSIDE/t.parquet"
run "$BIN" -safe "$DB" -c "CREATE TABLE ext (id INT) LOCATION '$OUTSIDE/ext'"
refused "-safe: CREATE TABLE LOCATION outside is refused" "CREATE TABLE ext LOCATION cannot write"
absent "-safe: no table folder was made" "$OUTSIDE/ext"
run "$BIN" -safe "$DB" -c "CREATE SINK s2 FROM t INTO FILE '$OUTSIDE/s2.jsonl'"
refused "-safe: a FILE sink outside is refused" "Sink s2 cannot write $OUTSIDE/s2.jsonl"
absent "-safe: the sink's file was not created" "$OUTSIDE/s2.jsonl"
run "$BIN" -safe "$DB" -c "RUN SINK s"
refused "-safe: an existing FILE sink outside does not run" "Sink s cannot write $OUTSIDE/s.jsonl"
run "$BIN" -safe "$DB" -c "CREATE SINK k FROM t INTO KAFKA WITH ('bootstrap.servers' = 'localhost:1', 'topic' = 'x')"
refused "-safe: a Kafka sink is refused (network)" "Sink k cannot connect to the Kafka broker localhost:1"
run "$BIN" -safe "$DB" -c "SET enable_external_access = true"
refused "-safe: external access cannot be turned back on" "cannot be turned back on"
run "$BIN" -safe "$DB" -c "SET allowed_directories = ['/']"
refused "-safe: the allowed places cannot be widened" "allowed_directories cannot change once enable_external_access is false"
echo "SELECT 1;" >"$TMP/script.sql"
run "$BIN" -safe "$DB" -c ".read $TMP/script.sql"
refused "-safe: .read is disabled" ".read is disabled in safe mode"
run "$BIN" -safe "$DB" -c "COPY t TO '$DB/copy_inside.parquet'"
ok "-safe: COPY TO inside the database directory works"

# Escapes: '..', a symlinked file and a symlinked directory inside the database directory.
run "$BIN" -safe "$DB" -c "SELECT * FROM read_parquet('$DB/../outside/t.parquet')"
refused "-safe: '..' out of the database directory is caught" "read_parquet cannot read $DB/../outside/t.parquet ($OUTSIDE/t.parquet)"
run "$BIN" -safe "$DB" -c "COPY t TO '$DB/../outside/dotdot.parquet'"
refused "-safe: COPY TO through '..' is caught" "COPY ... TO cannot write"
absent "-safe: nothing was written through '..'" "$OUTSIDE/dotdot.parquet"
ln -s "$OUTSIDE/secret.txt" "$DB/evil.csv"
run "$BIN" -safe "$DB" -c "SELECT * FROM read_files('$DB/evil.csv', format => 'csv')"
refused "-safe: a symlink in the database directory to a file outside is caught" \
  "read_files cannot read $DB/evil.csv ($OUTSIDE/secret.txt)"
ln -s "$OUTSIDE" "$DB/evildir"
run "$BIN" -safe "$DB" -c "SELECT * FROM read_files('$DB/evildir/secret.txt', format => 'csv')"
refused "-safe: a symlinked directory leading out is caught" "($OUTSIDE/secret.txt)"
run "$BIN" -safe "$DB" -c "SELECT * FROM read_files('$DB/evildir/*.txt', format => 'csv')"
refused "-safe: a glob through a symlinked directory is caught" "read_files cannot read $DB/evildir/*.txt"
rm "$DB/evil.csv" "$DB/evildir"
run "$BIN" -safe "$DB" -c "SELECT * FROM read_files('$DB/_lakestream/', format => 'json')"
refused "-safe: the catalog folder is not readable as files" "read_files cannot read $DB/_lakestream/"

# --- allowed_directories / allowed_paths ---
run "$BIN" -csv "$DB" -c "SET allowed_directories = ['$TMP/in']; SET allowed_paths = ['$OUTSIDE/t.parquet'];
  SET enable_external_access = false;
  SELECT id FROM read_files('$TMP/in/a.csv', header => true);
  SELECT count(*) AS n FROM read_parquet('$OUTSIDE/t.parquet')"
ok "allowed_directories and allowed_paths are readable once access is off"
same "the allowed files were read" "$OUT" $'id\n1\nn\n2'
run "$BIN" "$DB" -c "SET allowed_directories = ['$TMP/in']; SET enable_external_access = false;
  SELECT * FROM read_files('$TMP/in/../other/b.csv', header => true)"
refused "'..' out of an allowed directory is caught" "read_files cannot read $TMP/in/../other/b.csv ($TMP/other/b.csv)"
run "$BIN" "$DB" -c "SET allowed_directories = ['$TMP/in']; SET enable_external_access = false;
  COPY t TO '$TMP/in/out.parquet'"
ok "COPY TO into an allowed directory works"

# --- -readonly ---
run "$BIN" -readonly "$DB" -c "COPY t TO '$OUTSIDE/ro.parquet'"
refused "-readonly: COPY TO is refused" "is open read-only; COPY ... TO needs a writable database"
absent "-readonly: COPY TO wrote nothing" "$OUTSIDE/ro.parquet"
run "$BIN" -readonly "$DB" -c "CREATE SINK s3 FROM t INTO FILE '$OUTSIDE/s3.jsonl'"
refused "-readonly: CREATE SINK is refused" "is open read-only"
absent "-readonly: CREATE SINK wrote nothing" "$OUTSIDE/s3.jsonl"
run "$BIN" "$DB" -c "INSERT INTO t VALUES (3, 'c')"
before=$(cat "$OUTSIDE/s.jsonl" 2>/dev/null || true)
run "$BIN" -readonly "$DB" -c "RUN SINK s"
refused "-readonly: RUN SINK is refused" "is open read-only"
same "-readonly: RUN SINK delivered nothing" "$(cat "$OUTSIDE/s.jsonl" 2>/dev/null || true)" "$before"

# --- symlinks at the target ---
echo "precious" >"$OUTSIDE/precious.txt"
ln -s "$OUTSIDE/precious.txt" "$TMP/link.parquet"
run "$BIN" "$DB" -c "COPY t TO '$TMP/link.parquet'"
refused "COPY TO a symlink is refused, naming the target" \
  "COPY TO $TMP/link.parquet: $TMP/link.parquet is a symbolic link to $OUTSIDE/precious.txt; COPY TO does not write through a link: name the target itself"
same "COPY TO a symlink leaves the target untouched" "$(cat "$OUTSIDE/precious.txt")" "precious"
[[ -L "$TMP/link.parquet" ]] && pass "COPY TO a symlink leaves the link" || fail "the link is gone"
ls -a "$TMP" | grep -q '\.tmp$' && fail "COPY TO left a temp file" "$(ls -a "$TMP")" || pass "COPY TO left no temp file"
ln -s "$OUTSIDE" "$TMP/outlink"
run "$BIN" -csv "$DB" -c "COPY t TO '$TMP/outlink/via_dir.parquet'; SELECT count(*) AS n FROM read_parquet('$OUTSIDE/via_dir.parquet')"
ok "COPY TO through a symlinked parent directory works"
same "the file landed where the directory link points" "$OUT" $'Count\n3\nn\n3'
ln -s "$OUTSIDE/precious.txt" "$TMP/link.jsonl"
run "$BIN" "$DB" -c "CREATE SINK s4 FROM t INTO FILE '$TMP/link.jsonl'"
refused "a FILE sink on a symlink is refused" "Sink s4: file $TMP/link.jsonl is a symbolic link to $OUTSIDE/precious.txt"
same "a FILE sink on a symlink leaves the target untouched" "$(cat "$OUTSIDE/precious.txt")" "precious"
# A sink made on a plain file whose file is later swapped for a link stops rather than follow it.
run "$BIN" "$DB" -c "CREATE SINK s5 FROM t INTO FILE '$TMP/swap.jsonl'"
ok "a FILE sink on a plain file"
rm "$TMP/swap.jsonl"; ln -s "$OUTSIDE/precious.txt" "$TMP/swap.jsonl"
run "$BIN" "$DB" -c "RUN SINK s5"
refused "a sink whose file became a symlink does not run" "is a symbolic link"
same "the swapped-in link's target is untouched" "$(cat "$OUTSIDE/precious.txt")" "precious"

run "$BIN" -help
[[ "$OUT" == *"-safe"* ]] && pass "-help lists -safe" || fail "-help lacks -safe" "$OUT"

finish
