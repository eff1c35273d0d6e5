#include "common/secret/secret.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool IsSensitiveKey(const std::string& type, const std::string& key) {
  std::string k = StringUtil::Lower(key);
  if (StringUtil::StartsWith(k, "kafka.")) k = k.substr(6);
  if (type == "s3") return k == "secret" || k == "session_token";
  if (type == "pg_user") return k == "verifier" || k == "password";
  if (k == "secret") return false;  // a sink's 'secret' option names a secret, it is none
  // librdkafka marks these sensitive (ssl.key.password, ssl.key.pem, ssl_key,
  // ssl.keystore.password, sasl.password, sasl.oauthbearer.config,
  // sasl.oauthbearer.client.secret); version 2.0 does not expose the flag, so
  // the rule is by name and errs on the side of hiding (any password or secret).
  return k.find("password") != std::string::npos || k.find("secret") != std::string::npos || k == "ssl.key.pem" ||
         k == "ssl_key" || k == "sasl.oauthbearer.config" || k == "sasl.jaas.config";
}

static const char kEnvPrefix[] = "env('";

std::string MakeEnvReference(const std::string& variable) { return kEnvPrefix + variable + "')"; }

std::optional<std::string> EnvReferenceName(const std::string& value) {
  const size_t prefix = sizeof(kEnvPrefix) - 1;
  if (value.size() <= prefix + 2 || value.compare(0, prefix, kEnvPrefix) != 0 ||
      value.compare(value.size() - 2, 2, "')") != 0) {
    return std::nullopt;
  }
  std::string name = value.substr(prefix, value.size() - prefix - 2);
  if (name.find('\'') != std::string::npos) return std::nullopt;
  return name;
}

std::string ResolveEnvValue(const std::string& value, const std::string& what) {
  auto variable = EnvReferenceName(value);
  if (!variable) return value;
  const char* v = std::getenv(variable->c_str());
  if (!v) {
    throw InvalidInputError(what + " reads the environment variable " + *variable +
                            ", which is not set; export " + *variable + " before starting lakestream");
  }
  return v;
}

std::string ShownValue(const std::string& type, const std::string& key, const std::string& value) {
  if (EnvReferenceName(value)) return value;  // the reference is no secret, the variable's value is never read here
  return IsSensitiveKey(type, key) ? "redacted" : value;
}

std::string SinkSecretName(const std::string& sink) { return "__sink_" + StringUtil::Lower(sink); }

// ---------------------------------------------------------------------------
// Store

static nlohmann::json ToJson(const Secret& s) {
  nlohmann::json values = nlohmann::json::array();
  for (auto& [k, v] : s.values) values.push_back({k, v});
  return {{"name", s.name}, {"type", s.type}, {"scope", s.scope}, {"values", values}, {"owner_sink", s.owner_sink}};
}

static Secret FromJson(const nlohmann::json& j) {
  Secret s;
  s.name = j.at("name").get<std::string>();
  s.type = j.at("type").get<std::string>();
  s.scope = j.value("scope", std::vector<std::string>());
  for (auto& kv : j.at("values")) s.values.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
  s.owner_sink = j.value("owner_sink", std::string());
  s.persistent = true;
  return s;
}

std::string SecretManager::StoreDir() const { return db_path_.empty() ? "" : db_path_ + "/_lakestream/secrets"; }

// Only such names have a file: any other (a client's login name, a quoted
// DROP SECRET "../x") must never become a path outside the store.
static bool IsStorableName(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string SecretManager::FilePath(const std::string& name) const {
  return StoreDir() + "/" + StringUtil::Lower(name) + ".json";
}

std::optional<Secret> SecretManager::LoadPersistent(const std::string& name) {
  if (db_path_.empty() || !IsStorableName(name)) return std::nullopt;
  std::string path = FilePath(name);
  if (!fs_->FileExists(path)) return std::nullopt;
  auto text = fs_->ReadFile(path);
  if (!text.ok()) throw IOError("cannot read the persistent secret " + name + ": " + text.status().ToString());
  nlohmann::json json = ParseJson(text.value());
  try {
    if (!json.is_discarded()) return FromJson(json);
  } catch (const nlohmann::json::exception&) {  // a field of the wrong type: damaged as well
  }
  throw CorruptionError("the persistent secret file " + path + " is damaged; DROP PERSISTENT SECRET " + name +
                        " and create it again");
}

std::vector<Secret> SecretManager::LoadPersistent() {
  std::vector<Secret> out;
  if (db_path_.empty() || !fs_->FileExists(StoreDir())) return out;
  auto names = fs_->ListDirectory(StoreDir());
  if (!names.ok()) throw IOError("cannot list the secrets store: " + names.status().ToString());
  for (auto& file : names.value()) {
    if (FileSystem::IsTempFileName(file) || file.size() <= 5 || file.compare(file.size() - 5, 5, ".json") != 0) continue;
    if (auto s = LoadPersistent(file.substr(0, file.size() - 5))) out.push_back(std::move(*s));
  }
  return out;
}

uint64_t SecretManager::StoreReads() {
  std::lock_guard<std::mutex> lock(mu_);
  return store_reads_;
}

// A modification time this close to now may hide a second change made within
// the same timestamp tick (ext4 stamps with the kernel's tick, ms here): such
// state is re-read until it is older.
static constexpr int64_t kRacyMillis = 2000;

std::vector<Secret> SecretManager::CachedPersistent() {
  if (db_path_.empty()) return {};
  auto mtime = [&](const std::string& path) -> std::optional<int64_t> {
    auto t = fs_->ModificationTime(path);
    if (t.ok()) return t.value();
    return std::nullopt;
  };
  if (cache_) {
    bool current = mtime(StoreDir()) == cache_->dir_mtime;
    for (auto& [path, t] : cache_->file_mtimes) current = current && mtime(path) == t;
    if (current) return cache_->secrets;
    cache_.reset();
  }
  // Times first: a change made while the files are read leaves a newer time.
  auto dir_mtime = mtime(StoreDir());
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch()).count();
  PersistentCache cache;
  cache.dir_mtime = dir_mtime;
  bool racy = dir_mtime && *dir_mtime > now - kRacyMillis;
  auto names = dir_mtime ? fs_->ListDirectory(StoreDir()) : Result<std::vector<std::string>>(std::vector<std::string>());
  racy = racy || !names.ok();
  if (names.ok()) {
    for (auto& file : names.value()) {
      if (FileSystem::IsTempFileName(file)) continue;
      std::string path = StoreDir() + "/" + file;
      auto t = mtime(path);
      racy = racy || !t || *t > now - kRacyMillis;
      cache.file_mtimes.emplace_back(path, t.value_or(-1));
    }
  }
  cache.secrets = LoadPersistent();
  store_reads_++;
  if (!racy) cache_ = cache;
  return cache.secrets;
}

