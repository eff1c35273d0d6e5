#include "convert.hpp"

#include <datetime.h>

#include <cctype>
#include <chrono>
#include <map>
#include <cmath>
#include <stdexcept>

namespace lakestream_python {

using lakestream::ColumnType;
using lakestream::SqlValue;
using lakestream::TypeKind;

namespace {

PyObject* decimal_class = nullptr;  // decimal.Decimal, kept for the module's lifetime

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

int32_t DaysFromCivil(int year, unsigned month, unsigned day) {
  using namespace std::chrono;
  return static_cast<int32_t>(
      sys_days{std::chrono::year{year} / std::chrono::month{month} / std::chrono::day{day}}.time_since_epoch().count());
}

// Floor division: timestamps before 1970 have negative micros.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

py::object Steal(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

// Decimal(text) for the exact decimal text of a value.
PyObject* DecimalFromText(const std::string& text) {
  PyObject* s = PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
  if (s == nullptr) return nullptr;
  PyObject* d = PyObject_CallOneArg(decimal_class, s);
  Py_DECREF(s);
  return d;
}

SqlValue DecimalFromPython(const py::handle& object, const std::string& what) {
  py::object t = object.attr("as_tuple")();
  py::object exponent = t.attr("exponent");
  if (!py::isinstance<py::int_>(exponent)) {
    throw py::value_error(what + " is the Decimal " + py::str(object).cast<std::string>() +
                          ", which has no SQL value (NaN and Infinity are not DECIMALs); pass a finite number or None");
  }
  auto e = exponent.cast<int64_t>();
  auto n = static_cast<int64_t>(py::len(t.attr("digits")));
  int64_t scale = e < 0 ? -e : 0;
  int64_t int_digits = e < 0 ? std::max<int64_t>(n + e, 0) : n + e;
  int64_t width = std::max<int64_t>(int_digits + scale, 1);
  if (width > 38) {
    throw py::value_error(what + " is the Decimal " + py::str(object).cast<std::string>() + ", which needs " +
                          std::to_string(width) + " digits; DECIMAL holds at most 38: round it or pass a float");
  }
  std::string text = object.attr("__format__")("f").cast<std::string>();
  return SqlValue::DecimalFromString(text, static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
}

SqlValue DatetimeFromPython(PyObject* o, const std::string& what) {
  int64_t days = DaysFromCivil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o));
  int64_t micros = days * kMicrosPerDay +
                   ((PyDateTime_DATE_GET_HOUR(o) * 60LL + PyDateTime_DATE_GET_MINUTE(o)) * 60LL +
                    PyDateTime_DATE_GET_SECOND(o)) * 1000000LL +
                   PyDateTime_DATE_GET_MICROSECOND(o);
  py::handle h(o);
  py::object offset = h.attr("utcoffset")();
  if (!offset.is_none()) {
    // An aware datetime: TIMESTAMP is UTC.
    PyObject* delta = offset.ptr();
    micros -= (PyDateTime_DELTA_GET_DAYS(delta) * 86400LL + PyDateTime_DELTA_GET_SECONDS(delta)) * 1000000LL +
              PyDateTime_DELTA_GET_MICROSECONDS(delta);
  }
  return SqlValue::Timestamp(micros);
}

}  // namespace

void InitConversions() {
  PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) throw py::error_already_set();
  decimal_class = py::object(py::module_::import("decimal").attr("Decimal")).release().ptr();
}

