#include "result.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <optional>
#include <thread>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "buffer_pool.hpp"
#include "convert.hpp"
#include "lakestream/column_view.hpp"
#include "sigint.hpp"

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
    // Both as naive datetimes: TIMESTAMP its UTC wall clock (as before
    // TIMESTAMP_NTZ existed), TIMESTAMP_NTZ its own wall clock.
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ: return Checked(NewDatetime(col.Timestamps()[r]));
    case TypeKind::DECIMAL: {
      uint64_t low = 0;
      int64_t high = 0;
      col.GetDecimal(r, &low, &high);
      return Checked(NewDecimal(low, high, col.Type().scale));
    }
    default: return ToPython(col.GetValue(r)).release().ptr();
  }
}

bool IsObjectKind(TypeKind kind) {
  switch (kind) {
    case TypeKind::BOOLEAN:
    case TypeKind::INTEGER:
    case TypeKind::BIGINT:
    case TypeKind::DOUBLE:
    case TypeKind::DECIMAL:
    case TypeKind::DATE:
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ: return false;
    default: return true;
  }
}

constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();

// The numpy output of one column: its values array (and a mask when the
// column has NULLs and the dtype cannot carry them).
struct NumpyColumn {
  TypeKind kind = TypeKind::INVALID;
  bool has_nulls = false;
  std::atomic<bool> overflow{false};  // TIMESTAMPs beyond pandas' nanosecond range
  py::array values;
  py::array mask;
  uint8_t* data = nullptr;
  bool* mask_data = nullptr;
  bool stream = false;  // copy with non-temporal stores (StreamCopy)
};

py::dtype DtypeFor(TypeKind kind, bool for_pandas) {
  switch (kind) {
    case TypeKind::BOOLEAN: return py::dtype("bool");
    case TypeKind::INTEGER: return py::dtype("int32");
    case TypeKind::BIGINT: return py::dtype("int64");
    case TypeKind::DOUBLE:
    case TypeKind::DECIMAL: return py::dtype("float64");
    // pandas 1.x holds datetimes in nanoseconds only.
    case TypeKind::DATE: return py::dtype(for_pandas ? "datetime64[ns]" : "datetime64[D]");
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ: return py::dtype(for_pandas ? "datetime64[ns]" : "datetime64[us]");
    default: return py::dtype("O");
  }
}

// memcpy into a large destination that is written once and not read soon:
// non-temporal stores skip reading each destination line into the cache
// first (a third of the memory traffic of a plain copy). For 16-byte aligned
// destinations (pooled buffers, and chunk offsets are multiples of 2048
// rows); `stream` only for columns far larger than the cache.
void StreamCopy(void* dst, const void* src, size_t bytes, bool stream) {
#if defined(__x86_64__)
  if (stream && (reinterpret_cast<uintptr_t>(dst) & 15) == 0) {
    auto* d = static_cast<__m128i*>(dst);
    const auto* s = static_cast<const uint8_t*>(src);
    size_t blocks = bytes / 16;
    for (size_t i = 0; i < blocks; i++) {
      _mm_stream_si128(d + i, _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i * 16)));
    }
    std::memcpy(reinterpret_cast<uint8_t*>(dst) + blocks * 16, s + blocks * 16, bytes - blocks * 16);
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

