#include "table_scan.hpp"

#include <pybind11/numpy.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream_python {

namespace {

// The array's data when it is C-contiguous with items of `itemsize` bytes and
// `rows` of them; a value_error naming the column otherwise (the Python
// layer prepares every array, so this only fails for a caller's mistake).
const void* ArrayData(const py::array& array, py::ssize_t itemsize, py::ssize_t rows, const std::string& column) {
  if (array.ndim() != 1 || array.itemsize() != itemsize || !(array.flags() & py::array::c_style) ||
      array.shape(0) != rows) {
    throw py::value_error("column " + column + ": expected a contiguous one-dimensional array of " +
                          std::to_string(rows) + " items of " + std::to_string(itemsize) + " bytes");
  }
  return array.data();
}

}  // namespace

lakestream::ColumnarTable TableFromColumns(const py::handle& columns, const std::string& what) {
  lakestream::ColumnarTable table;
  std::vector<uint8_t> validity;
  std::vector<std::string_view> strings;
  for (auto item : py::reinterpret_borrow<py::sequence>(columns)) {
    auto spec = py::reinterpret_borrow<py::tuple>(item);
    if (spec.size() != 4) throw py::value_error(what + ": each column is (name, kind, values, valid)");
    std::string name = py::str(spec[0]);
    std::string kind = py::str(spec[1]);
    py::array values = py::reinterpret_borrow<py::array>(spec[2]);
    py::ssize_t rows = values.ndim() == 1 ? values.shape(0) : -1;
    const uint8_t* valid = nullptr;
    if (!spec[3].is_none()) {
      valid = static_cast<const uint8_t*>(ArrayData(py::reinterpret_borrow<py::array>(spec[3]), 1, rows, name));
    }
    auto n = static_cast<lakestream::idx_t>(rows);
    try {
      if (kind == "bool") {
        table.AddBooleans(name, static_cast<const bool*>(ArrayData(values, 1, rows, name)), valid, n);
      } else if (kind == "int32") {
        table.AddIntegers(name, static_cast<const int32_t*>(ArrayData(values, 4, rows, name)), valid, n);
      } else if (kind == "int64") {
        table.AddBigints(name, static_cast<const int64_t*>(ArrayData(values, 8, rows, name)), valid, n);
      } else if (kind == "float64") {
        table.AddDoubles(name, static_cast<const double*>(ArrayData(values, 8, rows, name)), valid, n);
      } else if (kind == "date") {
        table.AddDates(name, static_cast<const int32_t*>(ArrayData(values, 4, rows, name)), valid, n);
      } else if (kind == "timestamp") {
        table.AddTimestamps(name, static_cast<const int64_t*>(ArrayData(values, 8, rows, name)), valid, n);
      } else if (kind == "str") {
        auto* objects = static_cast<PyObject* const*>(ArrayData(values, sizeof(PyObject*), rows, name));
        validity.assign(n, 1);
        strings.assign(n, std::string_view());
        for (lakestream::idx_t r = 0; r < n; r++) {
          PyObject* o = objects[r];
          if ((valid && !valid[r]) || o == nullptr || o == Py_None) {
            validity[r] = 0;
          } else if (PyUnicode_Check(o)) {
            Py_ssize_t size = 0;
            const char* text = PyUnicode_AsUTF8AndSize(o, &size);  // cached in the str: valid while it lives
            if (text == nullptr) throw py::error_already_set();
            strings[r] = std::string_view(text, static_cast<size_t>(size));
          } else if (PyBytes_Check(o)) {
            strings[r] = std::string_view(PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o)));
          } else {
            throw py::type_error("column " + name + " of " + what + ": row " + std::to_string(r) + " holds a " +
                                 Py_TYPE(o)->tp_name + ", not a str (or None); convert the column first, e.g. "
                                 "df[\"" + name + "\"].astype(str)");
          }
        }
        table.AddStrings(name, strings.data(), validity.data(), n);
      } else {
        throw py::value_error("column " + name + ": unknown kind " + kind);
      }
    } catch (const std::invalid_argument& e) {
      throw py::value_error(what + ": " + e.what());
    }
  }
  return table;
}

}  // namespace lakestream_python
