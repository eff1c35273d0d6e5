// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.parquet' ...
// COPY table FROM 'file.parquet' | 'glob'   (appends the rows)
//
// Bound by planner/binder/statement/bind_copy.cpp; COPY FROM runs as the
// INSERT it binds to.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/exception.hpp"
#include "execution/plan_executor.hpp"
#include "main/statement/dml_executor.hpp"
#include "main/statement/statement_executor.hpp"
#include "planner/binder.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

// Writes `rows` to bound.path. Written beside the target and renamed over it
// once complete (DuckDB's USE_TMP_FILE): a COPY that fails half way (a full
// disk, a value no page holds) leaves the file that was there before whole,
// and never writes through a symlink at the target.
static void WriteCopyFile(const BoundCopy& bound, const ChunkCollection& rows) {
  std::string temp = bound.path + ".tmp." + std::to_string(::getpid());
  try {
    auto writer = ParquetWriter::Create(temp, bound.names, bound.types, bound.options);
    if (!writer.ok()) writer.status().Throw();
    for (idx_t c = 0; c < rows.ChunkCount(); c++) {
      Status s = writer.value()->Append(rows.Chunk(c));
      if (!s.ok()) s.Throw();
    }
    auto info = writer.value()->Finish();
    if (!info.ok()) info.status().Throw();
    if (std::rename(temp.c_str(), bound.path.c_str()) != 0) {
      throw IOError("COPY TO " + bound.path + ": cannot move the finished file " + temp + " into place: " +
                    std::strerror(errno));
    }
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& stmt) {
  Binder binder(context);
  BoundCopy bound = BindCopy(binder, stmt);
  if (bound.is_from) return ExecuteBoundInsert(context, bound.insert);
  ChunkCollection rows = ExecutePlan(context, std::move(bound.plan));
  WriteCopyFile(bound, rows);
  return MakeCountResult("Count", static_cast<int64_t>(rows.Count()));
}

}  // namespace lakestream
