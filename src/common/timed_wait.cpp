#include "common/timed_wait.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <thread>

namespace lakestream {

namespace {

// Real-time signals above SIGRTMIN are free for applications; glibc keeps
// its own below SIGRTMIN. Counting from the top keeps clear of libraries
// that take the first ones.
int TimeoutSignal() { return SIGRTMAX - 3; }

void IgnoreTimeout(int) {}

// Installs the empty handler once; false when the signal belongs to someone else.
bool HandlerInstalled() {
  static std::once_flag once;
  static bool ours = false;
  std::call_once(once, [] {
    struct sigaction current {};
    if (::sigaction(TimeoutSignal(), nullptr, &current) != 0) return;
    if (current.sa_handler != SIG_DFL && current.sa_handler != IgnoreTimeout) return;
    struct sigaction action {};
    action.sa_handler = IgnoreTimeout;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the blocked call must return EINTR
    ours = ::sigaction(TimeoutSignal(), &action, nullptr) == 0;
  });
  return ours;
}

bool Busy(int err) { return err == EWOULDBLOCK || err == EAGAIN || err == EACCES || err == EINTR; }

TimedWait Poll(std::chrono::milliseconds timeout, const std::function<int()>& try_call) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (try_call() == 0) return TimedWait::kDone;
    if (!Busy(errno)) return TimedWait::kFailed;
    if (std::chrono::steady_clock::now() >= deadline) return TimedWait::kTimedOut;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

TimedWait CallWithTimeout(std::chrono::milliseconds timeout, const std::function<int()>& call,
                          const std::function<int()>& try_call) {
  if (try_call() == 0) return TimedWait::kDone;
  if (!Busy(errno)) return TimedWait::kFailed;
  if (timeout.count() <= 0) return TimedWait::kTimedOut;
  if (!HandlerInstalled()) return Poll(timeout, try_call);

  struct sigevent event {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = TimeoutSignal();
  event._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
  timer_t timer;
  if (::timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return Poll(timeout, try_call);
  // Fires at the deadline, then every 5 ms: a tick that lands between
  // unblocking the signal and entering the call only delays the next one.
  struct itimerspec when {};
  when.it_value.tv_sec = timeout.count() / 1000;
  when.it_value.tv_nsec = (timeout.count() % 1000) * 1000000;
  when.it_interval.tv_nsec = 5L * 1000000L;
  sigset_t unblock, old;
  sigemptyset(&unblock);
  sigaddset(&unblock, TimeoutSignal());
  ::pthread_sigmask(SIG_UNBLOCK, &unblock, &old);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  ::timer_settime(timer, 0, &when, nullptr);
  TimedWait outcome = TimedWait::kTimedOut;
  int err = 0;
  while (true) {
    if (call() == 0) {
      outcome = TimedWait::kDone;
      break;
    }
    err = errno;
    if (err != EINTR) {
      outcome = TimedWait::kFailed;
      break;
    }
    // EINTR: the timer, or another signal of the process; only the clock decides.
    if (std::chrono::steady_clock::now() >= deadline) break;
  }
  ::timer_delete(timer);  // a tick already sent is delivered on this call's return
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return outcome;
}

}  // namespace lakestream
