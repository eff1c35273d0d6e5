#include "sigint.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <thread>

namespace lakestream_python {

namespace {

// The signal handler may only do async-signal-safe things: it writes a byte
// to a pipe, and a watcher thread (started once, blocked in read) calls
// Connection::Interrupt outside signal context.
int wake_pipe[2] = {-1, -1};
struct sigaction python_action;  // the handler we replace while a statement runs
std::mutex target_mutex;
lakestream::Connection* target = nullptr;  // the connection running a statement, under target_mutex

void OnSigint(int signum) {
  int saved_errno = errno;
  char byte = 1;
  ssize_t ignored = ::write(wake_pipe[1], &byte, 1);
  (void)ignored;
  if ((python_action.sa_flags & SA_SIGINFO) == 0 && python_action.sa_handler != SIG_DFL &&
      python_action.sa_handler != SIG_IGN) {
    python_action.sa_handler(signum);  // Python's: trips its flag for PyErr_CheckSignals
  }
  errno = saved_errno;
}

void WatchLoop() {
  char byte = 0;
  while (true) {
    ssize_t n = ::read(wake_pipe[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard<std::mutex> guard(target_mutex);
    if (target != nullptr) target->Interrupt();
  }
}

bool StartWatcher() {
  if (::pipe2(wake_pipe, O_CLOEXEC) != 0) return false;
  std::thread(WatchLoop).detach();  // lives as long as the process
  return true;
}

}  // namespace

SigintInterrupts::SigintInterrupts(lakestream::Connection& connection) {
  static bool watching = StartWatcher();
  if (!watching) return;
  struct sigaction current {};
  if (::sigaction(SIGINT, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN ||
      current.sa_handler == OnSigint) {
    return;
  }
  {
    std::lock_guard<std::mutex> guard(target_mutex);
    target = &connection;
  }
  python_action = current;
  struct sigaction ours = current;
  ours.sa_handler = OnSigint;
  installed_ = ::sigaction(SIGINT, &ours, nullptr) == 0;
  if (!installed_) {
    std::lock_guard<std::mutex> guard(target_mutex);
    target = nullptr;
  }
}

SigintInterrupts::~SigintInterrupts() {
  if (!installed_) return;
  ::sigaction(SIGINT, &python_action, nullptr);
  std::lock_guard<std::mutex> guard(target_mutex);
  target = nullptr;
}

}  // namespace lakestream_python
