#!/usr/bin/env bash
# A sink pass delivers under a lease file (<db>/_lakestream/sink-<id>.lock,
# sink/sink_lease.hpp); DROP SINK and DROP TABLE ... CASCADE remove the
# dropped sink's file (its id is never used again), ALTER SINK keeps it.
# Usage: sink_lease_files.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB=$TMP/db
sql() { run "$BIN" -csv "$DB" -c "$1"; }
leases() { find "$DB/_lakestream" -maxdepth 1 -name 'sink-*.lock' | wc -l | tr -d ' '; }

sql "CREATE TABLE t (id INT) TBLPROPERTIES (delta.enableChangeDataFeed = true);
     CREATE SINK a FROM t INTO FILE '$TMP/a.jsonl';
     CREATE SINK b FROM t INTO FILE '$TMP/b.jsonl';
     INSERT INTO t VALUES (1)"
sql "RUN SINK a"
expect "sink a delivered" 0 "messages,skipped_changes,delivered_version
1,0,1
"
sql "RUN SINK b"
same_count() { if [[ "$(leases)" == "$2" ]]; then pass "$1"; else fail "$1" "want $2 lease files, got $(leases)" "$(ls "$DB/_lakestream")"; fi; }
same_count "each sink that ran has its lease file" 2
sql "ALTER SINK a SET ('format' = 'json'); RUN SINK a"
same_count "ALTER SINK keeps the lease file" 2
sql "DROP SINK a"
same_count "DROP SINK removes the dropped sink's lease file" 1
sql "DROP TABLE t CASCADE"
same_count "DROP TABLE ... CASCADE removes its sinks' lease files" 0
sql "DROP SINK IF EXISTS a"
expect "DROP SINK IF EXISTS of a dropped sink is quiet" 0 ""
finish
