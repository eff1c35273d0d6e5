# Shared by the shell tests (source it first): the binary under test from
# the first argument, a scratch directory removed at exit (made writable
# first: some tests take write permission away), and the PASS/FAIL report.
# A test ends with `finish`, which prints the count and sets the exit code.
BIN=${1:?usage: $0 PATH/TO/lakestream}
TMP=$(mktemp -d)
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
FAILURES=0
PASSES=0
pass() { echo "PASS: $1"; PASSES=$((PASSES + 1)); }
# fail NAME DETAIL...: each detail on its own indented line.
fail() { echo "FAIL: $1"; shift; printf '  %s\n' "$@"; FAILURES=$((FAILURES + 1)); }
finish() {
  echo "$PASSES passed, $FAILURES failed"
  [[ $FAILURES -eq 0 ]]
}
# run CMD...: runs it with stdin closed; its exit code in RC, its stdout
# and stderr (trailing newlines kept) in OUT and ERR.
run() {
  RC=0
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || RC=$?
  OUT=$(cat "$TMP/out"; echo x); OUT=${OUT%x}
  ERR=$(cat "$TMP/err"; echo x); ERR=${ERR%x}
}
# expect NAME WANT_RC WANT_STDOUT: the last run exited WANT_RC and printed exactly WANT_STDOUT.
expect() {
  if [[ "$RC" == "$2" && "$OUT" == "$3" ]]; then pass "$1"; else
    fail "$1" "want rc $2, got $RC" "want stdout: $(printf '%q' "$3")" "got stdout:  $(printf '%q' "$OUT")" \
      "stderr: $(printf '%q' "$ERR")"
  fi
}
# expect_err NAME WANT_RC PART...: the last run exited WANT_RC and its stderr contains every PART.
expect_err() {
  local name=$1 rc=$2 ok=1; shift 2
  [[ "$RC" == "$rc" ]] || ok=0
  for part in "$@"; do [[ "$ERR" == *"$part"* ]] || ok=0; done
  if [[ $ok == 1 ]]; then pass "$name"; else
    fail "$name" "want rc $rc, got $RC" "want stderr containing: $*" "got stderr: $(printf '%q' "$ERR")"
  fi
}
# For tests of one database directory $DB, in CSV mode:
# run_sql SQL: runs `$BIN $DB -csv -c SQL`; RC, OUT and ERR as run sets them
# but with trailing newlines trimmed.
run_sql() {
  RC=0
  "$BIN" "$DB" -csv -c "$1" </dev/null >"$TMP/out" 2>"$TMP/err" || RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
# expect_sql NAME SQL WANT_STDOUT: SQL exits 0 and prints exactly WANT_STDOUT.
expect_sql() {
  run_sql "$2"
  if [[ $RC == 0 && "$OUT" == "$3" ]]; then pass "$1"; else
    fail "$1" "want rc 0 and: $(printf '%q' "$3")" "got rc $RC: $(printf '%q' "$OUT")" "stderr: $ERR"
  fi
}
# refused_sql NAME SQL STDERR_PART: SQL exits 1 and its error contains STDERR_PART.
refused_sql() {
  run_sql "$2"
  if [[ $RC == 1 && "$ERR" == *"$3"* ]]; then pass "$1"; else
    fail "$1" "want rc 1 and stderr containing: $3" "got rc $RC, stderr: $ERR"
  fi
}
