// The table function registry: functions registered by name are found by the
// binder (any case), the built-ins are there for every Database, and an
// unknown name gets the closest registered name as a hint.
#include <gtest/gtest.h>

#include "function/table_function.hpp"
#include "lakestream.hpp"

namespace lakestream {
namespace {

// countdown_for_registry_test(n): n, n-1, ..., 1 as one BIGINT column.
TableFunctionBinding BindCountdown(ClientContext&, const std::string&, const std::vector<Value>& arguments,
                                   const std::vector<std::string>&) {
  TableFunctionBinding binding;
  binding.names = {"n"};
  binding.types = {TypeId::BIGINT};
  int64_t n = arguments.at(0).AsBigint();
  binding.factory = [n](const std::vector<idx_t>& projected) {
    auto rows = std::make_shared<ChunkCollection>(std::vector<LogicalType>{TypeId::BIGINT});
    DataChunk chunk;
    chunk.Initialize({TypeId::BIGINT}, static_cast<idx_t>(n));
    for (int64_t i = 0; i < n; i++) chunk.SetValue(0, static_cast<idx_t>(i), Value::BIGINT(n - i));
    chunk.SetCardinality(static_cast<idx_t>(n));
    rows->Append(chunk);
    return MakeCollectionSource(rows, projected, "COUNTDOWN");
  };
  return binding;
}

TEST(TableFunctionRegistry, RegisteredFunctionIsFoundByName) {
  TableFunctionRegistry::Instance().Register("Countdown_For_Registry_Test", BindCountdown);
  Database db(":memory:");
  Connection con(db);
  auto r = con.Query("SELECT sum(n), min(n), count(*) FROM COUNTDOWN_for_registry_test(4)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(r->GetValue(0, 0).AsBigint(), 10);
  EXPECT_EQ(r->GetValue(1, 0).AsBigint(), 1);
  EXPECT_EQ(r->GetValue(2, 0).AsBigint(), 4);
  auto plan = con.Query("EXPLAIN SELECT n FROM countdown_for_registry_test(2)");
  ASSERT_FALSE(plan->HasError()) << plan->GetError();
  EXPECT_NE(plan->GetValue(0, 0).ToString().find("COUNTDOWN"), std::string::npos) << plan->GetValue(0, 0).ToString();
}

TEST(TableFunctionRegistry, UnknownNameGetsTheClosestHint) {
  TableFunctionRegistry::Instance().Register("countdown_for_registry_test", BindCountdown);
  Database db(":memory:");
  Connection con(db);
  auto r = con.Query("SELECT * FROM countdown_for_registry_tset(3)");
  ASSERT_TRUE(r->HasError());
  EXPECT_EQ(r->GetErrorKind(), ErrorKind::CATALOG) << r->GetError();
  EXPECT_NE(r->GetError().find("Table Function with name countdown_for_registry_tset does not exist!"), std::string::npos)
      << r->GetError();
  EXPECT_NE(r->GetError().find("Did you mean \"countdown_for_registry_test\"?"), std::string::npos) << r->GetError();
  auto far = con.Query("SELECT * FROM no_such_function_at_all(3)");
  ASSERT_TRUE(far->HasError());
  EXPECT_EQ(far->GetError().find("Did you mean"), std::string::npos) << far->GetError();
}

TEST(TableFunctionRegistry, EveryDatabaseHasTheBuiltins) {
  Database db(":memory:");
  auto& registry = TableFunctionRegistry::Instance();
  for (const char* name : {"range", "generate_series", "read_parquet", "parquet_scan", "table_changes", "read_files", "read_kafka"}) {
    EXPECT_TRUE(registry.Find(name)) << name;
  }
  Connection con(db);
  auto r = con.Query("SELECT count(*) FROM generate_series(1, 5)");
  ASSERT_FALSE(r->HasError()) << r->GetError();
  EXPECT_EQ(r->GetValue(0, 0).AsBigint(), 5);
  // Misspelt built-ins point to them (read_kafka lives in the connector layer).
  auto kafka = con.Query("SELECT * FROM read_kafak('localhost:1', 't')");
  ASSERT_TRUE(kafka->HasError());
  EXPECT_NE(kafka->GetError().find("Did you mean \"read_kafka\"?"), std::string::npos) << kafka->GetError();
}

}  // namespace
}  // namespace lakestream
