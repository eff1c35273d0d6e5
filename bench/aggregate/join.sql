SELECT COUNT(*) FROM t JOIN d ON t.g * 1000 + (t.g % 3) = d.k;