// Copies rows of one chunk's column into `out` at `offset`. Touches no
// Python object: runs without the GIL, on several threads at once.
void FillChunk(const ColumnView& view, idx_t offset, bool for_pandas, NumpyColumn& out) {
  idx_t n = view.RowCount();
  const uint8_t* valid = view.Validity();
  if (out.mask_data != nullptr) {
    for (idx_t i = 0; i < n; i++) out.mask_data[offset + i] = valid[i] == 0;
  }
  uint8_t* data = out.data;
  switch (out.kind) {
    case TypeKind::BOOLEAN: {
      // A NULL row's byte is unspecified: numpy's bool must be 0 or 1.
      const bool* in = view.Booleans();
      for (idx_t i = 0; i < n; i++) data[offset + i] = (valid[i] != 0 && in[i]) ? 1 : 0;
      break;
    }
    case TypeKind::INTEGER: StreamCopy(data + offset * 4, view.Integers(), n * 4, out.stream); break;
    case TypeKind::BIGINT: StreamCopy(data + offset * 8, view.Bigints(), n * 8, out.stream); break;
    case TypeKind::DOUBLE:
    case TypeKind::DECIMAL: {
      auto* values = reinterpret_cast<double*>(data) + offset;
      if (out.kind == TypeKind::DOUBLE) {
        StreamCopy(values, view.Doubles(), n * 8, out.stream);
      } else {
        for (idx_t i = 0; i < n; i++) values[i] = valid[i] ? view.GetDecimalAsDouble(i) : 0.0;
      }
      if (for_pandas && out.has_nulls) {
        for (idx_t i = 0; i < n; i++) {
          if (!valid[i]) values[i] = std::numeric_limits<double>::quiet_NaN();
        }
      }
      break;
    }
    case TypeKind::DATE: {
      auto* values = reinterpret_cast<int64_t*>(data) + offset;
      const int32_t* days = view.Dates();
      int64_t unit = for_pandas ? 86400LL * 1000000000LL : 1;
      for (idx_t i = 0; i < n; i++) values[i] = valid[i] ? days[i] * unit : kNaT;
      break;
    }
    case TypeKind::TIMESTAMP:
    case TypeKind::TIMESTAMP_NTZ: {
      auto* values = reinterpret_cast<int64_t*>(data) + offset;
      const int64_t* micros = view.Timestamps();
      for (idx_t i = 0; i < n; i++) {
        if (!valid[i]) {
          values[i] = kNaT;
        } else if (!for_pandas) {
          values[i] = micros[i];
        } else if (__builtin_mul_overflow(micros[i], int64_t{1000}, &values[i])) {
          out.overflow = true;
        }
      }
      break;
    }
    default: break;
  }
}

}  // namespace

// The open streaming results (FinishOpenStreams).
std::mutex registry_mutex;
std::vector<std::weak_ptr<ResultState>>& OpenStreams() {
  static auto* streams = new std::vector<std::weak_ptr<ResultState>>();  // never destroyed, as the pool
  return *streams;
}

void FinishOpenStreams() {
  std::vector<std::shared_ptr<ResultState>> open;
  {
    std::lock_guard<std::mutex> guard(registry_mutex);
    auto& streams = OpenStreams();
    for (auto& weak : streams) {
      if (auto state = weak.lock()) {
        if (!state->materialized) open.push_back(std::move(state));
      }
    }
    streams.clear();
  }
  for (auto& state : open) {
    std::lock_guard<std::mutex> guard(state->mutex);
    // An error ends the stream too; the reader raises it.
    if (state->result->IsStreaming()) state->result->RowCount();
    state->materialized = true;
  }
}

namespace {

bool IsMainThread(const ResultState& state) {
  return state.connection != nullptr && state.watch_thread == std::this_thread::get_id();
}

}  // namespace

std::shared_ptr<ResultState> NewResultState(std::unique_ptr<lakestream::QueryResult> result,
                                            lakestream::Connection* stream_connection, bool watch_signals,
                                            bool first_chunk) {
  auto state = std::make_shared<ResultState>();
  state->result = std::move(result);
  if (!state->result->IsStreaming()) {
    state->materialized = true;
    return state;
  }
  // Python may ask for the rows again (df() twice, len() after df()).
  state->result->RetainFetched(true);
  state->connection = stream_connection;
  state->first_chunk_pending = first_chunk;
  if (watch_signals) state->watch_thread = std::this_thread::get_id();
  std::lock_guard<std::mutex> guard(registry_mutex);
  auto& streams = OpenStreams();
  streams.erase(std::remove_if(streams.begin(), streams.end(), [](auto& w) { return w.expired(); }), streams.end());
  streams.push_back(state);
  return state;
}

NativeResult::NativeResult(std::shared_ptr<ResultState> state)
    : state_(std::move(state)), result_(state_->result.get()) {}

NativeResult::~NativeResult() = default;

