SELECT g, SUM(v) AS total, COUNT(*) AS n FROM src GROUP BY g;
