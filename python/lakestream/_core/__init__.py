"""The core layer of the lakestream package (docs/python.md): connections,
relations, DB-API cursors, the exception classes and the type mapping."""
