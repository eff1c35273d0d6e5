// lakestream._lakestream: the native half of the Python package. Thin: it
// opens databases, runs SQL with the GIL released and turns results into
// Python objects fast. The Python API (connection, relation, cursor, the
// exception classes) lives in python/lakestream/_core.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "convert.hpp"
#include "lakestream.hpp"
#include "lakestream/tools.hpp"
#include "result.hpp"  // NativeResult
#include "sigint.hpp"
#include "table_scan.hpp"

namespace py = pybind11;
using namespace lakestream_python;

namespace {

const char* KindName(lakestream::ErrorKind kind) {
  using lakestream::ErrorKind;
  switch (kind) {
    case ErrorKind::NONE: return "NONE";
    case ErrorKind::PARSER: return "PARSER";
    case ErrorKind::BINDER: return "BINDER";
    case ErrorKind::CATALOG: return "CATALOG";
    case ErrorKind::CONSTRAINT: return "CONSTRAINT";
    case ErrorKind::CONFLICT: return "CONFLICT";
    case ErrorKind::CONVERSION: return "CONVERSION";
    case ErrorKind::IO: return "IO";
    case ErrorKind::CORRUPTION: return "CORRUPTION";
    case ErrorKind::NOT_IMPLEMENTED: return "NOT_IMPLEMENTED";
    case ErrorKind::INVALID_INPUT: return "INVALID_INPUT";
    case ErrorKind::INTERNAL: return "INTERNAL";
    case ErrorKind::INTERRUPTED: return "INTERRUPTED";
  }
  return "INTERNAL";
}

// Raised to Python as lakestream._lakestream.NativeError(kind, message); the
// Python layer maps the kind to its exception class. A raw reference, never
// released: a global py::object would be released after the interpreter ends.
PyObject* native_error = nullptr;

}  // namespace

namespace lakestream_python {
[[noreturn]] void ThrowNative(lakestream::ErrorKind kind, const std::string& message) {
  PyErr_SetObject(native_error, py::make_tuple(KindName(kind), TextToPython(message)).ptr());
  throw py::error_already_set();
}
}  // namespace lakestream_python

namespace {

// The databases this process has open, by directory and read_only: a
// second connect() to the same directory shares the open Database, as
// DuckDB's instance cache does (the engine's lock admits one writer per
// directory, and this process is one writer).
std::shared_ptr<lakestream::Database> OpenDatabase(const std::string& path, bool read_only) {
  lakestream::DatabaseOptions options;
  options.read_only = read_only;
  if (path.empty()) return std::make_shared<lakestream::Database>(path, options);
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, std::weak_ptr<lakestream::Database>> open;
  std::error_code ec;
  std::string dir = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
  if (ec) dir = path;
  std::lock_guard<std::mutex> guard(mutex);
  auto& slot = open[{dir, read_only}];
  if (auto db = slot.lock()) return db;
  auto db = std::make_shared<lakestream::Database>(path, options);
  slot = db;
  return db;
}

// A Python object the engine may hold and drop from any thread: the last
// copy releases it with the GIL (or not at all once the interpreter is gone).
std::shared_ptr<py::object> KeepPython(const py::object& object) {
  return std::shared_ptr<py::object>(new py::object(object), [](py::object* o) {
    if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing to release into
    py::gil_scoped_acquire acquire;
    delete o;
  });
}

// Connection::SetReplacementScan's function for `lookup`, a Python callable
// name -> None or the columns TableFromColumns takes (dataframe.py's
// Lookup). It runs while the statement binds, on the statement's thread.
lakestream::Connection::ReplacementScan PythonReplacementScan(const py::object& lookup) {
  std::shared_ptr<py::object> callable = KeepPython(lookup);
  return [callable](const std::string& name) -> std::optional<lakestream::ColumnarTable> {
    py::gil_scoped_acquire acquire;
    try {
      py::object columns = (*callable)(name);
      if (columns.is_none()) return std::nullopt;
      return TableFromColumns(columns, name);
    } catch (py::error_already_set& e) {
      throw std::runtime_error(std::string(py::str(e.type().attr("__name__"))) + ": " + std::string(py::str(e.value())));
    } catch (const py::builtin_exception& e) {
      throw std::runtime_error(e.what());
    }
  };
}

// A CommitWaiter (lakestream/tools.hpp) for a streaming query's trigger
// loop: NativeConnection::FollowTable points it at the query's source table;
// Wait blocks (without the GIL) until a commit to it or the timeout.
struct NativeCommitWaiter {
  bool Wait(double seconds) {
    py::gil_scoped_release release;
    return waiter.Wait(static_cast<int64_t>(seconds * 1000));
  }
  void Wake() { waiter.Wake(); }
  lakestream::CommitWaiter waiter;
};

// A database and one connection to it. Several NativeConnections share a
// Database (duplicate()); the Database closes when the last one does.
class NativeConnection {
 public:
  NativeConnection(const std::string& path, bool read_only) {
    std::string error;
    lakestream::ErrorKind kind = lakestream::ErrorKind::NONE;
    {
      py::gil_scoped_release release;
      try {
        db_ = OpenDatabase(path, read_only);
        con_ = std::make_unique<lakestream::Connection>(*db_);
      } catch (const std::exception& e) {
        error = e.what();
        kind = lakestream::ErrorKindOf(e);
      }
    }
    if (kind != lakestream::ErrorKind::NONE) ThrowNative(kind, error);
  }
  explicit NativeConnection(std::shared_ptr<lakestream::Database> db)
      : db_(std::move(db)), con_(std::make_unique<lakestream::Connection>(*db_)) {}
  // A streaming result outliving its connection keeps its rows (and never
  // reaches the destroyed connection for Ctrl-C).
  // (With the GIL: a reader holding a stream's mutex never waits for it.)
  ~NativeConnection() { FinishOpenStreams(); }
  NativeConnection(const NativeConnection&) = delete;
  NativeConnection& operator=(const NativeConnection&) = delete;

