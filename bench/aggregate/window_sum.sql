SELECT count(*), sum(w) FROM (SELECT sum(length(s)) OVER (PARTITION BY g ORDER BY v ROWS 100 PRECEDING) AS w FROM t) q;