py::str TextToPython(const std::string& text) {
  PyObject* o = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

PyObject* NewDate(int32_t days) {
  using namespace std::chrono;
  year_month_day ymd{sys_days{std::chrono::days{days}}};
  return PyDate_FromDate(static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                         static_cast<int>(static_cast<unsigned>(ymd.day())));
}

PyObject* NewDatetime(int64_t micros) {
  using namespace std::chrono;
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  year_month_day ymd{sys_days{std::chrono::days{days}}};
  int64_t seconds = rest / 1000000;
  return PyDateTime_FromDateAndTime(static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                                    static_cast<int>(static_cast<unsigned>(ymd.day())),
                                    static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                                    static_cast<int>(seconds % 60), static_cast<int>(rest % 1000000));
}

PyObject* NewDecimal(uint64_t low, int64_t high, uint8_t scale) {
  __int128 v = static_cast<__int128>((static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) | low);
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  char buf[48];
  char* end = buf + sizeof(buf);
  char* p = end;
  int digits = 0;
  do {
    *--p = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
    digits++;
    if (digits == scale) *--p = '.';
  } while (u != 0 || digits < scale);
  if (p[0] == '.') *--p = '0';
  if (negative) *--p = '-';
  return DecimalFromText(std::string(p, end));
}

py::object ToPython(const SqlValue& value) {
  if (value.IsNull()) return py::none();
  const ColumnType& type = value.Type();
  switch (type.kind) {
    case TypeKind::BOOLEAN: return py::bool_(value.GetBoolean());
    case TypeKind::INTEGER:
    case TypeKind::BIGINT: return Steal(PyLong_FromLongLong(value.GetBigint()));
    case TypeKind::DOUBLE: return Steal(PyFloat_FromDouble(value.GetDouble()));
    case TypeKind::DECIMAL: return Steal(DecimalFromText(value.ToString()));
    case TypeKind::VARCHAR: {
      const std::string& s = value.GetString();
      PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
      if (o == nullptr) {
        // Not UTF-8 (VARCHAR also holds binary data): bytes rather than an error.
        PyErr_Clear();
        o = PyBytes_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
      }
      return Steal(o);
    }
    case TypeKind::DATE: return Steal(NewDate(value.GetDate()));
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ: return Steal(NewDatetime(value.GetTimestamp()));
    case TypeKind::LIST: {
      py::list out;
      for (auto& child : value.Children()) out.append(ToPython(child));
      return out;
    }
    case TypeKind::STRUCT: {
      py::dict out;
      for (size_t i = 0; i < value.Children().size(); i++) {
        out[py::str(type.child_names.at(i))] = ToPython(value.Children()[i]);
      }
      return out;
    }
    case TypeKind::MAP: {
      py::dict out;
      for (auto& entry : value.Children()) {
        py::object key = ToPython(entry.Children().at(0));
        if (!key.is_none() && PyObject_Hash(key.ptr()) == -1) {
          // Keys that Python cannot hash (LIST, STRUCT) become tuples.
          PyErr_Clear();
          key = py::tuple(key);
        }
        out[key] = ToPython(entry.Children().at(1));
      }
      return out;
    }
    default: return py::str(value.ToString());
  }
}

SqlValue FromPython(const py::handle& object, const std::string& what) {
  PyObject* o = object.ptr();
  if (o == Py_None) return SqlValue::Null();
  if (PyBool_Check(o)) return SqlValue::Boolean(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) {
      if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
      return SqlValue::Bigint(v);
    }
    // Beyond 64 bits: an exact DECIMAL(38,0) when it fits.
    std::string text = py::str(object).cast<std::string>();
    size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
    if (digits > 38) {
      throw py::value_error(what + " is the integer " + text + ", which has " + std::to_string(digits) +
                            " digits; lakestream integers hold 64 bits and DECIMAL 38 digits");
    }
    return SqlValue::DecimalFromString(text, 38, 0);
  }
  if (PyFloat_Check(o)) return SqlValue::Double(PyFloat_AS_DOUBLE(o));
  if (PyUnicode_Check(o)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (data == nullptr) throw py::error_already_set();
    return SqlValue::Varchar(std::string(data, static_cast<size_t>(size)));
  }
  if (PyBytes_Check(o)) return SqlValue::Varchar(std::string(PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o)));
  if (PyByteArray_Check(o)) return SqlValue::Varchar(std::string(PyByteArray_AS_STRING(o), PyByteArray_GET_SIZE(o)));
  if (PyDateTime_Check(o)) return DatetimeFromPython(o, what);
  if (PyDate_Check(o)) {
    return SqlValue::Date(DaysFromCivil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o)));
  }
  if (PyObject_IsInstance(o, decimal_class) == 1) return DecimalFromPython(object, what);
  if (PyList_Check(o) || PyTuple_Check(o)) {
    std::vector<SqlValue> elements;
    py::sequence seq = py::reinterpret_borrow<py::sequence>(object);
    elements.reserve(py::len(seq));
    for (size_t i = 0; i < py::len(seq); i++) {
      elements.push_back(FromPython(seq[i], what + " element " + std::to_string(i)));
    }
    for (size_t i = 1; i < elements.size(); i++) {
      if (!elements[i].IsNull() && !elements[0].IsNull() && elements[i].Type() != elements[0].Type() &&
          elements[i].Type().kind != elements[0].Type().kind) {
        throw py::type_error(what + " is a list mixing " + elements[0].Type().ToString() + " and " +
                             elements[i].Type().ToString() + " elements; a SQL LIST has one element type");
      }
    }
    return SqlValue::List(std::move(elements));
  }
  if (PyDict_Check(o)) {
    std::vector<std::string> names;
    std::vector<SqlValue> fields;
    for (auto item : py::reinterpret_borrow<py::dict>(object)) {
      if (!PyUnicode_Check(item.first.ptr())) {
        throw py::type_error(what + " is a dict with the key " + py::repr(item.first).cast<std::string>() +
                             "; a dict parameter is a STRUCT, whose field names are str");
      }
      names.push_back(item.first.cast<std::string>());
      fields.push_back(FromPython(item.second, what + " field " + names.back()));
    }
    return SqlValue::Struct(std::move(names), std::move(fields));
  }
  // numpy scalars and other number types: through the index / float protocols.
  if (PyIndex_Check(o)) return FromPython(Steal(PyNumber_Index(o)), what);
  if (PyFloat_Check(o) == 0 && PyObject_HasAttrString(o, "__float__") == 1) {
    return SqlValue::Double(PyFloat_AsDouble(o));
  }
  throw py::type_error(what + " has the Python type " + std::string(Py_TYPE(o)->tp_name) +
                       ", which has no SQL type; pass None, bool, int, float, str, bytes, decimal.Decimal, "
                       "datetime.date, datetime.datetime, list or dict");
}

