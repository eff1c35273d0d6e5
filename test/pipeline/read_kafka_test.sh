#!/usr/bin/env bash
# read_kafka() in a streaming table: every message lands once; a run with
# nothing new commits nothing; offsets continue per partition.
# Usage: read_kafka_test.sh LAKESTREAM MOCK_KAFKA
LS=$(realpath "$1")
BROKER_BIN=$(realpath "$2")
source "$(dirname "$0")/lib.sh"
command -v kcat >/dev/null || { echo "kcat missing: skipped"; exit 77; }
WORK=$(mktemp -d /tmp/lakestream-pipeline-kafka.XXXXXX)
broker=""
trap '[ -n "$broker" ] && kill $broker 2>/dev/null; rm -rf "$WORK"' EXIT
"$BROKER_BIN" --topic orders:2 --bootstrap-file "$WORK/boot" > "$WORK/broker.log" 2>&1 &
broker=$!
for _ in $(seq 100); do [ -s "$WORK/boot" ] && break; sleep 0.05; done
BOOT=$(cat "$WORK/boot")
cat > "$WORK/pipeline.sql" <<SQL
CREATE OR REFRESH STREAMING TABLE raw AS
SELECT key, value, "partition", "offset" FROM read_kafka('$BOOT', 'orders');
SQL
for i in 1 2 3 4 5; do echo "k$i:{\"id\": $i}"; done | kcat -b "$BOOT" -P -t orders -K: -p $((RANDOM % 2))
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --plain > "$WORK/run1.log" || { cat "$WORK/run1.log"; fail "first run"; }
before=$(versions "$WORK/db")
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --plain > "$WORK/run2.log" || { cat "$WORK/run2.log"; fail "second run"; }
[ "$before" = "$(versions "$WORK/db")" ] || fail "a run with no new messages committed"
for i in 6 7; do echo "k$i:{\"id\": $i}"; done | kcat -b "$BOOT" -P -t orders -K: -p 0
"$LS" run "$WORK/pipeline.sql" --db "$WORK/db" --plain > "$WORK/run3.log" || { cat "$WORK/run3.log"; fail "third run"; }
[ "$(query "$WORK/db" 'SELECT count(*), count(DISTINCT key) FROM raw')" = "7,7" ] || fail "every message should land once: $(query "$WORK/db" 'SELECT count(*), count(DISTINCT key) FROM raw')"
echo "read_kafka_test: ok"
