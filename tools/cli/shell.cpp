#include "shell.hpp"

#include "progress_bar.hpp"

#include <editline/readline.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "lakestream/tools.hpp"

#ifndef LAKESTREAM_VERSION
#define LAKESTREAM_VERSION "dev"  // the build defines it; this keeps ad-hoc compiles working
#endif

namespace lakestream {

namespace {

bool IsBlank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string TrimLeft(const std::string& s) {
  size_t start = s.find_first_not_of(" \t\r");
  return start == std::string::npos ? "" : s.substr(start);
}

// Splits a dot command into words; "double" or 'single' quotes group words
// so file names with spaces work in .read.
std::vector<std::string> SplitWords(const std::string& line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) i++;
    if (i >= line.size()) break;
    std::string word;
    if (line[i] == '"' || line[i] == '\'') {
      char quote = line[i++];
      while (i < line.size() && line[i] != quote) word += line[i++];
      i++;
    } else {
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) word += line[i++];
    }
    words.push_back(word);
  }
  return words;
}

const char* kHelp =
    ".exit [CODE]             Exit the shell (same as .quit)\n"
    ".help                    Show this message\n"
    ".maxrows N               Rows a box table shows before it elides the middle (0 = all)\n"
    ".maxwidth N              Width of box tables (0 = the terminal width)\n"
    ".mode [box|csv|json|line] Set the output mode (no argument: show it)\n"
    ".print TEXT              Print TEXT (for scripts and tours)\n"
    ".progress on|off         Show a progress bar on stderr for statements running over 2 s (on a terminal)\n"
    ".quit [CODE]             Exit the shell\n"
    ".read FILE               Run the SQL and dot commands in FILE\n"
    ".schema [TABLE]          Show the columns of TABLE (DESCRIBE), or of every table\n"
    ".tables                  List the tables (SHOW TABLES)\n"
    ".timer on|off            Print the run time of every statement\n";

// SIGINT's handler may only touch lock-free atomics: Interrupt() is one
// relaxed store, so calling it here is async-signal-safe.
std::atomic<Connection*> g_interrupt_target{nullptr};
volatile std::sig_atomic_t g_sigint = 0;
// Written by the handler to wake the prompt's key reader (see ReadPromptKey).
int g_sigint_pipe[2] = {-1, -1};
static_assert(std::atomic<Connection*>::is_always_lock_free);

extern "C" void OnSigint(int /*signal*/) {
  g_sigint = 1;
  if (g_sigint_pipe[1] >= 0) {
    int saved_errno = errno;
    [[maybe_unused]] ssize_t ignored = ::write(g_sigint_pipe[1], "!", 1);  // full pipe: already woken
    errno = saved_errno;
  }
  if (Connection* con = g_interrupt_target.load()) con->Interrupt();
}

