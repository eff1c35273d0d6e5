// Delta Lake log actions (PROTOCOL.md "Actions") as plain structs, and their
// JSON form: one action per line in `_delta_log/%020d.json`.
//
//   auto actions = delta::ParseCommit(contents, "00000000000000000003.json");
//   for (const delta::Action& a : actions.value())
//     if (auto* add = std::get_if<delta::AddFile>(&a)) ...
//   std::string body = delta::SerializeCommit(actions.value());
//
// Conventions:
//   * Paths of add/remove/cdc are stored DECODED in these structs (a real
//     relative path like "p=a b/part-0.parquet"); the log holds them as
//     URL-encoded URIs ("p=a%20b/part-0.parquet"). ParseCommit decodes,
//     Serialize* encode. Absolute URIs ("file:/...", "s3://...") are kept as
//     they are apart from decoding.
//   * Partition values: column -> value string, std::nullopt for a JSON null
//     (the protocol also reads an empty string as null; see delta_schema.hpp).
//   * Optional protocol fields are std::optional so that a parse/serialize
//     round trip writes back exactly the fields that were present.
//   * Unknown action types (checkpointMetadata and sidecar outside a
//     checkpoint, ...) and unknown fields are ignored when reading, as the
//     protocol requires.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.hpp"

namespace lakestream::delta {

using StringMap = std::map<std::string, std::string>;
using PartitionValues = std::map<std::string, std::optional<std::string>>;

struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 2;
  // Present only with reader version 3 / writer version 7.
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;
  bool operator==(const Protocol&) const = default;

  // Whether the feature is named in the list. Features implied by legacy
  // versions (writer 4 implies changeDataFeed, ...) are not listed.
  bool ListsReaderFeature(std::string_view feature) const;
  bool ListsWriterFeature(std::string_view feature) const;
  // Appends the feature to the list (creating it) unless already there.
  void AddReaderFeature(std::string_view feature);
  void AddWriterFeature(std::string_view feature);
};

struct Format {
  std::string provider = "parquet";
  StringMap options;
  bool operator==(const Format&) const = default;
};

struct Metadata {
  std::string id;  // a GUID, fixed for the life of the table
  std::optional<std::string> name;
  std::optional<std::string> description;
  Format format;
  // Spark's JSON schema (see delta_schema.hpp). Required by the protocol, but
  // some writers (a Databricks pipeline's first commit) omit it: empty then.
  std::string schema_string;
  std::vector<std::string> partition_columns;
  StringMap configuration;  // table properties, e.g. delta.enableChangeDataFeed
  std::optional<int64_t> created_time;  // ms since the epoch
  bool operator==(const Metadata&) const = default;
};

// numRecords and the largest nullCount of a file's statistics, read from a
// checkpoint's typed add.stats_parsed (delta_checkpoint.hpp) so that COUNT(*)
// need not parse `stats`. A shortcut to the same statistics, not content of
// the action: equality ignores it, and it is never written.
struct StatsCounts {
  std::optional<int64_t> num_records;  // none: parse `stats`
  int64_t max_null_count = 0;
  bool operator==(const StatsCounts&) const { return true; }
};

struct AddFile {
  std::string path;  // decoded
  PartitionValues partition_values;
  int64_t size = 0;
  int64_t modification_time = 0;  // ms since the epoch
  bool data_change = true;
  std::optional<std::string> stats;  // the raw stats JSON string (delta_stats.hpp)
  std::optional<StringMap> tags;
  // deletionVector, kept verbatim (JSON text) so a round trip preserves it
  // (deletion_vector.hpp parses and loads it).
  std::optional<std::string> deletion_vector;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  StatsCounts counts;
  // numRecords from `counts` or else `stats`, when present and well-formed.
  std::optional<int64_t> NumRecords() const;
  // The deletion vector's cardinality (rows of the file that are deleted); 0
  // without one or when it cannot be parsed (reading it then reports why).
  int64_t DeletedRowCount() const;
  bool operator==(const AddFile&) const = default;
};

