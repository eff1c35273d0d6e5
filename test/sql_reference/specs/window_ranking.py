NAME = 'test/sql/window/ranking.test'
DESCRIPTION = 'row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead, first_value, last_value, nth_value: ties, NULLs in partition and order keys, empty input, partition edges; expected results checked against DuckDB'
GROUP = 'window'
SETUP = [
 'CREATE TABLE t (id INT, g INT, o INT, x INT, s VARCHAR)',
 "INSERT INTO t VALUES (1, 1, 10, 5, 'a'), (2, 1, 20, NULL, 'b'), (3, 1, 20, 7, 'c'), (4, 1, NULL, 8, NULL), (5, 2, 5, 1, 'e'), (6, 2, 5, 2, 'f'), (7, 2, 6, NULL, 'g'), (8, NULL, 1, 3, 'h'), (9, NULL, 2, 4, 'i'), (10, 3, 100, 9, 'j')",
 'CREATE TABLE empty_t (id INT, g INT, o INT, x INT)',
]
CASES = [
 ('comment', 'ranking with ties (ids 2 and 3 tie on o) and a NULL order key (sorts last ascending); NULL g is one partition'),
 ('IIIIIRR', 'SELECT id, row_number() OVER (PARTITION BY g ORDER BY o, id) AS rn, rank() OVER (PARTITION BY g ORDER BY o) AS r, dense_rank() OVER (PARTITION BY g ORDER BY o) AS dr, count(*) OVER (PARTITION BY g) AS n, percent_rank() OVER (PARTITION BY g ORDER BY o) AS pr, cume_dist() OVER (PARTITION BY g ORDER BY o) AS cd FROM t ORDER BY id'),
 ('IIII', 'SELECT id, rank() OVER (ORDER BY o DESC NULLS FIRST) AS r, dense_rank() OVER (ORDER BY o DESC NULLS LAST) AS dr, row_number() OVER (ORDER BY o NULLS FIRST, id DESC) AS rn FROM t ORDER BY id'),
 ('IRR', 'SELECT id, percent_rank() OVER (ORDER BY g NULLS FIRST) AS pr, cume_dist() OVER (ORDER BY g NULLS FIRST) AS cd FROM t ORDER BY id'),
 ('comment', 'no ORDER BY: every row of a partition is a peer'),
 ('III', 'SELECT id, rank() OVER (PARTITION BY g) AS r, dense_rank() OVER () AS dr FROM t ORDER BY id'),
 ('comment', 'ntile: buckets of unequal size, more buckets than rows'),
 ('IIII', 'SELECT id, ntile(3) OVER (ORDER BY id) AS a, ntile(4) OVER (PARTITION BY g ORDER BY id) AS b, ntile(20) OVER (ORDER BY id) AS c FROM t ORDER BY id'),
 ('II', 'SELECT range AS i, ntile(7) OVER (ORDER BY range) FROM range(30) ORDER BY i'),
 ('comment', 'lag and lead: default offset 1, an offset, a default value, partition edges, NULL values'),
 ('IIIIII', 'SELECT id, lag(x) OVER (PARTITION BY g ORDER BY id) AS l1, lead(x) OVER (PARTITION BY g ORDER BY id) AS d1, lag(x, 2) OVER (PARTITION BY g ORDER BY id) AS l2, lead(x, 2, -1) OVER (PARTITION BY g ORDER BY id) AS d2, lag(x, 0) OVER (ORDER BY id) AS l0 FROM t ORDER BY id'),
 ('ITTI', 'SELECT id, lag(s, 1, \'none\') OVER (ORDER BY id) AS ls, lead(s) OVER (ORDER BY id DESC) AS ds, lag(id, 3, id * 100) OVER (ORDER BY id) AS ld FROM t ORDER BY id'),
 ('comment', 'a frame does not change lag/lead'),
 ('II', 'SELECT id, lag(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM t ORDER BY id'),
 ('comment', 'first_value / last_value / nth_value with the default frame (to the last peer), whole partitions, and explicit frames'),
 ('IIIII', 'SELECT id, first_value(x) OVER (PARTITION BY g ORDER BY o, id) AS f, last_value(x) OVER (PARTITION BY g ORDER BY o) AS l, nth_value(x, 2) OVER (PARTITION BY g ORDER BY id) AS n2, last_value(id) OVER (PARTITION BY g) AS lp FROM t ORDER BY id'),
 ('IIII', 'SELECT id, first_value(x) OVER w AS f, last_value(x) OVER w AS l, nth_value(x, 3) OVER w AS n3 FROM t WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id'),
 ('ITT', 'SELECT id, first_value(s) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS f, last_value(s) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS l FROM t ORDER BY id'),
 ('comment', 'IGNORE NULLS skips NULL values (both spellings)'),
 ('IIIIII', 'SELECT id, first_value(x IGNORE NULLS) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS f, last_value(x IGNORE NULLS) OVER (ORDER BY o NULLS FIRST, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS l, nth_value(x, 2 IGNORE NULLS) OVER (PARTITION BY g ORDER BY id) AS n, lag(x IGNORE NULLS) OVER (ORDER BY id) AS lg, lead(x, 2 IGNORE NULLS) OVER (ORDER BY id) AS ld FROM t ORDER BY id'),
 ('comment', 'empty input gives no rows'),
 ('IIII', 'SELECT id, row_number() OVER (ORDER BY o), lag(x) OVER (PARTITION BY g ORDER BY o), sum(x) OVER (ORDER BY id ROWS 2 PRECEDING) FROM empty_t'),
 ('III', 'SELECT id, rank() OVER (ORDER BY o), first_value(x) OVER (ORDER BY id) FROM t WHERE id > 100'),
 ('comment', 'many vectors: partitions that cross the 2048-row chunks'),
 ('IIIII', 'SELECT count(*), sum(rn), max(rn), sum(r), sum(l) FROM (SELECT row_number() OVER (PARTITION BY range % 3 ORDER BY range DESC) AS rn, rank() OVER (ORDER BY (range - range % 10)) AS r, lag(range, 5, 0) OVER (PARTITION BY range % 7 ORDER BY range) AS l FROM range(10000)) q'),
]
