// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.parquet' ...
// COPY table FROM 'file.parquet' | 'glob'   (appends the rows)
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "catalog/catalog.hpp"
#include "execution/plan_executor.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "storage/parquet/parquet_writer.hpp"

namespace lakestream {

static ParquetWriterOptions ParseCopyOptions(const CopyStatement& stmt) {
  ParquetWriterOptions options;
  for (auto& [raw_key, value] : stmt.options) {
    std::string key = StringUtil::Lower(raw_key);
    if (key == "format") {
      if (!StringUtil::CIEquals(value, "parquet")) {
        throw NotImplementedError("COPY ... (FORMAT " + value + "); only FORMAT parquet is supported");
      }
    } else if (key == "compression" || key == "codec") {
      if (!ParquetCodecFromName(value, options.codec)) {
        throw InvalidInputError("COPY: unknown COMPRESSION '" + value + "'; use zstd, snappy, gzip, lz4 or uncompressed");
      }
    } else if (key == "row_group_size") {
      try {
        options.row_group_rows = std::stoull(value);
      } catch (...) {
        throw InvalidInputError("COPY: ROW_GROUP_SIZE must be a positive number of rows, got '" + value + "'");
      }
      if (options.row_group_rows == 0) throw InvalidInputError("COPY: ROW_GROUP_SIZE must be positive");
    } else if (key == "compression_level") {
      options.compression_level = std::atoi(value.c_str());
    } else {
      throw InvalidInputError("COPY: unknown option " + raw_key + "; known options: FORMAT, COMPRESSION, ROW_GROUP_SIZE, COMPRESSION_LEVEL");
    }
  }
  return options;
}

std::unique_ptr<QueryResult> ExecuteCopy(ClientContext& context, CopyStatement& stmt) {
  if (stmt.is_from) {
    // COPY t FROM 'path' is INSERT INTO t SELECT * FROM read_parquet('path').
    std::string sql = "INSERT INTO " + stmt.table.ToString() + " SELECT * FROM read_parquet(" + Value(stmt.path).ToSQLString() + ")";
    auto statements = Parser::Parse(sql);
    return ExecuteInsert(context, static_cast<InsertStatement&>(*statements[0]));
  }
  ParquetWriterOptions options = ParseCopyOptions(stmt);
  Binder binder(context);
  BoundQuery query = binder.BindQuery(*stmt.query);
  ChunkCollection rows = ExecutePlan(context, std::move(query.plan));
  // Parquet needs concrete types; an untyped NULL column is written as INTEGER.
  std::vector<LogicalType> types = query.types;
  for (auto& t : types) {
    if (t.id() == TypeId::SQLNULL) t = TypeId::INTEGER;
  }
  // Written beside the target and renamed over it once complete (DuckDB's
  // USE_TMP_FILE): a COPY that fails half way (a full disk, a value no page
  // holds) leaves the file that was there before whole, and never writes
  // through a symlink at the target.
  std::string temp = stmt.path + ".tmp." + std::to_string(::getpid());
  try {
    auto writer = ParquetWriter::Create(temp, query.names, types, options);
    if (!writer.ok()) writer.status().Throw();
    for (idx_t c = 0; c < rows.ChunkCount(); c++) {
      Status s = writer.value()->Append(rows.Chunk(c));
      if (!s.ok()) s.Throw();
    }
    auto info = writer.value()->Finish();
    if (!info.ok()) info.status().Throw();
    if (std::rename(temp.c_str(), stmt.path.c_str()) != 0) {
      throw IOError("COPY TO " + stmt.path + ": cannot move the finished file " + temp + " into place: " +
                    std::strerror(errno));
    }
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  return MakeCountResult("Count", static_cast<int64_t>(rows.Count()));
}

}  // namespace lakestream
