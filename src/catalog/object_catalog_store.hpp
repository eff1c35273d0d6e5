// ObjectCatalogStore: the catalog store of a database whose directory is an
// object-storage prefix (s3://bucket/lake). Object stores have no rename and
// no flock, only an atomic PUT and a conditional one (FileSystem::PutIfAbsent,
// `If-None-Match: *` on S3), so (docs/object-storage.md, "A database on S3"):
//
//   <db>/_lakestream/catalog/<N>.json   catalog version N (CatalogRecordToText);
//                                      the newest N is the catalog
//   <db>/_lakestream/lease/<N>.json     lease record N; the newest says who
//                                      holds the write lease and until when:
//     { "owner": <id>, "host": <str>, "pid": <int>, "held": <bool>, "expires_ms": <ms> }
//
// N is zero-padded to 20 digits, so listing order is version order.
//
// Saving writes version N+1 with PutIfAbsent (N = the version loaded) and
// then lists once: if N+1 already existed, or is not the newest (a writer
// whose view predates a pruned version), the save fails and nothing the
// other writer committed is lost. Taking the lease creates the next lease
// record with PutIfAbsent when the newest is released or expired, then
// lists to check that it is the newest; of racing takers exactly one wins.
// Releasing deletes the holder's records (no record, or only released and
// expired ones, means the lease is free).
// While held, a background thread renews the lease every third of its
// duration; a holder that cannot renew before its lease expires, or finds
// the next record written by someone else, has lost it and its next Save
// fails. A PUT that S3 applied but whose answer was lost is retried by the
// file system and then answers AlreadyExists: the object is read back and
// counts as written when it is this store's own.
//
// Clock assumption: expiry is the holder's wall clock (UNIX ms); other
// hosts' clocks must agree within a third of the lease. Were they further
// apart, overlapping writers would still not overwrite each other (every
// write is conditional); one of them would fail.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog_store.hpp"

namespace lakestream {

struct LeaseOptions {
  // How long a lease lasts without renewal. Default: LAKESTREAM_S3_LEASE_SECONDS, else 30 s.
  int64_t duration_ms = 30000;
  // Wall clock, UNIX milliseconds (tests inject one).
  std::function<int64_t()> now_ms;
  // Renew from a background thread while held (tests renew by hand).
  bool renew_in_background = true;
  // Defaults (from the environment) for the fields above.
  static LeaseOptions FromEnvironment();
};

class ObjectCatalogStore final : public CatalogStore {
 public:
  ObjectCatalogStore(FileSystem* fs, std::string db_path, bool read_only, LeaseOptions options);
  // Releases the lease if held.
  ~ObjectCatalogStore() override;

  Result<CatalogRecord> Load() override;
  Status Save(CatalogRecord& record) override;
  Status TryLock(bool* acquired) override;
  void Unlock() override;
  std::string BusyError() const override;
  bool ChangedOnDisk() const override;

  // Writes the next lease record if the lease is held (the background
  // thread calls it). Fails, and marks the lease lost, when another
  // process wrote that record.
  Status RenewLease();
  // Whether this store held the lease and lost it (see above).
  bool LeaseLost() const;
  // This store's owner id (written in its lease records).
  const std::string& Owner() const { return owner_; }

 private:
  struct LeaseRecord {
    std::string owner, host;
    int64_t pid = 0;
    bool held = false;
    int64_t expires_ms = 0;
  };
  std::string CatalogDir() const;
  std::string LeaseDir() const;
  // Versions under `dir`, ascending (empty when there is none).
  Result<std::vector<int64_t>> Versions(const std::string& dir) const;
  Result<LeaseRecord> ReadLease(int64_t n) const;
  std::string LeaseText(bool held, int64_t expires_ms) const;
  // PutIfAbsent that treats an existing object equal to `text` as written.
  Status PutOnce(const std::string& path, const std::string& text) const;
  int64_t Now() const { return options_.now_ms(); }
  void RenewLoop();
  void StopRenewer();

  bool read_only_;
  LeaseOptions options_;
  std::string owner_;
  int64_t seen_version_ = 0;  // newest catalog version loaded or saved
  // The catalog was found unchanged (or loaded, or saved) while this lease
  // was held: only the holder saves, so it stays unchanged until the lease ends.
  mutable bool current_under_lease_ = false;
  std::string holder_;        // who held the lease at the last refused TryLock

  mutable std::mutex mu_;  // the lease state below, shared with the renewer
  int64_t first_record_ = 0;  // the records this holder wrote: first_record_..lease_record_
  int64_t lease_record_ = 0;
  int64_t lease_expires_ms_ = 0;
  int64_t renewed_at_ms_ = 0;
  bool lease_lost_ = false;
  bool stop_ = false;
  std::condition_variable cv_;
  std::thread renewer_;
};

}  // namespace lakestream
