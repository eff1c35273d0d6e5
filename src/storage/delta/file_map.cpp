#include "storage/delta/file_map.hpp"

#include <algorithm>

#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/delta_stats.hpp"

namespace lakestream::delta {

namespace {

std::atomic<int64_t> full_decodes{0};

void ThrowIfError(const Status& s) {
  if (!s.ok()) s.Throw();
}
std::atomic<int64_t> size_decodes{0};

// Reconciliation on either kind of map (AddFile or FileSize values).
template <class Value>
void ApplyAdd(std::map<std::string, Value>& files, const std::string& path, Value value) {
  // The end() hint makes in-order arrival (a checkpoint) constant time per
  // file; a wrong hint only costs the usual logarithmic search.
  files.insert_or_assign(files.end(), path, std::move(value));
}

// A logical file is (path, deletion vector id) (PROTOCOL.md "Action
// Reconciliation"); a remove without a vector names the file without one.
// So the remove of the old (path, DV) that comes with the add of a new DV on
// the same path leaves the new file, whichever order the commit lists them.
bool SameLogicalFile(const RemoveFile& remove, const std::optional<std::string>& active_vector) {
  return DeletionVectorId(remove.deletion_vector) == DeletionVectorId(active_vector);
}

template <class Value>
void ApplyRemove(std::map<std::string, Value>& files, const RemoveFile& remove) {
  auto active = files.find(remove.path);
  if (active != files.end() && SameLogicalFile(remove, active->second.deletion_vector)) files.erase(active);
}

// FNV-1a, then mixed: stable across builds, since filters are stored.
uint64_t HashPath(std::string_view path, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ULL ^ seed;
  for (unsigned char c : path) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

constexpr int kFilterHashes = 11;  // with 16 bits per path: about 0.05% false positives
constexpr size_t kBitsPerPath = 16;

}  // namespace

PathFilter::PathFilter(const std::vector<std::string_view>& paths) : hashes_(kFilterHashes) {
  size_t bytes = std::max<size_t>(8, (paths.size() * kBitsPerPath + 7) / 8);
  bits_.assign(bytes, 0);
  uint64_t nbits = bits_.size() * 8;
  for (const auto& path : paths) {
    uint64_t h1 = HashPath(path, 0), h2 = HashPath(path, 0x9e3779b97f4a7c15ULL) | 1;
    for (int i = 0; i < hashes_; i++) {
      uint64_t bit = (h1 + static_cast<uint64_t>(i) * h2) % nbits;
      bits_[bit / 8] = static_cast<uint8_t>(bits_[bit / 8] | (1u << (bit % 8)));
    }
  }
}

bool PathFilter::MayContain(std::string_view path) const {
  if (bits_.empty()) return true;
  uint64_t nbits = bits_.size() * 8;
  uint64_t h1 = HashPath(path, 0), h2 = HashPath(path, 0x9e3779b97f4a7c15ULL) | 1;
  for (int i = 0; i < hashes_; i++) {
    uint64_t bit = (h1 + static_cast<uint64_t>(i) * h2) % nbits;
    if (!(bits_[bit / 8] & (1u << (bit % 8)))) return false;
  }
  return true;
}

std::string PathFilter::Serialize() const {
  static const char* kHex = "0123456789abcdef";
  std::string out = std::to_string(hashes_) + ":";
  out.reserve(out.size() + bits_.size() * 2);
  for (uint8_t b : bits_) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::optional<PathFilter> PathFilter::Parse(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 2) return std::nullopt;
  int hashes = 0;
  for (char c : text.substr(0, colon)) {
    if (c < '0' || c > '9') return std::nullopt;
    hashes = hashes * 10 + (c - '0');
  }
  std::string_view hex = text.substr(colon + 1);
  if (hashes < 1 || hashes > 16 || hex.empty() || hex.size() % 2 != 0) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  PathFilter filter;
  filter.hashes_ = hashes;
  filter.bits_.resize(hex.size() / 2);
  for (size_t i = 0; i < filter.bits_.size(); i++) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    filter.bits_[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return filter;
}

int64_t FileSourceDecodes() { return full_decodes.load(); }
int64_t FileSourceSizeDecodes() { return size_decodes.load(); }
void CountFileSourceDecode(bool sizes_only) { (sizes_only ? size_decodes : full_decodes).fetch_add(1); }

FileMap::FileMap(const FileMap& other) {
  std::lock_guard<std::mutex> lock(other.mu_);
  source_ = other.source_;
  pending_ = other.pending_;
  map_ = other.map_;
  summary_ = other.summary_;
  decoded_.store(other.decoded_.load());
}

FileMap::FileMap(FileMap&& other) noexcept { *this = std::move(other); }

FileMap& FileMap::operator=(const FileMap& other) {
  if (this != &other) *this = FileMap(other);
  return *this;
}

FileMap& FileMap::operator=(FileMap&& other) noexcept {
  if (this == &other) return *this;
  std::scoped_lock lock(mu_, other.mu_);
  source_ = std::move(other.source_);
  pending_ = std::move(other.pending_);
  map_ = std::move(other.map_);
  summary_ = other.summary_;
  decoded_.store(other.decoded_.load());
  other.source_.reset();
  other.pending_.clear();
  other.map_.clear();
  other.summary_.reset();
  other.decoded_.store(true);
  return *this;
}

void FileMap::SetSource(std::shared_ptr<const FileSource> source) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!decoded_.load()) {
    // A second source (not one LoadCheckpoint makes): decode the first.
    ThrowIfError(DecodeLocked());
  }
  source_ = std::move(source);
  summary_.reset();
  decoded_.store(source_ == nullptr, std::memory_order_release);
}

void FileMap::Apply(Map& files, Change change) {
  if (auto* add = std::get_if<AddFile>(&change)) {
    std::string path = add->path;
    ApplyAdd(files, path, std::move(*add));
  } else {
    ApplyRemove(files, std::get<RemoveFile>(change));
  }
}

Status FileMap::DecodeLocked() const {
  if (decoded_.load()) return Status::OK();
  Map files = map_;
  LS_RETURN_NOT_OK(source_->Decode(files));
  CountFileSourceDecode(false);
  for (auto& change : pending_) Apply(files, std::move(change));
  map_ = std::move(files);
  pending_.clear();
  pending_.shrink_to_fit();
  source_.reset();
  summary_.reset();
  decoded_.store(true, std::memory_order_release);
  return Status::OK();
}

Status FileMap::Load() const {
  if (decoded_.load(std::memory_order_acquire)) return Status::OK();
  std::lock_guard<std::mutex> lock(mu_);
  return DecodeLocked();
}

const FileMap::Map& FileMap::Get() const {
  if (!decoded_.load(std::memory_order_acquire)) ThrowIfError(Load());
  return map_;
}

FileMap::Map& FileMap::Mutable() {
  if (!decoded_.load(std::memory_order_acquire)) ThrowIfError(Load());
  summary_.reset();
  return map_;
}

void FileMap::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  source_.reset();
  pending_.clear();
  map_.clear();
  summary_.reset();
  decoded_.store(true, std::memory_order_release);
}

