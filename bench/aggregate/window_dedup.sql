SELECT count(*), sum(v), max(v) FROM (SELECT g, v, s, row_number() OVER (PARTITION BY s ORDER BY v DESC) AS rn FROM t) q WHERE rn = 1;