void NativeResult::RaiseIfFailed(bool watched) const {
  if (watched && PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (result_->HasError()) ThrowNative(result_->GetErrorKind(), result_->GetError());
}

void NativeResult::Materialize() const {
  if (!state_->materialized) {
    bool watched = false;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> guard(state_->mutex);
      if (state_->result->IsStreaming()) {
        watched = IsMainThread(*state_);
        if (watched) {
          SigintInterrupts ctrl_c(*state_->connection);
          state_->result->RowCount();
        } else {
          state_->result->RowCount();
        }
      }
      state_->materialized = true;
    }
    RaiseIfFailed(watched);
  }
  RaiseIfFailed(false);
  if (indexed_) return;
  idx_t start = 0;
  for (idx_t i = 0; i < result_->ChunkCount(); i++) {
    chunk_starts_.push_back(start);
    start += result_->ChunkRowCount(i);
  }
  indexed_ = true;
}

idx_t NativeResult::RowCount() const {
  Materialize();
  return result_->RowCount();
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
  Materialize();
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

py::object NativeResult::StreamNumpyColumns(bool for_pandas) const {
  idx_t columns = result_->ColumnCount();
  for (idx_t c = 0; c < columns; c++) {
    TypeKind kind = result_->ColumnTypes()[c].kind;
    // TIMESTAMPs for pandas may not fit in nanoseconds (then objects): the materialized path.
    if (IsObjectKind(kind) || (for_pandas && (kind == TypeKind::TIMESTAMP || kind == TypeKind::TIMESTAMP_NTZ))) {
      return py::none();
    }
  }
  struct StreamColumn {
    NumpyColumn out;
    GrowableBuffer values;
    GrowableBuffer mask;
    size_t itemsize = 0;
    bool values_carry_nulls = false;
  };
  std::vector<std::unique_ptr<StreamColumn>> cols;
  std::vector<py::dtype> dtypes;
  for (idx_t c = 0; c < columns; c++) {
    auto col = std::make_unique<StreamColumn>();
    col->out.kind = result_->ColumnTypes()[c].kind;
    dtypes.push_back(DtypeFor(col->out.kind, for_pandas));
    col->itemsize = static_cast<size_t>(dtypes.back().itemsize());
    col->values_carry_nulls = for_pandas && (col->out.kind == TypeKind::DOUBLE ||
                                             col->out.kind == TypeKind::DECIMAL || col->out.kind == TypeKind::DATE);
    cols.push_back(std::move(col));
  }
  idx_t rows = 0;
  bool watched = false;
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> guard(state_->mutex);
    lakestream::QueryResult& result = *state_->result;
    if (!result.IsStreaming()) return py::none();  // materialized meanwhile (FinishOpenStreams)
    // Each chunk is copied into the arrays as soon as it is pulled, while its
    // vectors are still in the cache.
    auto pull = [&] {
      bool have = state_->first_chunk_pending || result.FetchNext();
      state_->first_chunk_pending = false;
      for (; have; have = result.FetchNext()) {
        idx_t n = ColumnView(result, 0).RowCount();
        for (idx_t c = 0; c < columns; c++) {
          StreamColumn& col = *cols[c];
          ColumnView view(result, c);
          col.values.Reserve((rows + n) * col.itemsize);
          col.out.data = col.values.Data();
          if (!col.out.has_nulls && std::memchr(view.Validity(), 0, n) != nullptr) {
            col.out.has_nulls = true;
            if (!col.values_carry_nulls) {
              col.mask.Reserve(rows + n);
              std::memset(col.mask.Data(), 0, rows);  // no NULL before this chunk
            }
          }
          if (col.out.has_nulls && !col.values_carry_nulls) {
            col.mask.Reserve(rows + n);
            col.out.mask_data = reinterpret_cast<bool*>(col.mask.Data());
          }
          FillChunk(view, rows, for_pandas, col.out);
        }
        rows += n;
      }
    };
    watched = IsMainThread(*state_);
    if (watched) {
      SigintInterrupts ctrl_c(*state_->connection);
      pull();
    } else {
      pull();
    }
    state_->materialized = true;
  }
  RaiseIfFailed(watched);
  py::list list;
  for (idx_t c = 0; c < columns; c++) {
    StreamColumn& col = *cols[c];
    py::array values = col.values.Release(dtypes[c], rows);
    py::object mask = py::none();
    if (col.out.mask_data != nullptr) mask = col.mask.Release(py::dtype("bool"), rows);
    list.append(py::make_tuple(values, mask));
  }
  return list;
}

