#include "catalog/object_catalog_store.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"

namespace lakestream {

namespace {


std::string VersionName(int64_t n) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%020lld.json", static_cast<long long>(n));
  return buf;
}

// Catalog versions older than the newest kKeepCatalogs are deleted after a
// save, only once twice as many pile up, so that most saves delete nothing
// (a delete costs a HEAD and a DELETE).
constexpr int64_t kKeepCatalogs = 10;

void Prune(FileSystem* fs, const std::string& dir, const std::vector<int64_t>& versions, int64_t keep) {
  if (static_cast<int64_t>(versions.size()) < 2 * keep) return;
  int64_t newest = versions.back();
  // Best effort: a version left behind is only a stale copy, ignored by readers.
  for (int64_t v : versions) {
    if (v <= newest - keep) (void)fs->RemoveFile(dir + "/" + VersionName(v));
  }
}

int64_t WallClockMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string HostName() {
  char buf[256] = {0};
  if (::gethostname(buf, sizeof(buf) - 1) != 0) return "unknown";
  return buf;
}

}  // namespace

LeaseOptions LeaseOptions::FromEnvironment() {
  LeaseOptions options;
  if (const char* v = std::getenv("LAKESTREAM_S3_LEASE_SECONDS")) {
    char* end = nullptr;
    double seconds = std::strtod(v, &end);
    if (end != v && seconds > 0) options.duration_ms = static_cast<int64_t>(seconds * 1000);
  }
  options.now_ms = WallClockMs;
  return options;
}

Result<std::unique_ptr<CatalogStore>> OpenObjectCatalogStore(FileSystem* fs, const std::string& db_path, bool read_only) {
  auto store = std::make_unique<ObjectCatalogStore>(fs, db_path, read_only, LeaseOptions::FromEnvironment());
  if (read_only) {
    // A read-only open of a prefix that holds no database is a mistake in
    // the path; say so instead of showing an empty database.
    auto catalogs = fs->ListDirectory(db_path + "/_lakestream/catalog");
    if (!catalogs.ok() && !catalogs.status().IsNotFound()) return catalogs.status();
    if (!catalogs.ok() || catalogs.value().empty()) {
      // Opening read-write writes nothing to the bucket: the first catalog
      // object comes with the first CREATE.
      return Status::NotFound("No lakestream database at " + db_path + " (no object under " + db_path +
                              "/_lakestream/catalog/); correct the path, or open it read-write and create a table first");
    }
  }
  return std::unique_ptr<CatalogStore>(std::move(store));
}

ObjectCatalogStore::ObjectCatalogStore(FileSystem* fs, std::string db_path, bool read_only, LeaseOptions options)
    : CatalogStore(fs, std::move(db_path)), read_only_(read_only), options_(std::move(options)) {
  if (!options_.now_ms) options_.now_ms = WallClockMs;
  std::random_device rd;
  char id[17];
  std::snprintf(id, sizeof(id), "%08x%08x", rd(), rd());
  owner_ = HostName() + ":" + std::to_string(::getpid()) + ":" + id;
}

ObjectCatalogStore::~ObjectCatalogStore() {
  Unlock();
  StopRenewer();
}

std::string ObjectCatalogStore::CatalogDir() const { return db_path_ + "/_lakestream/catalog"; }
std::string ObjectCatalogStore::LeaseDir() const { return db_path_ + "/_lakestream/lease"; }

