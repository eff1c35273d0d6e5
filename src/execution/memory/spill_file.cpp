#include "execution/memory/spill_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <algorithm>

#include "common/exception.hpp"
#include "common/file_system.hpp"

namespace lakestream {

// Buffered bytes per file before a write(2): many partitions each keep one.
static constexpr size_t kWriteBuffer = size_t{32} * 1024;
static constexpr size_t kReadBuffer = size_t{256} * 1024;

SpillFolder::~SpillFolder() {
  if (path_.empty()) return;
  FileSystem* fs = FileSystem::Default();
  // The files remove themselves; anything left (a file whose removal failed)
  // goes with the folder.
  auto names = fs->ListDirectory(path_);
  if (names.ok()) {
    for (auto& name : names.value()) (void)fs->RemoveFile(JoinPath(path_, name));
  }
  if (::rmdir(path_.c_str()) != 0) {
    // Nothing to report to: the query is over. The name says what it was.
  }
}

std::string SpillFolder::NewFilePath(const std::string& stem) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (path_.empty()) {
    static std::atomic<uint64_t> counter{0};
    std::string name = "lakestream-spill-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    std::string path = JoinPath(directory_, name);
    Status s = FileSystem::Default()->CreateDirectories(path);
    if (!s.ok()) {
      throw IOError("cannot make the spill folder " + path + " (SET temp_directory = '<a writable folder>'): " +
                    s.ToString());
    }
    path_ = path;
  }
  return JoinPath(path_, stem + "-" + std::to_string(next_file_++) + ".spill");
}

uint64_t ChunkBytes(const DataChunk& chunk) {
  uint64_t bytes = 0;
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) {
    const Vector& v = chunk.data[c];
    bytes += chunk.size() * (v.GetType().PhysicalSize() + 1);
    if (v.GetType().id() != TypeId::VARCHAR) continue;
    const string_t* strings = v.GetData<string_t>();
    for (idx_t i = 0; i < chunk.size(); i++) bytes += v.IsValid(i) ? strings[i].size() : 0;
  }
  return bytes;
}

bool CanSpill(const std::vector<LogicalType>& types) {
  for (auto& t : types) {
    if (t.IsNested() || t.id() == TypeId::INVALID) return false;
  }
  return true;
}

