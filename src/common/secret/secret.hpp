// Secrets: named credentials (CREATE SECRET, docs/secrets.md), modelled on
// DuckDB's secrets manager.
//
// A secret has a name (case-insensitive), a type (kafka, s3, or pg_user for
// `lakestream serve`'s users, docs/server.md), an optional
// scope (prefixes of the paths or servers it is for) and its values, key by
// key. TEMPORARY secrets live in memory for the life of the DatabaseInstance;
// PERSISTENT ones in <db>/_lakestream/secrets/<name>.json, a file of mode 0600
// in a folder of mode 0700, NOT encrypted (as DuckDB's), outside every table
// folder so copying a table never carries one. Another process's CREATE /
// DROP SECRET is seen at the next use: the persistent secrets read from disk
// are kept only while the store folder's and each file's modification times
// are unchanged (every S3 request looks its secret up, so a cheap check
// replaces a read and parse of every file), and never when a time is so
// recent that a change within the file system's timestamp granularity could
// hide behind it.
//
// A value may be an environment reference, written env('NAME') in SQL and
// kept as that text: it is read from the environment at use and its value is
// never stored.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lakestream {

class FileSystem;

struct Secret {
  std::string name;
  std::string type;  // "kafka", "s3" or "pg_user", lower case
  bool persistent = false;
  std::vector<std::string> scope;
  // Keys as given (kafka: librdkafka property names; s3: lower case), in order.
  std::vector<std::pair<std::string, std::string>> values;
  // The sink whose inline credentials this secret holds (dropped with it), or "".
  std::string owner_sink;
};

// Is `key` of a secret of type `type` (or a sink / read_kafka option) a
// credential whose value is never shown? For Kafka, librdkafka itself says
// (its configuration dump redacts the properties it marks sensitive); s3's
// SECRET and SESSION_TOKEN are.
bool IsSensitiveKey(const std::string& type, const std::string& key);

// env('NAME') references. EnvReferenceName returns NAME, or nullopt when
// `value` is a plain value.
std::string MakeEnvReference(const std::string& variable);
std::optional<std::string> EnvReferenceName(const std::string& value);
// The value with an env('NAME') reference replaced by the variable's value.
// Throws InvalidInputError naming the variable and `what` when it is unset.
std::string ResolveEnvValue(const std::string& value, const std::string& what);

// What users see of a value: "redacted" for a sensitive plain value, the value otherwise.
std::string ShownValue(const std::string& type, const std::string& key, const std::string& value);

// Name of the persistent secret that holds the inline credentials of sink `sink`.
std::string SinkSecretName(const std::string& sink);

class SecretManager {
 public:
  // `db_path` "" for an in-memory database: persistent secrets are refused.
  SecretManager(FileSystem* fs, std::string db_path) : fs_(fs), db_path_(std::move(db_path)) {}

  // Adds or replaces `secret` (persistent ones are written to the store
  // first). Throws CatalogError when it exists and !or_replace, IOError when
  // the store cannot be written.
  void Create(const Secret& secret, bool or_replace);
  // Removes the secret; `persistent` nullopt: whichever kind has the name.
  // False when there is none (the caller decides whether that is an error).
  bool Drop(const std::string& name, std::optional<bool> persistent);
  // The secret named `name` (temporary first, as DuckDB's lookup order), or nullopt.
  std::optional<Secret> Find(const std::string& name);
  // Every secret, sorted by name (temporary before persistent for equal names).
  std::vector<Secret> List();
  // The secret of `type` whose scope is the longest prefix of `path` (an
  // unscoped secret matches every path with length 0); nullopt when none.
  std::optional<Secret> Which(const std::string& path, const std::string& type);

  // The store's folder, "" for an in-memory database.
  std::string StoreDir() const;
  // How often the persistent secrets were read from disk (for tests).
  uint64_t StoreReads();

 private:
  // The persistent secrets, from the cache while it is current. Caller holds mu_.
  std::vector<Secret> CachedPersistent();
  std::string FilePath(const std::string& name) const;
  std::vector<Secret> LoadPersistent();
  std::optional<Secret> LoadPersistent(const std::string& name);

  FileSystem* fs_;
  std::string db_path_;
  std::mutex mu_;
  std::map<std::string, Secret> temporary_;  // by lower-case name
  struct PersistentCache {
    std::vector<Secret> secrets;
    std::optional<int64_t> dir_mtime;  // nullopt: there was no store folder
    std::vector<std::pair<std::string, int64_t>> file_mtimes;
  };
  std::optional<PersistentCache> cache_;
  uint64_t store_reads_ = 0;
};

}  // namespace lakestream
