// NativeResult: a statement's result, read as Python rows (a fetch position
// for fetchone/fetchmany/fetchall) or numpy columns. A streaming result
// (Connection::sql of a SELECT) keeps every chunk it pulls, so it behaves as
// a materialized one: the rows can be read again.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "lakestream.hpp"

namespace lakestream_python {

namespace py = pybind11;

// Raises lakestream._lakestream.NativeError(kind, message) (module.cpp).
[[noreturn]] void ThrowNative(lakestream::ErrorKind kind, const std::string& message);

// A result and the mutex that serializes reading it: a streaming result is
// pulled with the GIL released, and another thread may materialize it
// meanwhile (FinishOpenStreams).
struct ResultState {
  std::mutex mutex;
  std::unique_ptr<lakestream::QueryResult> result;
  std::atomic<bool> materialized{false};  // set once result is no longer streaming
  // The streaming result's connection and the thread that may watch for
  // Ctrl-C while pulling (the main thread, when it ran the statement).
  lakestream::Connection* connection = nullptr;
  std::thread::id watch_thread;
  // The stream's first chunk was fetched (with RetainFetched) and is its
  // current chunk: the numpy path copies it before pulling more.
  bool first_chunk_pending = false;
};

// The state of `result`, registered as an open stream when it streams.
// `first_chunk`: FetchNext() has moved to the first chunk.
std::shared_ptr<ResultState> NewResultState(std::unique_ptr<lakestream::QueryResult> result,
                                            lakestream::Connection* stream_connection, bool watch_signals,
                                            bool first_chunk);

// Fetches every row of every open streaming result (Connection::SendQuery)
// into its result, so that a statement on any connection can run: an open
// stream holds the database's statement lock, and its connection would
// invalidate it. Call without the GIL (or where waiting with it is fine:
// a reader holding a stream's mutex never waits for the GIL).
void FinishOpenStreams();

class NativeResult {
 public:
  explicit NativeResult(std::shared_ptr<ResultState> state);
  ~NativeResult();
  NativeResult(const NativeResult&) = delete;
  NativeResult& operator=(const NativeResult&) = delete;

  py::list Names() const;
  py::list Types() const;
  // Per column: (kind, width, scale), kind as TypeKind's name, for the cursor description.
  std::vector<py::tuple> TypeDetails() const;
  lakestream::idx_t RowCount() const;
  lakestream::idx_t Position() const { return position_; }
  py::list Warnings() const;

  py::list Fetch(int64_t n);
  py::object FetchOne();
  py::list Rows(lakestream::idx_t start, lakestream::idx_t count) const;
  // Every column as (values, mask-or-None). A streaming result not read
  // yet streams into the arrays, a chunk at a time while it is in cache.
  py::list NumpyColumns(bool for_pandas) const;

 private:
  // Fetches the rest of a streaming result (raising its error, or
  // KeyboardInterrupt) and indexes the chunks. Cheap once done.
  void Materialize() const;
  // NumpyColumns from the stream; None when the result is not a stream any
  // more or has columns this path does not convert.
  py::object StreamNumpyColumns(bool for_pandas) const;
  // Raises the result's error, or KeyboardInterrupt when Ctrl-C came.
  void RaiseIfFailed(bool watched) const;
  // Appends rows [start, start+count) of the result to `out`.
  void AppendRows(lakestream::idx_t start, lakestream::idx_t count, py::list& out) const;

  std::shared_ptr<ResultState> state_;
  const lakestream::QueryResult* result_;  // state_->result
  lakestream::idx_t position_ = 0;         // next row Fetch returns
  // First row of each chunk, for finding the chunk of a row (Materialize).
  mutable std::vector<lakestream::idx_t> chunk_starts_;
  mutable bool indexed_ = false;
};

}  // namespace lakestream_python
