// Row tracking (PROTOCOL.md "Row Tracking"): fresh row ids and the high
// water mark across commits, re-assignment when a commit lands at another
// version, enablement rules, the JSON round trip of the fields, and stable
// ids kept by an UPDATE. Expected values are worked out by hand from the
// protocol: a file's rows get ids baseRowId .. baseRowId + numRecords - 1,
// the first file of a table starts at 0, and each new baseRowId is the
// previous high water mark + 1. End-to-end checks on Spark-written tables
// are in test/shell/row_tracking.sh.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include "storage/delta/row_tracking.hpp"
#include "common/exception.hpp"
#include "storage/delta/checkpoint_writer.hpp"
#include "storage/delta/delta_checkpoint.hpp"
#include "storage/delta/delta_log.hpp"
#include "storage/delta/delta_snapshot.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/table/delta_table.hpp"
#include "delta_table_util.hpp"
#include "temp_dir_util.hpp"

namespace lakestream::delta {
namespace {

AddFile Add(const std::string& path, int64_t records) {
  AddFile a;
  a.path = path;
  a.size = 100;
  a.stats = "{\"numRecords\":" + std::to_string(records) + "}";
  return a;
}

Snapshot Tracked() {
  Snapshot s;
  s.version = 0;
  s.protocol.min_reader_version = 1;
  s.protocol.min_writer_version = 7;
  s.protocol.writer_features = std::vector<std::string>{"domainMetadata", "rowTracking"};
  s.metadata.id = "id";
  return s;
}

const AddFile& AddAt(const std::vector<Action>& actions, size_t i) {
  size_t seen = 0;
  for (auto& a : actions) {
    if (auto* add = std::get_if<AddFile>(&a)) {
      if (seen++ == i) return *add;
    }
  }
  throw std::runtime_error("no such add");
}

std::vector<DomainMetadata> Domains(const std::vector<Action>& actions) {
  std::vector<DomainMetadata> out;
  for (auto& a : actions) {
    if (auto* d = std::get_if<DomainMetadata>(&a)) out.push_back(*d);
  }
  return out;
}

TEST(RowTracking, HighWaterMarkAndBaseRowIdsAcrossCommits) {
  Snapshot base = Tracked();
  // Commit 1: files of 4, 0 and 3 rows: ids 0-3, none, 4-6.
  auto first = AssignRowIds({CommitInfo::Make(1, "WRITE", {}), Add("a", 4), Add("b", 0), Add("c", 3)}, base, 1);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(AddAt(first.value(), 0).base_row_id, 0);
  EXPECT_EQ(AddAt(first.value(), 1).base_row_id, 4);
  EXPECT_EQ(AddAt(first.value(), 2).base_row_id, 4);
  for (size_t i = 0; i < 3; i++) EXPECT_EQ(AddAt(first.value(), i).default_row_commit_version, 1);
  auto domains = Domains(first.value());
  ASSERT_EQ(domains.size(), 1u);
  EXPECT_EQ(domains[0].domain, "delta.rowTracking");
  EXPECT_EQ(domains[0].configuration, "{\"rowIdHighWaterMark\":6}");
  base.Apply(1, first.value(), std::nullopt);
  // Commit 2: 10 more rows start right after the mark: ids 7-16.
  auto second = AssignRowIds({Add("d", 10)}, base, 2);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(AddAt(second.value(), 0).base_row_id, 7);
  EXPECT_EQ(AddAt(second.value(), 0).default_row_commit_version, 2);
  EXPECT_EQ(Domains(second.value())[0].configuration, "{\"rowIdHighWaterMark\":16}");
  base.Apply(2, second.value(), std::nullopt);
  auto mark = RowIdHighWaterMark(base.domains);
  ASSERT_TRUE(mark.ok());
  EXPECT_EQ(mark.value(), 16);
  // A commit of no rows (a metadata change, an empty file) leaves the mark alone.
  auto third = AssignRowIds({CommitInfo::Make(1, "WRITE", {}), Add("e", 0)}, base, 3);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(AddAt(third.value(), 0).base_row_id, 17);
  EXPECT_TRUE(Domains(third.value()).empty());
}

TEST(RowTracking, ARetryAtANewVersionIsAssignedAgain) {
  Snapshot lost = Tracked();
  lost.domains["delta.rowTracking"] = DomainMetadata{"delta.rowTracking", "{\"rowIdHighWaterMark\":9}", false};
  auto attempt = AssignRowIds({CommitInfo::Make(1, "WRITE", {}), Add("mine", 5)}, lost, 5);
  ASSERT_TRUE(attempt.ok());
  EXPECT_EQ(AddAt(attempt.value(), 0).base_row_id, 10);
  // Another writer took version 5 and ids up to 20 (Databricks adds a
  // domainName key of its own): the same actions, assigned again over it.
  Snapshot winner = lost;
  winner.version = 5;
  winner.domains["delta.rowTracking"].configuration = "{\"rowIdHighWaterMark\":20,\"domainName\":\"delta.rowTracking\"}";
  auto retry = AssignRowIds(attempt.value(), winner, 6);
  ASSERT_TRUE(retry.ok());
  EXPECT_EQ(AddAt(retry.value(), 0).base_row_id, 21);
  EXPECT_EQ(AddAt(retry.value(), 0).default_row_commit_version, 6);
  auto domains = Domains(retry.value());
  ASSERT_EQ(domains.size(), 1u);  // the first attempt's domain action is replaced, not repeated
  EXPECT_EQ(domains[0].configuration, "{\"rowIdHighWaterMark\":25}");
}

TEST(RowTracking, OnlyTablesThatAssignAreTouched) {
  std::vector<Action> actions = {Add("a", 3)};
  Snapshot plain;
  plain.metadata.id = "id";
  EXPECT_EQ(AssignRowIds(actions, plain, 1).value(), actions);
  Snapshot suspended = Tracked();
  suspended.metadata.configuration["delta.rowTrackingSuspended"] = "true";
  EXPECT_EQ(AssignRowIds(actions, suspended, 1).value(), actions);
  // The feature added by the commit itself: its adds get ids already.
  std::vector<Action> with_protocol = {Tracked().protocol, Add("a", 3)};
  auto upgraded = AssignRowIds(with_protocol, plain, 1);
  ASSERT_TRUE(upgraded.ok());
  EXPECT_EQ(AddAt(upgraded.value(), 0).base_row_id, 0);
  // No numRecords: the ids cannot be assigned.
  AddFile no_stats = Add("x", 1);
  no_stats.stats.reset();
  auto refused = AssignRowIds({no_stats}, Tracked(), 1);
  EXPECT_EQ(refused.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("numRecords"), std::string::npos);
  Snapshot bad = Tracked();
  bad.domains["delta.rowTracking"] = DomainMetadata{"delta.rowTracking", "{\"rowIdHighWaterMark\":\"x\"}", false};
  EXPECT_TRUE(AssignRowIds({Add("a", 1)}, bad, 1).status().IsCorruption());
}

TEST(RowTracking, EnablingNeedsRowIdsOnEveryFile) {
  Snapshot base = Tracked();
  base.files["old"] = Add("old", 2);  // written before the feature: no baseRowId
  Metadata on = base.metadata;
  on.configuration["delta.enableRowTracking"] = "true";
  AssignMaterializedColumnNames(on.configuration, nullptr, [] { return std::string("u"); });
  EXPECT_EQ(on.configuration.at("delta.rowTracking.materializedRowIdColumnName"), "_row-id-col-u");
  EXPECT_EQ(on.configuration.at("delta.rowTracking.materializedRowCommitVersionColumnName"), "_row-commit-version-col-u");
  Status refused = CheckRowTrackingEnablement("t", base, {on});
  EXPECT_EQ(refused.code(), Status::Code::kNotSupported);
  // The SQL layer says "not supported yet" (NotImplementedError); the Status names the missing backfill.
  EXPECT_NE(refused.message().find("needs a backfill"), std::string::npos);
  EXPECT_NE(refused.message().find("old"), std::string::npos);
  // Removed by the same commit (CREATE OR REPLACE): fine.
  RemoveFile gone;
  gone.path = "old";
  EXPECT_TRUE(CheckRowTrackingEnablement("t", base, {on, gone}).ok());
  // Every file with ids: fine.
  base.files["old"].base_row_id = 0;
  base.files["old"].default_row_commit_version = 1;
  EXPECT_TRUE(CheckRowTrackingEnablement("t", base, {on}).ok());
  // Without the column names, or without the feature: refused.
  Metadata unnamed = base.metadata;
  unnamed.configuration["delta.enableRowTracking"] = "true";
  EXPECT_EQ(CheckRowTrackingEnablement("t", base, {unnamed}).code(), Status::Code::kInvalidArgument);
  Snapshot plain = base;
  plain.protocol = Protocol();
  EXPECT_EQ(CheckRowTrackingEnablement("t", plain, {on}).code(), Status::Code::kInvalidArgument);
}

TEST(RowTracking, MaterializedColumnNamesStayOnceGiven) {
  Snapshot base = Tracked();
  base.metadata.configuration = {{"delta.enableRowTracking", "true"},
                                 {"delta.rowTracking.materializedRowIdColumnName", "_row-id-col-1"},
                                 {"delta.rowTracking.materializedRowCommitVersionColumnName", "_row-commit-version-col-1"}};
  // A replacement that enables row tracking again keeps the replaced table's names.
  StringMap replacement = {{"delta.enableRowTracking", "true"}};
  AssignMaterializedColumnNames(replacement, &base.metadata, [] { return std::string("new"); });
  EXPECT_EQ(replacement, base.metadata.configuration);
  // Changing or unsetting a name of an enabled table is refused; other changes are not.
  Metadata renamed = base.metadata;
  renamed.configuration["delta.rowTracking.materializedRowIdColumnName"] = "_row-id-col-2";
  EXPECT_EQ(CheckRowTrackingEnablement("t", base, {renamed}).code(), Status::Code::kInvalidArgument);
  Metadata unset = base.metadata;
  unset.configuration.erase("delta.rowTracking.materializedRowCommitVersionColumnName");
  EXPECT_EQ(CheckRowTrackingEnablement("t", base, {unset}).code(), Status::Code::kInvalidArgument);
  Metadata other = base.metadata;
  other.configuration["delta.appendOnly"] = "false";
  EXPECT_TRUE(CheckRowTrackingEnablement("t", base, {other}).ok());
  Metadata disabled = base.metadata;
  disabled.configuration["delta.enableRowTracking"] = "false";
  EXPECT_TRUE(CheckRowTrackingEnablement("t", base, {disabled}).ok());
}

TEST(RowTracking, RemoveFieldsRoundTripInJson) {
  RemoveFile r;
  r.path = "p=1/f.parquet";
  r.deletion_timestamp = 5;
  r.base_row_id = 42;
  r.default_row_commit_version = 7;
  std::string line = SerializeAction(r);
  EXPECT_NE(line.find("\"baseRowId\":42"), std::string::npos) << line;
  EXPECT_NE(line.find("\"defaultRowCommitVersion\":7"), std::string::npos) << line;
  auto parsed = ParseAction(line);
  ASSERT_TRUE(parsed.ok() && parsed.value().has_value());
  EXPECT_EQ(std::get<RemoveFile>(*parsed.value()), r);
}

}  // namespace
}  // namespace lakestream::delta

