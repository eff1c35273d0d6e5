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

BIG="SELECT range AS k, hash(range) AS h FROM range(300000)"
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
  limited 512 "$statement"
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
sql "SELECT v FROM '$OUTDIR/copy.parquet'"
[[ $RC == 0 && "$OUT" == *$'\nold'* ]] && pass "the COPY target keeps its old contents" || fail "the COPY target keeps its old contents" "$OUT" "$ERR"
sql "SELECT count(*) FROM big"
[[ $RC == 1 && "$ERR" == *big* ]] && pass "the failed CREATE TABLE AS left no table" || fail "the failed CREATE TABLE AS left no table" "$OUT"
[[ ! -e "$OUTDIR/new.parquet" ]] && pass "the failed COPY to a new file left no file" || fail "the failed COPY to a new file left no file"

# Tiny limits fail at other steps (the commit file, the catalog): whatever
# the step, a statement either commits whole or fails with the file named,
# leaving no temporary file, and the table reads whole.
expected=10
for kib in 1 2 4 8; do
  BEFORE=$(state)
  limited $kib "INSERT INTO t VALUES (100, 1), (101, 2)"
  if [[ $RC == 0 ]]; then
    expected=$((expected + 2))
  elif [[ $RC == 1 && "$ERR" == *"file too large / disk quota: "* ]]; then
    [[ "$(state)" == "$BEFORE" ]] && pass "ulimit -f $kib: the failed INSERT changed no file" ||
      fail "ulimit -f $kib: the failed INSERT changed no file" "$(diff <(echo "$BEFORE") <(state))"
  else
    fail "ulimit -f $kib: INSERT commits or fails with the file named" "rc $RC" "$ERR"
  fi
  sql "SELECT count(*) FROM t"
  [[ $RC == 0 && "$OUT" == *$'\n'"$expected" ]] && pass "ulimit -f $kib: the table reads whole" ||
    fail "ulimit -f $kib: the table reads whole ($expected rows)" "$OUT" "$ERR"
  limited $kib "CREATE TABLE small_$kib AS SELECT range AS x FROM range(3)"
  created=$RC
  [[ $RC == 0 || ( $RC == 1 && "$ERR" == *"file too large / disk quota: "* ) ]] &&
    pass "ulimit -f $kib: CREATE TABLE AS commits or fails with the file named" ||
    fail "ulimit -f $kib: CREATE TABLE AS commits or fails with the file named" "rc $RC" "$ERR"
  sql "SELECT count(*) FROM small_$kib"
  if [[ $created == 0 ]]; then
    [[ $RC == 0 && "$OUT" == *$'\n3' ]] && pass "ulimit -f $kib: the new table has its rows" || fail "ulimit -f $kib: the new table has its rows" "$OUT" "$ERR"
  else
    [[ $RC == 1 ]] && pass "ulimit -f $kib: the failed CREATE TABLE AS left no table" ||
      fail "ulimit -f $kib: the failed CREATE TABLE AS left no table" "$OUT"
  fi
  leftovers=$(temp_files)
  [[ -z "$leftovers" ]] && pass "ulimit -f $kib: no temporary file is left" || fail "ulimit -f $kib: no temporary file is left" "$leftovers"
done
finish