void FileMap::Add(AddFile add) {
  if (decoded_.load(std::memory_order_acquire)) {
    std::string path = add.path;
    ApplyAdd(map_, path, std::move(add));
    return;
  }
  summary_.reset();
  pending_.emplace_back(std::move(add));
}

void FileMap::Remove(const RemoveFile& remove) {
  if (decoded_.load(std::memory_order_acquire)) {
    ApplyRemove(map_, remove);
    return;
  }
  summary_.reset();
  // Only what the reconciliation reads is kept.
  RemoveFile key;
  key.path = remove.path;
  key.deletion_vector = remove.deletion_vector;
  pending_.emplace_back(std::move(key));
}

std::optional<FileMap::Totals> FileMap::FromSummary(const FileSummary& summary) const {
  // The files added after the checkpoint: none of them is one of its files
  // (else the filter would have said "maybe" and sent us back).
  struct TailFile {
    int64_t size = 0;
    std::optional<std::string> deletion_vector;
    std::optional<int64_t> records;  // LiveRecords
  };
  std::map<std::string, TailFile> tail;
  int64_t files = summary.files, bytes = summary.bytes;
  for (const auto& change : pending_) {
    const std::string& path = std::visit([](const auto& c) -> const std::string& { return c.path; }, change);
    auto it = tail.find(path);
    if (it == tail.end() && summary.paths.MayContain(path)) return std::nullopt;
    if (const auto* add = std::get_if<AddFile>(&change)) {
      if (it == tail.end()) {
        files++;
      } else {
        bytes -= it->second.size;
      }
      tail.insert_or_assign(path, TailFile{add->size, add->deletion_vector, LiveRecords(*add)});
      bytes += add->size;
    } else if (it != tail.end()) {
      const RemoveFile& remove = std::get<RemoveFile>(change);
      if (!SameLogicalFile(remove, it->second.deletion_vector)) continue;
      files--;
      bytes -= it->second.size;
      tail.erase(it);
    }
  }
  if (files < 0 || bytes < 0) return std::nullopt;  // a summary that lies: count the paths
  Totals totals{static_cast<size_t>(files), bytes, summary.records};
  for (const auto& [path, file] : tail) {
    if (!totals.records) break;
    if (!file.records || *file.records > INT64_MAX - *totals.records) totals.records.reset();
    else *totals.records += *file.records;
  }
  return totals;
}

