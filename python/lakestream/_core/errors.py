"""The exception hierarchy: PEP 249 (DB-API 2.0) classes, and under them one
class per engine error kind (lakestream.ErrorKind in the C++ API). The text
of an exception raised for an engine error is the engine's message unchanged.
"""


class Warning(Exception):  # noqa: A001 - the name PEP 249 requires
    """Important warnings (PEP 249). lakestream reports statement warnings
    through the warnings module instead; this class exists for DB-API code
    that names it."""


class Error(Exception):
    """Base class of every lakestream error."""


class InterfaceError(Error):
    """Misuse of the Python interface itself (e.g. a closed connection)."""


class DatabaseError(Error):
    """An error the engine reported."""


class DataError(DatabaseError):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class InternalError(DatabaseError):
    """An engine bug: please report it with the statement that caused it."""


class ProgrammingError(DatabaseError):
    pass


class NotSupportedError(DatabaseError):
    """A feature the engine does not have (yet)."""


class ParserException(ProgrammingError):
    """The SQL text does not parse."""


class BinderException(ProgrammingError):
    """A name or type in the statement does not resolve."""


class CatalogException(ProgrammingError):
    """An object does not exist, or exists already."""


class InvalidInputException(ProgrammingError):
    """Bad arguments, including parameters."""


class ConstraintException(IntegrityError):
    """A NOT NULL or key constraint was violated."""


class TransactionException(OperationalError):
    """Another writer committed first; retry the statement."""


class IOException(OperationalError):
    """A file or the network failed."""


class InterruptException(OperationalError):
    """Connection.interrupt() stopped the statement; nothing was committed."""


class ConversionException(DataError):
    """A cast or a literal that does not fit its type."""


class CorruptionException(DatabaseError):
    """A file of the database is damaged."""


# Engine error kind (the C++ ErrorKind's name) -> exception class.
ERROR_CLASSES = {
    "PARSER": ParserException,
    "BINDER": BinderException,
    "CATALOG": CatalogException,
    "CONSTRAINT": ConstraintException,
    "CONFLICT": TransactionException,
    "CONVERSION": ConversionException,
    "IO": IOException,
    "CORRUPTION": CorruptionException,
    "NOT_IMPLEMENTED": NotSupportedError,
    "INVALID_INPUT": InvalidInputException,
    "INTERNAL": InternalError,
    "INTERRUPTED": InterruptException,
}


def translate(native_error):
    """The lakestream exception for a NativeError(kind, message)."""
    kind, message = native_error.args
    return ERROR_CLASSES.get(kind, InternalError)(message)