namespace lakestream {
namespace {

std::unique_ptr<DeltaTable> MakeTrackedTable(const std::string& path) {
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.enableRowTracking"] = "true";
  return DeltaTable::Create(FileSystem::Default(), "t", path, definition);
}

const delta::AddFile& OnlyFile(const DeltaTable& table) {
  EXPECT_EQ(table.Snapshot().files.size(), 1u);
  return table.Snapshot().files.begin()->second;
}

TEST(RowTrackingTable, CreateEnablesTheFeatureWithColumnNames) {
  testing::ScopedTempDir dir;
  auto table = MakeTrackedTable(dir.path + "/t");
  const auto& snapshot = table->Snapshot();
  EXPECT_TRUE(snapshot.protocol.ListsWriterFeature("rowTracking"));
  EXPECT_TRUE(snapshot.protocol.ListsWriterFeature("domainMetadata"));
  EXPECT_EQ(snapshot.protocol.min_writer_version, 7);
  auto names = delta::MaterializedColumnNames(snapshot.metadata);
  ASSERT_TRUE(names.has_value());
  EXPECT_EQ(names->row_id.rfind("_row-id-col-", 0), 0u);
  EXPECT_EQ(names->row_commit_version.rfind("_row-commit-version-col-", 0), 0u);
}

TEST(RowTrackingTable, CommitsAreTaggedAndNamesCannotBeUnset) {
  testing::ScopedTempDir dir;
  auto table = MakeTrackedTable(dir.path + "/t");
  auto insert = testing::InsertRows(0, 3);
  table->Commit(insert);
  auto log = delta::DeltaLog::Open(FileSystem::Default(), dir.path + "/t").take();
  auto actions = log->ReadCommit(1);
  ASSERT_TRUE(actions.ok());
  bool tagged = false;
  for (auto& a : actions.value()) {
    if (auto* info = std::get_if<delta::CommitInfo>(&a)) {
      tagged = info->json.find("\"delta.rowTracking.preserved\":\"true\"") != std::string::npos;
    }
  }
  EXPECT_TRUE(tagged);
  EXPECT_THROW(table->UnsetProperties({"delta.rowTracking.materializedRowIdColumnName"}), InvalidInputError);
  EXPECT_THROW(table->SetProperties({{"delta.rowTracking.materializedRowCommitVersionColumnName", "x"}}), InvalidInputError);
  EXPECT_EQ(table->Snapshot().version, 1);  // nothing committed
}

TEST(RowTrackingTable, ALostRaceIsAssignedAtItsNewVersion) {
  testing::ScopedTempDir dir;
  std::string path = dir.path + "/t";
  auto a = MakeTrackedTable(path);
  auto b = DeltaTable::Open(FileSystem::Default(), "t", path);  // at version 0, like a
  auto first = testing::InsertRows(0, 10);
  a->Commit(first);
  EXPECT_EQ(OnlyFile(*a).base_row_id, 0);
  EXPECT_EQ(OnlyFile(*a).default_row_commit_version, 1);
  // b still believes version 1 is free: it loses the race and lands at 2.
  auto second = testing::InsertRows(100, 5);
  b->Commit(second);
  ASSERT_EQ(b->Snapshot().version, 2);
  std::set<int64_t> bases;
  for (auto& [p, add] : b->Snapshot().files) {
    bases.insert(*add.base_row_id);
    if (add.base_row_id == 10) EXPECT_EQ(add.default_row_commit_version, 2);
  }
  EXPECT_EQ(bases, (std::set<int64_t>{0, 10}));
  auto mark = delta::RowIdHighWaterMark(b->Snapshot().domains);
  ASSERT_TRUE(mark.ok());
  EXPECT_EQ(mark.value(), 14);
}

TEST(RowTrackingTable, CheckpointsKeepTheFieldsOfAddsAndRemoves) {
  testing::ScopedTempDir dir;
  std::string path = dir.path + "/t";
  DeltaTableDefinition definition;
  definition.columns = {{"k", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))},
                        {"v", TypeId::BIGINT, false, Value(LogicalType(TypeId::BIGINT))}};
  definition.properties["delta.enableRowTracking"] = "true";
  definition.properties["delta.checkpointInterval"] = "2";
  auto table = DeltaTable::Create(FileSystem::Default(), "t", path, definition);
  auto insert = testing::InsertRows(0, 10);
  table->Commit(insert);  // version 1: ids 0-9
  auto update = testing::UpdateOneRow();
  table->Commit(update);  // version 2: ids 10-19, and the checkpoint
  delta::WaitForCheckpoints(path);  // written in the background
  ASSERT_TRUE(std::filesystem::exists(path + "/_delta_log/00000000000000000002.checkpoint.parquet"));
  for (int v = 0; v <= 2; v++) {
    char name[64];
    snprintf(name, sizeof(name), "/_delta_log/%020d.json", v);
    std::filesystem::remove(path + name);  // only the checkpoint is left to read
  }
  auto reopened = DeltaTable::Open(FileSystem::Default(), "t", path);
  ASSERT_EQ(reopened->Snapshot().checkpoint_version, 2);
  const auto& add = OnlyFile(*reopened);
  EXPECT_EQ(add.base_row_id, 10);
  EXPECT_EQ(add.default_row_commit_version, 2);
  auto tombstones = delta::AllTombstones(FileSystem::Default(), reopened->Snapshot());
  ASSERT_TRUE(tombstones.ok()) << tombstones.status().ToString();
  ASSERT_EQ(tombstones.value().size(), 1u);
  EXPECT_EQ(tombstones.value().begin()->second.base_row_id, 0);
  EXPECT_EQ(tombstones.value().begin()->second.default_row_commit_version, 1);
  auto mark = delta::RowIdHighWaterMark(reopened->Snapshot().domains);
  ASSERT_TRUE(mark.ok());
  EXPECT_EQ(mark.value(), 19);
}

