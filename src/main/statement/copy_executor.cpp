// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.parquet' ...
// COPY table FROM 'file.parquet' | 'glob'   (appends the rows)
//
// Bound by planner/binder/statement/bind_copy.cpp; COPY FROM runs as the
// INSERT it binds to.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/s3/s3_file_system.hpp"
#include "execution/execute_into.hpp"
#include "execution/plan_executor.hpp"
#include "main/statement/dml_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "planner/binder.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

// COPY TO never writes through a symbolic link that is the target's last
// component: `out.parquet -> /etc/important` must not replace, or be
// replaced by, rows someone chose to write to out.parquet. Directories
// above it may be links (/data -> /mnt/data is common). To write where the
// link points, name that path itself.
static void RefuseSymlinkTarget(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return;
  std::error_code ec;
  std::string target = std::filesystem::read_symlink(path, ec).string();
  throw InvalidInputError("COPY TO " + path + ": " + path + " is a symbolic link to " + (ec ? "?" : target) +
                          "; COPY TO does not write through a link: name the target itself, or remove the link");
}

// Runs bound.plan into the Parquet file `path`, streaming: each chunk goes
// into the writer as the plan makes it, so only the open row group is held.
// Returns the rows written; throws with the writer unfinished on failure.
static int64_t StreamPlanToParquet(ClientContext& context, BoundCopy& bound, const std::string& path) {
  auto writer = ParquetWriter::Create(path, bound.names, bound.types, bound.options);
  if (!writer.ok()) writer.status().Throw();
  int64_t count = 0;
  ExecutePlanInto(context, std::move(bound.plan), [&](DataChunk& chunk) {
    Status s = writer.value()->Append(chunk);
    if (!s.ok()) s.Throw();
    count += static_cast<int64_t>(chunk.size());
  });
  auto info = writer.value()->Finish();
  if (!info.ok()) info.status().Throw();
  return count;
}

// Writes bound.plan's rows to bound.path. A local file is written to a new
// hidden temp file beside the target (created with O_EXCL | O_NOFOLLOW, so a
// link planted at that name is never followed) and renamed over the target
// once complete (DuckDB's USE_TMP_FILE): a COPY that fails or is interrupted
// half way (a full disk, a value no page holds, Ctrl-C) leaves the file that
// was there before whole. rename(2) replaces the directory entry itself, so
// even a link made at the target after the check above is replaced, never
// written through. On object storage the writer uploads the finished file in
// one PUT (or a multipart upload), which is as atomic. Returns the rows written.
static int64_t WriteCopyFile(ClientContext& context, BoundCopy& bound) {
  if (IsRemotePath(bound.path)) return StreamPlanToParquet(context, bound, bound.path);
  RefuseSymlinkTarget(bound.path);
  std::string temp = FileSystem::TempPathFor(bound.path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw IOError("COPY TO " + bound.path + ": cannot create the temporary file " + temp + ": " + std::strerror(errno) +
                  "; check that the directory exists and is writable");
  }
  ::close(fd);
  try {
    int64_t count = StreamPlanToParquet(context, bound, temp);
    if (std::rename(temp.c_str(), bound.path.c_str()) != 0) {
      throw IOError("COPY TO " + bound.path + ": cannot move the finished file " + temp + " into place: " +
                    std::strerror(errno));
    }
    return count;
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& stmt) {
  Binder binder(context);
  BoundCopy bound = BindCopy(binder, stmt);
  if (bound.is_from) return ExecuteBoundInsert(context, bound.insert);
  // Refused before the query runs: nothing is computed for a file that will not be written.
  context.Database().AccessPolicy().CheckPath(bound.path, AccessMode::WRITE, "COPY ... TO");
  if (IsRemotePath(bound.path)) {
    auto location = ParseS3Path(bound.path);
    if (!location.ok()) throw InvalidInputError("COPY ... TO: " + location.status().message());
  } else {
    RefuseSymlinkTarget(bound.path);
  }
  return MakeCountResult("Count", WriteCopyFile(context, bound));
}

}  // namespace lakestream
