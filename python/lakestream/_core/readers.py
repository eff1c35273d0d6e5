"""read_parquet / read_csv / read_json, DuckDB's Python readers, on the
engine's read_files() (docs/pipelines.md "read_files()"). Each keyword is
honoured or refused by name."""

import os

from .errors import NotSupportedError, ProgrammingError


def _literal(text):
    return "'" + str(text).replace("'", "''") + "'"


def _paths(path):
    if isinstance(path, (list, tuple)):
        if not path:
            raise ProgrammingError("read_*(): the list of paths is empty")
        return "list_value(" + ", ".join(_literal(os.fspath(p)) for p in path) + ")"
    if not isinstance(path, (str, os.PathLike)):
        raise ProgrammingError(f"read_*(): a path (str) or a list of paths, not {type(path).__name__}")
    return _literal(os.fspath(path))


def _bool(name, value):
    if not isinstance(value, bool):
        raise ProgrammingError(f"read_*({name}=...): True or False, not {value!r}")
    return "true" if value else "false"


def _one_char(name, value):
    if not isinstance(value, str) or len(value) != 1:
        raise ProgrammingError(f"read_csv({name}=...): one character, not {value!r}")
    return _literal(value)


def _refuse(function, options, supported):
    if options:
        name = sorted(options)[0]
        raise NotSupportedError(f"{function}({name}=...) is not supported yet; {function} takes {supported}")


def read_files_query(path, fmt, arguments):
    named = "".join(f", {k} => {v}" for k, v in arguments)
    return f"SELECT * FROM read_files({_paths(path)}, format => {_literal(fmt)}{named})"


def parquet_query(path, **options):
    _refuse("read_parquet", options, "a path or a list of paths")
    return read_files_query(path, "parquet", [])


def csv_query(path, header=None, sep=None, delimiter=None, delim=None, quotechar=None, quote=None, **options):
    """The engine's read_csv(): DuckDB's defaults, so the header and the
    separator are sniffed unless given."""
    _refuse("read_csv", options, "header, sep (delimiter, delim), quotechar (quote)")
    arguments = []
    if header is not None:
        arguments.append(("header", _bool("header", header)))
    separators = [s for s in (sep, delimiter, delim) if s is not None]
    if len(separators) > 1:
        raise ProgrammingError("read_csv(): give the separator once (sep, delimiter or delim)")
    if separators:
        arguments.append(("delim", _one_char("sep", separators[0])))
    quotes = [q for q in (quotechar, quote) if q is not None]
    if quotes:
        arguments.append(("quote", _one_char("quotechar", quotes[0])))
    named = "".join(f", {k} := {v}" for k, v in arguments)
    return f"SELECT * FROM read_csv({_paths(path)}{named})"


def json_query(path, **options):
    _refuse("read_json", options, "a path or a list of paths (JSON lines, or a whole-file array or object)")
    return read_files_query(path, "json", [])
