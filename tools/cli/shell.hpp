// The interactive SQL shell behind `lakestream [DB_DIR]`: runs SQL and dot
// commands from a REPL, a string (-c), a file (-f, .read) or stdin, and
// prints results through the result renderer.
//
// Contract:
// - Results go to stdout, errors to stderr (the engine's message as is, e.g.
//   "Catalog Error: Table with name t does not exist!"). Every Run* returns
//   false when something failed; non-interactive callers stop at that point
//   and exit non-zero, the REPL carries on.
// - Statements without result columns (CREATE, ...) print nothing in any mode.
// - Scripts: a line starting with '.' where a statement would start is a dot
//   command; other lines collect into a statement until Parser::IsComplete
//   says it ends with ';'. Text left at end of input runs as is (the parser
//   reports it if it really is incomplete).
// - The box width follows $COLUMNS when set, else the terminal (ioctl on
//   stdout), else 120, looked up for every result so window resizes apply.
// - Ctrl-C (SIGINT, once the Shell exists): a running statement stops with
//   "Interrupted" and commits nothing (Connection::Interrupt); a script
//   (-c, -f, stdin, .read) stops there and InterruptRequested() turns true,
//   for main's exit code 130; at the prompt, the line being typed is dropped
//   and a new prompt shown. SIGINT goes back to its default when the Shell
//   is destroyed.
#pragma once

#include <istream>
#include <memory>
#include <string>

#include "lakestream.hpp"
#include "result_renderer.hpp"

namespace lakestream {

class Shell {
 public:
  // Opens the database ("" = in memory). Throws lakestream::Exception (or
  // std::exception) when the database cannot be opened.
  Shell(const std::string& db_path, DatabaseOptions options);
  ~Shell();

  // Runs every statement in `sql` and prints each result. Stops at the first
  // failing statement.
  bool RunSql(const std::string& sql);
  // Runs one dot command line, e.g. ".mode csv".
  bool RunDotCommand(const std::string& line);
  // Runs a script read from `in`. `name` labels errors ("-c", a file name).
  // With stop_on_error the script stops at the first failure.
  bool RunScript(std::istream& in, const std::string& name, bool stop_on_error);
  // Reads and runs the file at `path` as a script (for -f and .read).
  bool RunFile(const std::string& path, bool stop_on_error);
  // The read-eval-print loop on the terminal, with libedit line editing and
  // history in ~/.lakestream_history. Returns the exit code.
  int Repl();

  // True once Ctrl-C stopped a script (-c, -f, stdin); main exits with 130.
  bool InterruptRequested() const;

  // True once .quit/.exit ran; callers stop reading input.
  bool QuitRequested() const { return quit_; }
  int QuitCode() const { return quit_code_; }

  RenderOptions& Render() { return render_; }

 private:
  void PrintResult(const QueryResult& result);
  bool ShowSchema(const std::string& table);
  uint64_t TerminalWidth() const;

  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
  RenderOptions render_;
  bool timer_ = false;
  bool progress_ = true;  // .progress: the progress bar (progress_bar.hpp)
  bool quit_ = false;
  int quit_code_ = 0;
  int read_depth_ = 0;  // nesting of .read, to stop a file that reads itself
  bool safe_ = false;   // -safe: dot commands that open files are refused
};

}  // namespace lakestream