  std::unique_ptr<NativeConnection> Duplicate() {
    CheckOpen();
    return std::make_unique<NativeConnection>(db_);
  }

  // Runs `sql` (all its statements) and returns the last one's result, or
  // raises NativeError. `params` (a sequence or None) fill ? / $n.
  // `watch_signals` (the caller is Python's main thread): Ctrl-C interrupts
  // the statement and raises KeyboardInterrupt.
  // `stream`: a single SELECT streams (Connection::SendQuery): it is bound
  // now and runs while its rows are read; any statement on any connection
  // first fetches the rest (FinishOpenStreams).
  // `replacement`: None, or a callable the statement asks for a name it does
  // not find (PythonReplacementScan), while it binds.
  std::unique_ptr<NativeResult> Execute(const std::string& sql, const py::object& params, bool watch_signals,
                                        bool stream, const py::object& replacement) {
    std::vector<lakestream::SqlValue> values;
    if (PyDict_Check(params.ptr())) {
      CheckOpen();
      // The text's $names, in the order the engine takes their values.
      auto prepared = con_->Prepare(sql);
      if (prepared->HasError()) ThrowNative(lakestream::ErrorKind::PARSER, prepared->GetError());
      values = ParametersFromPython(params, &prepared->ParameterNames());
    } else {
      values = ParametersFromPython(params);
    }
    bool with_params = !params.is_none();
    std::unique_ptr<lakestream::QueryResult> result;
    std::shared_ptr<ResultState> state;
    lakestream::ErrorKind error_kind = lakestream::ErrorKind::NONE;
    std::string error;
    lakestream::Connection::ReplacementScan scan;
    if (!replacement.is_none()) scan = PythonReplacementScan(replacement);
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> run(run_mutex_);
      BeginStatementLocked();
      // Only for this call: a streaming SELECT is bound once start() returns.
      struct ScanScope {
        lakestream::Connection* con;
        ScanScope(lakestream::Connection* c, lakestream::Connection::ReplacementScan s) : con(s ? c : nullptr) {
          if (con) con->SetReplacementScan(std::move(s));
        }
        ~ScanScope() {
          if (con) con->SetReplacementScan(nullptr);
        }
        ScanScope(const ScanScope&) = delete;
        ScanScope& operator=(const ScanScope&) = delete;
      } scan_scope(con_.get(), std::move(scan));
      bool first_chunk = false;
      auto start = [&] {
        if (!stream) return with_params ? con_->Query(sql, values) : con_->Query(sql);
        auto r = con_->SendQuery(sql, values);
        if (r->IsStreaming()) {
          // The first chunk now: what fails at once (a bad literal, a sort's
          // or an aggregate's whole input) raises from sql(), as before.
          r->RetainFetched(true);
          first_chunk = r->FetchNext();
        }
        return r;
      };
      if (watch_signals) {
        SigintInterrupts ctrl_c(*con_);
        result = start();
      } else {
        result = start();
      }
      // Registered before run_mutex_ is released: the next statement on any
      // connection finishes this stream first.
      if (result->HasError()) {
        error_kind = result->GetErrorKind();
        error = result->GetError();
      } else {
        state = NewResultState(std::move(result), con_.get(), watch_signals, first_chunk);
      }
    }
    // A Ctrl-C during the statement: Python's handler ran; raise its KeyboardInterrupt.
    bool signalled = watch_signals && PyErr_CheckSignals() != 0;
    if (signalled) throw py::error_already_set();
    if (!state) ThrowNative(error_kind, error);
    return std::make_unique<NativeResult>(std::move(state));
  }