// Reads the materialized columns of `table`'s only file: (id, version) per
// row in file order, -1 for NULL.
std::vector<std::pair<int64_t, int64_t>> Materialized(const DeltaTable& table) {
  const auto& snapshot = table.Snapshot();
  auto names = *delta::MaterializedColumnNames(snapshot.metadata);
  auto reader = ParquetReader::Open(snapshot.FilePath(OnlyFile(table).path)).take();
  std::vector<idx_t> ids;
  for (auto& name : {names.row_id, names.row_commit_version}) {
    for (idx_t c = 0; c < reader->ColumnNames().size(); c++) {
      if (reader->ColumnNames()[c] == name) ids.push_back(c);
    }
  }
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_TRUE(reader->Scan(ids).ok());
  DataChunk chunk;
  chunk.Initialize(reader->ProjectedTypes());
  std::vector<std::pair<int64_t, int64_t>> out;
  while (reader->ReadChunk(chunk).ok() && chunk.size() > 0) {
    for (idx_t r = 0; r < chunk.size(); r++) {
      Value id = chunk.GetValue(0, r), version = chunk.GetValue(1, r);
      out.emplace_back(id.IsNull() ? -1 : id.GetBigint(), version.IsNull() ? -1 : version.GetBigint());
    }
  }
  return out;
}

