// CREATE SINK, CREATE OR REPLACE SINK and ALTER SINK: checking a sink's
// definition and deciding where it starts (docs/sinks.md, "Where a sink
// starts" and "Changing a sink").
//
// A sink's position is its progress (delivered_version, a pending snapshot,
// the Kafka partition offsets or the file's recorded size) plus the id that
// tags its Kafka messages. Redefining a sink keeps all of it unless the
// statement says 'start', so no pending change is dropped on the way: the
// changes not yet delivered go out in the new format.
#include <chrono>
#include <climits>
#include <filesystem>
#include <thread>

#include "catalog/stream_offset.hpp"
#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "connector/kafka/kafka_producer.hpp"
#include "connector/kafka/kafka_tail.hpp"
#include "connector/sink_encoder.hpp"
#include "connector/secret_use.hpp"
#include "sink/sink_runner.hpp"
#include "sink/sink_source.hpp"
#include "connector/sink_target.hpp"
#include "storage/table/change_feed.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

namespace {

constexpr int kKafkaRequestTimeoutMs = 10000;

// "Kafka topic t" / "file /abs/x.jsonl", for messages.
std::string TargetText(const SinkCatalogEntry& sink) {
  return sink.target == "file" ? "file " + SinkFilePath(sink) : "Kafka topic " + ParsedSinkOptions(sink)->topic;
}

bool SameTarget(const SinkCatalogEntry& a, const SinkCatalogEntry& b) {
  if (a.target != b.target) return false;
  if (a.target == "file") return SameFile(SinkFilePath(a), SinkFilePath(b));
  return ParsedSinkOptions(a)->topic == ParsedSinkOptions(b)->topic;
}

// The first version a new position delivers, from 'start' (not 'earliest').
int64_t FirstVersion(const SinkCatalogEntry& sink, const SinkStart& start, DeltaTable& delta) {
  int64_t latest = delta.Version();
  if (start.kind == SinkStartKind::LATEST) return latest + 1;
  int64_t first = start.kind == SinkStartKind::VERSION ? start.version : FirstVersionAtOrAfter(delta, start.timestamp);
  if (first > latest + 1) {
    throw InvalidInputError("Sink " + sink.name + ": 'start' = 'version " + std::to_string(first) + "' is after " +
                            sink.source + "'s next version " + std::to_string(latest + 1) + "; use a version up to " +
                            std::to_string(latest + 1) + " or 'latest'");
  }
  if (first <= latest) {
    // The change feed must still hold the first version (VACUUM, feed turned on later).
    try {
      ChunkCollection probe(GetChangeFeedSchema(delta).types);
      ReadChangeFeed(delta, first, first, probe);
    } catch (const Exception& e) {
      throw InvalidInputError("Sink " + sink.name + ": cannot start at version " + std::to_string(first) + " of " +
                              sink.source + ": " + e.what() + "; pick a later 'start' version, or 'earliest' for the "
                              "current rows");
    }
  }
  return first;
}

// A Kafka sink whose messages change shape must not meet messages of its own
// that its progress does not count (an interrupted run): the resume scan
// would compare identities across two encodings and skip or repeat some.
void CheckNoUncountedMessages(ClientContext& context, const SinkCatalogEntry& sink, const SinkOptions& options,
                              int32_t partitions) {
  std::vector<int64_t> offsets = sink.state.partition_offsets.value_or(std::vector<int64_t>());
  int64_t counted = sink.state.delivered_version.value_or(-1);
  if (StreamCatalogEntry* stream = context.GetCatalog().FindStream(sink.source)) {
    counted = StreamPositionOf(context.GetCatalog(), *stream).offset;
  }
  auto tails = ReadSinkTail(options, sink.Id(), partitions, offsets, kKafkaRequestTimeoutMs);
  if (!tails.ok()) throw IOError("Sink " + sink.name + ": " + tails.status().message());
  for (auto& tail : tails.value()) {
    if (tail.version > counted) {
      throw InvalidInputError("Sink " + sink.name + ": topic " + options.topic + " holds messages of version " +
                              std::to_string(tail.version) + " from an interrupted run that the sink's progress (version " +
                              std::to_string(counted) + ") does not count yet, in the old format. RUN SINK " + sink.name +
                              " once as it is so its progress counts them, then change its format");
    }
  }
}

// The database directory's files (Delta logs and data, the catalog) are
// lakestream's own; a line appended to one of them corrupts it.
void CheckOutsideDatabase(ClientContext& context, const SinkCatalogEntry& sink, const std::string& path) {
  const std::string& db = context.Database().Path();
  if (db.empty()) return;
  std::error_code e1, e2;
  std::string dir = std::filesystem::weakly_canonical(AbsoluteSinkPath(db), e1).string();
  std::string file = std::filesystem::weakly_canonical(path, e2).string();
  if (e1 || e2 || dir.empty() || file.compare(0, dir.size() + 1, dir + "/") != 0) return;
  throw InvalidInputError("Sink " + sink.name + ": file " + path + " is inside the database directory " + dir +
                          ", whose files (tables, their logs, the catalog) lakestream manages; write the sink's file "
                          "outside it");
}

}  // namespace

