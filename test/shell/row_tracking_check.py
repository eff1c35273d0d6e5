#!/usr/bin/env python3
"""Checks a Delta table's row tracking on its own (for test/shell/row_tracking.sh).

Usage: row_tracking_check.py LAKESTREAM TABLE_DIR OUT_JSON

Replays the log with this script's own reading of PROTOCOL.md "Row Tracking"
(the table's oldest checkpoint, read through `lakestream`'s read_parquet, then
every JSON commit after it) and checks:
  * every add committed in a JSON commit has baseRowId and
    defaultRowCommitVersion = its commit's version, and its fresh ids
    [baseRowId, baseRowId + numRecords) lie above every id given before
    (fresh ids never repeat, in any version);
  * every remove repeats the baseRowId / defaultRowCommitVersion of the add
    it removes;
  * the delta.rowTracking domain's rowIdHighWaterMark after each commit is the
    largest fresh id given so far;
  * the stable row ids of the current version are unique (stable id =
    materialized row id column, when not NULL, else baseRowId + the row's
    position in the file; the data files are read with lakestream's
    read_parquet, one file per statement, whose rows come in file order).
Prints "ok" or one line per problem, and writes the current rows with their
stable ids and commit versions to OUT_JSON:
  {"hwm": N, "rows": [{"cols": {...}, "row_id": I, "version": V}, ...]}
"""
import csv
import io
import json
import os
import subprocess
import sys
import urllib.parse

BIN, TABLE, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
LOG = os.path.join(TABLE, "_delta_log")
problems = []


def lakestream_csv(statements):
    """Runs the statements in a scratch database; returns each result as a list of dicts."""
    marked = []
    for s in statements:
        marked.append("SELECT 'next-result' AS marker")
        marked.append(s)
    db = os.path.join(os.path.dirname(OUT), "row_tracking_check_db")
    out = subprocess.run([BIN, "-csv", db, "-c", "; ".join(marked)], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit("lakestream failed: " + out.stderr)
    results = []
    rows = list(csv.reader(io.StringIO(out.stdout)))
    i = 0
    while i < len(rows):
        # marker header, marker value, then the statement's header and rows
        assert rows[i] == ["marker"] and rows[i + 1] == ["next-result"], rows[i:i + 2]
        i += 2
        header = rows[i]
        i += 1
        result = []
        while i < len(rows) and not (rows[i] == ["marker"] and i + 1 < len(rows) and rows[i + 1] == ["next-result"]):
            result.append(dict(zip(header, rows[i])))
            i += 1
        results.append(result)
    return results


def num_records(stats):
    return json.loads(stats)["numRecords"]


def mark_of(config):
    return json.loads(config)["rowIdHighWaterMark"]


names = sorted(os.listdir(LOG))
commits = sorted(int(n[:20]) for n in names if n.endswith(".json") and n[:20].isdigit())
checkpoints = sorted(int(n[:20]) for n in names if n.endswith(".checkpoint.parquet"))
files = {}  # path -> (baseRowId, defaultRowCommitVersion, numRecords)
hwm = None
highest = -1  # largest fresh id given in any version seen
start = -1
if checkpoints and (not commits or commits[0] > 0):
    start = checkpoints[0]
    cp = os.path.join(LOG, "%020d.checkpoint.parquet" % start)
    adds, domains = lakestream_csv([
        "SELECT \"add\".path AS path, \"add\".baseRowId AS b, \"add\".defaultRowCommitVersion AS v, "
        "\"add\".stats AS s FROM read_parquet('%s') WHERE \"add\" IS NOT NULL" % cp,
        "SELECT domainMetadata.configuration AS c FROM read_parquet('%s') "
        "WHERE domainMetadata.domain = 'delta.rowTracking'" % cp])
    for a in adds:
        n = num_records(a["s"])
        files[urllib.parse.unquote(a["path"])] = (int(a["b"]), int(a["v"]), n)
        highest = max(highest, int(a["b"]) + n - 1)
    if domains:
        hwm = mark_of(domains[0]["c"])
        highest = max(highest, hwm)  # ids of files removed before the checkpoint
for v in commits:
    if v <= start:
        continue
    actions = [json.loads(l) for l in open(os.path.join(LOG, "%020d.json" % v)) if l.strip()]
    before = highest
    for a in actions:
        if "remove" in a:
            r = a["remove"]
            path = urllib.parse.unquote(r["path"])
            old = files.pop(path, None)
            if old and (r.get("baseRowId"), r.get("defaultRowCommitVersion")) != old[:2]:
                problems.append("version %d: remove of %s has %s/%s, its add %s/%s" % (
                    v, path, r.get("baseRowId"), r.get("defaultRowCommitVersion"), old[0], old[1]))
    for a in actions:
        if "add" in a:
            add = a["add"]
            path = urllib.parse.unquote(add["path"])
            base, version = add.get("baseRowId"), add.get("defaultRowCommitVersion")
            n = num_records(add["stats"])
            if base is None or version != v:
                problems.append("version %d: add %s has baseRowId %s, defaultRowCommitVersion %s" % (v, path, base, version))
                continue
            if n > 0 and base <= before:
                problems.append("version %d: add %s reuses fresh ids: baseRowId %d, ids up to %d given before" % (
                    v, path, base, before))
            files[path] = (base, version, n)
            highest = max(highest, base + n - 1)
        if "domainMetadata" in a and a["domainMetadata"]["domain"] == "delta.rowTracking":
            hwm = mark_of(a["domainMetadata"]["configuration"])
    if hwm != (highest if highest >= 0 else None):
        problems.append("version %d: rowIdHighWaterMark %s, largest fresh id given %d" % (v, hwm, highest))

meta = {}
for v in commits:
    for l in open(os.path.join(LOG, "%020d.json" % v)):
        if l.strip() and "metaData" in json.loads(l):
            meta = json.loads(l)["metaData"]["configuration"]
if not meta and start >= 0:
    (rows,) = lakestream_csv(["SELECT metaData.configuration['%s'] AS i, metaData.configuration['%s'] AS v "
                              "FROM read_parquet('%s') WHERE metaData IS NOT NULL" % (
                                  "delta.rowTracking.materializedRowIdColumnName",
                                  "delta.rowTracking.materializedRowCommitVersionColumnName",
                                  os.path.join(LOG, "%020d.checkpoint.parquet" % start))])
    meta = {"delta.rowTracking.materializedRowIdColumnName": rows[0]["i"],
            "delta.rowTracking.materializedRowCommitVersionColumnName": rows[0]["v"]}
id_col = meta.get("delta.rowTracking.materializedRowIdColumnName")
version_col = meta.get("delta.rowTracking.materializedRowCommitVersionColumnName")

paths = sorted(files)
results = lakestream_csv(["SELECT * FROM read_parquet('%s')" % os.path.join(TABLE, p) for p in paths])
rows = []
for path, result in zip(paths, results):
    base, version, n = files[path]
    if len(result) != n:
        problems.append("%s holds %d rows, numRecords %d" % (path, len(result), n))
    for position, row in enumerate(result):
        rid = row.pop(id_col, "") if id_col else ""
        rcv = row.pop(version_col, "") if version_col else ""
        rows.append({"cols": row, "row_id": int(rid) if rid != "" else base + position,
                     "version": int(rcv) if rcv != "" else version})
ids = [r["row_id"] for r in rows]
if len(set(ids)) != len(ids):
    problems.append("stable row ids repeat: %d rows, %d distinct ids" % (len(ids), len(set(ids))))
json.dump({"hwm": hwm, "rows": rows}, open(OUT, "w"))
print("\n".join(problems) if problems else "ok")
