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