void SecretManager::Create(const Secret& secret, bool or_replace) {
  std::lock_guard<std::mutex> lock(mu_);
  cache_.reset();
  std::string key = StringUtil::Lower(secret.name);
  bool exists = secret.persistent ? LoadPersistent(secret.name).has_value() : temporary_.count(key) > 0;
  if (exists && !or_replace) {
    throw CatalogError(std::string(secret.persistent ? "Persistent" : "Temporary") + " secret with name " +
                       secret.name + " already exists! Use CREATE OR REPLACE SECRET to replace it, DROP SECRET " +
                       secret.name + " first, or pick another name.");
  }
  if (!secret.persistent) {
    temporary_[key] = secret;
    return;
  }
  if (db_path_.empty()) {
    throw InvalidInputError("Secret " + secret.name + ": an in-memory database has no place for a PERSISTENT secret; "
                            "create a TEMPORARY secret or open a database folder");
  }
  // Owner only: the folder first (0700), then the file (0600) before its
  // contents are written (WriteFileAtomic with a mode).
  Status s = fs_->CreateDirectories(StoreDir());
  if (s.ok()) s = fs_->SetMode(StoreDir(), 0700);
  if (s.ok()) s = fs_->WriteFileAtomicWithMode(FilePath(secret.name), ToJson(secret).dump(2) + "\n", 0600);
  if (!s.ok()) throw IOError("cannot write the persistent secret " + secret.name + ": " + s.ToString());
}

bool SecretManager::Drop(const std::string& name, std::optional<bool> persistent) {
  std::lock_guard<std::mutex> lock(mu_);
  cache_.reset();
  if (persistent != true && temporary_.erase(StringUtil::Lower(name)) > 0) return true;
  if (persistent == false || db_path_.empty() || !IsStorableName(name)) return false;
  std::string path = FilePath(name);
  if (!fs_->FileExists(path)) return false;
  Status s = fs_->RemoveFile(path);
  if (s.ok()) s = fs_->FsyncDirectory(StoreDir());
  if (!s.ok()) throw IOError("cannot remove the persistent secret " + name + ": " + s.ToString());
  return true;
}

std::optional<Secret> SecretManager::Find(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = temporary_.find(StringUtil::Lower(name));
  if (it != temporary_.end()) return it->second;
  return LoadPersistent(name);
}

std::vector<Secret> SecretManager::List() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Secret> out;
  for (auto& [k, s] : temporary_) out.push_back(s);
  for (auto& s : CachedPersistent()) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(), [](const Secret& a, const Secret& b) {
    return StringUtil::Lower(a.name) < StringUtil::Lower(b.name);
  });
  return out;
}

std::optional<Secret> SecretManager::Which(const std::string& path, const std::string& type) {
  std::optional<Secret> best;
  int64_t best_length = -1;
  for (auto& s : List()) {
    if (!StringUtil::CIEquals(s.type, type) || !s.owner_sink.empty()) continue;  // a sink's own secret serves that sink only
    int64_t length = s.scope.empty() ? 0 : -1;
    for (auto& prefix : s.scope) {
      if (StringUtil::StartsWith(path, prefix)) length = std::max<int64_t>(length, static_cast<int64_t>(prefix.size()));
    }
    if (length > best_length) {
      best = s;
      best_length = length;
    }
  }
  return best;
}

}  // namespace lakestream
