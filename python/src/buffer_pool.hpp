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

}  // namespace lakestream_python
