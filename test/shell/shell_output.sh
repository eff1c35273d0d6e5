#!/usr/bin/env bash
# Shell tests: exact output of every mode (box, csv, json, line).
# Usage: shell_output.sh PATH/TO/lakestream
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export COLUMNS=120
FAILURES=0

# check NAME EXPECTED CMD...: runs CMD, compares stdout exactly (trailing
# newlines included) and wants exit code 0.
check() {
  local name=$1 want=$2 rc=0 got
  shift 2
  "$@" </dev/null >"$TMP/out" 2>"$TMP/err" || rc=$?
  got=$(cat "$TMP/out"; echo x); got=${got%x}
  if [[ $rc == 0 && "$got" == "$want" ]]; then echo "PASS: $name"; else
    echo "FAIL: $name (rc $rc)"
    echo "--- want"; printf '%s' "$want"; echo "--- got"; printf '%s' "$got"; echo "--- stderr"; cat "$TMP/err"
    FAILURES=$((FAILURES + 1))
  fi
}

Q="SELECT 1 AS a, 'x' AS b"

check "csv" $'a,b\n1,x\n' "$BIN" -csv -c "$Q"
check "json" $'[{"a":1,"b":"x"}]\n' "$BIN" -json -c "$Q"
check "line" $'a = 1\nb = x\n' "$BIN" -line -c "$Q"
BOX_1X="┌─────────┬─────────┐
│    a    │    b    │
│ integer │ varchar │
├─────────┼─────────┤
│       1 │ x       │
├─────────┴─────────┤
│ 1 row             │
└───────────────────┘
"
check "box (default)" "$BOX_1X" "$BIN" -c "$Q"
check "-box flag" "$BOX_1X" "$BIN" -box -c "$Q"
check ".mode box after csv" "$BOX_1X" "$BIN" -csv -c ".mode box" -c "$Q"
check "--csv spelling" $'a,b\n1,x\n' "$BIN" --csv -c "$Q"

check "csv quoting and NULL" $'s,n\n"a,b",\n"say ""hi""",2\n' \
  "$BIN" -csv -c "SELECT 'a,b' AS s, CAST(NULL AS INT) AS n UNION ALL SELECT 'say \"hi\"', 2"
check "json null, decimal and bool" $'[{"n":null,"d":1.50,"t":true}]\n' \
  "$BIN" -json -c "SELECT CAST(NULL AS INT) AS n, CAST(1.5 AS DECIMAL(4,2)) AS d, true AS t"
check "line between rows" $'a = 1\n\na = 2\n' "$BIN" -line -c "SELECT 1 AS a UNION ALL SELECT 2"
check "box NULL" "┌─────────┐
│    n    │
│ integer │
├─────────┤
│    NULL │
├─────────┤
│ 1 row   │
└─────────┘
" "$BIN" -c "SELECT CAST(NULL AS INT) AS n"

if [[ $FAILURES -gt 0 ]]; then echo "$FAILURES failed"; exit 1; fi
echo "all passed"
