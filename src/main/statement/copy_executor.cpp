// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.parquet' | 'file.csv' | 'file.json' ... (CSV and JSON: copy_text_encoder.hpp)
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
#include "main/statement/copy_text_encoder.hpp"
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
static int64_t StreamPlanToParquet(ClientContext& context, BoundCopy& bound, const std::string& path, FileSystem* fs) {
  auto writer = ParquetWriter::Create(path, bound.names, bound.types, bound.options, fs);
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

// The same for CSV and JSON: text made chunk by chunk and written to `path`
// in pieces of about 1 MB (a local file), or uploaded whole (object storage).
static int64_t StreamPlanToText(ClientContext& context, BoundCopy& bound, const std::string& path, FileSystem* fs) {
  constexpr size_t kFlushBytes = 1 << 20;
  CopyTextEncoder encoder(bound.format, bound.text, bound.names, bound.types);
  const bool remote = IsRemotePath(path);
  int fd = -1;
  if (!remote) {
    auto opened = fs->OpenFile(path, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0644);
    if (!opened.ok()) throw IOError("COPY TO " + bound.path + ": cannot open " + path + ": " + opened.status().message());
    fd = opened.value();
  }
  struct CloseFd {
    int fd;
    ~CloseFd() {
      if (fd >= 0) ::close(fd);
    }
  } close_fd{fd};
  std::string buffer;
  auto flush = [&] {
    size_t done = 0;
    while (done < buffer.size()) {
      ssize_t n = ::write(fd, buffer.data() + done, buffer.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw IOError("COPY TO " + bound.path + ": cannot write " + path + ": " + std::strerror(errno));
      done += static_cast<size_t>(n);
    }
    buffer.clear();
  };
  encoder.Begin(buffer);
  int64_t count = 0;
  ExecutePlanInto(context, std::move(bound.plan), [&](DataChunk& chunk) {
    encoder.Append(chunk, buffer);
    count += static_cast<int64_t>(chunk.size());
    if (!remote && buffer.size() >= kFlushBytes) flush();
  });
  encoder.End(buffer);
  if (remote) {
    Status put = fs->WriteFile(path, buffer);
    if (!put.ok()) throw IOError("COPY TO " + bound.path + ": " + put.message());
    return count;
  }
  flush();
  if (::close(fd) != 0) {
    close_fd.fd = -1;
    throw IOError("COPY TO " + bound.path + ": cannot write " + path + ": " + std::strerror(errno));
  }
  close_fd.fd = -1;
  return count;
}

static int64_t StreamPlanToFile(ClientContext& context, BoundCopy& bound, const std::string& path, FileSystem* fs) {
  if (bound.format == CopyFormat::PARQUET) return StreamPlanToParquet(context, bound, path, fs);
  return StreamPlanToText(context, bound, path, fs);
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
  // With external access off, every step below (create, write, rename,
  // unlink) happens beneath an allowed folder with no link followed
  // (ConfinedFileSystem): a folder on the way swapped for a link after the
  // check fails the step instead of writing where the link leads.
  FileSystem* fs = context.Database().AccessPolicy().Files();
  if (IsRemotePath(bound.path)) return StreamPlanToFile(context, bound, bound.path, fs);
  RefuseSymlinkTarget(bound.path);
  std::string temp = FileSystem::TempPathFor(bound.path);
  auto created = fs->OpenFile(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  if (!created.ok()) {
    throw IOError("COPY TO " + bound.path + ": cannot create the temporary file " + temp + ": " +
                  created.status().message() + "; check that the directory exists and is writable");
  }
  ::close(created.value());
  try {
    int64_t count = StreamPlanToFile(context, bound, temp, fs);
    Status moved = fs->Rename(temp, bound.path);
    if (!moved.ok()) {
      throw IOError("COPY TO " + bound.path + ": cannot move the finished file " + temp + " into place: " +
                    moved.message());
    }
    return count;
  } catch (...) {
    (void)fs->RemoveFile(temp);
    throw;
  }
}

std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& stmt) {
  Binder binder(context);
  BoundCopy bound = BindCopy(binder, stmt);
  if (bound.is_from) return ExecuteBoundInsert(context, bound.insert);
  // Refused before the query runs: nothing is computed for a file that will not be written.
  context.Database().AccessPolicy().CheckNotTableLog(bound.path, "COPY ... TO");
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
