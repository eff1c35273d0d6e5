// The FILE SinkWriter: JSON lines appended to a local file.
//
// Exactly once without headers: progress records the file's size after the
// last durable (fsynced) write, and Resume() truncates anything beyond it,
// which can only be lines of versions whose progress was never recorded.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/json_writer.hpp"
#include "sink/sink_target.hpp"

namespace lakestream {

namespace {

class FileTarget : public SinkWriter {
 public:
  FileTarget(SinkOptions options, std::string path) : options_(std::move(options)), path_(std::move(path)) {}
  ~FileTarget() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Resume(const nlohmann::json& state) override {
    if (fd_ < 0) {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd_ < 0) return Status::IOError("cannot open sink file " + path_ + ": " + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return Status::IOError("cannot stat sink file " + path_ + ": " + std::strerror(errno));
    int64_t committed = state.value("file_size", static_cast<int64_t>(-1));
    if (committed < 0) committed = st.st_size;  // a file that existed before the sink: keep it, append after it
    if (st.st_size > committed && ::ftruncate(fd_, committed) != 0) {
      return Status::IOError("cannot truncate sink file " + path_ + " to its delivered size: " + std::strerror(errno));
    }
    size_ = committed < st.st_size ? committed : st.st_size;
    buffer_.clear();
    return Status::OK();
  }

  bool AlreadyDelivered(const SinkMessage&) override { return false; }

  Status Write(const SinkMessage& m) override {
    if (options_.format == SinkFormat::APPEND || options_.format == SinkFormat::DEBEZIUM) {
      if (!m.has_value) return Status::OK();  // tombstones are a Kafka compaction device
      buffer_ += m.value;
    } else {
      buffer_ += "{\"key\":";
      if (!m.key.empty() && m.key[0] == '{') {
        buffer_ += m.key;
      } else {
        AppendJsonString(buffer_, m.key);
      }
      buffer_ += ",\"value\":";
      buffer_ += m.has_value ? m.value : "null";
      buffer_ += '}';
    }
    buffer_ += '\n';
    if (buffer_.size() >= (1 << 20)) return WriteBuffer();
    return Status::OK();
  }

  Status Flush() override {
    LS_RETURN_NOT_OK(WriteBuffer());
    if (::fsync(fd_) != 0) return Status::IOError("cannot fsync sink file " + path_ + ": " + std::strerror(errno));
    return Status::OK();
  }

  void RecordProgress(nlohmann::json& state) override { state["file_size"] = size_; }

 private:
  Status WriteBuffer() {
    size_t done = 0;
    while (done < buffer_.size()) {
      ssize_t n = ::pwrite(fd_, buffer_.data() + done, buffer_.size() - done, size_ + static_cast<int64_t>(done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("cannot write sink file " + path_ + ": " + std::strerror(errno));
      }
      done += static_cast<size_t>(n);
    }
    size_ += static_cast<int64_t>(buffer_.size());
    buffer_.clear();
    return Status::OK();
  }

  SinkOptions options_;
  std::string path_;
  int fd_ = -1;
  int64_t size_ = 0;
  std::string buffer_;
};

}  // namespace

Result<std::unique_ptr<SinkWriter>> OpenFileTarget(const SinkOptions& options, const std::string& path) {
  return std::unique_ptr<SinkWriter>(new FileTarget(options, path));
}

}  // namespace lakestream
