#!/usr/bin/python3
"""COPY FROM STDIN and COPY TO STDOUT (CSV) of N rows through psycopg:
`lakestream serve` against PostgreSQL 15 on the same machine, same run.

Usage: /usr/bin/python3 bench/server/copy_bench.py build/release/lakestream [rows]
PostgreSQL comes from Debian (postgresql); run as root (the cluster is
made as the `postgres` user) or skip it with LAKESTREAM_BENCH_NO_POSTGRES=1.
Prints a table of seconds and the lakestream/PostgreSQL ratio.
"""
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import psycopg


def rows_csv(n):
    out = io.StringIO()
    for i in range(n):
        out.write(f"{i},name {i % 1000},{i % 10000}.{i % 100:02d},2024-{1 + i % 12:02d}-{1 + i % 28:02d}\n")
    return out.getvalue()


def run(con, data):
    con.execute("CREATE TABLE copy_bench (id BIGINT, name VARCHAR, amount DECIMAL(10,2), d DATE)")
    t0 = time.perf_counter()
    with con.cursor().copy("COPY copy_bench FROM STDIN (FORMAT csv)") as copy:
        for start in range(0, len(data), 1 << 20):
            copy.write(data[start:start + (1 << 20)])
    t_in = time.perf_counter() - t0
    t0 = time.perf_counter()
    size = 0
    with con.cursor().copy("COPY copy_bench TO STDOUT (FORMAT csv)") as copy:
        for chunk in copy:
            size += len(chunk)
    t_out = time.perf_counter() - t0
    assert size == len(data), (size, len(data))  # the same text back out
    return t_in, t_out


def lakestream(binary, data, tmp):
    log = open(os.path.join(tmp, "serve.log"), "w+")
    proc = subprocess.Popen([binary, "serve", os.path.join(tmp, "db"), "--listen", "127.0.0.1:0"], stderr=log)
    try:
        for _ in range(200):
            log.seek(0)
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read())
            if m:
                break
            time.sleep(0.05)
        with psycopg.connect(host="127.0.0.1", port=int(m.group(1)), user="bench", dbname="x", autocommit=True) as con:
            return run(con, data)
    finally:
        proc.terminate()
        proc.wait()


def postgres(data, tmp):
    pgdir = os.path.join(tmp, "pg")
    os.makedirs(pgdir)
    shutil.chown(pgdir, "postgres", "postgres")
    as_pg = ["su", "postgres", "-c"]
    subprocess.run(as_pg + [f"initdb -D {pgdir}/data -A trust -U postgres >/dev/null"], check=True)
    subprocess.run(as_pg + [f"pg_ctl -D {pgdir}/data -o '-p 55499 -k {pgdir} -c fsync=on' -w start >/dev/null"],
                   check=True)
    try:
        with psycopg.connect(host=pgdir, port=55499, user="postgres", dbname="postgres", autocommit=True) as con:
            return run(con, data)
    finally:
        subprocess.run(as_pg + [f"pg_ctl -D {pgdir}/data -m fast stop >/dev/null"], check=True)


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    data = rows_csv(n)
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        ours = lakestream(binary, data, tmp)
        theirs = None if os.environ.get("LAKESTREAM_BENCH_NO_POSTGRES") else postgres(data, tmp)
    print(f"COPY of {n} rows ({len(data) / 1e6:.1f} MB CSV), psycopg over loopback\n")
    print("| direction | lakestream serve | PostgreSQL 15 | ratio |")
    print("| --- | --- | --- | --- |")
    for i, name in enumerate(["FROM STDIN (csv)", "TO STDOUT (csv)"]):
        pg = f"{theirs[i]:.2f} s" if theirs else "-"
        ratio = f"{ours[i] / theirs[i]:.2f}" if theirs else "-"
        print(f"| {name} | {ours[i]:.2f} s | {pg} | {ratio} |")


if __name__ == "__main__":
    main()
