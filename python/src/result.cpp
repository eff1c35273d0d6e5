#include "result.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "convert.hpp"
#include "lakestream/column_view.hpp"

namespace lakestream_python {

using lakestream::ColumnView;
using lakestream::idx_t;
using lakestream::TypeKind;

namespace {

PyObject* Checked(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return o;
}

PyObject* StringObject(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
  if (o == nullptr) {
    // Not UTF-8 (VARCHAR also holds binary data): bytes rather than an error.
    PyErr_Clear();
    o = PyBytes_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
  }
  return Checked(o);
}

// A new reference to row `r` of `col` as a Python object (None for NULL).
PyObject* CellObject(const ColumnView& col, idx_t r) {
  if (!col.IsValid(r)) {
    Py_INCREF(Py_None);
    return Py_None;
  }
  switch (col.Type().kind) {
    case TypeKind::BOOLEAN: return Checked(PyBool_FromLong(col.Booleans()[r] ? 1 : 0));
    case TypeKind::INTEGER: return Checked(PyLong_FromLong(col.Integers()[r]));
    case TypeKind::BIGINT: return Checked(PyLong_FromLongLong(col.Bigints()[r]));
    case TypeKind::DOUBLE: return Checked(PyFloat_FromDouble(col.Doubles()[r]));
    case TypeKind::VARCHAR: return StringObject(col.Strings()[r]);
    case TypeKind::DATE: return Checked(NewDate(col.Dates()[r]));
    case TypeKind::TIMESTAMP: return Checked(NewDatetime(col.Timestamps()[r]));
    case TypeKind::DECIMAL: {
      uint64_t low = 0;
      int64_t high = 0;
      col.GetDecimal(r, &low, &high);
      return Checked(NewDecimal(low, high, col.Type().scale));
    }
    default: return ToPython(col.GetValue(r)).release().ptr();
  }
}

// Numpy output of one column, filled chunk by chunk.
class ColumnBuilder {
 public:
  ColumnBuilder(const lakestream::ColumnType& type, idx_t rows, bool for_pandas)
      : kind_(type.kind), rows_(rows), for_pandas_(for_pandas) {
    switch (kind_) {
      case TypeKind::BOOLEAN: values_ = py::array(py::dtype("bool"), Shape()); break;
      case TypeKind::INTEGER: values_ = py::array(py::dtype("int32"), Shape()); break;
      case TypeKind::BIGINT: values_ = py::array(py::dtype("int64"), Shape()); break;
      case TypeKind::DOUBLE:
      case TypeKind::DECIMAL: values_ = py::array(py::dtype("float64"), Shape()); break;
      // pandas 1.x holds datetimes in nanoseconds only.
      case TypeKind::DATE: values_ = py::array(py::dtype(for_pandas ? "datetime64[ns]" : "datetime64[D]"), Shape()); break;
      case TypeKind::TIMESTAMP:
        values_ = py::array(py::dtype(for_pandas ? "datetime64[ns]" : "datetime64[us]"), Shape());
        break;
      default: values_ = py::array(py::dtype("O"), Shape()); break;
    }
    data_ = static_cast<uint8_t*>(values_.mutable_data());
    if (kind_ == TypeKind::VARCHAR || kind_ == TypeKind::STRUCT || kind_ == TypeKind::LIST ||
        kind_ == TypeKind::MAP || kind_ == TypeKind::SQLNULL || kind_ == TypeKind::INVALID) {
      object_ = true;
      // numpy may have filled the array with None or zeros: start from NULL pointers we own.
      auto** slots = reinterpret_cast<PyObject**>(data_);
      for (idx_t i = 0; i < rows_; i++) {
        Py_XDECREF(slots[i]);
        slots[i] = nullptr;
      }
    }
  }

