#include "execution/memory/memory_pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/string_util.hpp"

namespace lakestream {

static uint64_t DefaultLimit() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{8} << 30;
  return static_cast<uint64_t>(static_cast<double>(pages) * static_cast<double>(page_size) * 0.8);
}

uint64_t MemoryPool::Limit() const {
  uint64_t limit = limit_.load(std::memory_order_relaxed);
  if (limit != 0) return limit;
  static const uint64_t kDefault = DefaultLimit();
  return kDefault;
}

void MemoryPool::SetTempDirectory(std::string dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  temp_directory_ = std::move(dir);
}

std::string MemoryPool::TempDirectory() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!temp_directory_.empty()) return temp_directory_;
  if (!database_path_.empty()) return JoinPath(JoinPath(database_path_, "_lakestream"), "tmp");
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

bool MemoryPool::TryReserve(uint64_t bytes) {
  uint64_t limit = Limit();
  uint64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (used + bytes > limit) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

namespace {
std::mutex g_pools_mutex;
std::map<const void*, std::shared_ptr<MemoryPool>>& Pools() {
  static auto* pools = new std::map<const void*, std::shared_ptr<MemoryPool>>();
  return *pools;
}
}  // namespace

std::shared_ptr<MemoryPool> MemoryPoolFor(const void* database, const std::string& path) {
  std::lock_guard<std::mutex> lock(g_pools_mutex);
  auto& slot = Pools()[database];
  if (!slot) slot = std::make_shared<MemoryPool>(database, path);
  return slot;
}

void ForgetMemoryPool(const void* database) {
  std::lock_guard<std::mutex> lock(g_pools_mutex);
  Pools().erase(database);
}

bool MemoryReservation::Grow(uint64_t bytes) {
  if (pool_ && !pool_->TryReserve(bytes)) return false;
  size_ += bytes;
  return true;
}

void MemoryReservation::ForceGrow(uint64_t bytes) {
  if (pool_) pool_->ForceReserve(bytes);
  size_ += bytes;
}

void MemoryReservation::Shrink(uint64_t bytes) {
  bytes = std::min(bytes, size_);
  if (pool_) pool_->Release(bytes);
  size_ -= bytes;
}

void MemoryReservation::Reset() { Shrink(size_); }

std::string FormatBytes(uint64_t bytes) {
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 3) {
    value /= 1024;
    unit++;
  }
  char text[32];
  snprintf(text, sizeof(text), "%.1f %s", value, kUnits[unit]);
  return text;
}

uint64_t ParseMemorySize(const std::string& setting, const std::string& text) {
  auto fail = [&]() -> uint64_t {
    throw InvalidInputError("SET " + setting + " = '" + text +
                            "': expected a size with a unit, e.g. '2GB', '512MB' or '1.5GiB' (units B, KB, MB, GB, TB "
                            "and KiB, MiB, GiB, TiB, any case)");
  };
  size_t pos = 0;
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) pos++;
  size_t start = pos;
  while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.')) pos++;
  if (pos == start) return fail();
  char* end = nullptr;
  std::string number = text.substr(start, pos - start);
  double value = std::strtod(number.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value)) return fail();
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) pos++;
  std::string unit = text.substr(pos);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  unit = StringUtil::Lower(unit);
  static const struct {
    const char* name;
    double factor;
  } kUnits[] = {{"b", 1},         {"bytes", 1},       {"kb", 1e3},         {"mb", 1e6},
                {"gb", 1e9},      {"tb", 1e12},       {"kib", 1024.0},     {"mib", 1048576.0},
                {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  for (auto& u : kUnits) {
    if (unit == u.name) {
      double bytes = value * u.factor;
      if (bytes < 1 || bytes > 1.8e19) return fail();
      return static_cast<uint64_t>(bytes);
    }
  }
  return fail();
}

void ThrowOutOfMemory(const std::string& op, uint64_t needed, const MemoryPool* pool, const std::string& why) {
  std::string limit = pool ? FormatBytes(pool->Limit()) : "?";
  std::string used = pool ? FormatBytes(pool->Used()) : "?";
  throw InvalidInputError("out of memory: " + op + " needs " + FormatBytes(needed) + " more, over memory_limit = " +
                          limit + " (" + used + " in use by running queries)" + (why.empty() ? "" : "; " + why) +
                          "; raise the limit, e.g. SET memory_limit = '" +
                          FormatBytes(std::max<uint64_t>(needed * 4, pool ? pool->Limit() * 2 : 0)) + "'");
}

}  // namespace lakestream
