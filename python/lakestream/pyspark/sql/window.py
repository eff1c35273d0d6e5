"""pyspark.sql.window: Window and WindowSpec (the shared layer's, with PySpark's names)."""

from ..._frame.window import Window, WindowSpec  # noqa: F401

__all__ = ["Window", "WindowSpec"]