  // Appends chunk column `col` at row `offset`.
  void Append(const ColumnView& col, idx_t offset) {
    idx_t n = col.RowCount();
    const uint8_t* valid = col.Validity();
    if (!nulls_ && std::find(valid, valid + n, 0) != valid + n) StartMask(offset);
    if (nulls_) {
      auto* mask = static_cast<bool*>(mask_.mutable_data());
      for (idx_t i = 0; i < n; i++) mask[offset + i] = valid[i] == 0;
    }
    switch (kind_) {
      case TypeKind::BOOLEAN: {
        // A NULL row's byte is unspecified: numpy's bool must be 0 or 1.
        const bool* in = col.Booleans();
        for (idx_t i = 0; i < n; i++) data_[offset + i] = (valid[i] != 0 && in[i]) ? 1 : 0;
        break;
      }
      case TypeKind::INTEGER: std::memcpy(data_ + offset * 4, col.Integers(), n * 4); break;
      case TypeKind::BIGINT: std::memcpy(data_ + offset * 8, col.Bigints(), n * 8); break;
      case TypeKind::DOUBLE: {
        auto* out = reinterpret_cast<double*>(data_) + offset;
        std::memcpy(out, col.Doubles(), n * 8);
        if (for_pandas_ && nulls_) FillNulls(out, valid, n, std::numeric_limits<double>::quiet_NaN());
        break;
      }
      case TypeKind::DECIMAL: {
        auto* out = reinterpret_cast<double*>(data_) + offset;
        for (idx_t i = 0; i < n; i++) out[i] = valid[i] ? col.GetDecimalAsDouble(i) : 0.0;
        if (for_pandas_ && nulls_) FillNulls(out, valid, n, std::numeric_limits<double>::quiet_NaN());
        break;
      }
      case TypeKind::DATE: {
        auto* out = reinterpret_cast<int64_t*>(data_) + offset;
        const int32_t* days = col.Dates();
        int64_t unit = for_pandas_ ? 86400LL * 1000000000LL : 1;
        for (idx_t i = 0; i < n; i++) out[i] = valid[i] ? days[i] * unit : kNaT;
        break;
      }
      case TypeKind::TIMESTAMP: {
        auto* out = reinterpret_cast<int64_t*>(data_) + offset;
        const int64_t* micros = col.Timestamps();
        for (idx_t i = 0; i < n; i++) {
          if (!valid[i]) {
            out[i] = kNaT;
          } else if (!for_pandas_) {
            out[i] = micros[i];
          } else if (__builtin_mul_overflow(micros[i], int64_t{1000}, &out[i])) {
            overflow_ = true;  // beyond pandas' nanosecond range (years 1677-2262)
          }
        }
        break;
      }
      default: {
        auto** slots = reinterpret_cast<PyObject**>(data_) + offset;
        for (idx_t i = 0; i < n; i++) slots[i] = CellObject(col, i);
        break;
      }
    }
  }

  // (values, mask or None). For pandas, DOUBLE/DECIMAL/DATE/TIMESTAMP carry
  // NULLs in the values (NaN, NaT) and have no mask.
  py::tuple Finish(const lakestream::QueryResult& result, idx_t column) {
    if (overflow_) {
      // TIMESTAMPs pandas cannot hold in nanoseconds: datetime objects.
      values_ = py::array(py::dtype("O"), Shape());
      auto** slots = static_cast<PyObject**>(values_.mutable_data());
      idx_t offset = 0;
      for (idx_t c = 0; c < result.ChunkCount(); c++) {
        ColumnView col(result, c, column);
        for (idx_t i = 0; i < col.RowCount(); i++) {
          Py_XDECREF(slots[offset + i]);
          slots[offset + i] = CellObject(col, i);
        }
        offset += col.RowCount();
      }
      return py::make_tuple(values_, py::none());
    }
    bool values_hold_nulls = for_pandas_ && (kind_ == TypeKind::DOUBLE || kind_ == TypeKind::DECIMAL ||
                                             kind_ == TypeKind::DATE || kind_ == TypeKind::TIMESTAMP);
    if (!nulls_ || object_ || values_hold_nulls) return py::make_tuple(values_, py::none());
    return py::make_tuple(values_, mask_);
  }

 private:
  static constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();

  std::vector<py::ssize_t> Shape() const { return {static_cast<py::ssize_t>(rows_)}; }

  void StartMask(idx_t offset) {
    nulls_ = true;
    mask_ = py::array(py::dtype("bool"), Shape());
    std::memset(mask_.mutable_data(), 0, rows_);
  }