py::list NativeResult::NumpyColumns(bool for_pandas) const {
  if (!state_->materialized) {
    py::object streamed = StreamNumpyColumns(for_pandas);
    if (!streamed.is_none()) return streamed;
  }
  Materialize();
  const lakestream::QueryResult& result = *result_;
  idx_t columns = result.ColumnCount();
  idx_t chunks = result.ChunkCount();
  idx_t rows = RowCount();
  std::vector<std::unique_ptr<NumpyColumn>> out;
  for (idx_t c = 0; c < columns; c++) {
    out.push_back(std::make_unique<NumpyColumn>());
    out.back()->kind = result.ColumnTypes()[c].kind;
  }
  {
    py::gil_scoped_release release;
    for (idx_t c = 0; c < columns; c++) {
      for (idx_t k = 0; k < chunks && !out[c]->has_nulls; k++) {
        ColumnView view(result, k, c);
        out[c]->has_nulls = std::memchr(view.Validity(), 0, view.RowCount()) != nullptr;
      }
    }
  }
  // The arrays (with the GIL): numpy allocates them.
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rows)};
  for (auto& col : out) {
    if (IsObjectKind(col->kind)) {
      col->values = py::array(DtypeFor(col->kind, for_pandas), shape);
    } else {
      col->values = NewPooledArray(DtypeFor(col->kind, for_pandas), rows);
    }
    col->data = static_cast<uint8_t*>(col->values.mutable_data());
    col->stream = rows * static_cast<idx_t>(col->values.itemsize()) >= (idx_t(16) << 20);
    bool values_carry_nulls = for_pandas && (col->kind == TypeKind::DOUBLE || col->kind == TypeKind::DECIMAL ||
                                             col->kind == TypeKind::DATE || col->kind == TypeKind::TIMESTAMP ||
                                             col->kind == TypeKind::TIMESTAMP_NTZ);
    if (col->has_nulls && !IsObjectKind(col->kind) && !values_carry_nulls) {
      col->mask = NewPooledArray(py::dtype("bool"), rows);
      col->mask_data = static_cast<bool*>(col->mask.mutable_data());
    }
  }
  // Fixed-width columns: one copy each, without the GIL, the chunks split
  // between threads (a large result's copy is bound by memory bandwidth and
  // page faults on the new arrays, both of which scale with cores).
  {
    py::gil_scoped_release release;
    idx_t threads = rows < 262144 ? 1 : std::min<idx_t>(std::max(1U, std::thread::hardware_concurrency()), 8);
    threads = std::min(threads, std::max<idx_t>(chunks, 1));
    auto fill = [&](idx_t t) {
      idx_t begin = chunks * t / threads;
      idx_t end = chunks * (t + 1) / threads;
      for (idx_t c = 0; c < columns; c++) {
        if (IsObjectKind(out[c]->kind)) continue;
        for (idx_t k = begin; k < end; k++) FillChunk(ColumnView(result, k, c), chunk_starts_[k], for_pandas, *out[c]);
      }
#if defined(__x86_64__)
      _mm_sfence();  // the streamed stores are visible before the thread is joined
#endif
    };
    std::vector<std::thread> workers;
    for (idx_t t = 1; t < threads; t++) workers.emplace_back(fill, t);
    fill(0);
    for (auto& w : workers) w.join();
  }
  // Object columns (str, nested values) and TIMESTAMPs pandas cannot hold in
  // nanoseconds: one Python object per value, with the GIL.
  py::list list;
  for (idx_t c = 0; c < columns; c++) {
    NumpyColumn& col = *out[c];
    if (IsObjectKind(col.kind) || col.overflow) {
      if (col.overflow) col.values = py::array(py::dtype("O"), shape);
      auto** slots = static_cast<PyObject**>(col.values.mutable_data());
      for (idx_t k = 0; k < chunks; k++) {
        ColumnView view(result, k, c);
        for (idx_t i = 0; i < view.RowCount(); i++) {
          PyObject* value = CellObject(view, i);
          PyObject* old = slots[chunk_starts_[k] + i];  // NULL or None, as numpy initialised it
          slots[chunk_starts_[k] + i] = value;
          Py_XDECREF(old);
        }
      }
      list.append(py::make_tuple(col.values, py::none()));
      continue;
    }
    list.append(py::make_tuple(col.values, col.mask_data != nullptr ? py::object(col.mask) : py::object(py::none())));
  }
  return list;
}

}  // namespace lakestream_python
