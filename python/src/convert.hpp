// Conversions between Python objects and the public lakestream values
// (lakestream/value.hpp), both ways. Uses only the public C++ API.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "lakestream.hpp"

namespace lakestream_python {

namespace py = pybind11;

// Imports datetime's C API and caches decimal.Decimal. Call once at module
// initialisation (the GIL held).
void InitConversions();

// A value as the Python object the type mapping in docs/python.md names:
// bool, int, float, decimal.Decimal, str, datetime.date, naive
// datetime.datetime (UTC), list (LIST), dict (STRUCT, MAP), None (NULL).
py::object ToPython(const lakestream::SqlValue& value);

// Python objects (the same types back, plus bytes, tuples as lists and
// timezone-aware datetimes, converted to UTC) as a parameter value. Throws
// py::type_error / py::value_error naming the parameter for anything else.
lakestream::SqlValue FromPython(const py::handle& object, const std::string& what);
// `names`: the statement's $name parameters (PreparedStatement::ParameterNames),
// needed when `params` is a dict.
std::vector<lakestream::SqlValue> ParametersFromPython(const py::handle& params,
                                                       const std::vector<std::string>* names = nullptr);

// Text from the engine (names, messages) as str; bytes that are not UTF-8
// (a name or message quoting binary data) become U+FFFD rather than an error.
py::str TextToPython(const std::string& text);

// Days since 1970-01-01 / microseconds since the epoch as Python objects.
PyObject* NewDate(int32_t days);
PyObject* NewDatetime(int64_t micros);
// An unscaled DECIMAL (low/high 64 bits of the 128-bit value) as decimal.Decimal.
PyObject* NewDecimal(uint64_t low, int64_t high, uint8_t scale);

}  // namespace lakestream_python
