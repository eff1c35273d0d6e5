#include "storage/parquet/parquet_remote_source.hpp"

#include <algorithm>
#include <cstring>

namespace lakestream::parquet {

std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, uint64_t max_gap) {
  ranges.erase(std::remove_if(ranges.begin(), ranges.end(), [](const ByteRange& r) { return r.length == 0; }),
               ranges.end());
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const auto& r : ranges) {
    if (!out.empty()) {
      ByteRange& last = out.back();
      uint64_t last_end = last.offset + last.length;
      if (r.offset <= last_end || r.offset - last_end < max_gap) {
        last.length = std::max(last_end, r.offset + r.length) - last.offset;
        continue;
      }
    }
    out.push_back(r);
  }
  return out;
}

std::vector<ByteRange> ClipToTail(const std::vector<ByteRange>& ranges, uint64_t tail_offset) {
  std::vector<ByteRange> out;
  for (auto r : ranges) {
    if (r.offset >= tail_offset) continue;
    if (r.offset + r.length > tail_offset) r.length = tail_offset - r.offset;
    out.push_back(r);
  }
  return out;
}

Result<ParquetTail> ReadParquetTail(FileSystem* fs, const std::string& path) {
  auto tail = fs->ReadTail(path, kSpeculativeTailBytes);
  if (!tail.ok()) return tail.status();
  ParquetTail out;
  out.file_size = tail.value().file_size;
  out.bytes = std::move(tail.value().bytes);
  if (out.bytes.size() != std::min(out.file_size, kSpeculativeTailBytes))
    return Status::Corruption(path + ": the store answered the read of the last " +
                              std::to_string(std::min(out.file_size, kSpeculativeTailBytes)) + " bytes with " +
                              std::to_string(out.bytes.size()) + " (the object changed while it was read?)");
  // The footer's length precedes the closing magic. A footer longer than
  // the speculative read needs its start; anything malformed is left to the
  // footer parser, which names what is wrong.
  size_t n = out.bytes.size();
  if (n < 8 || std::memcmp(out.bytes.data() + n - 4, "PAR1", 4) != 0) return out;
  uint32_t footer_len;
  std::memcpy(&footer_len, out.bytes.data() + n - 8, 4);
  uint64_t need = static_cast<uint64_t>(footer_len) + 8;
  if (need <= n || out.file_size < 12 || footer_len > out.file_size - 12) return out;
  uint64_t missing = need - n;
  auto head = fs->ReadRange(path, out.file_size - need, missing);
  if (!head.ok()) return head.status();
  if (head.value().size() != missing)
    return Status::Corruption(path + ": the store answered the read of the footer's first " + std::to_string(missing) +
                              " bytes with " + std::to_string(head.value().size()));
  out.bytes = head.take() + out.bytes;
  return out;
}

const uint8_t* RangeBytes::Find(uint64_t offset, uint64_t length) const {
  for (const auto& [range, bytes] : parts_) {
    if (offset >= range.offset && offset - range.offset <= bytes.size() &&
        length <= bytes.size() - (offset - range.offset))
      return reinterpret_cast<const uint8_t*>(bytes.data()) + (offset - range.offset);
  }
  return nullptr;
}

void RangeBytes::AddTail(const std::string& tail, uint64_t tail_offset) {
  for (auto& [range, bytes] : parts_) {
    if (range.offset + bytes.size() == tail_offset) {
      bytes += tail;
      range.length = bytes.size();
      return;
    }
  }
  parts_.emplace_back(ByteRange{tail_offset, tail.size()}, tail);
}

uint64_t RangeBytes::TotalBytes() const {
  uint64_t total = 0;
  for (const auto& p : parts_) total += p.second.size();
  return total;
}

namespace {

// A read on a helper thread: an exception there (bad_alloc for a chunk the
// footer claims to be huge) would end the process, so it becomes a Status.
Result<std::string> ReadRangeNoThrow(FileSystem* fs, const std::string& path, const ByteRange& r) {
  try {
    return fs->ReadRange(path, r.offset, r.length);
  } catch (const std::exception& e) {
    return Status::IOError(path + ": cannot read bytes " + std::to_string(r.offset) + "-" +
                           std::to_string(r.offset + r.length - 1) + ": " + e.what());
  }
}

}  // namespace