// The line editor's key reader. The editor's own reader loses a Ctrl-C
// that lands while it is not blocked in read(): while it draws, or when the
// kernel hands SIGINT to another of the process's threads. The half-typed
// line then ran with the next one. The handler also writes to a pipe that
// this reader polls beside the terminal, so a Ctrl-C is either seen by the
// flag check or wakes the wait. Returns a character (decoded as the editor
// would, with mbrtowc) or -1, which ends the line.
int ReadPromptKey(FILE* in) {
  int fd = in ? fileno(in) : STDIN_FILENO;
  char bytes[MB_LEN_MAX];
  size_t have = 0;
  for (;;) {
    if (g_sigint) return -1;
    struct pollfd waits[2] = {{fd, POLLIN, 0}, {g_sigint_pipe[0], POLLIN, 0}};
    int ready = ::poll(waits, g_sigint_pipe[0] >= 0 ? 2 : 1, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;  // the flag check decides
      return -1;
    }
    if (waits[1].revents != 0) return -1;  // Ctrl-C; Repl() drains the pipe
    ssize_t n = ::read(fd, bytes + have, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;  // end of input
    ++have;
    std::mbstate_t state{};
    wchar_t key = 0;
    size_t used = std::mbrtowc(&key, bytes, have, &state);
    if (used == static_cast<size_t>(-2) && have < sizeof(bytes)) continue;  // more bytes to come
    if (used == static_cast<size_t>(-1) || used == static_cast<size_t>(-2)) {
      have = 0;  // not a character in this locale: dropped, as the editor does
      continue;
    }
    return static_cast<int>(key);
  }
}

// The editor decodes keys by LC_CTYPE, and in the C locale (the default of
// a process that never sets one) it dropped every non-ASCII key: 'héllo'
// typed at the prompt was stored as 'hllo'. SQL text is UTF-8 whatever the
// user's locale says, so keys are decoded as UTF-8.
void DecodeKeysAsUtf8() {
  if (std::setlocale(LC_CTYPE, "") && std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return;
  if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "C");
}

void DrainSigintPipe() {
  char sink[64];
  while (g_sigint_pipe[0] >= 0 && ::read(g_sigint_pipe[0], sink, sizeof(sink)) > 0) {
  }
}

}  // namespace

