// `lakestream sink DB_DIR NAME [--follow] [--interval SECONDS]
// [--save-interval SECONDS]`: runs a sink from the shell.
//
// Without --follow it delivers everything pending (as RUN SINK does) and
// exits: 0 on success, 1 on a delivery error (printed, and recorded in SHOW
// SINKS), 2 for a bad command line. With --follow it keeps going: after each
// pass it waits for the next commit to the sink's source (a table, or a view's
// table, which the writer's refresh commits): inotify on the source's
// _delta_log/ wakes it within milliseconds of the commit, a commit of its
// own process through the in-process notifier. --interval SECONDS (default
// 1) is the longest wait, the poll where notifications do not reach (an
// s3:// source, no inotify). A wake-up is a hint: each pass reads the sink's
// recorded position as RUN SINK always does (or what this process's last
// pass delivered and did not save yet). A follower saves its position in the
// catalog at most every --save-interval SECONDS (default 1; 0: after every
// pass), also when a pass finds nothing new and when it stops
// (SetSinkSaveInterval); a crash in between repeats no delivery, the Kafka
// resume scan skips what is there (docs/sinks.md). The Kafka producer stays
// connected across passes. A broker that cannot be reached is
// retried with exponential backoff (1 s doubling to 30 s), with the error in
// SHOW SINKS while it lasts; an error that retrying cannot fix (an update for
// an append sink, a dropped source) stops the command with exit code 1
// instead of looping. SIGINT/SIGTERM stop it after the current pass.
//
// The progress line (stderr; redrawn in place on a terminal, one line per
// second otherwise):
//   sink NAME: M messages, R msg/s, delivered up to version V, lag L versions[, error: ...]
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/tools.hpp"
#include "subcommands.hpp"

namespace lakestream {

namespace {

std::atomic<bool> g_stop{false};
// How often a follower saves its position by default, seconds (SetSinkSaveInterval).
constexpr double kFollowSaveInterval = 1.0;
void OnSignal(int) { g_stop = true; }

int Usage() {
  std::fprintf(stderr,
               "usage: lakestream sink DB_DIR NAME [--follow] [--interval SECONDS] [--save-interval SECONDS]\n"
               "  delivers the pending changes of sink NAME of database DB_DIR; --follow keeps delivering,\n"
               "  saving its position at most every --save-interval seconds (default 1)\n");
  return 2;
}

class ProgressLine {
 public:
  explicit ProgressLine(std::string name) : name_(std::move(name)), tty_(isatty(STDERR_FILENO)), start_(Clock::now()) {}

  void Update(int64_t total_messages, int64_t delivered, int64_t lag, const std::string& error, bool force) {
    auto now = Clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(tty_ ? 200 : 1000)) return;
    last_ = now;
    double seconds = std::chrono::duration<double>(now - start_).count();
    double rate = seconds > 0 ? static_cast<double>(total_messages) / seconds : 0;
    std::string line = "sink " + name_ + ": " + std::to_string(total_messages) + " messages, " +
                       std::to_string(static_cast<int64_t>(rate)) + " msg/s, delivered up to version " +
                       std::to_string(delivered) + ", lag " + std::to_string(lag) + " versions";
    if (!error.empty()) line += ", error: " + error;
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
  }
  void Finish() {
    if (tty_) std::fprintf(stderr, "\n");
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string name_;
  bool tty_;
  Clock::time_point start_;
  Clock::time_point last_{};
};

// The sink's recorded delivered version and pending versions, as SHOW SINKS
// reports them; leaves both as they are when the sink is not found.
void ReadRecordedPosition(Connection& con, const std::string& name, int64_t& delivered, int64_t& lag) {
  auto sinks = con.Query("SHOW SINKS");
  if (sinks->HasError()) return;
  for (idx_t r = 0; r < sinks->RowCount(); r++) {
    if (sinks->GetValue(0, r).ToString() != name) continue;
    SqlValue version = sinks->GetValue(4, r);
    delivered = version.IsNull() ? -1 : version.GetBigint();
    lag = sinks->GetValue(5, r).GetBigint();
  }
}

// Sleeps up to `seconds`, waking early on a stop request, or with a waiter
// on a commit to what it follows.
void Sleep(double seconds, CommitWaiter* waiter = nullptr) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!g_stop) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
    if (left <= 0) return;
    // Slices of 50 ms keep the stop flag's check as before.
    int64_t slice = std::min<int64_t>(left, 50);
    if (waiter) {
      if (waiter->Wait(slice)) return;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(slice));
    }
  }
}

}  // namespace