  // Runs `sql` once per parameter list in `param_lists`, parsing it once.
  // Returns (the last result or None for no lists, the rows all runs affected).
  py::tuple ExecuteMany(const std::string& sql, const py::iterable& param_lists) {
    std::unique_ptr<lakestream::PreparedStatement> prepared;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> run(run_mutex_);
      FinishOpenStreams();
      if (con_) prepared = con_->Prepare(sql);
    }
    if (!prepared) ThrowClosed();
    std::unique_ptr<lakestream::QueryResult> result;
    int64_t affected = 0;
    for (auto params : param_lists) {
      std::vector<lakestream::SqlValue> values = ParametersFromPython(params, &prepared->ParameterNames());
      {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> run(run_mutex_);
        BeginStatementLocked();
        result = prepared->Execute(values);
      }
      if (result->HasError()) ThrowNative(result->GetErrorKind(), result->GetError());
      affected += AffectedRows(*result);
    }
    if (!result) return py::make_tuple(py::none(), 0);
    return py::make_tuple(Finish(std::move(result)), affected);
  }

  // Connection::HoldWrites / ReleaseWrites: the write lock across the
  // statements in between (raises as a statement would when it cannot be had).
  void HoldWrites() {
    std::string error;
    bool held = false;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> run(run_mutex_);
      BeginStatementLocked();
      held = con_->HoldWrites(&error);
    }
    if (!held) ThrowNative(lakestream::ErrorKind::IO, error);
  }
  void ReleaseWrites() {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    if (con_) con_->ReleaseWrites();
  }

  void Interrupt() {
    std::lock_guard<std::mutex> guard(interrupt_mutex_);
    if (con_) con_->Interrupt();
  }

  // Stops a running statement, waits for it, then drops the connection (and
  // the database when no other connection shares it). Idempotent.
  void Close() {
    {
      // A Relation of this connection keeps its rows after close(). (Before
      // the interrupt, which would end the streams with INTERRUPTED.)
      py::gil_scoped_release release;
      FinishOpenStreams();
    }
    Interrupt();
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    std::lock_guard<std::mutex> guard(interrupt_mutex_);
    con_.reset();
    db_.reset();
  }

  bool IsOpen() const { return con_ != nullptr; }

  // create_function's parameter types (None: any arguments) and return type, parsed.
  static std::pair<std::optional<std::vector<lakestream::ColumnType>>, lakestream::ColumnType> FunctionTypes(
      const std::string& name, const py::object& parameters, const std::string& return_type) {
    std::optional<std::vector<lakestream::ColumnType>> argument_types;
    lakestream::ColumnType returns;
    try {
      if (!parameters.is_none()) {
        argument_types.emplace();
        for (auto& p : parameters) argument_types->push_back(lakestream::ColumnType::Parse(py::str(p)));
      }
      returns = lakestream::ColumnType::Parse(return_type);
    } catch (const std::invalid_argument& e) {
      ThrowNative(lakestream::ErrorKind::INVALID_INPUT, std::string("create_function ") + name + ": " + e.what());
    }
    return {argument_types, returns};
  }

  // Connection::CreateScalarFunction with a Python callable, called once per
  // row with the GIL (from whichever thread runs that part of the query).
  // `parameters`: SQL type names, or None for any arguments as given.
  // A Python exception fails the statement with the exception's type and text.
  void CreateFunction(const std::string& name, const py::function& function, const py::object& parameters,
                      const std::string& return_type, bool handles_nulls, bool deterministic) {
    CheckOpen();
    auto [argument_types, returns] = FunctionTypes(name, parameters, return_type);
    std::shared_ptr<py::object> callable = KeepPython(function);
    auto call = [callable, shown = name](const std::vector<lakestream::SqlValue>& arguments) {
      py::gil_scoped_acquire acquire;
      try {
        py::tuple args(arguments.size());
        for (size_t i = 0; i < arguments.size(); i++) args[i] = ToPython(arguments[i]);
        py::object out = (*callable)(*args);
        return FromPython(out, "the result of " + shown);
      } catch (py::error_already_set& e) {
        throw std::runtime_error(std::string(py::str(e.type().attr("__name__"))) + ": " + std::string(py::str(e.value())));
      }
    };
    lakestream::Connection::ScalarFunctionOptions options;
    options.handles_nulls = handles_nulls;
    options.deterministic = deterministic;
    try {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> run(run_mutex_);
      if (!con_) throw std::invalid_argument("the connection is closed; open a new one with lakestream.connect()");
      con_->CreateScalarFunction(name, argument_types, returns, std::move(call), options);
    } catch (const std::invalid_argument& e) {
      ThrowNative(lakestream::ErrorKind::INVALID_INPUT, e.what());
    }
  }
  // Connection::CreateVectorizedScalarFunction with a Python callable that
  // takes the batch as a NativeResult and returns the columns
  // TableFromColumns takes (functions.py wraps the user's pandas function).
  void CreateVectorizedFunction(const std::string& name, const py::function& function, const py::object& parameters,
                                const std::string& return_type, bool deterministic) {
    CheckOpen();
    auto [argument_types, returns] = FunctionTypes(name, parameters, return_type);
    std::shared_ptr<py::object> callable = KeepPython(function);
    auto call = [callable, shown = name](std::unique_ptr<lakestream::QueryResult> batch) {
      py::gil_scoped_acquire acquire;
      try {
        py::object native = py::cast(std::make_unique<NativeResult>(NewResultState(std::move(batch), nullptr, false, false)));
        return TableFromColumns((*callable)(native), "the result of " + shown);
      } catch (py::error_already_set& e) {
        throw std::runtime_error(std::string(py::str(e.type().attr("__name__"))) + ": " + std::string(py::str(e.value())));
      }
    };
    lakestream::Connection::ScalarFunctionOptions options;
    options.deterministic = deterministic;
    try {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> run(run_mutex_);
      if (!con_) throw std::invalid_argument("the connection is closed; open a new one with lakestream.connect()");
      con_->CreateVectorizedScalarFunction(name, argument_types, returns, std::move(call), options);
    } catch (const std::invalid_argument& e) {
      ThrowNative(lakestream::ErrorKind::INVALID_INPUT, e.what());
    }
  }
  bool RemoveFunction(const std::string& name) {
    CheckOpen();
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    return con_ && con_->RemoveScalarFunction(name);
  }

  // Connection::RegisterTable of `columns` (TableFromColumns) / UnregisterTable.
  void RegisterTable(const std::string& name, const py::object& columns) {
    CheckOpen();
    lakestream::ColumnarTable table = TableFromColumns(columns, name);
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    if (con_) con_->RegisterTable(name, std::move(table));
  }
  bool UnregisterTable(const std::string& name) {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    return con_ && con_->UnregisterTable(name);
  }

  // CommitWaiter::FollowTable on this connection's database: "" when other
  // processes' commits wake `waiter` too, else why only this process's do.
  std::string FollowTable(NativeCommitWaiter& waiter, const std::string& name) {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> run(run_mutex_);
    if (!con_) return "the connection is closed";
    FinishOpenStreams();
    return waiter.waiter.FollowTable(*con_, name);
  }

 private:
  void CheckOpen() const {
    if (!con_) ThrowClosed();
  }
  // With run_mutex_ held and the GIL released, before a statement runs: a
  // closed connection raises (taking the GIL back for the exception), and
  // every open stream is read to its end first (a statement would end it).
  void BeginStatementLocked() {
    if (!con_) {
      py::gil_scoped_acquire acquire;
      ThrowClosed();
    }
    FinishOpenStreams();
  }
  [[noreturn]] static void ThrowClosed() {
    ThrowNative(lakestream::ErrorKind::INVALID_INPUT,
                "Connection Error: the connection is closed; open a new one with lakestream.connect()");
  }
  // INSERT, UPDATE, DELETE and MERGE return one row, num_affected_rows.
  static int64_t AffectedRows(const lakestream::QueryResult& result) {
    if (result.ColumnCount() != 1 || result.RowCount() != 1 || result.Names()[0] != "num_affected_rows") return 0;
    lakestream::SqlValue v = result.GetValue(0, 0);
    return v.IsNull() ? 0 : v.AsBigint();
  }
  static std::unique_ptr<NativeResult> Finish(std::unique_ptr<lakestream::QueryResult> result) {
    if (result->HasError()) ThrowNative(result->GetErrorKind(), result->GetError());
    return std::make_unique<NativeResult>(NewResultState(std::move(result), nullptr, false, false));
  }

  std::shared_ptr<lakestream::Database> db_;
  std::unique_ptr<lakestream::Connection> con_;
  std::mutex run_mutex_;        // one statement at a time on this connection
  std::mutex interrupt_mutex_;  // Interrupt() against Close()
};

}  // namespace

