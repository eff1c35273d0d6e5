"""Zettapark/Snowpark-style API over lakestream.

    from lakestream.zettapark import Session
    from lakestream.zettapark import functions as F

    session = Session.builder.configs({"database": "lake"}).create()
    (session.table("orders_stream")
        .filter(F.col("`__change_type`").isin(["INSERT", "UPDATE_AFTER"]))
        .select("id", "amount")
        .write.save_as_table("orders_target", mode="append"))

See docs/python-zettapark.md for what each call does.
"""

from .._frame.row import Row
from . import functions, types
from .column import CaseExpr, Column
from .dataframe import (DataFrame, DataFrameWriter, DeleteResult, MergeResult, RelationalGroupedDataFrame,
                        Table, UpdateResult)
from .functions import WhenMatchedClause, WhenNotMatchedClause
from .._frame.window import Window, WindowSpec
from .session import Session, SessionBuilder

__all__ = ["CaseExpr", "Column", "DataFrame", "DataFrameWriter", "DeleteResult", "MergeResult",
           "RelationalGroupedDataFrame", "Row", "Session", "SessionBuilder", "Table", "UpdateResult",
           "WhenMatchedClause", "WhenNotMatchedClause", "Window", "WindowSpec", "functions", "types"]