// A dict for $name parameters: one value per name the statement uses, no
// more (a key the text does not use is most likely a misspelt name).
static std::vector<SqlValue> NamedParametersFromPython(const py::handle& params, const std::vector<std::string>& names) {
  py::dict dict = py::reinterpret_borrow<py::dict>(params);
  if (names.empty()) {
    throw py::value_error("parameters were given as a dict, but the statement has no $name parameters; use $name "
                          "in the SQL, or pass a list for ? and $1, $2, ...");
  }
  std::map<std::string, py::handle> by_name;
  for (auto item : dict) {
    if (!PyUnicode_Check(item.first.ptr())) {
      throw py::type_error("the keys of a parameter dict are the $name parameters' names (str), not " +
                           std::string(Py_TYPE(item.first.ptr())->tp_name));
    }
    std::string key = py::str(item.first);
    if (!key.empty() && key[0] == '$') key = key.substr(1);
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    by_name[key] = item.second;
  }
  std::vector<SqlValue> values;
  values.reserve(names.size());
  std::string missing;
  for (auto& name : names) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      missing += (missing.empty() ? "$" : ", $") + name;
      continue;
    }
    values.push_back(FromPython(it->second, "parameter $" + name));
    by_name.erase(it);
  }
  std::string used;
  for (auto& name : names) used += (used.empty() ? "$" : ", $") + name;
  if (!missing.empty()) {
    throw py::value_error("parameter " + missing + " has no value in the dict; the statement uses " + used);
  }
  if (!by_name.empty()) {
    throw py::value_error("the parameter dict has '" + by_name.begin()->first + "', which the statement does not use; "
                          "it uses " + used);
  }
  return values;
}

std::vector<SqlValue> ParametersFromPython(const py::handle& params, const std::vector<std::string>* names) {
  std::vector<SqlValue> values;
  if (params.is_none()) return values;
  if (PyDict_Check(params.ptr())) return NamedParametersFromPython(params, names ? *names : std::vector<std::string>());
  if (PyUnicode_Check(params.ptr()) || !PySequence_Check(params.ptr())) {
    throw py::type_error(std::string("parameters must be a list or tuple of values ($1 is the first), or a dict "
                                     "for $name parameters, not ") + Py_TYPE(params.ptr())->tp_name);
  }
  py::sequence seq = py::reinterpret_borrow<py::sequence>(params);
  values.reserve(py::len(seq));
  for (size_t i = 0; i < py::len(seq); i++) {
    values.push_back(FromPython(seq[i], "parameter $" + std::to_string(i + 1)));
  }
  return values;
}

}  // namespace lakestream_python
