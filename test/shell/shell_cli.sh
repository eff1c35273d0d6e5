#!/usr/bin/env bash
# Shell tests: command line, input sources (-c, -f, stdin, SQL argument),
# exit codes and where errors go. Usage: shell_cli.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export COLUMNS=120

# run [CMD...]: runs with stdin from $IN (empty by default); sets OUT, ERR, RC.
# The x sentinel keeps trailing newlines, so comparisons are exact.
run() {
  RC=0
  printf '%s' "${IN:-}" | "$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
  OUT=$(cat "$TMP/out"; echo x); OUT=${OUT%x}
  ERR=$(cat "$TMP/err"; echo x); ERR=${ERR%x}
  IN=
}
# expect NAME WANT_RC WANT_STDOUT
expect() {
  if [[ "$RC" == "$2" && "$OUT" == "$3" ]]; then pass "$1"; else
    fail "$1" "want rc $2, got $RC" "want stdout: $(printf '%q' "$3")" "got stdout:  $(printf '%q' "$OUT")" \
      "stderr: $(printf '%q' "$ERR")"
  fi
}
# expect_err NAME WANT_RC STDERR_PART: stdout is not checked.
expect_err() {
  if [[ "$RC" == "$2" && "$ERR" == *"$3"* ]]; then pass "$1"; else
    fail "$1" "want rc $2, got $RC" "want stderr containing: $3" "got stderr: $(printf '%q' "$ERR")"
  fi
}

# --- needs no engine ---
run "$BIN" --version
if [[ $RC == 0 && "$OUT" =~ ^lakestream\ [0-9]+\.[0-9]+\.[0-9]+ ]]; then pass "--version"; else fail "--version" "rc $RC, out $OUT"; fi
run "$BIN" -version
if [[ $RC == 0 && "$OUT" == lakestream* ]]; then pass "-version"; else fail "-version" "rc $RC"; fi
run "$BIN" --help
if [[ $RC == 0 && "$OUT" == Usage:* && "$OUT" == *"-csv"* ]]; then pass "--help"; else fail "--help" "rc $RC"; fi
run "$BIN" --no-such-option
expect_err "unknown option exits 2" 2 "unknown option --no-such-option"
run "$BIN" -threads 0 -c "SELECT 1"
expect_err "-threads out of range exits 2" 2 "-threads 0: expected a whole number of threads from 1 to 1024"
run "$BIN" -threads
expect_err "-threads without a value exits 2" 2 "needs a number of threads"
run "$BIN" -csv -threads 3 -c "SELECT value FROM lakestream_settings() WHERE name = 'threads'"
expect "-threads 3 sets the threads setting" 0 $'value\n3\n'
run "$BIN" -c
expect_err "-c without SQL exits 2" 2 "-c needs"
run "$BIN" run pipeline.sql
expect_err "run names a missing pipeline file" 1 "lakestream run: cannot read pipeline.sql; check the path"
run "$BIN" sink
expect_err "sink without arguments prints its usage" 2 "usage: lakestream sink DB_DIR NAME"
run "$BIN" -c ".nonsense"
expect_err "unknown dot command" 1 '.help'
run "$BIN" -c ".mode html"
expect_err "unknown mode" 1 'unknown mode'
run "$BIN" -f "$TMP/does-not-exist.sql"
expect_err "-f missing file" 1 "cannot open"
run "$BIN" -c ".help"
if [[ $RC == 0 && "$OUT" == *".tables"* && "$OUT" == *".timer on|off"* ]]; then pass ".help"; else fail ".help" "rc $RC"; fi

# --- needs the engine ---
run "$BIN" -csv -c "SELECT 1 AS a; SELECT 2 AS a, 3 AS b"
expect "-c with several statements" 0 $'a\n1\na,b\n2,3\n'

run "$BIN" -csv "" "SELECT 1 AS a"
expect "SQL as second argument" 0 $'a\n1\n'

printf 'SELECT 1 AS a;\n\n-- a comment\nSELECT\n  2 AS a\n;\n' >"$TMP/script.sql"
run "$BIN" -csv -f "$TMP/script.sql"
expect "-f runs every statement, multi-line" 0 $'a\n1\na\n2\n'

IN=$'SELECT 1 AS a;\nSELECT 2 AS b;\n'
run "$BIN" -csv
expect "SQL on stdin" 0 $'a\n1\nb\n2\n'

IN=$'.mode json\nSELECT 1 AS a;\n.mode line\nSELECT 2 AS a;\n'
run "$BIN"
expect "dot commands on stdin" 0 $'[{"a":1}]\na = 2\n'

IN=$'SELECT 1 AS a'
run "$BIN" -csv
expect "last statement without semicolon runs" 0 $'a\n1\n'

IN=$'CREATE TABLE t (i INT);\nSELECT i FROM t;\n'
run "$BIN" -csv
expect "CREATE prints nothing, empty SELECT prints its header" 0 $'i\n'

run "$BIN" -csv -c "SELECT 1 AS a; SELECT * FROM no_such_table; SELECT 2 AS a"
expect "-c stops at the first error" 1 $'a\n1\n'
expect_err "-c error goes to stderr" 1 "no_such_table"

IN=$'SELECT 1 AS a;\nSELECT * FROM no_such_table;\nSELECT 2 AS a;\n'
run "$BIN" -csv
expect "stdin stops at the first error" 1 $'a\n1\n'
expect_err "stdin error names the table" 1 "no_such_table"

printf 'SELECT 1 AS a;\nSELEC oops;\nSELECT 2 AS a;\n' >"$TMP/bad.sql"
run "$BIN" -csv -f "$TMP/bad.sql"
expect "-f stops at a syntax error" 1 $'a\n1\n'
expect_err "syntax error on stderr" 1 "syntax error"

printf 'SELECT 7 AS r;\n' >"$TMP/inner.sql"
run "$BIN" -csv -c ".read $TMP/inner.sql"
expect ".read" 0 $'r\n7\n'

IN=$'.timer on\nSELECT 1 AS a;\n'
run "$BIN" -csv
if [[ $RC == 0 && "$OUT" =~ ^a$'\n'1$'\n'Run\ Time:\ [0-9]+\.[0-9]{3}\ s$'\n'$ ]]; then pass ".timer on"; else
  fail ".timer on" "rc $RC, out $(printf '%q' "$OUT")"; fi

IN=$'SELECT 1 AS a;\n.quit\nSELECT 2 AS a;\n'
run "$BIN" -csv
expect ".quit stops reading" 0 $'a\n1\n'

finish
