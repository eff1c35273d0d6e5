// COPY (query) TO 'file.parquet' [(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE n)]
// COPY table TO 'file.parquet' ...
// COPY table FROM 'file.parquet' | 'glob'   (appends the rows)
#include <cstdlib>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "planner/bound_statement.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

static ParquetWriterOptions BindCopyOptions(const CopyStatement& stmt) {
  ParquetWriterOptions options;
  for (const auto& [raw_key, value] : stmt.options) {
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

BoundCopy BindCopy(Binder& binder, const CopyStatement& stmt) {
  BoundCopy result;
  result.is_from = stmt.is_from;
  result.path = stmt.path;
  if (stmt.is_from) {
    // read_parquet checks every file it matches; this names the statement.
    binder.Context().Database().AccessPolicy().CheckPattern(stmt.path, AccessMode::READ, "COPY ... FROM");
    // COPY t FROM 'path' is INSERT INTO t SELECT * FROM read_parquet('path').
    std::string sql = "INSERT INTO t SELECT * FROM read_parquet(" + Value(stmt.path).ToSQLString() + ")";
    auto statements = Parser::Parse(sql);
    static_cast<InsertStatement&>(*statements[0]).table = stmt.table;  // the resolved name, not re-parsed
    result.insert_statement = std::move(statements[0]);
    result.insert = BindInsert(binder, static_cast<InsertStatement&>(*result.insert_statement));
    return result;
  }
  result.options = BindCopyOptions(stmt);
  BoundQuery query = binder.BindQuery(*stmt.query);
  result.names = std::move(query.names);
  // Parquet needs concrete types; an untyped NULL column is written as INTEGER.
  result.types = std::move(query.types);
  for (auto& t : result.types) {
    if (t.id() == TypeId::SQLNULL) t = TypeId::INTEGER;
  }
  result.plan = std::move(query.plan);
  return result;
}

}  // namespace lakestream
