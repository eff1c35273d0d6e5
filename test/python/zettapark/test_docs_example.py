"""The example at the top of docs/python-zettapark.md runs as written."""

import os
import re
from decimal import Decimal

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "python-zettapark.md")


def test_the_documented_example_runs(tmp_path, monkeypatch, capsys):
    with open(DOC, encoding="utf-8") as f:
        code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    monkeypatch.chdir(tmp_path)  # the example opens the database directory "lake"
    scope = {}
    exec(compile(code, DOC, "exec"), scope)
    session = scope["session"]
    assert sorted(tuple(r) for r in session.table("orders_target").collect()) == [
        (1, "apple", Decimal("1.50")), (2, "pear", Decimal("2.00"))]
    assert session.table("orders_stream").count() == 0
    assert '"item"' in capsys.readouterr().out  # changes.show() printed its table
    session.close()
