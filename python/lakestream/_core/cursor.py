"""DB-API 2.0 (PEP 249) pieces: the cursor description and the type objects."""

# TypeKind numbers of the C++ API (lakestream/value.hpp), as type_details gives them.
_DECIMAL = 6


def describe(native):
    """PEP 249 description: (name, type_code, display_size, internal_size,
    precision, scale, null_ok) per column. type_code is the SQL type text
    ("BIGINT", "DECIMAL(10,2)"), which compares equal to the matching type
    objects (lakestream.NUMBER == "BIGINT")."""
    out = []
    for name, type_name, (kind, width, scale) in zip(native.names, native.types, native.type_details):
        precision, sc = (width, scale) if kind == _DECIMAL else (None, None)
        out.append((name, type_name, None, None, precision, sc, None))
    return out


class DBAPIType:
    """A PEP 249 type object: equal to every SQL type name of its group."""

    def __init__(self, name, prefixes):
        self.name = name
        self._prefixes = prefixes

    def __eq__(self, other):
        if isinstance(other, DBAPIType):
            return other is self
        if isinstance(other, str):
            base = other.upper()
            if base.endswith("]"):
                return False
            return base.split("(")[0] in self._prefixes
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"<lakestream.{self.name}>"


STRING = DBAPIType("STRING", ("VARCHAR",))
BINARY = DBAPIType("BINARY", ("BLOB",))
NUMBER = DBAPIType("NUMBER", ("BOOLEAN", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL"))
DATETIME = DBAPIType("DATETIME", ("DATE", "TIMESTAMP", "TIMESTAMP_NTZ"))
ROWID = DBAPIType("ROWID", ())