void DefineSink(ClientContext& context, SinkCatalogEntry& sink, const SinkCatalogEntry* previous, bool reposition) {
  // The broker is contacted with the credentials (secret, env()) resolved now.
  const SinkOptions options = WithSinkCredentials(context, sink, ReparseSinkOptions(sink));
  SinkSource source = ResolveSinkSource(context, sink);
  if (!source.stream && !ChangeFeedOn(*source.table)) {
    throw InvalidInputError("Sink " + sink.name + ": " + std::string(TableKindToString(source.table->kind)) + " " +
                            sink.source + " does not record its changes; turn the change data feed on with ALTER TABLE " +
                            sink.source + " SET PROPERTIES ('change_tracking' = 'true') and create the sink again");
  }
  if (source.stream && options.start.kind != SinkStartKind::LATEST) {
    throw InvalidInputError("Sink " + sink.name + ": 'start' does not apply to a stream, which starts at its own offset; "
                            "create the sink FROM the stream's table for 'start' = 'earliest', 'version N' or 'timestamp ...'");
  }
  ResolveSinkSchema(sink.name, options, sink.source, source.table->Names(), source.table->Types(), source.table->primary_key);
  if (!options.kafka) {
    if (IsRemotePath(context.Database().Path())) {
      throw NotImplementedError("CREATE SINK " + sink.name + ": a FILE sink is not supported yet on a database on object storage (" +
                                context.Database().Path() + "): it appends to a local file kept relative to the database "
                                "directory; send the changes to Kafka instead, or open a local database and attach the "
                                "tables with CREATE TABLE ... LOCATION 's3://...'");
    }
    if (IsRemotePath(sink.file_path)) {
      throw NotImplementedError("Sink " + sink.name + ": a FILE sink on object storage ('" + sink.file_path +
                                "') is not supported yet (it appends to its file, which S3 objects cannot do); "
                                "write to a local file, or INSERT the changes into a Delta table on S3");
    }
    std::string path = previous && previous->target == "file" && previous->file_path == sink.file_path
                           ? SinkFilePath(*previous)
                           : AbsoluteSinkPath(sink.file_path);
    CheckOutsideDatabase(context, sink, path);
    CheckFileOwner(context.GetCatalog(), sink, path);
    CheckSinkTargetAccess(context, sink, options, path);
    sink.state.file_path = path;
  } else {
    CheckSinkTargetAccess(context, sink, options, "");
  }
  int32_t partitions = 0;
  if (options.kafka) {
    auto count = KafkaTopicPartitions(options, kKafkaRequestTimeoutMs);
    if (!count.ok() && count.status().IsNotFound() && options.create_topic) {
      Status created = CreateKafkaTopic(options, kKafkaRequestTimeoutMs);
      if (!created.ok()) throw IOError("Sink " + sink.name + ": " + created.message());
      // The new topic reaches every broker's metadata a moment later.
      for (int attempt = 0; attempt < 50; attempt++) {
        count = KafkaTopicPartitions(options, kKafkaRequestTimeoutMs);
        if (count.ok() || !count.status().IsNotFound()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    if (!count.ok()) {
      if (count.status().IsNotFound()) {
        throw InvalidInputError("Sink " + sink.name + ": " + count.status().message() +
                                "; create the topic first (kafka-topics --create --topic " + options.topic +
                                "), let the sink create it ('create_topic' = 'true'), or correct 'topic'");
      }
      throw IOError("Sink " + sink.name + ": " + count.status().message() +
                    "; check 'bootstrap.servers' and that the broker is running");
    }
    partitions = count.value();
  }

  bool keep = previous && !reposition && StringUtil::CIEquals(previous->source, sink.source);
  if (keep && !SameTarget(*previous, sink)) {
    int64_t next = previous->state.delivered_version.value_or(-1) + 1;
    throw InvalidInputError("Sink " + sink.name + ": its target would change from " + TargetText(*previous) + " to " +
                            TargetText(sink) + ", which holds none of what the sink delivered so far; say where to "
                            "start there: 'start' = 'version " + std::to_string(next) + "' (from where it stopped), "
                            "'latest' (new changes only), 'earliest' (the current rows first) or 'timestamp ...'");
  }
  if (keep) {
    CheckSinkSourceIdentity(sink, previous->state, source);
    std::optional<std::string> path = sink.state.file_path;
    sink.state = previous->state;
    if (path && !path->empty()) sink.state.file_path = path;
    sink.state.ClearError();  // the new definition gets a fresh try
    if (options.kafka && options.EncodingSignature() != ParsedSinkOptions(*previous)->EncodingSignature()) {
      CheckNoUncountedMessages(context, sink, options, partitions);
    }
    return;
  }

  // A new position: what CREATE SINK does.
  timestamp_t now = Timestamp::Now();
  int64_t version = source.stream ? StreamPositionOf(context.GetCatalog(), *source.stream).offset : source.delta->Version();
  bool snapshot = false;
  int64_t delivered = version;
  if (!source.stream) {
    snapshot = options.start.kind == SinkStartKind::EARLIEST;
    if (!snapshot) delivered = FirstVersion(sink, options.start, *source.delta) - 1;
  }
  SinkState state;
  state.id = sink.name + "-" + std::to_string(now);
  state.created_at = now;
  state.start_version = version;
  if (!source.stream) state.source_id = SinkSourceId(source);
  state.delivered_version = delivered;
  state.snapshot_pending = snapshot;
  state.messages = 0;
  state.skipped_changes = 0;
  if (options.kafka) {
    // The first resume scan starts at today's end of the topic, not at its beginning.
    std::vector<int64_t> from_end(partitions, INT64_MAX);
    auto tails = ReadSinkTail(options, sink.name, partitions, from_end, kKafkaRequestTimeoutMs);
    if (!tails.ok()) throw IOError("Sink " + sink.name + ": " + tails.status().message());
    std::vector<int64_t> ends;
    for (auto& t : tails.value()) ends.push_back(t.end_offset);
    state.partition_offsets = ends;
  } else {
    // Lines already in the file stay; the sink appends after them.
    std::string path = sink.state.file_path.value_or(std::string());
    state.file_path = path;
    Status status = InitialFileState(path, state, context.Database().AccessPolicy().Files());
    if (!status.ok()) {
      throw IOError("Sink " + sink.name + ": " + status.message() + "; check that its directory exists and is writable");
    }
  }
  sink.state = state;
}

}  // namespace lakestream