Result<RangeBytes> FetchRanges(FileSystem* fs, const std::string& path, const std::vector<ByteRange>& ranges) {
  // Each range is fetched in requests of at most kMaxRequestBytes, a bounded
  // number at a time (the first on this thread): one connection's throughput
  // then does not bound a large row group, and on a high-latency store the
  // ranges of a row group cost about one round trip, not one each.
  struct Piece {
    size_t range;
    ByteRange bytes;
  };
  std::vector<Piece> pieces;
  std::vector<std::string> parts(ranges.size());
  for (size_t i = 0; i < ranges.size(); i++) {
    parts[i].resize(ranges[i].length);
    for (uint64_t done = 0; done < ranges[i].length; done += kMaxRequestBytes)
      pieces.push_back({i, {ranges[i].offset + done, std::min(kMaxRequestBytes, ranges[i].length - done)}});
  }
  std::vector<Status> errors(pieces.size());
  auto fetch = [&](size_t k) {
    const Piece& piece = pieces[k];
    auto got = ReadRangeNoThrow(fs, path, piece.bytes);
    if (!got.ok()) {
      errors[k] = got.status();
    } else if (got.value().size() != piece.bytes.length) {
      // Ranges lie inside the file (the footer was checked against its
      // size): a short answer means the object changed or the store misbehaved.
      errors[k] = Status::Corruption(path + ": the store answered the read of bytes " +
                                     std::to_string(piece.bytes.offset) + "-" +
                                     std::to_string(piece.bytes.offset + piece.bytes.length - 1) + " with " +
                                     std::to_string(got.value().size()) +
                                     " bytes (the object changed while it was read?)");
    } else {
      // Distinct pieces write distinct bytes of a buffer sized above.
      std::memcpy(parts[piece.range].data() + (piece.bytes.offset - ranges[piece.range].offset), got.value().data(),
                  piece.bytes.length);
    }
  };
  for (size_t begin = 0; begin < pieces.size(); begin += kMaxParallelRanges) {
    size_t end = std::min(pieces.size(), begin + kMaxParallelRanges);
    std::vector<std::thread> helpers;
    for (size_t k = begin + 1; k < end; k++) helpers.emplace_back(fetch, k);
    fetch(begin);
    for (auto& t : helpers) t.join();
    for (size_t k = begin; k < end; k++)
      if (!errors[k].ok()) return errors[k];
  }
  RangeBytes out;
  for (size_t i = 0; i < ranges.size(); i++) out.parts_.emplace_back(ranges[i], std::move(parts[i]));
  return out;
}

RangePrefetcher::RangePrefetcher(FileSystem* fs, std::string path) : fs_(fs), path_(std::move(path)) {}

RangePrefetcher::~RangePrefetcher() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void RangePrefetcher::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stop_ || (job_ && !job_->result); });
    if (stop_) return;
    std::vector<ByteRange> ranges = job_->ranges;
    lock.unlock();
    std::optional<Result<RangeBytes>> result;
    try {
      result.emplace(FetchRanges(fs_, path_, ranges));
    } catch (const std::exception& e) {
      result.emplace(Status::IOError(path_ + ": prefetching a row group failed: " + e.what()));
    }
    lock.lock();
    job_->result = std::move(result);
    cv_.notify_all();
  }
}

void RangePrefetcher::Prefetch(uint64_t key, std::vector<ByteRange> ranges) {
  std::lock_guard<std::mutex> g(mu_);
  if (job_) return;
  job_.emplace(key, std::move(ranges));
  if (!worker_.joinable()) worker_ = std::thread([this] { Run(); });
  cv_.notify_all();
}

Result<RangeBytes> RangePrefetcher::Take(uint64_t key, const std::vector<ByteRange>& ranges) {
  std::optional<Result<RangeBytes>> done;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (job_) {
      // Even a fetch of other ranges is waited for: the slot is then free
      // and no request of a stale job competes with the one made below.
      cv_.wait(lock, [&] { return job_->result.has_value(); });
      if (job_->key == key && job_->ranges == ranges) done = std::move(job_->result);
      job_.reset();
    }
  }
  if (done) return std::move(*done);
  return FetchRanges(fs_, path_, ranges);
}

}  // namespace lakestream::parquet
