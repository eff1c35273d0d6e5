# bench/ingest data: N change-stream-like JSON records (nested document, an
# array of item objects, an ISO timestamp) in FILES JSON-lines files.
import sys

out_dir, n, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cities = ["Paris", "Berlin", "Lima", "Oslo", "Quito", "Rome", "Seoul", "Tunis"]
per_file = (n + files - 1) // files
for f in range(files):
    with open("%s/part-%03d.json" % (out_dir, f), "w") as out:
        for i in range(f * per_file, min(n, (f + 1) * per_file)):
            items = ",".join('{"sku": "s%d", "qty": %d, "price": %d.25}' % ((i + k) % 500, 1 + (i + k) % 7, (i + k) % 90)
                             for k in range(1 + i % 3))
            out.write('{"_id": %d, "operationType": "insert", "ts": "2024-03-%02dT%02d:%02d:%02d.%03dZ", '
                      '"fullDocument": {"owner_id": %d, "name": "user_%d", "active": %s, '
                      '"address": {"city": "%s", "zip": "%05d"}, "items": [%s]}}\n'
                      % (i, 1 + i % 28, i % 24, i % 60, (i * 7) % 60, i % 1000, i % 1000, i,
                         "true" if i % 2 else "false", cities[i % len(cities)], i % 100000, items))
