"""The lazy DataFrame layer shared by the Zettapark and PySpark facades.

DataFrame operations build SQL text (``frame.py``); column expressions are
small trees rendered against a scope (``column.py``); writes, merges,
updates and deletes are each one statement (``writer.py``, ``merge.py``).
Nothing here talks to the extension: a Frame holds a core connection
(``lakestream.connect``) and runs its text with ``conn.sql``.

A facade reuses it by subclassing: ``Frame`` (set ``row_class``,
``column_class``; operations return ``type(self)``), ``Column`` (operators
return ``type(self)``), ``GroupedFrame``; and by re-exporting
``functions`` (str arguments name columns) and ``types``.
"""

from . import functions, types
from .column import Column
from .frame import Frame, GroupedFrame
from .merge import MatchedClause, NotMatchedClause
from .row import Row
from .sql import literal, quote_name, quote_user_name, type_sql, unquote_name
from .writer import SAVE_MODES, save_as_table

__all__ = ["Column", "Frame", "GroupedFrame", "MatchedClause", "NotMatchedClause", "Row", "SAVE_MODES",
           "functions", "literal", "quote_name", "quote_user_name", "save_as_table", "type_sql", "types",
           "unquote_name"]
