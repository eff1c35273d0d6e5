"""delta-spark's Python API on lakestream: ``from lakestream.pyspark.delta.tables import DeltaTable``."""
