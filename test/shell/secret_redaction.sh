#!/usr/bin/env bash
# A statement that names a credential key keeps none of its literals in the
# shell's history or in its error messages, whatever the spelling: comments
# between key and value, double quotes, backticks, $$, E'', an unquoted
# value, several lines, and statements that do not parse
# (docs/secrets.md, "The shell's history").
# Usage: secret_redaction.sh PATH/TO/lakestream
set -uo pipefail
source "$(dirname "$0")/lib.sh"
PW='S3cr3t-Zz9q'

STATEMENTS=(
  "CREATE SECRET a1 (TYPE kafka, 'sasl.password' /* c */ '$PW');"
  "CREATE SECRET a2 (TYPE kafka, 'sasl.password' \"$PW\");"
  "CREATE SECRET a3 (TYPE kafka, 'sasl.password' '$PW' 'oops');"
  "CREATE SECRET a4 (TYPE kafka, 'sasl.password' = \$\$$PW\$\$);"
  "CREATE SECRET a5 (TYPE kafka, sasl.password = $PW);"
  "CREATE SECRET a6 (TYPE kafka, 'sasl.password' E'$PW');"
  "CREATE SECRET a7 (TYPE kafka, 'sasl.password' -- the value:
   '$PW');"
  "CREATE SECRET a8 (TYPE s3, KEY_ID 'k', SECRET '$PW' SESSION_TOKEN 't');"
  "SELECT * FROM read_kafka('b', 't', \"ssl.key.password\" => \`$PW\`) AS a9;"
  "CREATE SINK a10 FROM t INTO KAFKA WITH ('kafka.sasl.password' = '$PW' 'x');"
)

# Error messages: each statement on its own, in memory; the ones that do not
# parse must fail without echoing the value. (a9 parses: its backticked value
# is a column name, which the binder's error names; only its history counts.)
parse_errors=0
for statement in "${STATEMENTS[@]}"; do
  [[ "$statement" == *a9* ]] && continue
  run "$BIN" -c "$statement"
  [[ "$ERR" == *"Parser Error"* ]] && parse_errors=$((parse_errors + 1))
  if [[ "$OUT$ERR" == *"$PW"* || "$OUT$ERR" == *"Zz9q"* ]]; then
    fail "no echo of the value: ${statement:0:60}" "$OUT$ERR"
  else
    pass "no echo of the value: ${statement:0:60}"
  fi
done
[[ $parse_errors -ge 6 ]] && pass "most spellings are parser errors ($parse_errors)" ||
  fail "most spellings are parser errors" "$parse_errors"
run "$BIN" -c "CREATE SECRET a3 (TYPE kafka, 'sasl.password' '$PW' 'oops');"
[[ "$ERR" == *"syntax error at or near \"'redacted'\""* && "$ERR" == *"'sasl.password' 'redacted');"* ]] &&
  pass "the parser error shows the statement redacted" || fail "the parser error shows the statement redacted" "$ERR"

# The history: typed at the interactive prompt (a pseudo-terminal), HOME in
# the scratch directory.
export HOME="$TMP/home"
mkdir -p "$HOME"
printf '%s\n' "${STATEMENTS[@]}" >"$TMP/typed"
/usr/bin/python3 - "$BIN" "$TMP/typed" <<'PY'
import os, pty, select, sys, time
binary, typed = sys.argv[1:3]
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "dumb"
    os.execv(binary, [binary])
def read_for(seconds):
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                os.read(fd, 65536)
            except OSError:
                return
read_for(0.5)
for line in open(typed).read().splitlines():
    os.write(fd, (line + "\n").encode())
    read_for(0.2)
os.write(fd, b".quit\n")
read_for(0.5)
os.waitpid(pid, 0)
PY
HIST="$HOME/.lakestream_history"
if [[ ! -f "$HIST" ]]; then
  fail "the history file is written" "$(ls -la "$HOME")"
else
  grep -q -e "$PW" -e "Zz9q" "$HIST" && fail "the history holds no value" "$(cat "$HIST")" || pass "the history holds no value"
  missing=""
  for n in 1 2 3 4 5 6 7 8 9 10; do grep -q "a$n\\b" "$HIST" || missing+=" a$n"; done
  [[ -z "$missing" ]] && pass "every statement is in the history" || fail "every statement is in the history" "missing:$missing" "$(cat "$HIST")"
  grep -q "'sasl.password'.040/\\*.040c.040\\*/.040'redacted'" "$HIST" && pass "the history keeps keys and comments" ||
    fail "the history keeps keys and comments" "$(cat "$HIST")"
fi
finish
