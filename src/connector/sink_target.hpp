// SinkWriter: where a sink's messages go (a Kafka topic or a JSON-lines
// file), behind one interface so the delivery loop (sink_runner.cpp) is the
// same for both.
//
// Contract: Resume() is called before the first Write() of each pass; it
// learns what the target holds beyond the committed progress in `state` so
// that AlreadyDelivered() can skip it. `continuing` says this writer
// delivered the sink's previous pass and nobody delivered it since (the
// runner knows from the sink's lease): what the target holds beyond `state`
// is then only what this writer recorded, and a writer may skip its scan. Flush() returns
// only when every written message is durable (acknowledged by the broker,
// fsynced to the file); only then does the runner record progress, together
// with what RecordProgress() adds to the state.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "catalog/catalog.hpp"
#include "common/file_system.hpp"
#include "common/status.hpp"
#include "connector/sink_message.hpp"
#include "connector/sink_options.hpp"

namespace lakestream {

class SinkWriter {
 public:
  virtual ~SinkWriter() = default;
  virtual Status Resume(const SinkState& state, bool continuing) = 0;
  virtual bool AlreadyDelivered(const SinkMessage& message) = 0;
  virtual Status Write(const SinkMessage& message) = 0;
  virtual Status Flush() = 0;
  virtual void RecordProgress(SinkState& state) = 0;
  // One Kafka transaction per version when the sink is transactional; no-ops otherwise.
  virtual Status BeginVersion() { return Status::OK(); }
  virtual Status EndVersion() { return Status::OK(); }
  virtual bool CommitsEachVersion() const { return false; }
  // Called while waiting on the target with its current transport error ("" when healthy).
  void SetWaitCallback(std::function<void(const std::string&)> callback) { on_wait_ = std::move(callback); }
  // Messages skipped by AlreadyDelivered since the session started.
  int64_t Skipped() const { return skipped_; }

 protected:
  std::function<void(const std::string&)> on_wait_;
  int64_t skipped_ = 0;
};

// A Kafka topic. `sink_id` tags our messages; `source` fills lakestream.table.
Result<std::unique_ptr<SinkWriter>> OpenKafkaTarget(const SinkOptions& options, const std::string& sink_id,
                                                    const std::string& source);
// A JSON-lines file (docs/sinks.md has the line grammar). Exactly once by
// comparing, on resume, what follows the size recorded with the last progress
// with the lines it would write (file_target.cpp). Resume() returns
// Corruption when the recorded prefix of the file was changed by someone
// else: the target never truncates or overwrites bytes it did not write.
// `fs` (ExternalAccessPolicy::Files(); outlives the target) opens the file.
Result<std::unique_ptr<SinkWriter>> OpenFileTarget(const SinkOptions& options, const std::string& path, FileSystem* fs);

// `path` made absolute against the working directory, lexically normal
// (symlinks are not resolved; a sink refuses a file that is itself a link).
std::string AbsoluteSinkPath(const std::string& path);
// Do `a` and `b` name one file: the same inode, or, while either is missing,
// the same path once relative parts and symlinked directories are resolved.
bool SameFile(const std::string& a, const std::string& b);
// A FILE sink's first state: creates `path` when missing and records its
// size and the hash of its last bytes (file_size, file_tail_hash), so what
// was there before the sink is kept and checked like the sink's own lines.
// `fs` creates the folder and opens the file.
Status InitialFileState(const std::string& path, SinkState& state, FileSystem* fs);

}  // namespace lakestream
