#!/usr/bin/env bash
# Shell tests: object names are never paths (docs/names.md). Each case runs
# statements against a database at $TMP/home/db, with sentinel files in the
# parent directory ($TMP/home) and in a sibling directory, and checks that
# every file around the database is still there, unchanged, afterwards.
# Usage: names_paths.sh PATH/TO/lakestream
set -uo pipefail
source "$(dirname "$0")/lib.sh"
export COLUMNS=120
HOME_DIR=$TMP/home
DB=$HOME_DIR/db

# sql SQL...: runs the statements in the database; sets OUT, ERR, RC.
sql() {
  RC=0
  "$BIN" -csv "$DB" -c "$1" >"$TMP/out" 2>"$TMP/err" || RC=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}
expect_ok() { if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi; }
expect_out() { if [[ $RC == 0 && "$OUT" == "$2" ]]; then pass "$1"; else fail "$1" "rc $RC" "want: $2" "got: $OUT" "stderr: $ERR"; fi; }
expect_err() { if [[ $RC != 0 && "$ERR" == *"$2"* ]]; then pass "$1"; else fail "$1" "rc $RC" "want stderr containing: $2" "got: $ERR"; fi; }
exists() { if [[ -e "$2" ]]; then pass "$1"; else fail "$1" "missing: $2"; fi; }
absent() { if [[ ! -e "$2" && ! -L "$2" ]]; then pass "$1"; else fail "$1" "still there: $2"; fi; }

# Every file and directory around the database (not inside it), with contents.
surroundings() { (cd "$HOME_DIR" && find . -path ./db -prune -o -print | sort | while read -r f; do
  if [[ -f "$f" ]]; then echo "$f $(md5sum <"$f" | cut -c1-32)"; else echo "$f"; fi; done); }
# fresh: a new empty database with sentinels around it.
fresh() {
  chmod -R u+w "$HOME_DIR" 2>/dev/null; rm -rf "$HOME_DIR"
  mkdir -p "$HOME_DIR/sibling/deep" "$DB"
  echo "parent sentinel" >"$HOME_DIR/sentinel.txt"
  echo "sibling sentinel" >"$HOME_DIR/sibling/keep.txt"
  echo "deep sentinel" >"$HOME_DIR/sibling/deep/keep.txt"
  BEFORE=$(surroundings)
}
surroundings_kept() {
  local now; now=$(surroundings)
  if [[ "$now" == "$BEFORE" ]]; then pass "$1: every file around the database kept"; else
    fail "$1: files around the database changed" "before: $BEFORE" "after: $now"; fi
}

# --- the reported findings ---
fresh
sql 'CREATE TABLE ".." (a INT); INSERT INTO ".." VALUES (1)'
expect_ok 'CREATE TABLE ".."'
exists '".." lives in an escaped folder inside the database' "$DB/%2E./_delta_log"
sql 'SELECT a FROM ".."'
expect_out 'SELECT from ".."' $'a\n1'
sql 'DROP TABLE ".."'
expect_ok 'DROP TABLE ".."'
absent 'DROP TABLE ".." removed its folder' "$DB/%2E."
exists 'DROP TABLE ".." kept the database' "$DB/_lakestream"
surroundings_kept 'DROP TABLE ".."'

fresh
sql 'CREATE TABLE keep (a INT); INSERT INTO keep VALUES (7); CREATE TABLE "." (a INT)'
expect_ok 'CREATE TABLE "."'
sql 'DROP TABLE "."'
expect_ok 'DROP TABLE "."'
sql 'SELECT a FROM keep'
expect_out 'DROP TABLE "." keeps the other tables' $'a\n7'
sql 'SHOW TABLES'
expect_out 'DROP TABLE "." keeps the catalog' $'name\nkeep'
surroundings_kept 'DROP TABLE "."'

