#!/usr/bin/env bash
# Plain views typed as a user types them, one shell process per step: a view
# created in one process is read by the next (it is stored in the catalog), a
# TEMP view is not, a view whose table was dropped names the view and the
# table and the process exits non-zero without a signal, and UPDATE ... FROM
# through the shell commits. Usage: plain_views.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"

run() {
  RC=0
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || RC=$?
  OUT=$(cat "$TMP/out"; echo x); OUT=${OUT%x}
  ERR=$(cat "$TMP/err"; echo x); ERR=${ERR%x}
}
sql() { run "$BIN" -csv "$1" -c "$2"; }
check() {
  local name=$1; shift
  if eval "$@"; then pass "$name"; else
    fail "$name" "condition: $*" "rc $RC" "stdout: $(printf '%q' "$OUT")" "stderr: $(printf '%q' "$ERR")"
  fi
}

DB=$TMP/db
sql "$DB" "CREATE TABLE t (a INT, b STRING); INSERT INTO t VALUES (1, 'x'), (2, 'y');
           CREATE VIEW v (n) AS SELECT a * 10 FROM t; CREATE TEMP VIEW tv AS SELECT a FROM t"
check "create" '[[ $RC -eq 0 ]]'

sql "$DB" "SELECT n FROM v ORDER BY n"
check "view read by the next process" '[[ $RC -eq 0 && "$OUT" == $'"'"'n\n10\n20\n'"'"' ]]'

sql "$DB" "SELECT * FROM tv"
check "temp view gone with its process" '[[ $RC -ne 0 && $RC -lt 128 && "$ERR" == *"Table with name tv does not exist"* ]]'

sql "$DB" "CREATE TABLE s (a INT, b STRING); INSERT INTO s VALUES (2, 'z'); UPDATE t SET b = s.b FROM s WHERE t.a = s.a"
sql "$DB" "SELECT a, b FROM t ORDER BY a"
check "update from" '[[ $RC -eq 0 && "$OUT" == $'"'"'a,b\n1,x\n2,z\n'"'"' ]]'

sql "$DB" "DROP TABLE t"
sql "$DB" "SELECT * FROM v"
check "dropped table named with the view" '[[ $RC -ne 0 && $RC -lt 128 && "$ERR" == *"View v cannot be read"* && "$ERR" == *"Table with name t does not exist"* ]]'

sql "$DB" "DROP VIEW v; SHOW VIEWS"
check "drop view" '[[ $RC -eq 0 && "$OUT" == $'"'"'name,kind,definition\n'"'"' ]]'

finish
