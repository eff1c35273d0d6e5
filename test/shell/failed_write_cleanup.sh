#!/usr/bin/env bash
# Shell tests: a statement that fails while writing (the file size limit
# stands in for a full disk: write(2) fails part way through a data file)
# leaves the table's directory holding exactly the files it held before, the
# table reads its old rows, and a CREATE TABLE AS that fails leaves no table.
# Usage: failed_write_cleanup.sh PATH/TO/lakestream
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILURES=0

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; shift; printf '  %s\n' "$@"; FAILURES=$((FAILURES + 1)); }
# run SQL with the file size limit (KiB) in force; SIGXFSZ ignored, so the
# write fails with EFBIG instead of killing the process.
limited() {
  RC=0
  (trap '' XFSZ; ulimit -f "$1"; exec "$BIN" -csv "$DB" -c "$2") >"$TMP/out" 2>"$TMP/err" </dev/null || RC=$?
  ERR=$(cat "$TMP/err")
}
sql() {
  RC=0
  "$BIN" -csv "$DB" -c "$1" >"$TMP/out" 2>"$TMP/err" </dev/null || RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
files() { (cd "$1" && find . -type f | sort); }

DB=$TMP/db
# Rows whose values do not compress much, so that a few thousand overflow the limit.
BIG="SELECT range AS k, hash(range) AS h, hash(range + 1) AS h2 FROM range(400000)"
sql "CREATE TABLE t (k BIGINT, h BIGINT, h2 BIGINT) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
     INSERT INTO t SELECT range, hash(range), 0 FROM range(10)"
[[ $RC == 0 ]] || fail "setup" "$ERR"
BEFORE=$(files "$DB/t")

for statement in "INSERT INTO t $BIG" \
                 "INSERT OVERWRITE t $BIG" \
                 "MERGE INTO t USING ($BIG) s ON t.k = s.k WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"; do
  limited 1024 "$statement"
  name=${statement:0:30}
  if [[ $RC == 1 && "$ERR" == *"IO Error"*"Cannot "*"data file"* ]]; then pass "$name... fails with the file named"; else
    fail "$name... fails with the file named" "rc $RC" "$ERR"; fi
  AFTER=$(files "$DB/t")
  if [[ "$AFTER" == "$BEFORE" ]]; then pass "$name... leaves no file behind"; else
    fail "$name... leaves no file behind" "$(diff <(echo "$BEFORE") <(echo "$AFTER") || true)"; fi
done

sql "SELECT count(*), sum(k) FROM t"
if [[ $RC == 0 && "$OUT" == *$'\n10,45'* ]]; then pass "the table reads its old rows"; else fail "the table reads its old rows" "$OUT" "$ERR"; fi

# CREATE TABLE AS: the failed statement leaves no table and no folder.
limited 1024 "CREATE TABLE big AS $BIG"
if [[ $RC == 1 && "$ERR" == *"IO Error"* ]]; then pass "CTAS fails"; else fail "CTAS fails" "rc $RC" "$ERR"; fi
sql "SELECT count(*) FROM big"
if [[ $RC == 1 && "$ERR" == *"big"* ]]; then pass "CTAS left no table"; else fail "CTAS left no table" "rc $RC" "$OUT"; fi
if [[ ! -e "$DB/big" ]] || [[ -z "$(find "$DB/big" -type f)" ]]; then pass "CTAS left no files"; else
  fail "CTAS left no files" "$(find "$DB/big" -type f)"; fi

# Without the limit, the same statements work.
sql "INSERT INTO t $BIG"
if [[ $RC == 0 ]]; then pass "the insert works with room"; else fail "the insert works with room" "$ERR"; fi

if [[ $FAILURES -gt 0 ]]; then echo "$FAILURES failed"; exit 1; fi
echo "all passed"
