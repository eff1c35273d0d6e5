SELECT count(*), sum(v), max(v) FROM (SELECT g, v, s, rank() OVER (PARTITION BY s ORDER BY v DESC) AS r FROM t) q WHERE r = 1;