struct RemoveFile {
  std::string path;  // decoded
  std::optional<int64_t> deletion_timestamp;  // ms since the epoch
  bool data_change = true;
  std::optional<bool> extended_file_metadata;
  std::optional<PartitionValues> partition_values;
  std::optional<int64_t> size;
  std::optional<std::string> stats;
  std::optional<StringMap> tags;
  std::optional<std::string> deletion_vector;
  // Row tracking (row_tracking.hpp): the removed add's values, which the
  // protocol asks removes to repeat.
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  bool operator==(const RemoveFile&) const = default;
};

// A change data file (`_change_data/...`) of one version.
struct CdcFile {
  std::string path;  // decoded
  PartitionValues partition_values;
  int64_t size = 0;
  bool data_change = false;  // always false per protocol
  std::optional<StringMap> tags;
  bool operator==(const CdcFile&) const = default;
};

// Application transaction id: the latest `version` per `app_id` is part of
// the snapshot (idempotent writes from streams and sinks).
struct Txn {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated;
  bool operator==(const Txn&) const = default;
};

// commitInfo: free-form provenance. Keeps the whole JSON object (`json`) and
// exposes the fields lakestream uses. Build one with Make(); the typed fields
// are written over `json` on serialization, so fields we do not model survive
// a round trip.
struct CommitInfo {
  std::string json = "{}";  // the whole object as read (or extra fields to write)
  std::optional<int64_t> timestamp;  // ms since the epoch
  // inCommitTimestamp (table feature inCommitTimestamp): monotonic, written
  // by the committer; when present it is the commit's time, not `timestamp`.
  std::optional<int64_t> in_commit_timestamp;
  std::optional<std::string> operation;  // WRITE, UPDATE, DELETE, MERGE, ...
  // Values are strings in Spark's logs; non-string JSON values (delta-rs) are
  // kept as their compact JSON text.
  StringMap operation_parameters;
  std::optional<std::string> engine_info;
  std::optional<bool> is_blind_append;
  std::optional<int64_t> read_version;

  static CommitInfo Make(int64_t timestamp_ms, std::string operation, StringMap parameters,
                         std::optional<bool> is_blind_append = std::nullopt,
                         std::optional<int64_t> read_version = std::nullopt);
  bool operator==(const CommitInfo& o) const;
  // The commit's time: inCommitTimestamp, else timestamp.
  std::optional<int64_t> CommitTimeMs() const { return in_commit_timestamp ? in_commit_timestamp : timestamp; }
};

// domainMetadata (table feature domainMetadata): named configuration that
// writers keep for the life of the table, e.g. liquid clustering's columns in
// domain `delta.clustering`. The latest action per domain wins; `removed`
// drops the domain. `configuration` is opaque text owned by the domain.
struct DomainMetadata {
  std::string domain;
  std::string configuration;
  bool removed = false;
  bool operator==(const DomainMetadata&) const = default;
};

using Action = std::variant<Protocol, Metadata, AddFile, RemoveFile, CdcFile, Txn, CommitInfo, DomainMetadata>;


// Parses a commit file (newline-delimited JSON; blank lines and a missing
// final newline are fine). Corruption naming `file_name` and the 1-based line
// for malformed JSON, a line that is not an object with one action, a known
// action with missing or mistyped required fields, or an empty file.
Result<std::vector<Action>> ParseCommit(std::string_view contents, const std::string& file_name);

// Parses one line. Returns std::nullopt (OK) for an unknown action type.
// Errors are Corruption without file/line context.
Result<std::optional<Action>> ParseAction(std::string_view line);

// One action as a single-line JSON object (no trailing newline), with the
// protocol's field names and only the optional fields that are set.
std::string SerializeAction(const Action& action);
// All actions, one per line, each line ending in '\n'.
std::string SerializeCommit(const std::vector<Action>& actions);

// URL-encoding of paths in the log (RFC 2396/3986 style): every byte except
// A-Z a-z 0-9 - . _ ~ / = is written as %XX (uppercase hex), so a partition
// directory "p=a b" becomes "p=a%20b", a '%' "%25" and a ':' "%3A" (a relative
// path must not look like a URI scheme). A leading URI scheme of an absolute
// path ("file:", "s3:" followed by '/') is kept as is.
std::string EncodePath(std::string_view path);
// Decodes %XX escapes; Corruption for a malformed escape.
Result<std::string> DecodePath(std::string_view encoded);

}  // namespace lakestream::delta
