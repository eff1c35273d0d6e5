// Memory for the numpy arrays of large results (fetchnumpy(), df()).
//
// Writing a column into new memory costs a page fault per page; on virtual
// machines that is most of the time of df() (measured: 320 MB into fresh 4 KB
// pages took 1-2 s, into huge pages 80 ms, into reused memory 30 ms). So
// large column buffers are mapped with huge pages where the kernel allows
// it, and when their array dies the buffer is kept for the next result,
// up to LAKESTREAM_PYTHON_BUFFER_POOL_MB (default 1024; 0 keeps none) --
// what malloc does for the engine's own result chunks.
#pragma once

#include <pybind11/numpy.h>

#include <cstddef>
#include <vector>

namespace lakestream_python {

namespace py = pybind11;

// A new 1-D array of `count` elements of `dtype` (not zeroed), from the
// pool when it is large, else from numpy. Not for object dtypes.
py::array NewPooledArray(const py::dtype& dtype, size_t count);

// A pooled buffer for a column whose length is known only at the end (a
// streaming result): starts with the largest kept buffer (or a new one)
// and grows with mremap, which moves pages, not bytes. Not copyable.
class GrowableBuffer {
 public:
  GrowableBuffer() = default;
  ~GrowableBuffer();
  GrowableBuffer(const GrowableBuffer&) = delete;
  GrowableBuffer& operator=(const GrowableBuffer&) = delete;

  // Makes room for at least `bytes`; the first `used` bytes keep their
  // values. Throws std::bad_alloc.
  void Reserve(size_t bytes);
  uint8_t* Data() const { return static_cast<uint8_t*>(data_); }
  // The first `count` elements as a 1-D array that owns the buffer (this
  // buffer is empty afterwards).
  py::array Release(const py::dtype& dtype, size_t count);

 private:
  void* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace lakestream_python
