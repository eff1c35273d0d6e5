#!/usr/bin/env bash
# A pipeline run killed (SIGKILL) at random points and re-run ends with the
# same tables as an uninterrupted run over the same files: every file is
# ingested exactly once and nothing is half done.
# Usage: kill_rerun_test.sh LAKESTREAM [ROUNDS]
LS=$(realpath "$1")
ROUNDS=${2:-20}
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-pipeline-kill.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$(dirname "$0")/pipeline.sql" "$WORK/"
RANDOM=42

for ((r = 0; r < ROUNDS; r++)); do
  make_file "$WORK/landing" "f$(printf %03d $r).json" $((r * 25)) 25 $r
  "$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/round$r.log" 2>&1 &
  pid=$!
  # A run takes tens of milliseconds: kill somewhere inside or just after it.
  sleep "0.$(printf %03d $((RANDOM % 90)))"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
done
interrupted=$(grep -L "rows_out" "$WORK"/round*.log | wc -l)
# Finish the interrupted work.
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/final.log" 2>&1 || { cat "$WORK/final.log"; fail "the run after the kills failed"; }

# The reference: one uninterrupted run over the same files.
"$LS" run "$WORK/pipeline.sql" --db "$WORK/ref" --once > "$WORK/ref.log" 2>&1 || { cat "$WORK/ref.log"; fail "reference run"; }

total=$((ROUNDS * 25))
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = $total ] || fail "bronze should hold $total rows (each file once), has $(query "$WORK/db" 'SELECT count(*) FROM bronze')"
for t in bronze silver big_orders; do
  a=$(query "$WORK/db" "SELECT * FROM $t" | sort)
  b=$(query "$WORK/ref" "SELECT * FROM $t" | sort)
  [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head; fail "$t differs from the uninterrupted run"; }
done
echo "kill_rerun_test: ok ($ROUNDS kills, $interrupted runs cut short)"
