SELECT COUNT(*), COUNT(t.g), COUNT(d.k) FROM t FULL JOIN d ON t.g * 1000 + (t.g % 3) = d.k;
