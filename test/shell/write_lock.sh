#!/usr/bin/env bash
# The database's write lock is held only while a statement writes: an idle
# interactive shell keeps no other process out, sees what others committed,
# and a writer that finds the lock taken waits, then names the holder.
source "$(dirname "$0")/lib.sh" "$1"
DB="$TMP/db"
"$BIN" "$DB" -c "CREATE TABLE t (x INT)" >/dev/null

# An idle interactive shell: reads statements from a FIFO that stays open.
mkfifo "$TMP/in"
"$BIN" "$DB" <"$TMP/in" >"$TMP/idle.out" 2>"$TMP/idle.err" &
SHELL_PID=$!
exec 3>"$TMP/in"
echo "INSERT INTO t VALUES (1);" >&3
sleep 0.5

if OUT=$("$BIN" "$DB" -c "INSERT INTO t VALUES (2); CREATE TABLE u (y INT); INSERT INTO u VALUES (7)" 2>&1); then
  pass "another process writes while the shell is idle"
else
  fail "another process writes while the shell is idle" "$OUT"
fi
if OUT=$("$BIN" "$DB" -c "SELECT count(*) FROM t" 2>&1) && [[ "$OUT" == *2* ]]; then
  pass "another process reads without -readonly"
else
  fail "another process reads without -readonly" "$OUT"
fi

# The idle shell sees the other process's rows and its new table.
echo "SELECT 'rows', count(*) FROM t; SELECT 'u', sum(y) FROM u; INSERT INTO u VALUES (1);" >&3
exec 3>&-
wait "$SHELL_PID"
RC=$?
if [[ $RC == 0 ]] && grep -q "rows.*2" "$TMP/idle.out" && grep -q "u.*7" "$TMP/idle.out"; then
  pass "the idle shell sees what the other process committed"
else
  fail "the idle shell sees what the other process committed" "rc=$RC" "$(cat "$TMP/idle.out" "$TMP/idle.err")"
fi
if OUT=$("$BIN" "$DB" -c "SELECT sum(y) FROM u" 2>&1) && [[ "$OUT" == *8* ]]; then
  pass "the shell's write after the other's landed on top of it"
else
  fail "the shell's write after the other's landed on top of it" "$OUT"
fi

# A writer that finds the lock held waits, then fails naming the holder;
# reading is not held up. flock(1) holds the lock as another writer would.
if command -v flock >/dev/null; then
  echo 4242 >"$DB/_lakestream/LOCK"
  flock "$DB/_lakestream/LOCK" sleep 8 &
  HOLDER=$!
  sleep 0.3
  START=$SECONDS
  OUT=$("$BIN" "$DB" -c "INSERT INTO t VALUES (3)" 2>&1)
  RC=$?
  if [[ $RC != 0 && "$OUT" == *"already open for writing by process 4242"* && "$OUT" == *"waited 5"* ]] && ((SECONDS - START >= 4)); then
    pass "a blocked writer waits, then names the holder"
  else
    fail "a blocked writer waits, then names the holder" "rc=$RC after $((SECONDS - START)) s" "$OUT"
  fi
  if OUT=$("$BIN" "$DB" -c "SELECT count(*) FROM t" 2>&1) && [[ "$OUT" == *2* ]]; then
    pass "reading while another process writes"
  else
    fail "reading while another process writes" "$OUT"
  fi
  kill "$HOLDER" 2>/dev/null
  wait "$HOLDER" 2>/dev/null
  if OUT=$("$BIN" "$DB" -c "INSERT INTO t VALUES (3); SELECT count(*) FROM t" 2>&1) && [[ "$OUT" == *3* ]]; then
    pass "the lock is free again once its holder is gone"
  else
    fail "the lock is free again once its holder is gone" "$OUT"
  fi
fi
finish
