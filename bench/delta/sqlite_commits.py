#!/usr/bin/env python3
"""SQLite peer of bench/delta's single-row commits (see bench/delta/driver).

    sqlite_commits.py DB_FILE N LATENCY_FILE|-

Opens DB_FILE with journal_mode=WAL and synchronous=FULL, creates table c
(a BIGINT, b DOUBLE, s TEXT, d TEXT) if missing, and runs N single-row
INSERTs, each in its own transaction (BEGIN; INSERT; COMMIT). Appends each
commit's latency in seconds to LATENCY_FILE ('-': none) and prints
"ok <seconds for all N> <rows> <checksum>", the checksum (bench protocol, as in
bench/lib/bench_server.hpp) of SELECT COUNT(*), SUM(a) FROM c, computed after
the timed commits. Uses Python's sqlite3 module, i.e. the system libsqlite3.
"""
import sqlite3
import sys
import time

MOD = 1000000007


def checksum(rows):
    total = 0
    for row in rows:
        h = 0
        for col, value in enumerate(row):
            if col > 0:
                h = (h * 31 + 124) % MOD
            for c in ("NULL" if value is None else str(value)).encode():
                h = (h * 31 + c) % MOD
        total = (total + h) % MOD
    return f"rows:{len(rows)},hash:{total}"


def main():
    path, n, lat_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    con = sqlite3.connect(path, isolation_level=None)  # autocommit: explicit BEGIN/COMMIT
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE IF NOT EXISTS c (a BIGINT, b DOUBLE, s TEXT, d TEXT)")
    base = con.execute("SELECT COUNT(*) FROM c").fetchone()[0]
    lat = []
    start = time.perf_counter()
    for k in range(n):
        i = base + k
        t0 = time.perf_counter()
        con.execute("BEGIN")
        con.execute("INSERT INTO c VALUES (?, ?, ?, ?)", (i, i / 2, "user_%011d" % ((i * 7919) % 10000000), "2000-01-01"))
        con.execute("COMMIT")
        lat.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    rows = con.execute("SELECT COUNT(*), SUM(a) FROM c").fetchall()
    con.close()
    if lat_path != "-":
        with open(lat_path, "a") as f:
            f.writelines(f"{s}\n" for s in lat)
    print(f"ok {total} {len(rows)} {checksum(rows)}")


if __name__ == "__main__":
    main()
