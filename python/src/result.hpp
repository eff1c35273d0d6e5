// NativeResult: a statement's materialized result, read as Python rows
// (a fetch position for fetchone/fetchmany/fetchall) or numpy columns.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "lakestream.hpp"

namespace lakestream_python {

namespace py = pybind11;

class NativeResult {
 public:
  explicit NativeResult(std::unique_ptr<lakestream::QueryResult> result);

  py::list Names() const;
  py::list Types() const;
  // Per column: (kind, width, scale), kind as TypeKind's name, for the cursor description.
  std::vector<py::tuple> TypeDetails() const;
  lakestream::idx_t RowCount() const { return result_->RowCount(); }
  lakestream::idx_t Position() const { return position_; }
  py::list Warnings() const;

  py::list Fetch(int64_t n);
  py::object FetchOne();
  py::list Rows(lakestream::idx_t start, lakestream::idx_t count) const;
  py::list NumpyColumns(bool for_pandas) const;

 private:
  // Appends rows [start, start+count) of the result to `out`.
  void AppendRows(lakestream::idx_t start, lakestream::idx_t count, py::list& out) const;

  std::unique_ptr<lakestream::QueryResult> result_;
  lakestream::idx_t position_ = 0;  // next row Fetch returns
  // First row of each chunk, for finding the chunk of a row.
  std::vector<lakestream::idx_t> chunk_starts_;
};

}  // namespace lakestream_python
