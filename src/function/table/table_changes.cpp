// table_changes('table', start [, end]): the Delta change data feed of a
// table over a version range (ends inclusive; end defaults to the latest).
// start/end are versions (integers) or timestamps ('2024-01-31 10:00:00').
#include "catalog/catalog.hpp"
#include "common/date.hpp"
#include "common/exception.hpp"
#include "function/table/table_functions.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "storage/table/change_feed.hpp"

namespace lakestream {

static int64_t ResolveBound(DeltaTable& table, const Value& v, bool is_start) {
  if (v.type().IsIntegral()) return v.AsBigint();
  if (v.type().id() == TypeId::VARCHAR || v.type().IsTimestamp() || v.type().id() == TypeId::DATE) {
    timestamp_t ts;
    if (v.type().id() == TypeId::VARCHAR) {
      // A text without offset is a wall clock in the session zone (Spark).
      if (!Timestamp::TryParseInZone(v.GetString(), SessionTimeZone(), ts)) {
        throw BinderError("table_changes(): '" + v.GetString() + "' is neither a version number nor a timestamp ('YYYY-MM-DD HH:MM:SS')");
      }
    } else {
      ts = v.CastAs(TypeId::TIMESTAMP).GetTimestamp();
    }
    return is_start ? FirstVersionAtOrAfter(table, ts) : LastVersionAtOrBefore(table, ts);
  }
  throw BinderError("table_changes(): a range bound must be a version number or a timestamp, got " + v.ToSQLString());
}

TableFunctionBinding BindTableChanges(ClientContext& context, const std::vector<Value>& args) {
  if (args.size() < 2 || args.size() > 3) {
    throw BinderError("table_changes() takes (table, start_version [, end_version]), e.g. table_changes('orders', 2, 5)");
  }
  if (args[0].type().id() != TypeId::VARCHAR || args[0].IsNull()) {
    throw BinderError("table_changes(): the first argument is the table name as a string, e.g. table_changes('orders', 0)");
  }
  std::string name = ResolveObjectName(context, args[0].GetString());  // 't', 'LIVE.t', 's.t', 'db.s.t'
  TableCatalogEntry& entry = context.GetCatalog().GetTable(name);
  DeltaTable* table = DatabaseInstance::AsDelta(entry);
  if (!table) {
    throw NotImplementedError("table_changes() on table " + entry.name +
                              ": the change data feed needs Delta storage; open a database directory (lakestream DB_DIR)");
  }
  int64_t start = ResolveBound(*table, args[1], true);
  int64_t end = args.size() == 3 ? ResolveBound(*table, args[2], false) : table->Version();
  ChangeFeedSchema schema = GetChangeFeedSchema(*table);
  TableFunctionBinding binding;
  binding.names = schema.names;
  binding.types = schema.types;
  auto types = schema.types;
  binding.factory = [table, start, end, types](const std::vector<idx_t>& projected) {
    auto rows = std::make_shared<ChunkCollection>(types);
    ReadChangeFeed(*table, start, end, *rows);
    return MakeCollectionSource(std::shared_ptr<const ChunkCollection>(rows), projected, "TABLE_CHANGES");
  };
  return binding;
}

}  // namespace lakestream
