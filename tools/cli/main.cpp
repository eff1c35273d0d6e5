// Entry point of the `lakestream` binary: argument parsing, then either a
// subcommand (run, sink, serve), a non-interactive run (-c, -f, SQL argument, piped
// stdin) or the REPL.
//
// Exit codes: 0 success; 1 a statement, dot command or file failed (the error
// is on stderr) or the database could not be opened; 2 bad command line; 130
// Ctrl-C (SIGINT) stopped a -c, -f or piped script (the running statement
// committed nothing).
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "shell.hpp"
#include "subcommands.hpp"

#ifndef LAKESTREAM_VERSION
#define LAKESTREAM_VERSION "dev"
#endif

namespace {

const char* kUsage =
    "Usage: lakestream [OPTIONS] [DB_DIR [SQL]]\n"
    "       lakestream run PIPELINE.sql [--db DIR] [--once | --continuous] [--interval 1s]\n"
    "       lakestream sink DB_DIR NAME [--follow] [--interval SECONDS]\n"
    "       lakestream serve [DB_DIR] [--listen HOST:PORT] [--readonly] [--password-file FILE]\n"
    "\n"
    "Opens the database in DB_DIR (in memory when omitted) and runs SQL: from\n"
    "-c, -f, the SQL argument or piped stdin, else in an interactive shell.\n"
    "\n"
    "Options:\n"
    "  -c SQL        run SQL (one or more statements, or a dot command) and exit\n"
    "  -f FILE       run the SQL script FILE and exit\n"
    "  -box          output as aligned tables (default)\n"
    "  -csv          output as CSV with a header line\n"
    "  -json         output as one JSON array of objects per result\n"
    "  -line         output one 'column = value' line per value\n"
    "  -readonly     open the database read-only: every write is refused (tables,\n"
    "                COPY ... TO, CREATE/RUN SINK)\n"
    "  -safe         safe mode: statements read and write no file outside the\n"
    "                database directory and reach no network\n"
    "                (enable_external_access = false, for the whole session), and\n"
    "                .read is disabled; docs/security.md\n"
    "  -threads N    threads each query may use, 1 to 1024 (default: the\n"
    "                machine's cores; SET threads = N changes it later)\n"
    "  -help, --help     show this help and exit\n"
    "  -version, --version  show the version and exit\n"
    "\n"
    "Options may also be written with two dashes (--csv). In the shell, enter\n"
    "\".help\" for the dot commands.\n";

// A -c or -f action, run in command-line order.
struct Action {
  bool is_file;
  std::string text;
};

// Accepts -opt and --opt alike.
bool Is(const char* arg, const char* name) {
  if (arg[0] == '-' && arg[1] == '-') arg++;
  return std::strcmp(arg, name) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Past the file size limit (ulimit -f) a write fails with EFBIG and the
  // statement reports it and cleans up, instead of SIGXFSZ killing the shell
  // mid-write (the library does the same when a Database opens).
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc > 1 && std::strcmp(argv[1], "run") == 0) return lakestream::RunPipelineCommand(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "sink") == 0) return lakestream::RunSinkCommand(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "serve") == 0) return lakestream::RunServeCommand(argc, argv);

  lakestream::DatabaseOptions db_options;
  lakestream::RenderMode mode = lakestream::RenderMode::BOX;
  std::vector<Action> actions;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; i++) {
    const char* arg = argv[i];
    auto need_value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "lakestream: " << arg << " needs " << what << "\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (Is(arg, "-c")) {
      actions.push_back({false, need_value("an SQL argument")});
    } else if (Is(arg, "-f")) {
      actions.push_back({true, need_value("a file name")});
    } else if (Is(arg, "-box") || Is(arg, "-csv") || Is(arg, "-json") || Is(arg, "-line")) {
      mode = *lakestream::ParseRenderMode(arg + (arg[1] == '-' ? 2 : 1));
    } else if (Is(arg, "-readonly")) {
      db_options.read_only = true;
    } else if (Is(arg, "-safe")) {
      db_options.enable_external_access = false;
    } else if (Is(arg, "-threads")) {
      const char* value = need_value("a number of threads");
      char* end = nullptr;
      long n = std::strtol(value, &end, 10);
      if (*value == '\0' || *end != '\0' || n < 1 || n > 1024) {
        std::cerr << "lakestream: -threads " << value << ": expected a whole number of threads from 1 to 1024\n";
        return 2;
      }
      db_options.threads = static_cast<int>(n);
    } else if (Is(arg, "-help") || Is(arg, "-h")) {
      std::cout << kUsage;
      return 0;
    } else if (Is(arg, "-version")) {
      std::cout << "lakestream " << LAKESTREAM_VERSION << std::endl;
      return 0;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      std::cerr << "lakestream: unknown option " << arg << "\n" << kUsage;
      return 2;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() > 2) {
    std::cerr << "lakestream: too many arguments (quote the SQL as one argument)\n" << kUsage;
    return 2;
  }
  std::string db_path = positional.empty() ? "" : positional[0];
  if (positional.size() == 2) actions.push_back({false, positional[1]});

  std::unique_ptr<lakestream::Shell> shell;
  try {
    shell = std::make_unique<lakestream::Shell>(db_path, db_options);
  } catch (std::exception& e) {
    std::cerr << e.what() << std::endl;
    return 1;
  }
  shell->Render().mode = mode;
  shell->Render().max_width = 0;  // follow the terminal

  // Non-interactive runs stop at the first error and exit 1.
  if (!actions.empty()) {
    for (auto& action : actions) {
      bool ok;
      if (action.is_file) {
        ok = shell->RunFile(action.text, true);
      } else {
        std::istringstream in(action.text);
        ok = shell->RunScript(in, "-c", true);
      }
      if (shell->InterruptRequested()) return 130;
      if (!ok) return 1;
      if (shell->QuitRequested()) return shell->QuitCode();
    }
    return 0;
  }
  if (!isatty(STDIN_FILENO)) {
    bool ok = shell->RunScript(std::cin, "stdin", true);
    if (shell->InterruptRequested()) return 130;
    if (!ok) return 1;
    return shell->QuitRequested() ? shell->QuitCode() : 0;
  }
  return shell->Repl();
}
