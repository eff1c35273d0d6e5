// The FILE SinkWriter: JSON lines appended to a local file.
//
// A file belongs to one sink, but other programs may append to it too, and
// people edit files. So the target never overwrites or truncates bytes it
// cannot prove it wrote itself:
//  * writes go through O_APPEND, so they land after whatever else was
//    appended meanwhile (nothing is written at a remembered offset);
//  * progress records the file's size after the last durable (fsynced) write
//    and a hash of the bytes just before it; Resume() checks both and stops
//    with an error when the recorded prefix changed or shrank;
//  * bytes after the recorded size are either lines of ours whose progress
//    was never recorded (a crash) or someone else's. The runner re-encodes
//    the pending versions exactly as before, so AlreadyDelivered() compares
//    each line it is asked about with the file: equal lines are skipped (sent
//    already), a torn last line that is a prefix of ours is cut back, and at
//    the first byte that is not ours the comparison ends and everything from
//    there on is kept, with our lines appended after it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/json_writer.hpp"
#include "common/write_error.hpp"
#include "connector/sink_target.hpp"

namespace lakestream {

namespace {

// The recorded prefix is checked by the hash of at most its last this many bytes.
constexpr int64_t kTailCheckBytes = 4096;

std::string Errno() { return std::strerror(errno); }

Status ReadAt(int fd, int64_t offset, size_t length, std::string& out) {
  out.resize(length);
  size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd, out.data() + done, length - done, offset + static_cast<int64_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IOError(Errno());
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return Status::OK();
}

// FNV-1a, 64 bits, as 16 hex digits: enough to tell an edited file from ours.
std::string HashHex(const std::string& bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
  return text;
}

Result<std::string> TailHash(int fd, int64_t size) {
  int64_t length = std::min(size, kTailCheckBytes);
  std::string tail;
  Status s = ReadAt(fd, size - length, static_cast<size_t>(length), tail);
  if (!s.ok()) return s;
  if (static_cast<int64_t>(tail.size()) != length) return Status::Corruption("shorter than its recorded size");
  return HashHex(tail);
}

class FileTarget : public SinkWriter {
 public:
  FileTarget(SinkOptions options, std::string path, FileSystem* fs)
      : options_(std::move(options)), path_(std::move(path)), fs_(fs) {}
  ~FileTarget() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Resume(const SinkState& state, bool /*continuing*/) override {  // a stat and a hash: always checked
    int64_t committed = state.file_size.value_or(-1);
    struct stat open_st {}, path_st {};
    if (fd_ >= 0 && (::fstat(fd_, &open_st) != 0 || ::stat(path_.c_str(), &path_st) != 0 ||
                     open_st.st_dev != path_st.st_dev || open_st.st_ino != path_st.st_ino)) {
      // The file was deleted, renamed or replaced since the last run of this
      // process: writing through the old descriptor would lose the lines.
      ::close(fd_);
      fd_ = -1;
    }
    if (fd_ < 0) {
      // A file that had our bytes and is gone is an error, not a fresh start.
      // O_NOFOLLOW: a link planted at the file's name since the run was
      // checked (sink_runner.cpp, CheckSinkTargetAccess) fails, never redirects.
      // With external access off, fs_ opens it beneath an allowed folder
      // with no link on the way (ConfinedFileSystem).
      int flags = O_RDWR | O_APPEND | O_NOFOLLOW | (committed > 0 ? 0 : O_CREAT);
      auto opened = fs_->OpenFile(path_, flags, 0666);
      if (!opened.ok() && opened.status().IsNotFound() && committed > 0) {
        return Status::Corruption("file " + path_ + " is gone, though the sink had written " + std::to_string(committed) +
                                  " bytes to it");
      }
      if (!opened.ok()) return Status::IOError("cannot open sink file " + path_ + ": " + opened.status().message());
      fd_ = opened.value();
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return Status::IOError("cannot stat sink file " + path_ + ": " + Errno());
    if (committed < 0) committed = st.st_size;  // no recorded size: keep everything, append after it
    if (st.st_size < committed) {
      return Status::Corruption("file " + path_ + " holds " + std::to_string(st.st_size) + " bytes, but the sink had written " +
                                "and recorded " + std::to_string(committed) + " (it was truncated or replaced)");
    }
    if (state.file_tail_hash) {
      auto hash = TailHash(fd_, committed);
      if (!hash.ok()) return Status::IOError("cannot read sink file " + path_ + ": " + hash.status().message());
      if (hash.value() != *state.file_tail_hash) {
        return Status::Corruption("the first " + std::to_string(committed) + " bytes of file " + path_ +
                                  " are no longer what the sink recorded (the file was edited or replaced)");
      }
    }
    cursor_ = committed;
    file_end_ = st.st_size;
    matching_ = cursor_ < file_end_;
    window_.clear();
    window_offset_ = cursor_;
    buffer_.clear();
    end_checked_ = false;
    return Status::OK();
  }

  bool AlreadyDelivered(const SinkMessage& m) override {
    if (!matching_) return false;
    line_.clear();
    if (!Render(m, line_)) return false;  // no line for this message: nothing to compare
    std::string_view have = Bytes(cursor_, line_.size());
    if (have == line_) {
      cursor_ += static_cast<int64_t>(line_.size());
      matching_ = cursor_ < file_end_;
      skipped_++;
      return true;
    }
    matching_ = false;
    struct stat st {};
    // A crash in the middle of our write: the file ends in a prefix of this
    // very line. Those bytes are ours; cut them back (only if nothing was
    // appended since) so the line is written whole.
    if (cursor_ + static_cast<int64_t>(have.size()) == file_end_ && have.size() < line_.size() &&
        line_.compare(0, have.size(), have) == 0 && ::fstat(fd_, &st) == 0 && st.st_size == file_end_) {
      if (::ftruncate(fd_, cursor_) == 0) file_end_ = cursor_;
    }
    return false;
  }

  Status Write(const SinkMessage& m) override {
    if (!HasLine(m)) return Status::OK();
    if (!end_checked_) LS_RETURN_NOT_OK(CheckEndsInNewline());
    Render(m, buffer_);
    if (buffer_.size() >= (1 << 20)) return WriteBuffer();
    return Status::OK();
  }

  Status Flush() override {
    LS_RETURN_NOT_OK(WriteBuffer());
    if (::fsync(fd_) != 0) return Status::IOError("cannot fsync sink file " + path_ + ": " + Errno());
    return Status::OK();
  }

  void RecordProgress(SinkState& state) override {
    // While still comparing, only the lines found equal so far are ours for sure.
    int64_t size = cursor_;
    if (!matching_) {
      struct stat st {};
      if (::fstat(fd_, &st) == 0) size = st.st_size;
    }
    auto hash = TailHash(fd_, size);
    state.file_size = size;
    if (hash.ok()) {
      state.file_tail_hash = hash.value();
    } else {
      state.file_tail_hash.reset();
    }
  }

 private:
  // Tombstones are a Kafka compaction device: append and debezium files have no line for them.
  bool HasLine(const SinkMessage& m) const { return m.has_value || options_.format == SinkFormat::UPSERT; }

  // Appends the line for `m` to `out`; false when the format writes none.
  bool Render(const SinkMessage& m, std::string& out) const {
    if (!HasLine(m)) return false;
    if (options_.format == SinkFormat::APPEND || options_.format == SinkFormat::DEBEZIUM) {
      out += m.value;
    } else {
      out += "{\"key\":";
      if (!m.has_key) {
        out += "null";
      } else if (m.key_is_object) {
        out += m.key;
      } else {
        AppendJsonString(out, m.key);  // a text key stays a string, even one that starts with '{'
      }
      out += ",\"value\":";
      out += m.has_value ? m.value : "null";
      out += '}';
    }
    out += '\n';
    return true;
  }

  // The file's bytes [offset, offset + length) that exist before file_end_,
  // read through a window of at least 1 MiB.
  std::string_view Bytes(int64_t offset, size_t length) {
    int64_t end = std::min(file_end_, offset + static_cast<int64_t>(length));
    if (offset < window_offset_ || end > window_offset_ + static_cast<int64_t>(window_.size())) {
      size_t want = static_cast<size_t>(std::min<int64_t>(file_end_ - offset, std::max<int64_t>(length, 1 << 20)));
      window_offset_ = offset;
      if (!ReadAt(fd_, offset, want, window_).ok()) window_.clear();
    }
    size_t from = static_cast<size_t>(offset - window_offset_);
    if (from > window_.size()) return {};
    return std::string_view(window_).substr(from, static_cast<size_t>(std::max<int64_t>(0, end - offset)));
  }

  // Our first line of a session must start a line of its own: a file that
  // ends in an unfinished line (someone else's, or there before the sink)
  // would swallow it. Ours are cut back in AlreadyDelivered, so this is not.
  Status CheckEndsInNewline() {
    end_checked_ = true;
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return Status::IOError("cannot stat sink file " + path_ + ": " + Errno());
    if (st.st_size == 0) return Status::OK();
    std::string last;
    LS_RETURN_NOT_OK(ReadAt(fd_, st.st_size - 1, 1, last));
    if (last == "\n") return Status::OK();
    return Status::InvalidArgument("file " + path_ + " ends in an unfinished line (no newline after byte " +
                                   std::to_string(st.st_size) + ") that the sink did not write, and its next line "
                                   "would be glued to it. End that line with a newline or remove it");
  }

  Status WriteBuffer() {
    size_t done = 0;
    while (done < buffer_.size()) {
      ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return WriteError(path_, errno, "cannot write sink file");
      }
      done += static_cast<size_t>(n);
    }
    buffer_.clear();
    return Status::OK();
  }

