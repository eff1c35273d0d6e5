#!/usr/bin/env python3
"""The orders scenario through the shell, for what a .test file cannot check:
DESCRIBE HISTORY (versions and operations; it cannot be used in a subquery),
TIMESTAMP AS OF at each commit's exact timestamp, and the log itself (a pure
INSERT writes no cdc action and no _change_data file; UPDATE/DELETE/MERGE write
cdc actions in the same commit; writer version 4 with the change data feed on)."""
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from delta_log_check import check_log, csv_rows, shell  # noqa: E402

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="lakestream_shellchk_")
db = os.path.join(work, "db")
failures = []


def expect(cond, msg):
    if not cond:
        failures.append(msg)


try:
    shell(binary, db,
          "CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10,2), status STRING) TBLPROPERTIES ('change_tracking' = 'true')",
          "INSERT INTO orders VALUES (1, 'Alice', 1000.00, 'active'), (2, 'Bob', 200.00, 'active'), (3, 'Carol', 300.00, 'active')",
          "UPDATE orders SET amount = 1500.00 WHERE id = 1",
          "DELETE FROM orders WHERE id = 3",
          "CREATE TABLE src (id INT, name STRING, amount DECIMAL(10,2), status STRING, op STRING)",
          "INSERT INTO src VALUES (1, 'Alice', 0, 'x', 'D'), (2, 'Bob', 250.00, 'shipped', 'U'), (4, 'Dan', 400.00, 'active', 'I')",
          "MERGE INTO orders t USING src s ON t.id = s.id WHEN MATCHED AND s.op = 'D' THEN DELETE "
          "WHEN MATCHED THEN UPDATE SET t.amount = s.amount, t.status = s.status "
          "WHEN NOT MATCHED THEN INSERT (id, name, amount, status) VALUES (s.id, s.name, s.amount, s.status)")
    hdr, hist = csv_rows(shell(binary, db, "DESCRIBE HISTORY orders"))
    v, op, ts = hdr.index("version"), hdr.index("operation"), hdr.index("timestamp")
    ops = sorted((int(r[v]), r[op]) for r in hist)
    expect(ops == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "UPDATE"), (3, "DELETE"), (4, "MERGE")], f"DESCRIBE HISTORY operations: {ops}")
    expect([int(r[v]) for r in hist] == [4, 3, 2, 1, 0], "DESCRIBE HISTORY lists newest first")

    # TIMESTAMP AS OF each commit's own timestamp reads that version
    for r in hist:
        ver = int(r[v])
        _, at_ts = csv_rows(shell(binary, db, f"SELECT * FROM orders TIMESTAMP AS OF '{r[ts]}' ORDER BY id"))
        _, at_v = csv_rows(shell(binary, db, f"SELECT * FROM orders VERSION AS OF {ver} ORDER BY id"))
        expect(at_ts == at_v, f"TIMESTAMP AS OF '{r[ts]}' != VERSION AS OF {ver}: {at_ts} vs {at_v}")

    # the log
    tdir = os.path.join(db, "orders")
    latest, files, problems, versions = check_log(tdir)
    expect(not problems, f"log problems: {problems}")
    expect(latest == 4, f"latest commit file {latest}")
    kinds = {ver: sorted({k for a in acts for k in a}) for ver, acts in versions.items()}
    expect("cdc" not in kinds[1], f"the pure INSERT (version 1) has cdc actions: {kinds[1]}")
    for ver in (2, 3, 4):
        expect("cdc" in kinds[ver], f"version {ver} has no cdc action: {kinds[ver]}")
    cdc_files = [a["cdc"]["path"] for ver in (2, 3, 4) for a in versions[ver] if "cdc" in a]
    on_disk = sorted("_change_data/" + f for f in os.listdir(os.path.join(tdir, "_change_data")))
    expect(sorted(cdc_files) == on_disk, f"_change_data files {on_disk} vs cdc actions {cdc_files}")
    proto = [a["protocol"] for a in versions[0] if "protocol" in a]
    expect(proto and proto[0].get("minReaderVersion") == 1 and proto[0].get("minWriterVersion") == 4, f"protocol {proto}")
    meta = [a["metaData"] for a in versions[0] if "metaData" in a]
    expect(meta and meta[0].get("configuration", {}).get("delta.enableChangeDataFeed") == "true",
           f"configuration {meta[0].get('configuration') if meta else None}")
    for ver, acts in versions.items():
        ci = [a["commitInfo"] for a in acts if "commitInfo" in a]
        expect(len(ci) == 1 and isinstance(ci[0].get("timestamp"), int), f"version {ver}: commitInfo {ci}")
finally:
    shutil.rmtree(work, ignore_errors=True)

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("delta_shell_checks: OK")