SpillFile::SpillFile(std::shared_ptr<SpillFolder> folder, std::vector<LogicalType> types, const std::string& stem)
    : folder_(std::move(folder)), types_(std::move(types)) {
  path_ = folder_->NewFilePath(stem);
  auto fd = FileSystem::Default()->OpenFile(path_, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (!fd.ok()) throw IOError("cannot create the spill file " + path_ + ": " + fd.status().ToString());
  fd_ = fd.value();
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
  (void)FileSystem::Default()->RemoveFile(path_);
}

void SpillFile::Fail(const std::string& what, int err) const {
  throw IOError(PosixError(what + " spill file " + path_ + " (SET temp_directory = '<a folder with space>')", err)
                    .ToString());
}

template <class T>
static void PutRaw(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

void SpillFile::Append(const DataChunk& chunk, const sel_t* sel, idx_t count) {
  if (count == 0) return;
  if (count > STANDARD_VECTOR_SIZE) {  // a block never holds more than Read returns
    if (!sel) throw InternalError("spill file " + path_ + ": a chunk larger than STANDARD_VECTOR_SIZE");
    for (idx_t at = 0; at < count; at += STANDARD_VECTOR_SIZE) {
      Append(chunk, sel + at, std::min<idx_t>(STANDARD_VECTOR_SIZE, count - at));
    }
    return;
  }
  if (reading_) throw InternalError("spill file " + path_ + " appended to after reading began");
  PutRaw<uint32_t>(buffer_, static_cast<uint32_t>(count));
  for (idx_t c = 0; c < types_.size(); c++) {
    const Vector& v = chunk.data[c];
    const uint8_t* valid = v.Validity();
    size_t at = buffer_.size();
    buffer_.resize(at + count);
    for (idx_t i = 0; i < count; i++) buffer_[at + i] = static_cast<char>(valid[sel ? sel[i] : i] ? 1 : 0);
    if (types_[c].id() == TypeId::VARCHAR) {
      const string_t* strings = v.GetData<string_t>();
      for (idx_t i = 0; i < count; i++) {
        idx_t row = sel ? sel[i] : i;
        string_t s = valid[row] ? strings[row] : string_t();
        PutRaw<uint32_t>(buffer_, static_cast<uint32_t>(s.size()));
        buffer_.append(s.data(), s.size());
      }
      continue;
    }
    idx_t width = types_[c].PhysicalSize();
    const uint8_t* data = v.GetData<uint8_t>();
    at = buffer_.size();
    buffer_.resize(at + count * width);
    char* dst = buffer_.data() + at;
    if (!sel) {
      std::memcpy(dst, data, count * width);
    } else {
      for (idx_t i = 0; i < count; i++) std::memcpy(dst + i * width, data + sel[i] * width, width);
    }
  }
  rows_ += count;
  if (buffer_.size() >= kWriteBuffer) Flush();
}

void SpillFile::Flush() {
  size_t done = 0;
  while (done < buffer_.size()) {
    ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Fail("cannot write the", n < 0 ? errno : ENOSPC);
    done += static_cast<size_t>(n);
  }
  bytes_ += buffer_.size();
  buffer_.clear();
}

namespace {
// Reads the file's blocks through a buffer refilled from the descriptor.
class BlockReader {
 public:
  BlockReader(int fd, std::string& buffer, size_t& pos, bool& eof) : fd_(fd), buffer_(buffer), pos_(pos), eof_(eof) {}
  // Whether `n` more bytes are buffered (reading as needed); false at the end.
  bool Ensure(size_t n, const std::function<void(int)>& fail) {
    while (buffer_.size() - pos_ < n) {
      if (eof_) return false;
      buffer_.erase(0, pos_);
      pos_ = 0;
      size_t at = buffer_.size();
      buffer_.resize(at + std::max(kReadBuffer, n));
      ssize_t got = ::read(fd_, buffer_.data() + at, buffer_.size() - at);
      while (got < 0 && errno == EINTR) got = ::read(fd_, buffer_.data() + at, buffer_.size() - at);
      if (got < 0) fail(errno);
      buffer_.resize(at + static_cast<size_t>(std::max<ssize_t>(got, 0)));
      if (got == 0) eof_ = true;
    }
    return true;
  }
  const char* Take(size_t n) {
    const char* p = buffer_.data() + pos_;
    pos_ += n;
    return p;
  }

 private:
  int fd_;
  std::string& buffer_;
  size_t& pos_;
  bool& eof_;
};
}  // namespace

void SpillFile::Rewind() {
  if (!reading_) Flush();
  reading_ = true;
  buffer_.clear();
  read_pos_ = 0;
  eof_ = false;
  if (::lseek(fd_, 0, SEEK_SET) < 0) Fail("cannot rewind the", errno);
}

bool SpillFile::Read(DataChunk& out) {
  if (!reading_) Rewind();
  out.Reset();
  auto fail = [this](int err) { Fail("cannot read the", err); };
  BlockReader reader(fd_, buffer_, read_pos_, eof_);
  auto truncated = [this]() { throw IOError("spill file " + path_ + " ends inside a block (changed while the query ran?)"); };
  idx_t filled = 0;
  while (true) {
    if (!reader.Ensure(sizeof(uint32_t), fail)) {
      if (read_pos_ != buffer_.size()) truncated();
      break;
    }
    uint32_t rows;
    std::memcpy(&rows, buffer_.data() + read_pos_, sizeof(rows));
    if (filled + rows > STANDARD_VECTOR_SIZE) break;  // the next Read's
    reader.Take(sizeof(rows));
    for (idx_t c = 0; c < types_.size(); c++) {
      Vector& v = out.data[c];
      if (!reader.Ensure(rows, fail)) truncated();
      std::memcpy(v.Validity() + filled, reader.Take(rows), rows);
      if (types_[c].id() == TypeId::VARCHAR) {
        string_t* strings = v.GetData<string_t>();
        for (idx_t i = 0; i < rows; i++) {
          uint32_t length;
          if (!reader.Ensure(sizeof(length), fail)) truncated();
          std::memcpy(&length, reader.Take(sizeof(length)), sizeof(length));
          if (!reader.Ensure(length, fail)) truncated();
          const char* bytes = reader.Take(length);
          strings[filled + i] = v.IsValid(filled + i) ? v.AddString(std::string_view(bytes, length)) : string_t();
        }
        continue;
      }
      idx_t width = types_[c].PhysicalSize();
      if (!reader.Ensure(rows * width, fail)) truncated();
      std::memcpy(v.GetData<uint8_t>() + filled * width, reader.Take(rows * width), rows * width);
    }
    filled += rows;
  }
  out.SetCardinality(filled);
  return filled > 0;
}

void PartitionedSpill::Append(const DataChunk& chunk, const sel_t* sel, const uint32_t* partition_of, idx_t count) {
  sels_.resize(files_.size());
  for (auto& s : sels_) s.clear();
  for (idx_t i = 0; i < count; i++) sels_[partition_of[i]].push_back(sel ? sel[i] : static_cast<sel_t>(i));
  for (idx_t p = 0; p < files_.size(); p++) {
    if (sels_[p].empty()) continue;
    if (!files_[p]) files_[p] = std::make_unique<SpillFile>(folder_, types_, stem_ + "-p" + std::to_string(p));
    files_[p]->Append(chunk, sels_[p].data(), sels_[p].size());
  }
}

uint64_t PartitionedSpill::Bytes() const {
  uint64_t total = 0;
  for (auto& f : files_) {
    if (f) total += f->Bytes();
  }
  return total;
}

}  // namespace lakestream
