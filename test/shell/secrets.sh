#!/usr/bin/env bash
# Secrets are never stored or shown in clear (docs/secrets.md): a Kafka sink
# with an inline password and one naming a secret (one with an env() value),
# then catalog.json, the Delta logs, the shell history, DESCRIBE/SHOW output
# and error messages are searched for the passwords, and file modes checked.
# Uses lakestream-mock-kafka from beside the binary (a plaintext broker: the
# credentials are configured, not checked by it).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
MOCK="$(dirname "$BIN")/lakestream-mock-kafka"
INLINE_PW='Inl1ne-Pa55w0rd'
NAMED_PW='N4med-Pa55w0rd'
ENV_PW='Env-Pa55w0rd-from-env'
DB="$TMP/db"
run() { "$BIN" "$DB" -c "$1" 2>&1; }
mode() { stat -c %a "$1"; }

"$MOCK" --bootstrap-file "$TMP/bootstrap" --topic orders:2 >/dev/null 2>&1 &
MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null; chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -s "$TMP/bootstrap" ]] && break; sleep 0.05; done
BS=$(cat "$TMP/bootstrap")

umask 022
out=$(run "CREATE TABLE orders (id INT PRIMARY KEY, v STRING) TBLPROPERTIES ('change_tracking' = 'true');
CREATE SINK inline_sink FROM orders INTO KAFKA WITH ('bootstrap.servers' = '$BS', 'topic' = 'orders',
  'sasl.username' = 'alice', 'sasl.password' = '$INLINE_PW');
CREATE PERSISTENT SECRET kafka_prod (TYPE kafka, 'sasl.username' 'bob', 'sasl.password' '$NAMED_PW');
CREATE PERSISTENT SECRET kafka_env (TYPE kafka, 'sasl.password' env('LAKESTREAM_TEST_KAFKA_PW'));
CREATE SINK named_sink FROM orders INTO KAFKA WITH ('bootstrap.servers' = '$BS', 'topic' = 'orders', 'secret' = 'kafka_prod');
INSERT INTO orders VALUES (1, 'a');
RUN SINK inline_sink; RUN SINK named_sink;")
if [[ "$out" == *Error* ]]; then fail "sinks with credentials are created and run" "$out"; else pass "sinks with credentials are created and run"; fi

shown=$(run "DESCRIBE SINK inline_sink; DESCRIBE SINK named_sink; SHOW SINKS; SHOW SECRETS; SELECT * FROM lakestream_secrets();")
for pw in "$INLINE_PW" "$NAMED_PW"; do
  hits=$(grep -rl -- "$pw" "$DB/_lakestream/catalog.json" "$DB"/*/_delta_log 2>/dev/null)
  [[ -z "$hits" ]] && pass "no $pw in catalog.json or the Delta logs" || fail "no $pw in catalog.json or the Delta logs" "$hits"
  [[ "$shown" != *"$pw"* ]] && pass "DESCRIBE/SHOW do not show $pw" || fail "DESCRIBE/SHOW do not show $pw" "$shown"
done
own=$(run "SELECT count(*) AS n FROM lakestream_secrets() WHERE owner = 'inline_sink' AND secret_string = 'name=__sink_inline_sink;type=kafka;sasl.password=redacted'")
[[ "$shown" == *"option secret"*"__sink_inline_sink"* && "$own" == *"│ 1 "* ]] &&
  pass "the inline password moved into the sink's own secret, shown redacted" || fail "the sink's own secret" "$own"
grep -q -- "$INLINE_PW" "$DB/_lakestream/secrets/__sink_inline_sink.json" &&
  pass "the sink's secret holds the inline password" || fail "the sink's secret holds the inline password"

# Owner only: the store, its files and a catalog naming secrets; the rest follows the umask.
[[ $(mode "$DB/_lakestream/secrets") == 700 ]] && pass "secrets folder is 0700" || fail "secrets folder is 0700" "$(mode "$DB/_lakestream/secrets")"
bad=$(for f in "$DB"/_lakestream/secrets/*.json; do [[ $(mode "$f") == 600 ]] || echo "$f $(mode "$f")"; done)
[[ -z "$bad" ]] && pass "secret files are 0600" || fail "secret files are 0600" "$bad"
[[ $(mode "$DB/_lakestream/catalog.json") == 600 ]] && pass "catalog.json naming secrets is 0600" || fail "catalog.json naming secrets is 0600" "$(mode "$DB/_lakestream/catalog.json")"
[[ $(mode "$DB/orders/_delta_log") == 755 ]] && pass "table folders follow the umask (022: 0755)" || fail "table folders follow the umask" "$(mode "$DB/orders/_delta_log")"

# ALTER SINK with a new inline password updates the sink's secret, not the catalog.
NEW_PW='Alt3red-Pa55w0rd'
out=$(run "ALTER SINK inline_sink SET ('sasl.password' = '$NEW_PW')")
grep -q -- "$NEW_PW" "$DB/_lakestream/secrets/__sink_inline_sink.json" && ! grep -rq -- "$NEW_PW" "$DB/_lakestream/catalog.json" &&
  pass "ALTER SINK moves a new inline password into the sink's secret" || fail "ALTER SINK inline password" "$out"
out=$(run "ALTER SINK named_sink SET ('sasl.password' = '$NEW_PW')")
[[ "$out" == *"it names secret kafka_prod and also gives 'sasl.password' inline"* ]] &&
  pass "a named secret plus an inline credential is an error" || fail "a named secret plus an inline credential is an error" "$out"

# A streaming table stores its query: inline read_kafka credentials are refused before anything is stored.
out=$(run "CREATE STREAMING TABLE k AS SELECT * FROM read_kafka('$BS', 'orders', \"sasl.password\" => '$NEW_PW')")
[[ "$out" == *"given inline in a streaming table would be stored"* ]] && ! grep -rq -- "$NEW_PW" "$DB/_lakestream/catalog.json" &&
  pass "read_kafka in a streaming table refuses inline credentials" || fail "read_kafka inline credentials" "$out"

# The env() secret: the variable is read at use; unset, the error names it.
out=$(run "CREATE SINK env_sink FROM orders INTO KAFKA WITH ('bootstrap.servers' = '$BS', 'topic' = 'orders', 'secret' = 'kafka_env')")
[[ "$out" == *"environment variable LAKESTREAM_TEST_KAFKA_PW, which is not set"* ]] &&
  pass "an unset env() variable is named" || fail "an unset env() variable is named" "$out"
out=$(LAKESTREAM_TEST_KAFKA_PW="$ENV_PW" run "CREATE SINK env_sink FROM orders INTO KAFKA WITH ('bootstrap.servers' = '$BS', 'topic' = 'orders', 'secret' = 'kafka_env'); INSERT INTO orders VALUES (2, 'b'); RUN SINK env_sink; SHOW SECRETS")
[[ "$out" != *Error* && "$out" != *"$ENV_PW"* ]] && pass "an env() secret works and its value is not shown" || fail "env() secret" "$out"
grep -rq -- "$ENV_PW" "$DB" && fail "the env() value is stored nowhere" "$(grep -rl -- "$ENV_PW" "$DB")" || pass "the env() value is stored nowhere"

# A missing named secret: a clear error at use.
run "DROP SECRET kafka_prod; INSERT INTO orders VALUES (3, 'c');" >/dev/null
out=$(run "RUN SINK named_sink")
[[ "$out" == *"Sink named_sink: secret kafka_prod does not exist; CREATE SECRET kafka_prod (TYPE kafka"* ]] &&
  pass "RUN SINK names the missing secret and the fix" || fail "RUN SINK names the missing secret" "$out"
out=$(run "DROP SECRET __sink_inline_sink")
[[ "$out" == *"holds the credentials of sink inline_sink"* ]] && pass "a sink's own secret is not dropped alone" || fail "a sink's own secret is not dropped alone" "$out"
run "DROP SINK inline_sink" >/dev/null
[[ ! -e "$DB/_lakestream/secrets/__sink_inline_sink.json" ]] && pass "DROP SINK drops its secret" || fail "DROP SINK drops its secret"

# A sink's secret left behind by a crash between DROP SINK's two steps can be dropped.
cp "$DB/_lakestream/secrets/kafka_env.json" "$DB/_lakestream/secrets/__sink_ghost.json"
sed -i 's/"owner_sink": ""/"owner_sink": "ghost"/; s/"name": "kafka_env"/"name": "__sink_ghost"/' "$DB/_lakestream/secrets/__sink_ghost.json"
out=$(run "DROP SECRET __sink_ghost")
[[ -z "$out" && ! -e "$DB/_lakestream/secrets/__sink_ghost.json" ]] && pass "an orphaned sink secret can be dropped" || fail "an orphaned sink secret can be dropped" "$out"

# A bad credential value is refused without echoing it.
out=$(run "CREATE SINK bad FROM orders INTO KAFKA WITH ('bootstrap.servers' = '$BS', 'topic' = 'orders', 'ssl.key.pem' = 'not-a-pem-$INLINE_PW', 'security.protocol' = 'nope')")
[[ "$out" == *Error* && "$out" != *"$INLINE_PW"* ]] && pass "errors do not echo credentials" || fail "errors do not echo credentials" "$out"
[[ ! -e "$DB/_lakestream/secrets/__sink_bad.json" ]] && pass "a failed CREATE SINK leaves no secret" || fail "a failed CREATE SINK leaves no secret"

# A catalog written before secrets existed (the password in its sink options):
# the next catalog write moves the password into the sink's own secret.
OLD_PW='0ld-Catalog-Pa55'
python3 - "$DB/_lakestream/catalog.json" "$OLD_PW" <<'PY'
import json, sys
path, pw = sys.argv[1], sys.argv[2]
catalog = json.load(open(path))
for sink in catalog["sinks"]:
    if sink["name"] == "named_sink":
        sink["options"] = [o for o in sink["options"] if o[0] != "secret"] + [["sasl.password", pw]]
json.dump(catalog, open(path, "w"), indent=2)
PY
out=$(run "SELECT count(*) FROM orders; CREATE TABLE touch (x INT);")
if grep -q -- "$OLD_PW" "$DB/_lakestream/catalog.json"; then
  fail "an old catalog's inline password moves out at the next write" "$(cat "$DB/_lakestream/catalog.json")"
else
  grep -q -- "$OLD_PW" "$DB/_lakestream/secrets/__sink_named_sink.json" &&
    pass "an old catalog's inline password moves out at the next write" || fail "an old catalog's password is kept in the sink's secret" "$out"
fi

# The interactive shell's history: redacted, and the file is 0600 (HOME decides where it is).
export HOME="$TMP/home"
mkdir -p "$HOME"
/usr/bin/python3 - "$BIN" "$TMP/hdb" "$INLINE_PW" "$NAMED_PW" <<'PY'
import os, pty, select, sys, time
binary, db, pw1, pw2 = sys.argv[1:5]
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "dumb"
    os.execv(binary, [binary, db])
def read_for(seconds):
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                os.read(fd, 65536)
            except OSError:
                return
read_for(1.0)
os.write(fd, ("CREATE SECRET h1 (TYPE kafka, 'sasl.username' 'u',\n 'sasl.password' '%s');\n" % pw1).encode())
read_for(1.0)
os.write(fd, ("CREATE SECRET h2 (TYPE s3, KEY_ID 'k', SECRET '%s');\n" % pw2).encode())
read_for(1.0)
os.write(fd, b".quit\n")
read_for(1.0)
os.waitpid(pid, 0)
PY
HIST="$HOME/.lakestream_history"
if [[ -f "$HIST" ]]; then
  pass "the history file is written under HOME"
  grep -q -e "$INLINE_PW" -e "$NAMED_PW" "$HIST" && fail "the history holds no password" "$(cat "$HIST")" || pass "the history holds no password"
  # editline writes a space as \040.
  grep -q "SECRET.040h1" "$HIST" && grep -q "SECRET.040h2" "$HIST" && grep -q "'redacted'" "$HIST" && pass "the history keeps the statement, redacted" || fail "the history keeps the statement, redacted" "$(cat "$HIST")"
  [[ $(mode "$HIST") == 600 ]] && pass "the history file is 0600" || fail "the history file is 0600" "$(mode "$HIST")"
else
  fail "the history file is written under HOME" "$(ls -la "$HOME")"
fi
finish