TEST(RowTrackingTable, UpdateKeepsEveryRowId) {
  testing::ScopedTempDir dir;
  auto table = MakeTrackedTable(dir.path + "/t");
  auto insert = testing::InsertRows(0, 10);
  table->Commit(insert);  // version 1: ids 0-9, commit version 1
  auto update = testing::UpdateOneRow();  // row 3 of the file
  table->Commit(update);  // version 2
  const auto& add = OnlyFile(*table);
  EXPECT_EQ(add.base_row_id, 10);  // fresh ids for the new file: 10-19
  EXPECT_EQ(add.default_row_commit_version, 2);
  // Kept rows first (in file order), then the updated row: each with its old
  // id; kept rows keep commit version 1, the updated one gets NULL (= 2).
  std::vector<std::pair<int64_t, int64_t>> want = {{0, 1}, {1, 1}, {2, 1}, {4, 1}, {5, 1},
                                                   {6, 1}, {7, 1}, {8, 1}, {9, 1}, {3, -1}};
  EXPECT_EQ(Materialized(*table), want);
  // Stable values as a reader reconstructs them (materialized, else fresh).
  auto names = *delta::MaterializedColumnNames(table->Snapshot().metadata);
  auto stable = delta::ReadFileRowTracking(table->Fs(), table->Snapshot().FilePath(add.path), add, names);
  ASSERT_TRUE(stable.ok()) << stable.status().ToString();
  EXPECT_EQ(stable.value().row_ids, (std::vector<int64_t>{0, 1, 2, 4, 5, 6, 7, 8, 9, 3}));
  EXPECT_EQ(stable.value().commit_versions, (std::vector<int64_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 2}));
  // The removed file's remove repeats its row tracking fields.
  auto log = table->Snapshot().tombstones;
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log.begin()->second.base_row_id, 0);
  EXPECT_EQ(log.begin()->second.default_row_commit_version, 1);
  // A later UPDATE of a row that was copied before keeps its first id.
  auto again = testing::UpdateOneRow();  // position 3 now holds the row with id 4
  table->Commit(again);
  auto after = Materialized(*table);
  ASSERT_EQ(after.size(), 10u);
  EXPECT_EQ(after.back(), (std::pair<int64_t, int64_t>{4, -1}));
  std::set<int64_t> ids;
  for (auto& [id, version] : after) ids.insert(id);
  EXPECT_EQ(ids.size(), 10u);
  EXPECT_EQ(*ids.begin(), 0);
  EXPECT_EQ(*ids.rbegin(), 9);
}

}  // namespace
}  // namespace lakestream
