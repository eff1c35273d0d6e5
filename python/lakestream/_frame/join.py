"""Joins of two Frames.

The result names every column explicitly, so it can be used as a derived
table: a name both sides have (other than USING keys) is kept from the left
and suffixed from the right ("_right", or lsuffix/rsuffix). The result
remembers, per original DataFrame, which output column each of its
columns became, so df2["id"] taken before the join still finds "id_right".
"""

from .column import Column
from .frame import Block, TwoSideScope, _ids
from .sql import quote_name, unquote_name

JOIN_KINDS = {
    "inner": "INNER JOIN",
    "left": "LEFT JOIN", "leftouter": "LEFT JOIN", "left_outer": "LEFT JOIN",
    "right": "RIGHT JOIN", "rightouter": "RIGHT JOIN", "right_outer": "RIGHT JOIN",
    "full": "FULL JOIN", "outer": "FULL JOIN", "fullouter": "FULL JOIN", "full_outer": "FULL JOIN",
    "cross": "CROSS JOIN",
    "semi": "SEMI", "leftsemi": "SEMI", "left_semi": "SEMI",
    "anti": "ANTI", "leftanti": "ANTI", "left_anti": "ANTI",
}


def join_frames(left, right, on, kind, lsuffix, rsuffix):
    """The Frame of ``left`` joined with ``right``; ``kind`` a JOIN_KINDS value."""
    la, ra = "__l", "__r"
    lcols, rcols = left.columns, right.columns
    using = None
    if isinstance(on, str) or (isinstance(on, (list, tuple)) and on and all(isinstance(x, str) for x in on)):
        using = [unquote_name(x) for x in ([on] if isinstance(on, str) else on)]
        for u in using:
            for side, cols in (("left", lcols), ("right", rcols)):
                if u.lower() not in (c.lower() for c in cols):
                    raise ValueError("join on %r: the %s DataFrame has no such column; its columns are: %s"
                                     % (u, side, ", ".join(cols)))
    elif isinstance(on, (list, tuple)) and on and all(isinstance(x, Column) for x in on):
        cond_col = on[0]
        for extra in on[1:]:  # a list of conditions means all of them, as in PySpark
            cond_col = cond_col & extra
        on = cond_col
    if using is None and on is not None and not isinstance(on, Column):
        raise TypeError("join() on= takes a Column condition or column names, not %r" % (on,))

    def real(cols, name):
        for c in cols:
            if c.lower() == name.lower():
                return c
        return name

    scope = TwoSideScope(left, la, right, ra)
    if using is not None:
        cond = " AND ".join("%s.%s = %s.%s" % (quote_name(la), quote_name(real(lcols, u)), quote_name(ra),
                                                quote_name(real(rcols, u))) for u in using)
    elif on is not None:
        cond = on._expr_node().render(scope)
    else:
        cond = None

    if kind in ("SEMI", "ANTI"):
        # The engine's LEFT SEMI / LEFT ANTI JOIN keeps the left rows as they
        # are (once each); an ANTI join on a NULL key keeps the row, as Spark's.
        if cond is None:
            raise ValueError("a %s join needs on= (a column name, names or a condition)" % kind.lower())
        text = "SELECT %s.* FROM (%s) AS %s LEFT %s JOIN (%s) AS %s ON %s" % (
            quote_name(la), left._sql(), quote_name(la), kind, right._sql(), quote_name(ra), cond)
        new = left._derive(Block("(%s) AS %s" % (text, quote_name("__q%d" % next(_ids)))))
        new._params = left._params + right._params
        return new

    using_low = {u.lower() for u in (using or [])}
    items, out_names, colmap, star_map = [], set(), {}, {}

    def claim(name):
        base, n = name, 1
        while name.lower() in out_names:
            n += 1
            name = "%s_%d" % (base, n)
        out_names.add(name.lower())
        return name

    left_out, right_out = {}, {}
    for u in using or []:
        lname, rname = real(lcols, u), real(rcols, u)
        if kind == "FULL JOIN":
            expr = "coalesce(%s.%s, %s.%s)" % (quote_name(la), quote_name(lname), quote_name(ra), quote_name(rname))
        elif kind == "RIGHT JOIN":
            expr = "%s.%s" % (quote_name(ra), quote_name(rname))
        else:
            expr = "%s.%s" % (quote_name(la), quote_name(lname))
        out = claim(lname)
        items.append("%s AS %s" % (expr, quote_name(out)))
        left_out[lname.lower()] = out
        right_out[rname.lower()] = out
    rlow = {c.lower() for c in rcols if c.lower() not in using_low}
    llow = {c.lower() for c in lcols if c.lower() not in using_low}
    for c in lcols:
        if c.lower() in using_low:
            continue
        out = claim(c + lsuffix if (c.lower() in rlow and lsuffix) else c)
        items.append("%s.%s AS %s" % (quote_name(la), quote_name(c), quote_name(out)))
        left_out[c.lower()] = out
    for c in rcols:
        if c.lower() in using_low:
            continue
        clash = c.lower() in llow
        want = c + rsuffix if (clash and rsuffix) else (c + "_right" if clash and not lsuffix else c)
        out = claim(want)
        items.append("%s.%s AS %s" % (quote_name(ra), quote_name(c), quote_name(out)))
        right_out[c.lower()] = out

    for side, outs, cols in ((left, left_out, lcols), (right, right_out, rcols)):
        for anc in side._ancestors:
            star_map[anc] = [outs[c.lower()] for c in cols]
            for c in cols:
                colmap[(anc, c.lower())] = outs[c.lower()]
        for (anc, low), name in side._colmap.items():
            if name.lower() in outs:
                colmap[(anc, low)] = outs[name.lower()]
        for anc, names in side._star_map.items():
            star_map[anc] = [outs[n.lower()] for n in names if n.lower() in outs]

    source = "(%s) AS %s %s (%s) AS %s" % (left._sql(), quote_name(la), kind, right._sql(), quote_name(ra))
    if cond is not None:
        source += " ON " + cond
    block = Block(source)
    block.items = items
    new = left._derive(block, colmap=colmap, star_map=star_map, ancestors=left._ancestors | right._ancestors)
    new._params = left._params + right._params
    return new