  SinkOptions options_;
  std::string path_;
  FileSystem* fs_;
  int fd_ = -1;
  int64_t cursor_ = 0;    // the end of the bytes known to be ours
  int64_t file_end_ = 0;  // the file's size when Resume looked
  bool matching_ = false;  // still comparing lines with the bytes after the recorded size
  bool end_checked_ = false;
  std::string window_;
  int64_t window_offset_ = 0;
  std::string line_;
  std::string buffer_;
};

}  // namespace

Result<std::unique_ptr<SinkWriter>> OpenFileTarget(const SinkOptions& options, const std::string& path, FileSystem* fs) {
  return std::unique_ptr<SinkWriter>(new FileTarget(options, path, fs));
}

std::string AbsoluteSinkPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return path;
  return absolute.lexically_normal().string();
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  // Not both there (yet): compare the paths with symlinks of their existing parts resolved.
  std::error_code ea, eb;
  auto ca = std::filesystem::weakly_canonical(AbsoluteSinkPath(a), ea);
  auto cb = std::filesystem::weakly_canonical(AbsoluteSinkPath(b), eb);
  if (ea || eb) return AbsoluteSinkPath(a) == AbsoluteSinkPath(b);
  return ca == cb;
}

Status InitialFileState(const std::string& path, SinkState& state, FileSystem* fs) {
  // A new sink's folder is created, as Spark creates an output path (a
  // pipeline's 'out/x.jsonl' should not need a mkdir first).
  std::string parent = ParentDirectory(path);
  if (!fs->FileExists(parent)) {
    Status made = fs->CreateDirectories(parent);
    if (!made.ok()) return Status::IOError("cannot create the folder " + parent + " of file " + path + ": " + made.message());
  }
  auto opened = fs->OpenFile(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0666);  // writable now, or say so now
  if (!opened.ok()) return Status::IOError("cannot open file " + path + " for appending: " + opened.status().message());
  int fd = opened.value();
  struct stat st {};
  Status status;
  if (::fstat(fd, &st) != 0) {
    status = Status::IOError("cannot stat file " + path + ": " + Errno());
  } else {
    auto hash = TailHash(fd, st.st_size);
    if (hash.ok()) {
      state.file_size = static_cast<int64_t>(st.st_size);
      state.file_tail_hash = hash.value();
    } else {
      status = Status::IOError("cannot read file " + path + ": " + hash.status().message());
    }
  }
  ::close(fd);
  return status;
}

}  // namespace lakestream