Shell::Shell(const std::string& db_path, DatabaseOptions options) {
  safe_ = !options.enable_external_access;
  db_ = std::make_unique<Database>(db_path, std::move(options));
  con_ = std::make_unique<Connection>(*db_);
  g_interrupt_target.store(con_.get());
  if (g_sigint_pipe[0] < 0 && ::pipe2(g_sigint_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    g_sigint_pipe[0] = g_sigint_pipe[1] = -1;  // the reader then relies on EINTR alone
  }
  // No SA_RESTART: a read at the prompt returns on Ctrl-C, so the REPL can
  // drop the line instead of waiting for Enter.
  struct sigaction sa {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
}

Shell::~Shell() {
  std::signal(SIGINT, SIG_DFL);
  g_interrupt_target.store(nullptr);
}

bool Shell::InterruptRequested() const { return g_sigint != 0; }

uint64_t Shell::TerminalWidth() const {
  if (const char* columns = std::getenv("COLUMNS")) {
    long n = std::strtol(columns, nullptr, 10);
    if (n > 0) return static_cast<uint64_t>(n);
  }
  struct winsize ws {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 120;
}

void Shell::PrintResult(const QueryResult& result) {
  RenderOptions options = render_;
  if (options.max_width == 0) options.max_width = TerminalWidth();
  RenderResult(result, options, std::cout);
  std::cout.flush();
}

bool Shell::RunSql(const std::string& sql) {
  if (IsBlank(sql)) return true;
  auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<QueryResult>> results;
  try {
    ProgressBar bar(*con_, progress_);  // erased before anything below prints
    results = con_->QueryAll(sql);
  } catch (std::exception& e) {
    // Query promises not to throw for SQL errors; anything else still must
    // not take the shell down with a half-typed session.
    std::cerr << e.what() << std::endl;
    return false;
  }
  bool ok = true;
  for (auto& result : results) {
    // Warnings go to stderr with the errors: stdout stays the result alone.
    for (auto& warning : result->Warnings()) std::cerr << "WARNING: " << warning << std::endl;
    if (result->HasError()) {
      std::cerr << result->GetError() << std::endl;
      ok = false;
      break;
    }
    PrintResult(*result);
  }
  if (timer_) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char buf[64];
    std::snprintf(buf, sizeof(buf), "Run Time: %.3f s\n", seconds);
    std::cout << buf << std::flush;
  }
  return ok;
}

bool Shell::ShowSchema(const std::string& table) {
  if (!table.empty()) return RunSql("DESCRIBE " + table + ";");
  // Every table: list them first, then DESCRIBE each by name.
  auto tables = con_->Query("SHOW TABLES");
  if (tables->HasError()) {
    std::cerr << tables->GetError() << std::endl;
    return false;
  }
  idx_t name_col = 0;
  for (idx_t c = 0; c < tables->ColumnCount(); c++) {
    const auto& n = tables->Names()[c];
    if (n == "name" || n == "table_name" || n == "tableName") name_col = c;
  }
  bool ok = true;
  for (idx_t r = 0; r < tables->RowCount(); r++) {
    std::string name = tables->GetValue(name_col, r).ToString();
    std::cout << name << ":\n";
    ok = RunSql("DESCRIBE " + name + ";") && ok;
  }
  return ok;
}

bool Shell::RunDotCommand(const std::string& line) {
  auto words = SplitWords(line);
  if (words.empty()) return true;
  const std::string& cmd = words[0];
  auto arg = [&](size_t i) { return i < words.size() ? words[i] : std::string(); };

  if (cmd == ".quit" || cmd == ".exit") {
    quit_ = true;
    quit_code_ = words.size() > 1 ? std::atoi(words[1].c_str()) : 0;
    return true;
  }
  if (cmd == ".print") {
    // The rest of the line, as written (quotes are not needed).
    std::string text = line.size() > 6 ? line.substr(line.find(".print") + 6) : "";
    size_t start = text.find_first_not_of(' ');
    std::cout << (start == std::string::npos ? "" : text.substr(start)) << std::endl;
    return true;
  }
  if (cmd == ".help") {
    std::cout << kHelp << std::flush;
    return true;
  }
  if (cmd == ".mode") {
    if (words.size() == 1) {
      std::cout << "current output mode: " << RenderModeName(render_.mode) << std::endl;
      return true;
    }
    auto mode = ParseRenderMode(words[1]);
    if (!mode) {
      std::cerr << "Error: unknown mode \"" << words[1] << "\"; use one of box, csv, json, line" << std::endl;
      return false;
    }
    render_.mode = *mode;
    return true;
  }
  if (cmd == ".tables") return RunSql("SHOW TABLES;");
  if (cmd == ".schema") return ShowSchema(arg(1));
  if (cmd == ".progress") {
    if (arg(1) == "on" || arg(1) == "off") {
      progress_ = arg(1) == "on";
      return true;
    }
    std::cerr << "Error: usage: .progress on|off" << std::endl;
    return false;
  }
  if (cmd == ".timer") {
    if (arg(1) == "on" || arg(1) == "off") {
      timer_ = arg(1) == "on";
      return true;
    }
    std::cerr << "Error: usage: .timer on|off" << std::endl;
    return false;
  }
  if (cmd == ".read") {
    if (safe_) {
      std::cerr << "Error: .read is disabled in safe mode (-safe), which opens no file but the database; "
                   "pass the script with -f instead, or start without -safe" << std::endl;
      return false;
    }
    if (words.size() != 2) {
      std::cerr << "Error: usage: .read FILE" << std::endl;
      return false;
    }
    return RunFile(words[1], true);
  }
  if (cmd == ".maxrows" || cmd == ".maxwidth") {
    char* end = nullptr;
    unsigned long long n = std::strtoull(arg(1).c_str(), &end, 10);
    if (words.size() != 2 || end == arg(1).c_str() || *end != '\0') {
      std::cerr << "Error: usage: " << cmd << " N" << std::endl;
      return false;
    }
    (cmd == ".maxrows" ? render_.max_rows : render_.max_width) = n;
    return true;
  }
  std::cerr << "Error: unknown command \"" << cmd << "\". Enter \".help\" to list the commands." << std::endl;
  return false;
}

bool Shell::RunScript(std::istream& in, const std::string& name, bool stop_on_error) {
  std::string buffer;
  std::string line;
  bool ok = true;
  while (!quit_ && !g_sigint && std::getline(in, line)) {
    if (IsBlank(buffer)) {
      std::string trimmed = TrimLeft(line);
      if (!trimmed.empty() && trimmed[0] == '.') {
        buffer.clear();
        if (!RunDotCommand(trimmed)) {
          ok = false;
          if (stop_on_error) return false;
        }
        continue;
      }
    }
    buffer += line;
    buffer += '\n';
    if (IsCompleteStatement(buffer)) {
      bool statement_ok = RunSql(buffer);
      buffer.clear();
      if (!statement_ok) {
        ok = false;
        if (stop_on_error) return false;
      }
    }
  }
  // A last statement without ';' still runs; the parser reports it if it is
  // really cut off.
  if (!quit_ && !g_sigint && !IsBlank(buffer) && !RunSql(buffer)) ok = false;
  return ok && !g_sigint;
}

bool Shell::RunFile(const std::string& path, bool stop_on_error) {
  if (read_depth_ >= 16) {
    std::cerr << "Error: .read nested too deeply at \"" << path << "\" (does the file read itself?)" << std::endl;
    return false;
  }
  std::ifstream in(path);
  if (!in) {
    std::cerr << "Error: cannot open \"" << path << "\": " << std::strerror(errno) << std::endl;
    return false;
  }
  read_depth_++;
  bool ok = RunScript(in, path, stop_on_error);
  read_depth_--;
  return ok;
}

int Shell::Repl() {
  std::string history_path;
  if (const char* home = std::getenv("HOME")) history_path = std::string(home) + "/.lakestream_history";
  // Owner only, whatever the umask: statements may name credentials
  // (their values are redacted below, but not every column is a secret).
  if (!history_path.empty()) {
    int fd = ::open(history_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
      (void)::fchmod(fd, 0600);
      ::close(fd);
    }
  }
  DecodeKeysAsUtf8();
  rl_getc_function = ReadPromptKey;  // before the editor starts: it reads the hook once
  using_history();
  stifle_history(2000);
  if (!history_path.empty()) read_history(history_path.c_str());

  std::cout << "lakestream " << LAKESTREAM_VERSION << "\n"
            << "Enter \".help\" for usage hints."
            << (db_->Path().empty() ? "\nConnected to a transient in-memory database." : "") << std::endl;

  std::string buffer;
  while (!quit_) {
    g_sigint = 0;  // before draining: a Ctrl-C in between still sets the flag
    DrainSigintPipe();
    char* raw = readline(buffer.empty() ? "lakestream> " : "      ...> ");
    if (!raw && g_sigint) {
      // Ctrl-C at the prompt: forget the statement being typed, stay.
      buffer.clear();
      std::cout << "^C" << std::endl;
      continue;
    }
    if (!raw) break;  // Ctrl-D
    std::string line(raw);
    std::free(raw);
    if (buffer.empty()) {
      std::string trimmed = TrimLeft(line);
      if (trimmed.empty()) continue;
      if (trimmed[0] == '.') {
        add_history(trimmed.c_str());
        RunDotCommand(trimmed);
        if (!history_path.empty()) write_history(history_path.c_str());
        continue;
      }
    }
    buffer += line;
    buffer += '\n';
    if (!IsCompleteStatement(buffer)) continue;
    // Credentials go first (CREATE SECRET / CREATE SINK ... 'sasl.password'
    // '...'), on the statement as typed: joined into one line, a "-- comment"
    // would swallow the lines after it and hide their literals from redaction.
    std::string entry = RedactCredentials(buffer);
    // One history entry per statement, on one line, so Up brings back the
    // whole statement rather than its last line.
    for (auto& c : entry) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    while (!entry.empty() && entry.back() == ' ') entry.pop_back();
    add_history(entry.c_str());
    if (!history_path.empty()) write_history(history_path.c_str());
    RunSql(buffer);
    buffer.clear();
  }
  if (!quit_) std::cout << std::endl;  // leave the prompt line after Ctrl-D
  return quit_ ? quit_code_ : 0;
}

}  // namespace lakestream