Status FileMap::SummaryLocked(Totals& totals) const {
  if (!summary_ && map_.empty() && source_->Summary()) summary_ = FromSummary(*source_->Summary());
  if (!summary_) {
    std::map<std::string, FileSize> sizes;
    for (const auto& [path, add] : map_) sizes.emplace_hint(sizes.end(), path, FileSize{add.size, add.deletion_vector});
    LS_RETURN_NOT_OK(source_->DecodeSizes(sizes));
    CountFileSourceDecode(true);
    for (const auto& change : pending_) {
      if (const auto* add = std::get_if<AddFile>(&change)) {
        ApplyAdd(sizes, add->path, FileSize{add->size, add->deletion_vector});
      } else {
        ApplyRemove(sizes, std::get<RemoveFile>(change));
      }
    }
    int64_t total = 0;
    for (const auto& [path, size] : sizes) total += size.size;
    summary_ = Totals{sizes.size(), total, std::nullopt};
  }
  totals = *summary_;
  return Status::OK();
}

size_t FileMap::size() const {
  if (decoded_.load(std::memory_order_acquire)) return map_.size();
  std::lock_guard<std::mutex> lock(mu_);
  if (decoded_.load()) return map_.size();
  Totals totals;
  ThrowIfError(SummaryLocked(totals));
  return totals.files;
}

int64_t FileMap::TotalBytes() const {
  auto sum = [](const Map& map) {
    int64_t total = 0;
    for (const auto& [path, add] : map) total += add.size;
    return total;
  };
  if (decoded_.load(std::memory_order_acquire)) return sum(map_);
  std::lock_guard<std::mutex> lock(mu_);
  if (decoded_.load()) return sum(map_);
  Totals totals;
  ThrowIfError(SummaryLocked(totals));
  return totals.bytes;
}

std::optional<int64_t> FileMap::RecordsFromSummary() const {
  if (decoded_.load(std::memory_order_acquire)) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (decoded_.load() || !map_.empty() || !source_->Summary()) return std::nullopt;
  if (!summary_) summary_ = FromSummary(*source_->Summary());
  return summary_ ? summary_->records : std::nullopt;
}

}  // namespace lakestream::delta
