#!/usr/bin/env bash
# A database written before schemas existed (test/shell/data/flat_db) opens
# unchanged: its objects are schema main's, keep their folders and catalog
# entries, and only objects of a new schema get new folders (docs/sql-schemas.md).
# Usage: schema_old_layout.sh PATH/TO/lakestream
set -uo pipefail
source "$(dirname "$0")/lib.sh"
DB=$TMP/flat_db
cp -r "$(dirname "$0")/data/flat_db" "$DB"

sql() { run "$BIN" -csv "$DB" -c "$1"; }
# The catalog's entries of the old objects (not its version counter).
old_entries() {
  python3 - "$DB/_lakestream/catalog.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
old = {"orders", "totals", "a.b", "order_changes", "big"}
for kind in ("tables", "streams", "views", "sinks"):
    for e in c.get(kind, []):
        if e["name"] in old:
            print(kind, json.dumps(e, sort_keys=True))
PY
}
before=$(old_entries)

sql "SELECT count(*) FROM orders; SELECT id FROM order_changes; SELECT id FROM big ORDER BY id; SELECT * FROM totals; SELECT * FROM \"a.b\""
expect "old objects read as before" 0 $'count(*)\n3\nid\n3\nid\n2\n3\nn,total\n3,60\nx\n7\n'

sql "SELECT count(*) FROM main.orders; SELECT count(*) FROM public.orders; SELECT count(*) FROM flat_db.default.orders"
expect "old objects are schema main's (main, public, default, the catalog flat_db)" 0 $'count(*)\n3\ncount(*)\n3\ncount(*)\n3\n'

sql "CREATE SCHEMA sales; CREATE TABLE sales.orders (id INT); INSERT INTO sales.orders VALUES (42); CREATE MATERIALIZED VIEW sales.n AS SELECT count(*) AS c FROM sales.orders"
expect "a schema and its objects are created" 0 $'num_affected_rows\n1\n'

if [[ -d "$DB/sales.orders/_delta_log" && -d "$DB/sales.n/_delta_log" ]]; then pass "new objects get folders <schema>.<name>"; else
  fail "new objects get folders <schema>.<name>" "$(ls "$DB")"; fi
for f in orders totals a.b; do
  if [[ -d "$DB/$f/_delta_log" ]]; then pass "old folder $f kept"; else fail "old folder $f kept" "$(ls "$DB")"; fi
done
after=$(old_entries)
if [[ "$before" == "$after" ]]; then pass "old catalog entries unchanged"; else fail "old catalog entries unchanged" "before: $before" "after: $after"; fi
run python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['schemas'])" "$DB/_lakestream/catalog.json"
expect "catalog.json lists the schema" 0 $'[\'sales\']\n'

sql "SELECT id FROM sales.orders; SELECT count(*) FROM orders; SELECT * FROM sales.n"
expect "the new table and the old one of the same name are two tables" 0 $'id\n42\ncount(*)\n3\nc\n1\n'

sql "CREATE SCHEMA a"
if [[ $RC != 0 && "$ERR" == *'objects of schema main are named "a.b"'* ]]; then pass "a schema that would capture a dotted name is refused"; else
  fail "a schema that would capture a dotted name is refused" "rc $RC" "$ERR"; fi

sql "DROP SCHEMA sales CASCADE"
expect "DROP SCHEMA CASCADE" 0 ""
if [[ ! -e "$DB/sales.orders" && ! -e "$DB/sales.n" && -d "$DB/orders" ]]; then pass "CASCADE deletes the schema's folders only"; else
  fail "CASCADE deletes the schema's folders only" "$(ls "$DB")"; fi
run python3 -c "import json,sys; print('schemas' in json.load(open(sys.argv[1])))" "$DB/_lakestream/catalog.json"
expect "without schemas catalog.json has no schemas key (as written before)" 0 $'False\n'
finish
