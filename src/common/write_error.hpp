// Failed writes to local files: one message for a full disk, a quota and the
// file size limit, and the signal that limit would otherwise send.
#pragma once

#include <string>

#include "common/status.hpp"

namespace lakestream {

// The Status of a write to local file `path` that failed with errno `err`
// (`what` says which step: "cannot write", "cannot fsync"). A full disk, a
// quota or the file size limit (EFBIG under `ulimit -f`, see
// IgnoreFileSizeSignal) reads "file too large / disk quota: <path> (...)"
// with the fix; other errors "<what> <path>: <strerror>".
Status WriteError(const std::string& path, int err, const std::string& what = "cannot write");

// Ignores SIGXFSZ unless the program installed a handler of its own, so a
// write past the file size limit (ulimit -f) fails with EFBIG (a Status the
// statement reports and cleans up after) instead of killing the process and
// leaving its temporary files. Database's constructor calls it; idempotent.
void IgnoreFileSizeSignal();

}  // namespace lakestream
