# A FROM list of 16 tables (more than the exact-enumeration limit of 12, so
# the greedy order is used; a 6-table query uses the exact one) joined through
# WHERE predicates written in a shuffled order: same answer as DuckDB.
import random

NAME = 'test/sql/join/join_order.test'
DESCRIPTION = 'many tables in FROM joined through WHERE predicates, in a shuffled (seeded) order: count and checksums checked against DuckDB; the plan is checked in join_order_plan.test'
GROUP = 'join'
_N = 16
_rng = random.Random(16)
SETUP = []
for _i in range(_N):
    SETUP.append('CREATE TABLE j%d (k INT, p INT, v INT)' % _i)
    # k unique 0..19 plus a few repeats; p a permutation-like spread; v distinct
    SETUP.append('INSERT INTO j%d SELECT range %% 20, (range * 7 + %d) %% 20, range + %d FROM range(%d)' % (_i, _i, 1000 * _i, 20 + _i % 3))
_preds = ['j%d.p = j%d.k' % (i, _rng.randrange(i)) for i in range(1, _N)]
_preds += ['j3.v % 3 <> 0', 'j12.k < 15']
_order = list(range(_N))
_rng.shuffle(_order)
_rng.shuffle(_preds)
_from = ', '.join('j%d' % i for i in _order)
_where = ' AND '.join(_preds)
_given = ', '.join('j%d' % i for i in range(_N))
_small = 'SELECT count(*), sum(j0.v), sum(j5.v - j1.k) FROM j5, j3, j0, j4, j1, j2 WHERE j1.p = j0.k AND j4.k = j3.p AND j2.p = j1.k AND j3.k = j2.p AND j5.p = j4.k AND j0.v > 2'
CASES = [
 ('comment', 'shuffled FROM and WHERE order (greedy ordering: 16 relations)'),
 ('III', 'SELECT count(*), sum(j0.v), sum(j15.v + j7.p) FROM %s WHERE %s' % (_from, _where)),
 ('comment', 'the same query in the given order'),
 ('III', 'SELECT count(*), sum(j0.v), sum(j15.v + j7.p) FROM %s WHERE %s' % (_given, _where)),
 ('comment', 'JOIN ... ON spelling of a 6-table chain, written starting with two unrelated tables (exact ordering)'),
 ('III', _small),
 ('IIII', 'SELECT j0.k AS k0, j1.k AS k1, j2.k AS k2, j3.v AS v3 FROM j3 JOIN j0 ON j3.k = j0.k JOIN j2 ON j2.k = j0.k JOIN j1 ON j1.p = j2.k WHERE j3.v % 2 = 0', 'rowsort'),
 ('comment', 'a predicate over three tables, and tables no predicate links (a cross product remains)'),
 ('I', 'SELECT count(*) FROM j1, j2, j3 WHERE j1.k = j2.k AND j1.p + j2.p = j3.k'),
 ('I', 'SELECT count(*) FROM j1, j2, j3 WHERE j1.k = j2.k'),
 ('comment', 'a LEFT JOIN inside the list is not reordered across'),
 ('II', 'SELECT count(*), count(j9.k) FROM j7, j8 LEFT JOIN j9 ON j8.k = j9.p AND j9.v % 2 = 0, j6 WHERE j7.k = j8.p AND j6.k = j7.p'),
]
