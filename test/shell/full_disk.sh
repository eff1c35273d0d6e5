#!/usr/bin/env bash
# A full disk as the file size limit makes it (ulimit -f), with SIGXFSZ left
# at its default action (which ends the process): the shell and the library
# ignore the signal, so each write fails with EFBIG and the statement reports
# "file too large / disk quota: <file>", removes what it wrote, commits
# nothing, and the table (or the COPY target) keeps its old contents.
# failed_write_cleanup.sh checks more statements with the signal ignored by
# the test itself; this one checks that nobody needs to.
# Usage: full_disk.sh PATH/TO/lakestream
set -uo pipefail
source "$(dirname "$0")/lib.sh"

DB=$TMP/db
OUTDIR=$TMP/out
mkdir -p "$OUTDIR"
sql() {
  RC=0
  "$BIN" -csv "$DB" -c "$1" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  OUT=$(cat "$TMP/stdout")
  ERR=$(cat "$TMP/stderr")
}
# limited KIB SQL: SQL under `ulimit -f KIB`, SIGXFSZ at its default action.
limited() {
  RC=0
  env --default-signal=XFSZ bash -c 'ulimit -f "$1"; exec "$2" -csv "$3" -c "$4"' limited "$1" "$BIN" "$DB" "$2" \
    >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  ERR=$(cat "$TMP/stderr")
}
# Every file of table t and of the COPY folder, with its checksum.
state() { (cd "$TMP" && find db/t out -type f -print0 | sort -z | xargs -0 -r md5sum); }
temp_files() { find "$DB" "$OUTDIR" -name '.*.tmp' -o -name '*.tmp' | sort; }

BIG="SELECT range AS k, hash(range) AS h FROM range(100000)"
sql "CREATE TABLE t (k BIGINT, h BIGINT) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
     INSERT INTO t SELECT range, hash(range) FROM range(10);
     COPY (SELECT 'old' AS v) TO '$OUTDIR/copy.parquet'"
[[ $RC == 0 ]] || fail "setup" "$ERR"

for statement in "INSERT INTO t $BIG" \
                 "COPY ($BIG) TO '$OUTDIR/copy.parquet'" \
                 "COPY ($BIG) TO '$OUTDIR/new.parquet'" \
                 "CREATE TABLE big AS $BIG"; do
  name=${statement:0:40}
  BEFORE=$(state)
  limited 256 "$statement"
  if [[ $RC == 1 && "$ERR" == *"IO Error"*"file too large / disk quota: $TMP/"* ]]; then
    pass "$name...: fails with the file named"
  else
    fail "$name...: fails with the file named (rc 153 is death by SIGXFSZ)" "rc $RC" "$ERR"
  fi
  leftovers=$(temp_files)
  [[ -z "$leftovers" ]] && pass "$name...: no temporary file is left" || fail "$name...: no temporary file is left" "$leftovers"
  AFTER=$(state)
  [[ "$AFTER" == "$BEFORE" ]] && pass "$name...: no file changed" ||
    fail "$name...: no file changed" "$(diff <(echo "$BEFORE") <(echo "$AFTER"))"
done

# Without the limit, everything reads as before.
sql "SELECT count(*), sum(k) FROM t"
[[ $RC == 0 && "$OUT" == *$'\n10,45'* ]] && pass "the table reads its old rows" || fail "the table reads its old rows" "$OUT" "$ERR"
sql "SELECT v FROM read_parquet('$OUTDIR/copy.parquet')"
[[ $RC == 0 && "$OUT" == *$'\nold'* ]] && pass "the COPY target keeps its old contents" || fail "the COPY target keeps its old contents" "$OUT" "$ERR"
sql "SELECT count(*) FROM big"
[[ $RC == 1 && "$ERR" == *big* ]] && pass "the failed CREATE TABLE AS left no table" || fail "the failed CREATE TABLE AS left no table" "$OUT"
[[ ! -e "$OUTDIR/new.parquet" ]] && pass "the failed COPY to a new file left no file" || fail "the failed COPY to a new file left no file"

# A tiny limit fails at another step: the Delta commit, written to a
# temporary file and linked into place. The temporary file goes, and the
# table never appears (with room, the same statement then succeeds).
LONG=$(printf 'x%.0s' {1..3000})
for statement in "CREATE TABLE c1 COMMENT '$LONG' AS SELECT 1 AS x" "CREATE TABLE c2 (x INT) TBLPROPERTIES ('note' = '$LONG')"; do
  name=${statement:0:18}
  limited 2 "$statement"
  [[ $RC == 1 && "$ERR" == *"_delta_log/"*"file too large / disk quota: "* ]] && pass "$name...: the commit fails with the file named" ||
    fail "$name...: the commit fails with the file named" "rc $RC" "$ERR"
  leftovers=$(temp_files)
  [[ -z "$leftovers" ]] && pass "$name...: no temporary file is left" || fail "$name...: no temporary file is left" "$leftovers"
  table=${statement:13:2}
  left=$(find "$DB/$table" -type f 2>/dev/null)
  [[ -z "$left" ]] && pass "$name...: no file is left" || fail "$name...: no file is left" "$left"
  sql "$statement; SELECT count(*) AS n FROM $table"
  [[ $RC == 0 && "$OUT" == $'n\n'[01] ]] && pass "$name...: with room it succeeds" || fail "$name...: with room it succeeds" "$OUT" "$ERR"
done
finish
