#include "common/write_error.hpp"

#include <signal.h>

#include <cerrno>
#include <cstring>

namespace lakestream {

Status WriteError(const std::string& path, int err, const std::string& what) {
  if (err == EFBIG || err == ENOSPC || err == EDQUOT) {
    return Status::IOError(what + " " + path + ": file too large / disk quota: " + path + " (" + std::strerror(err) +
                           "): free space on the disk, raise the quota or the file size limit (ulimit -f), then retry");
  }
  return Status::IOError(what + " " + path + ": " + std::strerror(err));
}

void IgnoreFileSizeSignal() {
  struct sigaction current {};
  if (::sigaction(SIGXFSZ, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) return;  // the program's own choice
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGXFSZ, &ignore, nullptr);
}

}  // namespace lakestream
