// pandas DataFrames and numpy arrays as tables of a connection
// (Connection::RegisterTable and the replacement scan, docs/python.md
// "DataFrames by name"): the columns the Python layer prepared
// (lakestream/_core/dataframe.py) copied into a lakestream::ColumnarTable in bulk.
#pragma once

#include <pybind11/pybind11.h>

#include "lakestream.hpp"

namespace lakestream_python {

namespace py = pybind11;

// `columns`: a sequence of (name, kind, values, valid) with kind one of
// "bool", "int32", "int64", "float64", "date", "timestamp" (values: a
// C-contiguous numpy array of bool, int32, int64, float64, int32 days or
// int64 microseconds) or "str" (a numpy object array of str, bytes or None);
// valid: None or a C-contiguous numpy bool array, False for NULL. `what`
// names the table in errors (a py::value_error / py::type_error naming the
// column). Called with the GIL.
lakestream::ColumnarTable TableFromColumns(const py::handle& columns, const std::string& what);

}  // namespace lakestream_python