PYBIND11_MODULE(_lakestream, m) {
  m.doc() = "Native part of the lakestream Python package (use `import lakestream`).";
  InitConversions();
  native_error = PyErr_NewException("lakestream._lakestream.NativeError", PyExc_RuntimeError, nullptr);
  if (native_error == nullptr) throw py::error_already_set();
  m.attr("NativeError") = py::handle(native_error);
  m.attr("__version__") = LAKESTREAM_VERSION;

  py::class_<NativeResult>(m, "NativeResult")
      .def_property_readonly("names", &NativeResult::Names)
      .def_property_readonly("types", &NativeResult::Types)
      .def_property_readonly("row_count", &NativeResult::RowCount)
      .def_property_readonly("position", &NativeResult::Position)
      .def_property_readonly("warnings", &NativeResult::Warnings)
      .def_property_readonly("type_details", &NativeResult::TypeDetails)
      .def("fetch", &NativeResult::Fetch, py::arg("n") = -1,
           "The next n rows (all remaining for n < 0) as a list of tuples.")
      .def("fetchone", &NativeResult::FetchOne)
      .def("rows", &NativeResult::Rows, py::arg("start"), py::arg("count"),
           "Rows [start, start+count) as tuples, independent of the fetch position.")
      .def("numpy_columns", &NativeResult::NumpyColumns, py::arg("for_pandas") = false,
           "Every column as (values, mask-or-None), one copy per column.");

  py::class_<NativeCommitWaiter>(m, "NativeCommitWaiter")
      .def(py::init<>())
      .def("wait", &NativeCommitWaiter::Wait, py::arg("seconds"),
           "Waits up to `seconds` for a commit to a followed table; True when one woke it")
      .def("wake", &NativeCommitWaiter::Wake);

  py::class_<NativeConnection>(m, "NativeConnection")
      .def(py::init<const std::string&, bool>(), py::arg("path"), py::arg("read_only") = false)
      .def("execute", &NativeConnection::Execute, py::arg("sql"), py::arg("params") = py::none(),
           py::arg("watch_signals") = false, py::arg("stream") = false, py::arg("replacement") = py::none())
      .def("executemany", &NativeConnection::ExecuteMany, py::arg("sql"), py::arg("param_lists"))
      .def("duplicate", &NativeConnection::Duplicate)
      .def("interrupt", &NativeConnection::Interrupt)
      .def("hold_writes", &NativeConnection::HoldWrites)
      .def("release_writes", &NativeConnection::ReleaseWrites)
      .def("close", &NativeConnection::Close)
      .def("follow_table", &NativeConnection::FollowTable, py::arg("waiter"), py::arg("name"))
      .def("create_function", &NativeConnection::CreateFunction, py::arg("name"), py::arg("function"),
           py::arg("parameters"), py::arg("return_type"), py::arg("handles_nulls") = false,
           py::arg("deterministic") = true)
      .def("remove_function", &NativeConnection::RemoveFunction, py::arg("name"))
      .def("create_vectorized_function", &NativeConnection::CreateVectorizedFunction, py::arg("name"),
           py::arg("function"), py::arg("parameters"), py::arg("return_type"), py::arg("deterministic"))
      .def("register_table", &NativeConnection::RegisterTable, py::arg("name"), py::arg("columns"))
      .def("unregister_table", &NativeConnection::UnregisterTable, py::arg("name"))
      .def_property_readonly("is_open", &NativeConnection::IsOpen);

  m.def("quote_identifier", &lakestream::QuoteIdentifier, py::arg("name"),
        "The name as a quoted SQL identifier, safe to splice into SQL text.");
  m.def("check_expression", &lakestream::CheckExpression, py::arg("text"), py::arg("select_item") = false,
        "'' when the text is exactly one SQL expression (select_item: one select-list item), else the "
        "parser's error.");
}
