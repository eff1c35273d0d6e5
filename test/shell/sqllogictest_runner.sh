#!/usr/bin/env bash
# Self-test of the sqllogictest runner on test/sqllogictest/selftest/*.test:
# passing records pass, failing ones are reported with file:line and exit 1.
# Usage: sqllogictest_runner.sh PATH/TO/lakestream  (run from the repo root)
# The runner binary is found next to the shell, in the build's test/ folder.
set -euo pipefail
BIN=${1:?usage: $0 PATH/TO/lakestream}
RUNNER=${LAKESTREAM_SQLLOGICTEST:-$(dirname "$BIN")/test/lakestream_sqllogictest}
DIR=test/sqllogictest/selftest
if [[ ! -x "$RUNNER" ]]; then echo "FAIL: runner not found at $RUNNER (set LAKESTREAM_SQLLOGICTEST)"; exit 1; fi
FAILURES=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; FAILURES=$((FAILURES + 1)); }

rc=0; out=$("$RUNNER" "$DIR/pass.test" 2>&1) || rc=$?
if [[ $rc == 0 && "$out" == "$DIR/pass.test: 8 queries, 5 statements, 0 failed, 2 skipped" ]]; then pass "pass.test passes"
else fail "pass.test passes (rc $rc)"; echo "$out"; fi

rc=0; out=$("$RUNNER" "$DIR/fail.test" 2>&1) || rc=$?
if [[ $rc == 1 ]]; then pass "fail.test exits 1"; else fail "fail.test exits 1 (rc $rc)"; fi
for want in \
  "$DIR/fail.test:5: wrong result" \
  "$DIR/fail.test:10: statement failed but should succeed" \
  "$DIR/fail.test:13: statement succeeded but should fail" \
  "$DIR/fail.test:16: wrong error message" \
  "$DIR/fail.test:19: query has 1 columns but the record says 2" \
  "$DIR/fail.test:26 (i=0): wrong result" \
  "$DIR/fail.test:26 (i=1): wrong result" \
  "$DIR/fail.test: 4 queries, 3 statements, 7 failed"; do
  if [[ "$out" == *"$want"* ]]; then pass "reports: $want"; else fail "reports: $want"; fi
done
if [[ "$out" == *$'---- expected (1 row) ----\n! 2\n---- actual (1 row) ----\n! 1'* ]]; then pass "diff shows both sides"
else fail "diff shows both sides"; echo "$out"; fi

rc=0; out=$("$RUNNER" "$DIR/require.test" 2>&1) || rc=$?
if [[ $rc == 0 && "$out" == *"skipped (require no_such_feature)"* ]]; then pass "require skips the file"
else fail "require skips the file (rc $rc)"; fi

rc=0; out=$("$RUNNER" 2>&1) || rc=$?
if [[ $rc == 2 ]]; then pass "no arguments exits 2"; else fail "no arguments exits 2 (rc $rc)"; fi

if [[ $FAILURES -gt 0 ]]; then echo "$FAILURES failed"; exit 1; fi
echo "all passed"