  template <class T>
  static void FillNulls(T* out, const uint8_t* valid, idx_t n, T null_value) {
    for (idx_t i = 0; i < n; i++) {
      if (!valid[i]) out[i] = null_value;
    }
  }

  TypeKind kind_;
  idx_t rows_;
  bool for_pandas_;
  bool object_ = false;
  bool nulls_ = false;
  bool overflow_ = false;
  py::array values_;
  py::array mask_;
  uint8_t* data_ = nullptr;
};

}  // namespace

NativeResult::NativeResult(std::unique_ptr<lakestream::QueryResult> result) : result_(std::move(result)) {
  idx_t start = 0;
  for (idx_t i = 0; i < result_->ChunkCount(); i++) {
    chunk_starts_.push_back(start);
    start += result_->ChunkRowCount(i);
  }
}

py::list NativeResult::Names() const {
  py::list out;
  for (auto& name : result_->Names()) out.append(TextToPython(name));
  return out;
}

py::list NativeResult::Warnings() const {
  py::list out;
  for (auto& w : result_->Warnings()) out.append(TextToPython(w));
  return out;
}

py::list NativeResult::Types() const {
  py::list out;
  for (auto& t : result_->ColumnTypes()) out.append(TextToPython(t.ToString()));
  return out;
}

std::vector<py::tuple> NativeResult::TypeDetails() const {
  std::vector<py::tuple> out;
  for (auto& t : result_->ColumnTypes()) {
    out.push_back(py::make_tuple(static_cast<int>(t.kind), t.width, t.scale));
  }
  return out;
}

void NativeResult::AppendRows(idx_t start, idx_t count, py::list& out) const {
  idx_t end = std::min(start + std::min(count, RowCount()), RowCount());
  if (start >= end) return;
  auto it = std::upper_bound(chunk_starts_.begin(), chunk_starts_.end(), start);
  idx_t chunk_index = static_cast<idx_t>(it - chunk_starts_.begin()) - 1;
  idx_t columns = result_->ColumnCount();
  std::vector<ColumnView> views;
  views.reserve(columns);
  idx_t row = start;
  while (row < end) {
    views.clear();
    for (idx_t c = 0; c < columns; c++) views.emplace_back(*result_, chunk_index, c);
    idx_t first = row - chunk_starts_[chunk_index];
    idx_t last = std::min<idx_t>(result_->ChunkRowCount(chunk_index), first + (end - row));
    for (idx_t r = first; r < last; r++) {
      PyObject* t = Checked(PyTuple_New(static_cast<Py_ssize_t>(columns)));
      py::object tuple = py::reinterpret_steal<py::object>(t);
      for (idx_t c = 0; c < columns; c++) PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(c), CellObject(views[c], r));
      if (PyList_Append(out.ptr(), t) != 0) throw py::error_already_set();
    }
    row += last - first;
    chunk_index++;
  }
}

py::list NativeResult::Fetch(int64_t n) {
  py::list out;
  idx_t remaining = RowCount() - std::min(position_, RowCount());
  idx_t count = n < 0 ? remaining : std::min(static_cast<idx_t>(n), remaining);
  AppendRows(position_, count, out);
  position_ += count;
  return out;
}

py::object NativeResult::FetchOne() {
  py::list rows = Fetch(1);
  if (rows.empty()) return py::none();
  return rows[0];
}

py::list NativeResult::Rows(idx_t start, idx_t count) const {
  py::list out;
  AppendRows(start, count, out);
  return out;
}

py::list NativeResult::NumpyColumns(bool for_pandas) const {
  py::list out;
  for (idx_t c = 0; c < result_->ColumnCount(); c++) {
    ColumnBuilder builder(result_->ColumnTypes()[c], RowCount(), for_pandas);
    idx_t offset = 0;
    for (idx_t chunk = 0; chunk < result_->ChunkCount(); chunk++) {
      ColumnView view(*result_, chunk, c);
      builder.Append(view, offset);
      offset += view.RowCount();
    }
    out.append(builder.Finish(*result_, c));
  }
  return out;
}

}  // namespace lakestream_python
