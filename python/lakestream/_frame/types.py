"""Data types of DataFrame columns, parsed from the engine's type spelling.

The class names are the ones Snowpark and PySpark share (LongType,
StringType, StructType, ...). ``sql()`` gives the spelling used in CAST;
``parse_type`` reads what the engine reports ("DECIMAL(10,2)", "VARCHAR[]",
"STRUCT(a INTEGER, b VARCHAR)", "MAP(VARCHAR, BIGINT)").
"""


class DataType:
    _sql = None

    def sql(self):
        if self._sql is None:
            raise NotImplementedError("%s: lakestream has no such column type" % type(self).__name__)
        return self._sql

    def simple_string(self):
        return self.sql().lower()

    simpleString = simple_string

    def __eq__(self, other):
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash((type(self).__name__, repr(self)))

    def __repr__(self):
        return "%s()" % type(self).__name__


class NullType(DataType):
    _sql = "NULL"


class BooleanType(DataType):
    _sql = "BOOLEAN"


class ByteType(DataType):
    pass


class ShortType(DataType):
    pass


class IntegerType(DataType):
    _sql = "INTEGER"


class LongType(DataType):
    _sql = "BIGINT"


class FloatType(DataType):
    _sql = "FLOAT"


class DoubleType(DataType):
    _sql = "DOUBLE"


class StringType(DataType):
    _sql = "VARCHAR"

    def __init__(self, length=None):
        self.length = length

    def simple_string(self):
        return "string"

    simpleString = simple_string


class BinaryType(DataType):
    _sql = "BLOB"


class DateType(DataType):
    _sql = "DATE"


class TimestampType(DataType):
    """An instant (Spark's TIMESTAMP_LTZ), shown in the session time zone."""
    _sql = "TIMESTAMP"


class TimestampNTZType(DataType):
    """A wall clock without time zone (Spark's TIMESTAMP_NTZ)."""
    _sql = "TIMESTAMP_NTZ"


class DecimalType(DataType):
    def __init__(self, precision=38, scale=0):
        self.precision = precision
        self.scale = scale

    def sql(self):
        return "DECIMAL(%d,%d)" % (self.precision, self.scale)

    def __repr__(self):
        return "DecimalType(%d, %d)" % (self.precision, self.scale)


class ArrayType(DataType):
    def __init__(self, element_type=None):
        self.element_type = element_type if element_type is not None else StringType()

    @property
    def elementType(self):
        return self.element_type

    def sql(self):
        return "%s[]" % self.element_type.sql()

    def __repr__(self):
        return "ArrayType(%r)" % (self.element_type,)


class MapType(DataType):
    def __init__(self, key_type=None, value_type=None):
        self.key_type = key_type if key_type is not None else StringType()
        self.value_type = value_type if value_type is not None else StringType()

    @property
    def keyType(self):
        return self.key_type

    @property
    def valueType(self):
        return self.value_type

    def sql(self):
        return "MAP<%s, %s>" % (self.key_type.sql(), self.value_type.sql())

    def __repr__(self):
        return "MapType(%r, %r)" % (self.key_type, self.value_type)


class StructField:
    """One column: ``name``, ``datatype`` (``dataType`` too) and ``nullable``."""

    def __init__(self, name, datatype, nullable=True):
        self.name = name
        self.datatype = datatype
        self.nullable = nullable

    @property
    def dataType(self):
        return self.datatype

    @property
    def column_identifier(self):
        return self.name

    def __eq__(self, other):
        return (isinstance(other, StructField) and self.name == other.name
                and self.datatype == other.datatype and self.nullable == other.nullable)

    def __hash__(self):
        return hash((self.name, repr(self.datatype)))

    def __repr__(self):
        return "StructField(%r, %r, nullable=%r)" % (self.name, self.datatype, self.nullable)


class StructType(DataType):
    def __init__(self, fields=None):
        self.fields = list(fields or [])

    @property
    def names(self):
        return [f.name for f in self.fields]

    def field_names(self):
        return self.names

    fieldNames = field_names

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            for f in self.fields:
                if f.name.lower() == key.lower():
                    return f
            raise KeyError("no field %r; the fields are %s" % (key, ", ".join(self.names)))
        return self.fields[key]

    def sql(self):
        from .sql import quote_name
        return "STRUCT<%s>" % ", ".join("%s: %s" % (quote_name(f.name), f.datatype.sql()) for f in self.fields)

    def __repr__(self):
        return "StructType([%s])" % ", ".join(repr(f) for f in self.fields)


_SIMPLE = {
    "BOOLEAN": BooleanType, "BOOL": BooleanType,
    "TINYINT": ByteType, "SMALLINT": ShortType,
    "INTEGER": IntegerType, "INT": IntegerType,
    "BIGINT": LongType, "LONG": LongType,
    "FLOAT": FloatType, "REAL": FloatType, "DOUBLE": DoubleType,
    "VARCHAR": StringType, "STRING": StringType, "TEXT": StringType,
    "BLOB": BinaryType, "BINARY": BinaryType,
    "DATE": DateType, "TIMESTAMP": TimestampType, "TIMESTAMP_NTZ": TimestampNTZType,
    "NULL": NullType, '"NULL"': NullType,
}


class _TypeParser:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def fail(self):
        raise ValueError("cannot read the type %r (at character %d)" % (self.text, self.pos))

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, s):
        self.skip()
        return self.text.startswith(s, self.pos)

    def expect(self, s):
        if not self.peek(s):
            self.fail()
        self.pos += len(s)

    def word(self):
        self.skip()
        if self.pos < len(self.text) and self.text[self.pos] == '"':
            end = self.pos + 1
            out = []
            while end < len(self.text):
                if self.text[end] == '"':
                    if self.text.startswith('""', end):
                        out.append('"')
                        end += 2
                        continue
                    break
                out.append(self.text[end])
                end += 1
            self.pos = end + 1
            return "".join(out)
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] in "_$"):
            self.pos += 1
        if start == self.pos:
            self.fail()
        return self.text[start:self.pos]

    def number(self):
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        if start == self.pos:
            self.fail()
        return int(self.text[start:self.pos])

    def parse(self):
        t = self.one()
        self.skip()
        if self.pos != len(self.text):
            self.fail()
        return t

    def one(self):
        name = self.word().upper()
        if name == "DECIMAL" or name == "NUMERIC":
            if self.peek("("):
                self.expect("(")
                p = self.number()
                s = 0
                if self.peek(","):
                    self.expect(",")
                    s = self.number()
                self.expect(")")
                t = DecimalType(p, s)
            else:
                t = DecimalType(10, 0)
        elif name == "STRUCT":
            self.expect("(")
            fields = []
            while True:
                fname = self.word()
                fields.append(StructField(fname, self.one()))
                if self.peek(","):
                    self.expect(",")
                    continue
                break
            self.expect(")")
            t = StructType(fields)
        elif name == "MAP":
            self.expect("(")
            k = self.one()
            self.expect(",")
            v = self.one()
            self.expect(")")
            t = MapType(k, v)
        elif name in _SIMPLE:
            t = _SIMPLE[name]()
            if name in ("VARCHAR", "STRING") and self.peek("("):
                self.expect("(")
                t = StringType(self.number())
                self.expect(")")
        else:
            self.fail()
        while self.peek("[]"):
            self.expect("[]")
            t = ArrayType(t)
        return t


def parse_type(text):
    """The DataType for the engine's spelling of a type."""
    return _TypeParser(text).parse()
