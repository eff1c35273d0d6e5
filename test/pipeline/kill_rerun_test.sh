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
mkdir -p "$WORK/out"
RANDOM=42

for ((r = 0; r < ROUNDS; r++)); do
  make_file "$WORK/landing" "f$(printf %03d $r).json" $((r * 25)) 25 $r
  "$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/round$r.log" 2>&1 &
  pid=$!
  # A run takes a few hundred milliseconds: kill somewhere inside or after it.
  sleep "0.$(printf %03d $((RANDOM % 400)))"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
done
interrupted=$( (grep -L "rows_out" "$WORK"/round*.log || true) | wc -l)
# Finish the interrupted work.
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --once > "$WORK/final.log" 2>&1 || { cat "$WORK/final.log"; fail "the run after the kills failed"; }

# The reference: one uninterrupted run over the same files.
# Its own folder (its sink writes refdir/out/), reading the same landing files.
mkdir -p "$WORK/refdir/out"
cp "$WORK/pipeline.sql" "$WORK/refdir/"
ln -s ../landing "$WORK/refdir/landing"
"$LS" run "$WORK/refdir/pipeline.sql" --db "$WORK/ref" --once > "$WORK/ref.log" 2>&1 || { cat "$WORK/ref.log"; fail "reference run"; }

total=$((ROUNDS * 25))
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = $total ] || fail "bronze should hold $total rows (each file once), has $(query "$WORK/db" 'SELECT count(*) FROM bronze')"
for t in bronze silver big_orders gold; do
  a=$(query "$WORK/db" "SELECT * FROM $t" | sort)
  b=$(query "$WORK/ref" "SELECT * FROM $t" | sort)
  [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head; fail "$t differs from the uninterrupted run"; }
done
# The sink's file: the same latest value per key, and no message repeated
# back to back (a repeat would be a change delivered twice).
python3 - "$WORK/db/../out/gold.jsonl" <<'PY' || fail "the file sink after kills differs from gold or repeats a message"
import json, sys
last, prev = {}, {}
for line in open(sys.argv[1]):
    m = json.loads(line)
    k = m["key"]
    if prev.get(k) == line:
        sys.exit("repeated message: " + line)
    prev[k] = line
    last[k] = m["value"]
print(json.dumps(last, sort_keys=True))
PY
final=$(python3 -c 'import json,sys; d={}; [d.__setitem__(json.loads(l)["key"], json.loads(l)["value"]) for l in open(sys.argv[1])]; print(json.dumps(d, sort_keys=True))' "$WORK/out/gold.jsonl")
gold=$(query "$WORK/db" "SELECT grp, total, n FROM gold ORDER BY grp" | tr '\n' ' ')
expected=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(" ".join("%s,%s,%s" % (k, v["total"], v["n"]) for k, v in sorted(d.items())) + " ")' "$final")
[ "$gold" = "$expected" ] || fail "the file sink's latest values [$expected] differ from gold [$gold]"
echo "kill_rerun_test: ok ($ROUNDS kills, $interrupted runs cut short)"