fresh
sql 'CREATE TABLE a (x INT); CREATE TABLE "a/b" (y INT); INSERT INTO "a/b" VALUES (2)'
expect_ok 'CREATE TABLE a and "a/b"'
exists '"a/b" is a sibling folder, not inside a' "$DB/a%2Fb/_delta_log"
sql 'DROP TABLE a'
sql 'SELECT y FROM "a/b"'
expect_out 'DROP TABLE a keeps "a/b"' $'y\n2'
surroundings_kept 'DROP TABLE a'

# --- other names ---
fresh
# An absolute name points into this test's own directory: an engine that took
# it for a path would damage only the sandbox (and the test would see it).
for name in '../sibling' '../../x' "$HOME_DIR/sibling" 'a\b' '%2E%2E' '_lakestream' '_LAKESTREAM' '.hidden' 'x:y' 'caf é' "it's"; do
  quoted=${name//\"/\"\"}
  sql "CREATE TABLE \"$quoted\" (v INT); INSERT INTO \"$quoted\" VALUES (3)"
  expect_ok "CREATE TABLE \"$name\""
  # Read and drop from a new process: the location comes back from the catalog.
  sql "SELECT v FROM \"$quoted\"; DROP TABLE \"$quoted\""
  expect_out "read and DROP TABLE \"$name\"" $'v\n3'

done
exists '_lakestream survives tables named like it' "$DB/_lakestream"
sql 'SHOW TABLES'
expect_out 'no table left behind' 'name'
if [[ -z "$(ls -A "$DB" | grep -v '^_lakestream$')" ]]; then pass "no folder left behind"; else fail "no folder left behind" "$(ls -A "$DB")"; fi
surroundings_kept 'odd names'

sql "CREATE TABLE \"$(printf 'a\tb')\" (v INT)"
expect_err 'a control character is refused' 'control character %09'
sql "CREATE TABLE \"$(printf 'x%.0s' {1..256})\" (v INT)"
expect_err 'a name whose folder exceeds 255 bytes is refused' 'the limit is 255'
sql "CREATE TABLE \"$(printf '/%.0s' {1..86})\" (v INT)"
expect_err 'escaping counts toward the limit' 'folder name would be 258 bytes'
sql "CREATE TABLE \"$(printf 'x%.0s' {1..255})\" (v INT)"
expect_ok 'a 255-byte folder name is accepted'
sql "CREATE TABLE \"\" (v INT)"
expect_err 'an empty name is refused' ''

# --- folders the table does not own ---
fresh
ln -s ../sibling "$DB/evil"
sql 'CREATE TABLE evil (v INT)'
expect_err 'a symlink where the folder would go is refused' 'symbolic link'
exists 'the symlink is left alone' "$DB/evil"
absent 'nothing was written through the symlink' "$HOME_DIR/sibling/_delta_log"
mkdir "$DB/docs"; echo mine >"$DB/docs/notes.txt"
sql 'CREATE TABLE docs (v INT)'
expect_err 'a folder holding files of no table is refused' 'holds files that belong to no table'
exists 'the foreign folder keeps its files' "$DB/docs/notes.txt"
sql 'CREATE TABLE t (v INT); INSERT INTO t VALUES (1)'
rm -rf "$DB/t"; ln -s ../sibling "$DB/t"
sql 'DROP TABLE t'
expect_err 'DROP through a symlinked folder leaves the files' 'symbolic link'
exists 'the symlink target keeps its files' "$HOME_DIR/sibling/keep.txt"
surroundings_kept 'symlinks'

# A folder left by a CREATE that crashed before its catalog entry (a log with
# only version 0) is replaced; one holding anything more is not a leftover.
"$BIN" "$TMP/other" -c 'CREATE TABLE lo (a INT)' >/dev/null 2>&1
cp -r "$TMP/other/lo" "$DB/lo"
sql 'CREATE TABLE lo (b INT); SELECT * FROM lo'
expect_out 'a creation leftover is replaced' 'b'
cp -r "$TMP/other/lo" "$DB/lo2"; echo mine >"$DB/lo2/notes.txt"
sql 'CREATE TABLE lo2 (b INT)'
expect_err 'a leftover log beside other files is refused' 'A Delta table already exists at'
exists 'the files beside the leftover log are kept' "$DB/lo2/notes.txt"
cp -r "$TMP/other/lo" "$HOME_DIR/sibling/lo3"; ln -s ../sibling/lo3 "$DB/lo3"
BEFORE=$(surroundings)
sql 'CREATE TABLE lo3 (b INT)'
expect_err 'a symlink to a leftover-looking table is refused' 'symbolic link'
exists 'the leftover-looking table behind the symlink is kept' "$HOME_DIR/sibling/lo3/_delta_log/00000000000000000000.json"
surroundings_kept 'leftovers'

# A table inside another table's folder is refused (VACUUM of one would
# delete the other's files), and so is LOCATION inside the catalog's folder;
# an attached table elsewhere in the database keeps its files at DROP.
fresh
sql 'CREATE TABLE host (v INT)'
sql "CREATE TABLE guest (g INT) LOCATION '$DB/host/guest'"
expect_err 'LOCATION inside a managed table folder is refused' 'two tables never share files'
sql "CREATE TABLE guest (g INT) LOCATION '$DB/ext/guest'; INSERT INTO guest VALUES (4)"
expect_ok 'attach a table in a folder of its own'
sql 'DROP TABLE host'
expect_ok 'DROP of the host table'
sql 'SELECT g FROM guest'
expect_out 'the attached table still reads' $'g\n4'
sql "CREATE TABLE cat (c INT) LOCATION '$DB/_lakestream/cat'"
expect_err 'LOCATION inside _lakestream is refused' 'holds the database'"'"'s catalog'
sql 'DROP TABLE guest'
exists 'DROP of an attached table keeps its files' "$DB/ext/guest/_delta_log"
surroundings_kept 'attached tables'

# A materialized view: its folder and its aggregate state, through a symlinked state folder.
fresh
sql 'CREATE TABLE o (k INT, v INT) TBLPROPERTIES (change_tracking = true); INSERT INTO o VALUES (1, 1), (1, 2)
     ; CREATE MATERIALIZED VIEW ".." AS SELECT k, SUM(v) AS s FROM o GROUP BY k
     ; INSERT INTO o VALUES (2, 5)'
expect_ok 'CREATE MATERIALIZED VIEW ".."'
sql 'SELECT k, s FROM ".." ORDER BY k'
expect_out 'the view ".." reads' $'k,s\n1,3\n2,5'
sql 'DROP MATERIALIZED VIEW ".."'
expect_ok 'DROP MATERIALIZED VIEW ".."'
absent 'its folder is gone' "$DB/%2E."
sql 'SELECT COUNT(*) AS n FROM o'
expect_out 'its source stays' $'n\n3'
surroundings_kept 'materialized view ".."'

# --- ALTER TABLE ... RENAME ---
fresh
sql 'CREATE TABLE t (v INT); INSERT INTO t VALUES (1); ALTER TABLE t RENAME TO "t/2"'
expect_ok 'RENAME t TO "t/2"'
absent 'the old folder moved away' "$DB/t"
exists 'the folder moved to the new name' "$DB/t%2F2/_delta_log"
sql 'CREATE TABLE t (w INT) TBLPROPERTIES (change_tracking = true)'
expect_ok 'a new t can be created after the rename'
sql 'INSERT INTO t VALUES (9)'
sql 'SELECT v FROM "t/2"'
expect_out 'the renamed table reads' $'v\n1'
sql 'SELECT w FROM t'
expect_out 'the new t is its own table' $'w\n9'
sql 'CREATE STREAM s ON TABLE t; ALTER TABLE t RENAME TO u'
expect_err 'RENAME refuses when a stream reads the table' 'stream s read'
sql 'SELECT w FROM t'
expect_out 'the refused rename left t alone' $'w\n9'
mkdir "$DB/busy"
sql 'ALTER TABLE "t/2" RENAME TO busy'
expect_err 'RENAME refuses a foreign folder under the new name' 'already exists and belongs to no table'
surroundings_kept 'rename'

finish
