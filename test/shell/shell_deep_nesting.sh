#!/usr/bin/env bash
# Shell tests for issue 14: deeply nested or very long SQL typed (or piped) at
# the shell ends with a "nested too deeply" error and exit code 1, never with
# a signal (exit code 128+N), and flat long lists still run.
# Usage: shell_deep_nesting.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# repeat S N: S written N times.
# (yes ends on SIGPIPE once head has enough: not a failure.)
repeat() { yes "$1" | head -n "$2" | tr -d '\n' || true; }

# check NAME WANT_RC STDERR_PART STDOUT_PART: runs "$@" after the four arguments.
check() {
  local name=$1 want_rc=$2 want_err=$3 want_out=$4 rc=0
  shift 4
  "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  local out err
  out=$(cat "$TMP/out")
  err=$(head -c 600 "$TMP/err")
  if [[ $rc == "$want_rc" && "$err" == *"$want_err"* && "$out" == *"$want_out"* ]]; then pass "$name"; else
    fail "$name" "want rc $want_rc, got $rc" "want stderr containing: $want_err" "stderr: $err" "stdout: ${out:0:200}"
  fi
}

PLUS=$(repeat ' + 1' 20000)
check "20,000-term sum via -c" 1 "nested too deeply" "" "$BIN" -csv -c "SELECT 1$PLUS"
# One argument may hold at most 128 KB (MAX_ARG_STRLEN): longer ones go through -f.
check "15,000-term concat via -c" 1 "nested too deeply" "" "$BIN" -csv -c "SELECT 'a'$(repeat " || 'a'" 15000)"
check "20,000 nested abs() via -c" 1 "nested too deeply" "" "$BIN" -csv -c "SELECT $(repeat 'abs(' 20000)1$(repeat ')' 20000)"
printf 'SELECT 1%s;\n' "$(repeat ' UNION ALL SELECT 1' 20000)" >"$TMP/union.sql"
check "20,000 UNION ALL via -f" 1 "nested too deeply" "" "$BIN" -csv -f "$TMP/union.sql"

# Piped on stdin: 100,000 terms are more than one command-line argument may hold.
repeat ' * 1' 100000 | { printf 'SELECT 1'; cat; printf ';\nSELECT 42 AS after;\n'; } >"$TMP/deep.sql"
check "100,000-term product via -f" 1 "nested too deeply" "" "$BIN" -csv -f "$TMP/deep.sql"
check "100,000-term product piped on stdin" 1 "nested too deeply" "" sh -c "\"$BIN\" -csv < \"$TMP/deep.sql\""

# Flat lists of the same length are ordinary generated SQL and run.
OR=$(for ((i = 0; i < 20000; i++)); do printf ' OR x = %d' $((i + 3)); done)
printf 'SELECT count(*) AS n FROM (VALUES (1), (3)) t(x) WHERE x = -1%s;\n' "$OR" >"$TMP/or.sql"
check "20,000-term OR chain runs" 0 "" $'n\n1' "$BIN" -csv -f "$TMP/or.sql"
printf 'SELECT count(*) AS n FROM (VALUES (1), (3)) t(x) WHERE x IN (%s);\n' "$(seq -s ', ' 3 20003)" >"$TMP/in.sql"
check "20,000-item IN list runs" 0 "" $'n\n1' "$BIN" -csv -f "$TMP/in.sql"

# Moderate depth works and the column is named after the expression.
check "200-term sum runs" 0 "" "200" "$BIN" -csv -c "SELECT 1$(repeat ' + 1' 199)"

finish
