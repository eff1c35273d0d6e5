#!/usr/bin/env bash
# Issue 28, pipelines: a flow that reads its own target (directly, or through
# other flows) is refused before anything runs, naming the cycle; a landing
# file that changes after it was ingested is reported on the run and in the
# event log (file_changed, with its old and new size), and read again only
# with allowOverwrites.
# Usage: lineage_test.sh LAKESTREAM
LS=$(realpath "$1")
source "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/lakestream-lineage-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# A flow into t that reads STREAM(t) would append t to itself on every run.
cat > "$WORK/self.sql" <<'SQL'
CREATE OR REFRESH STREAMING TABLE t AS SELECT * FROM read_files('landing/', format => 'json');
CREATE FLOW again AS INSERT INTO t BY NAME SELECT * FROM STREAM(t);
SQL
if "$LS" run "$WORK/self.sql" --db "$WORK/db_self" --once > "$WORK/self.log" 2>&1; then fail "a flow reading its own target should fail"; fi
grep -q "the pipeline has a cycle: t -> t (flow again (line 2) writes t from t)" "$WORK/self.log" \
  || { cat "$WORK/self.log"; fail "the cycle error should name t -> t and the flow"; }
[ ! -e "$WORK/db_self/t" ] || fail "a refused pipeline created t"

# Two flows that feed each other's targets.
cat > "$WORK/pair.sql" <<'SQL'
CREATE OR REFRESH STREAMING TABLE t;
CREATE OR REFRESH STREAMING TABLE u;
CREATE FLOW t_from_u AS INSERT INTO t BY NAME SELECT * FROM STREAM(u);
CREATE FLOW u_from_t AS INSERT INTO u BY NAME SELECT * FROM STREAM(t);
SQL
if "$LS" run "$WORK/pair.sql" --db "$WORK/db_pair" --once > "$WORK/pair.log" 2>&1; then fail "a two-flow cycle should fail"; fi
grep -q "cycle: t -> u -> t" "$WORK/pair.log" || { cat "$WORK/pair.log"; fail "the cycle error should name t -> u -> t"; }

# A landing file that grows after it was ingested.
cat > "$WORK/land.sql" <<SQL
CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM read_files('$WORK/landing/', format => 'json');
SQL
make_file "$WORK/landing" a.json 0 10
"$LS" run "$WORK/land.sql" --db "$WORK/db" --once > "$WORK/run1.log" || { cat "$WORK/run1.log"; fail "first run"; }
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = 10 ] || fail "bronze should hold 10 rows"
echo '{"id": 99, "grp": "g9", "amount": 1, "seq": 9}' >> "$WORK/landing/a.json"
"$LS" run "$WORK/land.sql" --db "$WORK/db" --once > "$WORK/run2.log" || { cat "$WORK/run2.log"; fail "second run"; }
grep -q "warning: streaming table bronze: file .*a.json changed after it was ingested (size [0-9]* -> [0-9]* bytes" "$WORK/run2.log" \
  || { cat "$WORK/run2.log"; fail "the run should warn that a.json changed"; }
[ "$(query "$WORK/db" 'SELECT count(*) FROM bronze')" = 10 ] || fail "the changed file was read again without allowOverwrites"
event=$(query "$WORK/db" "SELECT level, get_json_object(details, '\$.file_changed.reread') FROM event_log WHERE event_type = 'file_changed'")
[ "$event" = "WARN,false" ] || fail "the event log should hold one WARN file_changed event, has [$event]"
sizes=$(query "$WORK/db" "SELECT CAST(get_json_object(details, '\$.file_changed.new_size') AS BIGINT) - CAST(get_json_object(details, '\$.file_changed.old_size') AS BIGINT) FROM event_log WHERE event_type = 'file_changed'")
[ "$sizes" = 47 ] || fail "the event should give the old and new size (47 bytes more), gives [$sizes]"

# With allowOverwrites the whole file is read again.
sed -i "s|format => 'json')|format => 'json', allowOverwrites => true)|" "$WORK/land.sql"
"$LS" run "$WORK/land.sql" --db "$WORK/db" --once > "$WORK/run3.log" || { cat "$WORK/run3.log"; fail "third run"; }
[ "$(query "$WORK/db" 'SELECT count(*), sum(CASE WHEN id = 99 THEN 1 ELSE 0 END) FROM bronze')" = "21,1" ] \
  || fail "allowOverwrites should ingest the changed file again, whole"
"$LS" run "$WORK/land.sql" --db "$WORK/db" --once > "$WORK/run4.log" || { cat "$WORK/run4.log"; fail "fourth run"; }
! grep -q "warning" "$WORK/run4.log" || { cat "$WORK/run4.log"; fail "a file read again is not reported again"; }
echo "lineage_test: ok"
