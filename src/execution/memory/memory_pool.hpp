// Memory accounting for query operators (SET memory_limit, docs/memory.md).
//
// Contract:
//  * One MemoryPool per open database holds the limit and the bytes that
//    running queries' operators have reserved; every query and every thread
//    of a query reserves against it (atomically, no lock).
//  * An operator holds a MemoryReservation for its working memory (hash
//    table, aggregate states, collected build rows, sort runs) and Grow()s it
//    BEFORE it allocates. Grow() returning false means "over the limit, and
//    nothing was reserved": the operator spills (physical_hash_aggregate,
//    physical_hash_join) or, when it cannot, throws ThrowOutOfMemory(), which
//    names the operator, the bytes it needed, the limit and the fix.
//  * Sizes are estimates of what the operator allocates (counted where it
//    allocates), not malloc's view: allocator overhead and the small
//    per-chunk buffers of streaming operators are not counted, nor are
//    tables kept in memory (they are data, not working memory).
//  * A reservation releases what it holds when it is destroyed, so a failed
//    or cancelled query gives everything back.
//
//   MemoryReservation r(context.memory->pool);
//   if (!r.Grow(bytes)) { /* spill, or */ ThrowOutOfMemory("HASH_JOIN", bytes, *pool); }
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace lakestream {

class MemoryPool {
 public:
  MemoryPool(const void* database, std::string database_path)
      : database_(database), database_path_(std::move(database_path)) {}

  // 0: the default, 80% of the machine's physical memory (DuckDB's).
  void SetLimit(uint64_t bytes) { limit_.store(bytes, std::memory_order_relaxed); }
  uint64_t Limit() const;
  bool LimitIsDefault() const { return limit_.load(std::memory_order_relaxed) == 0; }
  uint64_t Used() const { return used_.load(std::memory_order_relaxed); }

  // "": the default (TempDirectory()).
  void SetTempDirectory(std::string dir);
  // SET temp_directory, else <database>/_lakestream/tmp for a database on
  // disk, else the system's temp directory (TMPDIR or /tmp) for :memory:.
  std::string TempDirectory() const;

  // Adds `bytes` when the total stays within the limit; false (and nothing
  // added) otherwise.
  bool TryReserve(uint64_t bytes);
  // Adds `bytes` whatever the limit: memory an operator cannot refuse (a
  // spilled partition it must load whole); a later TryReserve sees it.
  void ForceReserve(uint64_t bytes) { used_.fetch_add(bytes, std::memory_order_relaxed); }
  void Release(uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  const void* database_;
  std::string database_path_;
  std::atomic<uint64_t> limit_{0};
  std::atomic<uint64_t> used_{0};
  mutable std::mutex mutex_;  // temp_directory_
  std::string temp_directory_;
};

// The pool of the database `database` (its DatabaseInstance), made on first
// use; `path` is the database's directory ("" for :memory:). Any thread.
std::shared_ptr<MemoryPool> MemoryPoolFor(const void* database, const std::string& path);
// Drops the pool of a database that is closing.
void ForgetMemoryPool(const void* database);

// Bytes an operator holds in a pool; released on destruction.
class MemoryReservation {
 public:
  MemoryReservation() = default;
  explicit MemoryReservation(std::shared_ptr<MemoryPool> pool) : pool_(std::move(pool)) {}
  ~MemoryReservation() { Reset(); }
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;

  // Holds nothing; reserves from `pool` from now on.
  void Attach(std::shared_ptr<MemoryPool> pool) {
    Reset();
    pool_ = std::move(pool);
  }
  // Without a pool (a context that set none) every Grow succeeds.
  bool Grow(uint64_t bytes);
  void ForceGrow(uint64_t bytes);
  void Shrink(uint64_t bytes);
  void Reset();  // releases everything
  uint64_t Size() const { return size_; }
  MemoryPool* Pool() const { return pool_.get(); }

 private:
  std::shared_ptr<MemoryPool> pool_;
  uint64_t size_ = 0;
};

// "1.5 GiB", "512.0 KiB", "123 bytes".
std::string FormatBytes(uint64_t bytes);
// SET memory_limit values: a number with a unit, B, KB, MB, GB, TB (powers of
// 1000) or KiB, MiB, GiB, TiB (powers of 1024), any case, e.g. '2GB' or
// '512 MiB'. Throws InvalidInputError naming `setting` and an example.
uint64_t ParseMemorySize(const std::string& setting, const std::string& text);

// Throws the error of an operator that cannot get `needed` more bytes and
// cannot spill: the operator, the bytes, the limit and the fix.
[[noreturn]] void ThrowOutOfMemory(const std::string& op, uint64_t needed, const MemoryPool* pool,
                                   const std::string& why = "");

}  // namespace lakestream