int RunSinkCommand(int argc, char** argv) {
  std::string db_dir, name;
  bool follow = false;
  double interval = 1.0;
  double save_interval = kFollowSaveInterval;
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "--follow" || arg == "-follow" || arg == "-f") {
      follow = true;
    } else if (arg == "--interval" && i + 1 < argc) {
      interval = std::atof(argv[++i]);
      if (interval <= 0) return Usage();
    } else if (arg == "--save-interval" && i + 1 < argc) {
      char* end = nullptr;
      save_interval = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || save_interval < 0) return Usage();
    } else if (arg == "-h" || arg == "--help") {
      Usage();
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "lakestream sink: unknown option %s\n", arg.c_str());
      return Usage();
    } else if (db_dir.empty()) {
      db_dir = arg;
    } else if (name.empty()) {
      name = arg;
    } else {
      return Usage();
    }
  }
  if (db_dir.empty() || name.empty()) return Usage();

  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  ProgressLine progress(name);
  int64_t total = 0, delivered = -1, lag = 0;
  auto on_progress = [&](const SinkProgressReport& p) {
    delivered = p.delivered_version;
    // Nothing delivered yet (-1): every version up to the latest is pending.
    if (p.latest_version >= 0) lag = p.latest_version - std::max<int64_t>(p.delivered_version, -1);
    progress.Update(total + p.messages, delivered, lag, p.error, false);
  };
  double backoff = 1.0;
  int exit_code = 0;
  bool waiting_for_lock = false;
  // Lives across passes: a commit between two passes stays queued in it.
  CommitWaiter waiter;
  // With --follow the database stays open between passes (it holds no lock
  // while idle, and each statement reads other processes' commits and
  // catalog changes), so the Kafka producer and its transaction state stay
  // too; after an error it is opened afresh.
  std::unique_ptr<Database> db;
  std::unique_ptr<Connection> con;
  auto close_database = [&] {
    con.reset();
    db.reset();
  };
  while (!g_stop) {
    std::string error;
    bool retry = false;
    try {
      if (!db) {
        db = std::make_unique<Database>(db_dir);
        waiting_for_lock = false;
        con = std::make_unique<Connection>(*db);
        SetSinkProgressCallback(*con, on_progress);  // the callback lives with the database
        // A busy writer wakes the follower many times a second: saving the
        // position after each pass would take the database's write lock
        // from that writer each time (the Kafka resume scan makes a lost
        // save harmless; a quiet pass and the stop save it).
        if (follow) SetSinkSaveInterval(*con, static_cast<int64_t>(save_interval * 1000));
      }
      // Before the pass reads the source, so a commit during it wakes the next wait.
      if (follow) waiter.FollowSink(*con, name);
      auto result = con->Query("RUN SINK " + QuoteIdentifier(name));
      if (result->HasError()) {
        error = result->GetError();
        retry = result->GetErrorKind() == ErrorKind::IO;
        // The pass may have failed before reporting anything: the progress
        // line shows the recorded position, not this process's defaults.
        ReadRecordedPosition(*con, name, delivered, lag);
        close_database();
      } else {
        total += result->GetValue(0, 0).GetBigint();
        delivered = result->GetValue(2, 0).GetBigint();
        lag = SinkPendingVersions(*con, name);
        backoff = 1.0;
        // The pass read the catalog afresh: a sink redefined by another
        // process on another source is followed from now on.
        if (follow) waiter.FollowSink(*con, name);
      }
    } catch (const std::exception& e) {
      close_database();
      // Opening failed: another process holds the write lock (retry), or the database is damaged (stop).
      error = e.what();
      retry = ErrorKindOf(e) == ErrorKind::IO;
      if (retry && follow && !waiting_for_lock) {
        waiting_for_lock = true;
      }
    }
    if (!error.empty()) {
      if (follow && retry) {
        // RUN SINK's advice to run it again is what this loop does by itself.
        size_t advice = error.find("; RUN SINK ");
        if (advice != std::string::npos && error.find(" again once the target is reachable", advice) != std::string::npos) {
          error.erase(advice);
        }
        char wait[64];
        std::snprintf(wait, sizeof(wait), "; retrying in %.0f s (Ctrl-C stops)", backoff);
        error += wait;
      }
      progress.Update(total, delivered, lag, error, true);
      if (!follow || !retry) {
        progress.Finish();
        std::fprintf(stderr, "lakestream sink: %s\n", error.c_str());
        exit_code = 1;
        break;
      }
      Sleep(backoff);
      backoff = std::min(backoff * 2, 30.0);
      continue;
    }
    progress.Update(total, delivered, lag, "", true);
    if (!follow) break;
    Sleep(interval, &waiter);
  }
  if (follow && con && exit_code == 0) {
    // Stopping: the last pass saves what earlier ones left unsaved.
    SetSinkSaveInterval(*con, 0);
    auto last = con->Query("RUN SINK " + QuoteIdentifier(name));
    if (!last->HasError()) total += last->GetValue(0, 0).GetBigint();
  }
  close_database();
  progress.Finish();
  if (!follow && exit_code == 0) std::printf("%lld\n", static_cast<long long>(total));
  return exit_code;
}

}  // namespace lakestream
