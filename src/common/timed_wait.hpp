// CallWithTimeout: a blocking lock call (flock(LOCK_EX), fcntl(F_OFD_SETLKW))
// with a deadline. The kernel queues the caller and wakes it the moment the
// holder lets go, so a waiter neither sleeps past a release (as a poll
// does) nor burns a core; the deadline is a one-shot timer of the calling
// thread whose signal (a real-time signal with an empty handler installed
// without SA_RESTART) makes the call fail with EINTR.
//
// The signal goes only to the calling thread and is unblocked there for the
// call; a signal still pending when the call returns is delivered (to the
// empty handler) before CallWithTimeout returns, so no later system call of
// that thread sees a stray EINTR. When another part of the process owns that
// signal (its handler is not ours), CallWithTimeout falls back to retrying
// `try_call` (the non-blocking form) every millisecond.
#pragma once

#include <chrono>
#include <functional>

namespace lakestream {

enum class TimedWait { kDone, kTimedOut, kFailed };

// Runs `call` (returns 0 when the lock is granted, -1 with errno otherwise)
// until it succeeds, fails with an errno other than EINTR (kFailed, errno
// kept), or `timeout` passes (kTimedOut). `try_call` is the same call
// without blocking (EWOULDBLOCK/EAGAIN/EACCES when busy), used only by the
// fallback.
TimedWait CallWithTimeout(std::chrono::milliseconds timeout, const std::function<int()>& call,
                          const std::function<int()>& try_call);

}  // namespace lakestream