Result<std::vector<int64_t>> ObjectCatalogStore::Versions(const std::string& dir) const {
  std::vector<int64_t> versions;
  auto names = fs_->ListDirectory(dir);
  if (!names.ok()) {
    if (names.status().IsNotFound()) return versions;
    return names.status();
  }
  for (auto& name : names.value()) {
    // Anything else under the prefix (a stray upload) is not a version.
    if (name.size() != 25 || name.compare(20, 5, ".json") != 0) continue;
    if (name.find_first_not_of("0123456789") != 20) continue;
    versions.push_back(std::stoll(name.substr(0, 20)));
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

Status ObjectCatalogStore::PutOnce(const std::string& path, const std::string& text) const {
  Status s = fs_->PutIfAbsent(path, text);
  if (!s.IsAlreadyExists()) return s;
  auto existing = fs_->ReadFile(path);
  if (existing.ok() && existing.value() == text) return Status::OK();
  return s;
}

Result<CatalogRecord> ObjectCatalogStore::Load() {
  // A version can be pruned between the listing and the read: list again.
  for (int attempt = 0;; attempt++) {
    auto versions = Versions(CatalogDir());
    if (!versions.ok()) return versions.status();
    if (versions.value().empty()) {
      seen_version_ = 0;
      return CatalogRecord{};
    }
    int64_t newest = versions.value().back();
    std::string path = CatalogDir() + "/" + VersionName(newest);
    auto text = fs_->ReadFile(path);
    if (!text.ok()) {
      if (text.status().IsNotFound() && attempt < 3) continue;
      return text.status();
    }
    auto record = CatalogRecordFromText(text.value(), path);
    if (!record.ok()) return record.status();
    // The object's name is the version: a copied or hand-edited object cannot make two versions look alike.
    record.value().version = newest;
    seen_version_ = newest;
    current_under_lease_ = locked_;
    return record;
  }
}

bool ObjectCatalogStore::ChangedOnDisk() const {
  if (locked_ && current_under_lease_ && !LeaseLost()) return false;
  auto versions = Versions(CatalogDir());
  // An unreadable listing counts as a change: the reload reports the error.
  if (!versions.ok()) return true;
  int64_t newest = versions.value().empty() ? 0 : versions.value().back();
  bool changed = newest != seen_version_;
  if (!changed && locked_) current_under_lease_ = true;
  return changed;
}

Status ObjectCatalogStore::Save(CatalogRecord& record) {
  if (read_only_) return Status::IOError("Database " + db_path_ + " is open read-only; the catalog cannot change");
  if (!locked_) {
    return Status::IOError("Database " + db_path_ +
                           ": the catalog was about to be saved without the write lease (a bug; please report it)");
  }
  if (LeaseLost()) {
    return Status::IOError("Database " + db_path_ +
                           ": this process lost its write lease (it could not renew it in time, or another process took "
                           "it over after it expired); nothing was saved, run the statement again");
  }
  int64_t next = record.version + 1;
  CatalogRecord copy = record;
  copy.version = next;
  std::string path = CatalogDir() + "/" + VersionName(next);
  std::string conflict = "Database " + db_path_ +
                         ": another process changed the catalog while this statement ran (catalog version " +
                         std::to_string(next) + " exists); nothing was saved, run it again";
  Status s = PutOnce(path, CatalogRecordToText(copy));
  if (s.IsAlreadyExists()) return Status::IOError(conflict);
  LS_RETURN_NOT_OK(s);
  auto versions = Versions(CatalogDir());
  if (!versions.ok()) return versions.status();
  if (!versions.value().empty() && versions.value().back() != next) return Status::IOError(conflict);
  record.version = next;
  seen_version_ = next;
  current_under_lease_ = true;
  Prune(fs_, CatalogDir(), versions.value(), kKeepCatalogs);
  return Status::OK();
}

Result<ObjectCatalogStore::LeaseRecord> ObjectCatalogStore::ReadLease(int64_t n) const {
  std::string path = LeaseDir() + "/" + VersionName(n);
  auto text = fs_->ReadFile(path);
  if (!text.ok()) return text.status();
  try {
    JsonError error;
    auto j = ParseJson(text.value(), &error);
    if (j.is_discarded()) throw std::invalid_argument(error.message);
    LeaseRecord r;
    r.owner = j.at("owner").get<std::string>();
    r.host = j.value("host", std::string());
    r.pid = j.value("pid", int64_t(0));
    r.held = j.at("held").get<bool>();
    r.expires_ms = j.value("expires_ms", int64_t(0));
    return r;
  } catch (const std::exception& e) {
    return Status::Corruption(path + ": the write lease record is not valid (" + std::string(e.what()) +
                              "); delete the objects under " + LeaseDir() + "/ when no process is writing");
  }
}

std::string ObjectCatalogStore::LeaseText(bool held, int64_t expires_ms) const {
  nlohmann::json j = {{"owner", owner_}, {"host", HostName()}, {"pid", static_cast<int64_t>(::getpid())},
                      {"held", held},    {"expires_ms", expires_ms}};
  return j.dump() + "\n";
}

Status ObjectCatalogStore::TryLock(bool* acquired) {
  *acquired = locked_;
  if (locked_) return Status::OK();
  if (read_only_) return Status::IOError("Database " + db_path_ + " is open read-only; it cannot take the write lease");
  auto versions = Versions(LeaseDir());
  if (!versions.ok()) return versions.status();
  int64_t newest = versions.value().empty() ? 0 : versions.value().back();
  int64_t now = Now();
  if (newest > 0) {
    auto current = ReadLease(newest);
    if (!current.ok() && !current.status().IsNotFound()) return current.status();
    // NotFound: pruned since the listing, so a newer record exists; the
    // conditional write below then loses, or the check after it fails.
    if (current.ok() && current.value().held && current.value().expires_ms > now) {
      auto& r = current.value();
      holder_ = "process " + std::to_string(r.pid) + " on host " + r.host + " (its write lease expires in " +
                std::to_string((r.expires_ms - now + 999) / 1000) + " s unless renewed)";
      return Status::OK();
    }
  }
  int64_t mine = newest + 1;
  int64_t expires = now + options_.duration_ms;
  Status s = PutOnce(LeaseDir() + "/" + VersionName(mine), LeaseText(true, expires));
  if (s.IsAlreadyExists()) {
    auto winner = ReadLease(mine);
    holder_ = winner.ok() ? "process " + std::to_string(winner.value().pid) + " on host " + winner.value().host
                          : "another process";
    return Status::OK();
  }
  LS_RETURN_NOT_OK(s);
  auto after = Versions(LeaseDir());
  if (!after.ok()) return after.status();
  if (after.value().back() != mine) {
    // A taker whose listing predates deleted records: its record must not
    // outlive it as a held one once the newer records are released.
    (void)fs_->RemoveFile(LeaseDir() + "/" + VersionName(mine));
    holder_ = "another process";
    return Status::OK();
  }
  // Released or expired records of earlier holders (a crashed one's).
  for (int64_t v : after.value()) {
    if (v < mine) (void)fs_->RemoveFile(LeaseDir() + "/" + VersionName(v));
  }
  {
    std::lock_guard<std::mutex> guard(mu_);
    first_record_ = mine;
    lease_record_ = mine;
    lease_expires_ms_ = expires;
    renewed_at_ms_ = now;
    lease_lost_ = false;
    locked_ = true;
    current_under_lease_ = false;
  }
  if (options_.renew_in_background && !renewer_.joinable()) renewer_ = std::thread([this] { RenewLoop(); });
  cv_.notify_all();
  *acquired = true;
  return Status::OK();
}

void ObjectCatalogStore::Unlock() {
  std::lock_guard<std::mutex> guard(mu_);
  if (!locked_) return;
  locked_ = false;
  current_under_lease_ = false;
  // Releasing deletes this holder's records, oldest first, so that the
  // lease stays held until its newest record goes; the lease directory of
  // an idle database is empty. Best effort: a record left behind expires.
  // Deleting them after a takeover is harmless: the taker's record is newer.
  for (int64_t v = first_record_; v <= lease_record_; v++) (void)fs_->RemoveFile(LeaseDir() + "/" + VersionName(v));
}

Status ObjectCatalogStore::RenewLease() {
  std::lock_guard<std::mutex> guard(mu_);
  if (!locked_ || lease_lost_) return Status::OK();
  int64_t now = Now();
  int64_t expires = now + options_.duration_ms;
  Status s = PutOnce(LeaseDir() + "/" + VersionName(lease_record_ + 1), LeaseText(true, expires));
  if (s.ok()) {
    lease_record_++;
    lease_expires_ms_ = expires;
    renewed_at_ms_ = now;
    return s;
  }
  // Taken over by someone who found the lease expired, or expired while the store could not be reached.
  if (s.IsAlreadyExists() || now >= lease_expires_ms_) lease_lost_ = true;
  return s;
}

bool ObjectCatalogStore::LeaseLost() const {
  std::lock_guard<std::mutex> guard(mu_);
  return lease_lost_ || (locked_ && Now() >= lease_expires_ms_);
}

void ObjectCatalogStore::RenewLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    auto period = std::chrono::milliseconds(std::max<int64_t>(options_.duration_ms / 3, 1));
    cv_.wait_for(lock, period);
    if (stop_ || !locked_ || lease_lost_ || Now() - renewed_at_ms_ < options_.duration_ms / 3) continue;
    lock.unlock();
    (void)RenewLease();
    lock.lock();
  }
}

void ObjectCatalogStore::StopRenewer() {
  {
    std::lock_guard<std::mutex> guard(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (renewer_.joinable()) renewer_.join();
}

std::string ObjectCatalogStore::BusyError() const {
  std::string holder = holder_.empty() ? "another process" : holder_;
  return "Database " + db_path_ + " is already open for writing by " + holder +
         " (a statement there is writing); run this statement again when it is done, or open the database read-only to read";
}

}  // namespace lakestream
