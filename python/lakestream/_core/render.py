"""Text rendering of a result for Relation.show() and repr()."""


def _cell(value):
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render(native, max_rows=20, max_width=None, max_cell=40):
    """A boxed table: names, types, then the rows (the first and last
    max_rows/2 when there are more), then the row count."""
    names = list(native.names)
    types = list(native.types)
    total = native.row_count
    if total <= max_rows:
        rows, gap = native.rows(0, total), False
    else:
        head = max_rows // 2
        tail = max_rows - head
        rows, gap = native.rows(0, head) + native.rows(total - tail, tail), True
    text = [[_clip(_cell(v), max_cell) for v in row] for row in rows]
    widths = [max([len(n), len(t)] + [len(r[i]) for r in text]) for i, (n, t) in enumerate(zip(names, types))]
    sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells, right=None):
        parts = []
        for i, (c, w) in enumerate(zip(cells, widths)):
            parts.append(" " + (c.rjust(w) if right and right[i] else c.ljust(w)) + " ")
        return "|" + "|".join(parts) + "|"

    numeric = [t.split("(")[0] in ("INTEGER", "BIGINT", "DOUBLE", "DECIMAL") for t in types]
    out = [sep, line(names), line(types), sep]
    for i, r in enumerate(text):
        if gap and i == max_rows // 2:
            out.append(line(["..."] * len(names)))
        out.append(line(r, numeric))
    out.append(sep)
    out.append(f"{total} row{'s' if total != 1 else ''}" + (f" ({len(rows)} shown)" if gap else ""))
    result = "\n".join(out)
    if max_width:
        result = "\n".join(l[:max_width] for l in result.split("\n"))
    return result


def _clip(s, n):
    s = s.replace("\n", "\\n")
    return s if len(s) <= n else s[: n - 1] + "…"
