// The sink lease: one deliverer per sink at a time, across processes, apart
// from the database's write lock.
//
// A pass of RUN SINK (or of `lakestream sink --follow`) reads the source's
// change feed, produces to the target and waits for its acknowledgements;
// none of that writes the database, so it runs without the write lock and
// writers keep committing meanwhile. What it must exclude is another pass of
// the same sink: two passes that both start from one recorded position would
// deliver the same changes twice (and the slower one's save would move the
// position back). The lease is an flock on
//
//   <db>/_lakestream/sink-<hex of the sink id>.lock
//
// (the file holds "<pid> <generation>", padded with spaces to 47 bytes, and
// "\n": the holder's pid, for the error message, and how many times the
// lease was taken, which each holder increments), taken before the
// pass reads the sink's recorded position and held until the pass has
// recorded its last progress. A pass that holds it reads the position the
// previous holder recorded (the catalog is re-read after taking it), so
// passes of one sink follow each other like one process's would. The kernel
// drops the lease when its holder dies, which is what a crash needs: the
// next pass resumes from the recorded position as after any crash.
//
// The generation lets a process that delivered the sink's previous pass
// know that nobody held the lease since: the target's state is then what
// that pass left (no resume scan of the topic is needed).
//
// Keyed by the sink's id (unique per CREATE SINK): CREATE OR REPLACE SINK
// makes a new id and so a new lease; its old passes notice at their next
// save (the sink changed) and stop.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace lakestream {

class SinkLease {
 public:
  // Waits up to `timeout` for the lease of sink `id` (named `sink_name` in
  // errors) of the local database directory `db_path`, calling
  // `check_interrupt` every 50 ms; throws IOError naming the sink and the
  // holder's pid when the time runs out or the lock file cannot be opened.
  SinkLease(const std::string& db_path, const std::string& sink_name, const std::string& id,
            std::chrono::milliseconds timeout, const std::function<void()>& check_interrupt);
  ~SinkLease();  // lets go
  SinkLease(const SinkLease&) = delete;
  SinkLease& operator=(const SinkLease&) = delete;

  static std::string LockPath(const std::string& db_path, const std::string& id);

  // The generation this holder wrote, and the one it found (0: none).
  uint64_t Generation() const { return generation_; }
  uint64_t PreviousGeneration() const { return generation_ - 1; }

 private:
  int fd_ = -1;
  uint64_t generation_ = 0;
};

}  // namespace lakestream
