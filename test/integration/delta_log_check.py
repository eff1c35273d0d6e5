"""Shared helpers for the Delta integration tests: run the shell, check a table's _delta_log."""
import csv
import io
import json
import os
import re
import subprocess
from urllib.parse import unquote

COMMIT_RE = re.compile(r"^(\d{20})\.json$")


def shell(binary, db, *sqls, timeout=60):
    args = [binary, db, "-csv"]
    for s in sqls:
        args += ["-c", s]
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"lakestream {sqls!r} failed (rc {p.returncode}): {p.stderr.strip()}")
    return p.stdout


def csv_rows(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0] if rows else [], rows[1:]


def check_log(table_dir):
    """Every commit file parses, versions are contiguous, every file the log references exists.
    Returns (latest version, {path: partitionValues} of the latest snapshot, list of problems)."""
    log = os.path.join(table_dir, "_delta_log")
    problems = []
    versions = {}
    for name in os.listdir(log):
        m = COMMIT_RE.match(name)
        if not m:
            continue
        v = int(m.group(1))
        actions = []
        with open(os.path.join(log, name), "rb") as f:
            data = f.read()
        if not data.endswith(b"\n") and data:
            pass  # a final newline is optional in the protocol
        for i, line in enumerate(data.decode("utf-8").splitlines()):
            if not line.strip():
                continue
            try:
                actions.append(json.loads(line))
            except json.JSONDecodeError as e:
                problems.append(f"{name}: line {i + 1} does not parse ({e}): {line[:120]!r}")
        if not any("commitInfo" in a or "add" in a or "remove" in a or "metaData" in a for a in actions):
            problems.append(f"{name}: no actions")
        versions[v] = actions
    if not versions:
        return -1, {}, ["no commits"]
    latest = max(versions)
    first = min(versions)
    missing = [v for v in range(first, latest + 1) if v not in versions]
    if missing:
        problems.append(f"commit files missing for versions {missing[:10]}")
    if first != 0:
        problems.append(f"log starts at version {first}")
    files = {}
    for v in range(first, latest + 1):
        for a in versions.get(v, []):
            if "add" in a:
                files[a["add"]["path"]] = a["add"].get("partitionValues", {})
            if "remove" in a:
                files.pop(a["remove"]["path"], None)
            if "cdc" in a and not os.path.exists(os.path.join(table_dir, unquote(a["cdc"]["path"]))):
                problems.append(f"version {v}: cdc file {a['cdc']['path']} does not exist")
    for p in files:
        if not os.path.exists(os.path.join(table_dir, unquote(p))):
            problems.append(f"latest snapshot: data file {p} does not exist")
    lc = os.path.join(log, "_last_checkpoint")
    if os.path.exists(lc):
        try:
            with open(lc) as f:
                cp = json.loads(f.read())
            cpf = os.path.join(log, "%020d.checkpoint.parquet" % cp["version"])
            if not os.path.exists(cpf):
                problems.append(f"_last_checkpoint names version {cp['version']} whose checkpoint file is missing")
        except Exception as e:  # noqa: BLE001
            problems.append(f"_last_checkpoint does not parse: {e}")
    return latest, files, problems, versions
