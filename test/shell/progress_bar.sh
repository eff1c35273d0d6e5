#!/usr/bin/env bash
# The shell's progress bar (issue 18): drawn on stderr on a terminal for a
# statement that runs longer than progress_bar_time, and erased when it ends;
# never for a short statement, when stderr is not a terminal, after
# `.progress off`, or with SET enable_progress_bar = false. The terminal is
# script(1)'s pseudo-terminal. progress_bar_time is lowered to 200 ms so a
# statement of about a second shows the bar and the test stays fast.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

BAR=$'\u2595'           # the bar's left frame
ERASE=$'\r\033[2K'      # what ends a drawn bar
# Long enough (about a second or more) for a bar at 200 ms; counted, not timed.
LONG="SELECT count(*) AS n FROM range(60000000) WHERE range % 7 = 3;"
FAST="SET progress_bar_time = 200;"

# on_tty ARGS...: runs the shell with ARGS on a pseudo-terminal (stdin from
# our stdin); prints what the terminal showed.
on_tty() {
  local cmd
  cmd=$(printf '%q ' "$BIN" "$@")
  # script(1) runs the command with $SHELL; %q may quote in bash-only $'..' form.
  SHELL=/bin/bash TERM=dumb HOME="$TMP" script -qfec "$cmd" /dev/null
}

out=$(on_tty -c "$FAST $LONG" </dev/null)
if [[ "$out" == *"$BAR"* && "$out" == *"%"* && "$out" == *"$ERASE"* && "$out" == *"8571429"* ]]; then
  pass "-c on a terminal: a long query draws the bar, erases it, and prints its result"
else
  fail "-c on a terminal: a long query draws the bar" "$(printf '%q' "${out:0:400}")"
fi

out=$(on_tty -c "$FAST SELECT 42 AS answer;" </dev/null)
if [[ "$out" != *"$BAR"* && "$out" == *"42"* ]]; then
  pass "a short statement draws no bar"
else
  fail "a short statement draws no bar" "$(printf '%q' "${out:0:400}")"
fi

err=$("$BIN" -c "$FAST $LONG" 2>&1 >/dev/null)
if [[ "$err" != *"$BAR"* && -z "$err" ]]; then
  pass "stderr not a terminal: no bar"
else
  fail "stderr not a terminal: no bar" "$(printf '%q' "${err:0:400}")"
fi

out=$(on_tty -c "$FAST SET enable_progress_bar = false; $LONG" </dev/null)
if [[ "$out" != *"$BAR"* && "$out" == *"8571429"* ]]; then
  pass "SET enable_progress_bar = false: no bar"
else
  fail "SET enable_progress_bar = false: no bar" "$(printf '%q' "${out:0:400}")"
fi

out=$(on_tty -c $'.progress off\n'"$FAST $LONG" </dev/null)
if [[ "$out" != *"$BAR"* && "$out" == *"8571429"* ]]; then
  pass ".progress off: no bar"
else
  fail ".progress off: no bar" "$(printf '%q' "${out:0:400}")"
fi

# The interactive shell, typed at its prompt; a write (CREATE TABLE AS) to a
# database directory shows progress too.
out=$(printf '%s\n' "$FAST" "CREATE TABLE t AS SELECT range AS a FROM range(30000000);" \
  "SELECT count(*) AS rows_written FROM t;" ".quit" | on_tty "$TMP/db")
if [[ "$out" == *"$BAR"* && "$out" == *"30000000"* ]]; then
  pass "interactive: CREATE TABLE AS draws the bar, then the table is whole"
else
  fail "interactive: CREATE TABLE AS draws the bar" "$(printf '%q' "${out: -600}")"
fi

out=$("$BIN" -c "SELECT name, value FROM lakestream_settings() WHERE name LIKE 'progress%' OR name = 'enable_progress_bar' ORDER BY name;" 2>&1)
if [[ "$out" == *"enable_progress_bar"*"true"* && "$out" == *"progress_bar_time"*"2000"* ]]; then
  pass "lakestream_settings() lists the progress settings with their defaults"
else
  fail "lakestream_settings() lists the progress settings" "$out"
fi

out=$("$BIN" -c "SET progress_bar_time = 'soon';" 2>&1)
if [[ "$out" == *"progress_bar_time"*"milliseconds"* ]]; then
  pass "a bad progress_bar_time names the setting and what it takes"
else
  fail "a bad progress_bar_time names the setting" "$out"
fi

out=$("$BIN" -c $'.progress maybe' 2>&1)
if [[ "$out" == *"usage: .progress on|off"* ]]; then
  pass ".progress with a bad argument shows its usage"
else
  fail ".progress with a bad argument shows its usage" "$out"
fi

finish
