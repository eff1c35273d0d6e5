// What one open database keeps of its sinks between passes (sink_runner.cpp):
// the open targets, the progress listener, the lease generations, and the
// progress a follower's pass made durable in the target without saving it
// to the catalog yet (deferred saves, SetSinkSaveInterval).
//
// Deferred saves: a pass records its progress in the catalog (the database
// write lock, a catalog.json rewrite and its fsyncs) at most once per
// save_interval. A pass that skips the save leaves its acknowledged state
// here, with the catalog state it rests on; the next pass of this process
// starts from it only when nobody took the sink's lease in between (the
// lease generation, sink_lease.hpp) and the catalog still holds that state
// (no ALTER, CREATE OR REPLACE or DROP SINK). Otherwise, and after a crash,
// the next pass starts from the recorded position, as after a crash between
// an acknowledgement and its save: the target's resume scan skips what is
// already there (docs/sinks.md, "Delivery: exactly once").
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/catalog.hpp"
#include "catalog/catalog_store.hpp"
#include "connector/sink_target.hpp"
#include "sink/sink_runner.hpp"
#include "storage/delta/log_sync.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

class SinkSessions : public SinkRegistry {
 public:
  struct Unsaved {
    SinkState state;          // acknowledged by the target, not in the catalog
    nlohmann::json recorded;  // the sink's state in the catalog when it was made
  };

  std::mutex mutex;
  // The targets (producers, open files) by sink id and definition: they
  // outlive one RUN SINK so a connection stays open while the database does.
  // The definition is part of the key because ALTER SINK keeps the id, and a
  // follower must not go on writing with the options it started with.
  std::map<std::string, std::unique_ptr<SinkWriter>> targets;
  SinkProgressListener listener;
  // By sink id: the lease generation under which this process's last pass of
  // the sink succeeded (sink_lease.hpp). A pass that finds it in the lease
  // file follows that pass directly, so its target need not rescan.
  std::map<std::string, uint64_t> lease_generations;
  // Zero: every progress point is saved at once (RUN SINK's default).
  std::chrono::milliseconds save_interval{0};
  std::map<std::string, std::chrono::steady_clock::time_point> last_saved;  // by sink id
  std::map<std::string, Unsaved> unsaved;                                   // by sink id
  // By sink id: the fsync of the source's _delta_log/ that a pass began when
  // it refreshed the source (RefreshSinkSource), covering every version up
  // to `covers`; the pass waits for it before its first message instead of
  // syncing then (EarlySourceSync).
  struct SourceSync {
    int64_t covers = -1;
    std::unique_ptr<delta::StartedLogSync> sync;
  };
  std::map<std::string, SourceSync> source_syncs;
};

SinkSessions& SessionsOf(ClientContext& context);

// The open target of `sink` as defined now (opened on first use: a Kafka
// producer, or the FILE sink's file through `fs`); one made for an earlier
// definition of the sink is closed. Throws IOError when it cannot be opened.
SinkWriter& GetTarget(SinkSessions& sessions, const SinkCatalogEntry& sink, const SinkOptions& options, FileSystem* fs);
// Closes every open target of the sink with this id.
void DropTarget(SinkSessions& sessions, const std::string& id);

}  // namespace lakestream
