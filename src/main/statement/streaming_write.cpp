#include "main/statement/streaming_write.hpp"

#include <unordered_map>

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "function/table/schema_merge.hpp"
#include "storage/table/delta_table.hpp"
#include "storage/table/schema_evolution.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

static int64_t ColumnIndexIn(const std::vector<TableColumn>& columns, const std::string& name) {
  for (idx_t i = 0; i < columns.size(); i++) {
    if (StringUtil::CIEquals(columns[i].name, name)) return static_cast<int64_t>(i);
  }
  return -1;
}

DeltaTable* AttachIngestedTxns(TableCatalogEntry* table, IngestionScope& scope,
                               std::map<std::string, int64_t>& memory_txns) {
  DeltaTable* delta = table ? DatabaseInstance::AsDelta(*table) : nullptr;
  if (delta) {
    scope.snapshot = &delta->Snapshot();
  } else if (table && table->state.txns) {
    memory_txns = *table->state.txns;
    scope.memory_txns = &memory_txns;
  }
  return delta;
}

std::vector<TableColumn> EvolveStreamingColumns(const TableCatalogEntry& table, const std::vector<std::string>& names,
                                                const std::vector<LogicalType>& types, bool allow_new) {
  std::vector<TableColumn> columns = table.columns;
  // Delta type widening on its own (INT -> BIGINT, wider DECIMAL, DATE ->
  // TIMESTAMP_NTZ) only where the table enables it, as Delta's streaming sink does.
  bool widen = StringUtil::CIEquals(table.GetProperty("delta.enableTypeWidening"), "true");
  for (idx_t i = 0; i < names.size(); i++) {
    int64_t at = ColumnIndexIn(columns, names[i]);
    if (at < 0) {
      if (!allow_new) {
        throw BinderError("Streaming table " + table.name + " has no column " + names[i] +
                          ", which its query now returns, and it declares its columns; add it with ALTER TABLE " +
                          table.name + " ADD COLUMN " + names[i] + " <type> (and to the declared list), or fully refresh "
                          "(DROP STREAMING TABLE " + table.name + ", then run the pipeline again)");
      }
      LogicalType type = FinishInferredType(types[i], true);
      columns.push_back({names[i], type, false, Value(type)});
      continue;
    }
    LogicalType& current = columns[at].type;
    if (current == types[i]) continue;
    if (!current.IsNested()) {
      if (widen && DeltaWidensOnEvolution(current, types[i])) current = types[i];
      continue;
    }
    LogicalType evolved = AddNewFields(current, types[i], widen);
    if (evolved != current && TypeEvolvesTo(current, evolved)) current = evolved;
  }
  return columns;
}

ChunkCollection MapToTableColumns(const TableCatalogEntry& table, const std::vector<TableColumn>& columns,
                                  const std::vector<std::string>& names, const ChunkCollection& rows) {
  std::vector<int64_t> source(columns.size(), -1);
  for (idx_t i = 0; i < names.size(); i++) {
    int64_t at = ColumnIndexIn(columns, names[i]);
    if (at < 0) {
      throw BinderError("Streaming table " + table.name + " has no column " + names[i] +
                        ", which its query now returns; add it with ALTER TABLE " + table.name + " ADD COLUMN " + names[i] +
                        " <type>, or fully refresh (DROP STREAMING TABLE " + table.name + ", then run the pipeline again)");
    }
    if (source[at] >= 0) {
      throw BinderError("The query of streaming table " + table.name + " returns two columns named " + names[i] +
                        "; give one of them an alias");
    }
    source[at] = static_cast<int64_t>(i);
  }
  std::vector<LogicalType> types;
  types.reserve(columns.size());
  for (auto& c : columns) types.push_back(c.type);
  ChunkCollection out(types);
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    DataChunk mapped;
    mapped.Initialize(types, chunk.size());
    for (idx_t c = 0; c < types.size(); c++) {
      if (source[c] < 0) {
        for (idx_t r = 0; r < chunk.size(); r++) mapped.data[c].SetValid(r, false);
        continue;
      }
      const Vector& from = chunk.data[source[c]];
      if (from.GetType() == types[c]) {
        mapped.data[c].Copy(from, nullptr, chunk.size(), 0, 0);
      } else if (TypeEvolvesTo(from.GetType(), types[c])) {
        ConformVector(from, mapped.data[c], chunk.size());  // a STRUCT with fewer fields
      } else {
        CastVector(from, mapped.data[c], chunk.size());
      }
    }
    mapped.SetCardinality(chunk.size());
    out.Append(mapped);
  }
  return out;
}

namespace {

std::string KeyOf(const DataChunk& chunk, idx_t row, const std::vector<idx_t>& key_columns, const std::string& table) {
  std::string key;
  for (idx_t c : key_columns) {
    Value v = chunk.GetValue(c, row);
    if (v.IsNull()) {
      throw ConstraintError("Streaming table " + table + ": a row has NULL in its primary key column; filter such rows "
                            "out in the query (WHERE key IS NOT NULL)");
    }
    std::string text = v.ToString();
    key += std::to_string(text.size()) + ":" + text;
  }
  return key;
}

struct Candidate {
  idx_t chunk = 0, row = 0;
  Value sequence;
};

}  // namespace

int64_t PlanStreamingWrite(TableCatalogEntry& table, const std::vector<TableColumn>& columns, ChunkCollection rows,
                           TableCommit& commit) {
  std::vector<LogicalType> types;
  types.reserve(columns.size());
  for (auto& c : columns) types.push_back(c.type);
  std::vector<LogicalType> stored_types = table.Types();
  commit.inserted = ChunkCollection(types);
  if (table.primary_key.empty()) {
    commit.inserted = std::move(rows);
    return 0;
  }
  std::vector<idx_t> key_columns;
  for (auto& k : table.primary_key) key_columns.push_back(static_cast<idx_t>(ColumnIndexIn(columns, k)));
  int64_t sequence_column = -1;
  std::string sequence_by = table.GetProperty("pipelines.sequence_by");
  if (!sequence_by.empty()) {
    sequence_column = ColumnIndexIn(columns, sequence_by);
    if (sequence_column < 0) {
      throw BinderError("Streaming table " + table.name + ": 'pipelines.sequence_by' names " + sequence_by +
                        ", which is not one of its columns");
    }
  }
  // The newest incoming row per key.
  std::unordered_map<std::string, Candidate> incoming;
  std::vector<std::string> order;  // first appearance, so inserts keep the input order
  for (idx_t k = 0; k < rows.ChunkCount(); k++) {
    const DataChunk& chunk = rows.Chunk(k);
    for (idx_t r = 0; r < chunk.size(); r++) {
      std::string key = KeyOf(chunk, r, key_columns, table.name);
      Candidate c{k, r, sequence_column >= 0 ? chunk.GetValue(sequence_column, r) : Value()};
      auto it = incoming.find(key);
      if (it == incoming.end()) {
        incoming.emplace(key, c);
        order.push_back(key);
      } else if (sequence_column < 0 || c.sequence.IsNull() || it->second.sequence.IsNull() ||
                 c.sequence.Compare(it->second.sequence) >= 0) {
        it->second = c;
      }
    }
  }
  int64_t ignored = static_cast<int64_t>(rows.Count() - incoming.size());
  // Stored rows with those keys.
  struct Stored {
    row_t id;
    std::vector<Value> values;
  };
  std::unordered_map<std::string, Stored> stored;
  std::vector<idx_t> all;
  for (idx_t i = 0; i < stored_types.size(); i++) all.push_back(i);
  auto scan = table.storage->Scan(all);
  DataChunk chunk;
  chunk.Initialize(stored_types);
  Vector row_ids(TypeId::BIGINT);
  while (scan->Next(chunk, &row_ids)) {
    for (idx_t r = 0; r < chunk.size(); r++) {
      std::string key = KeyOf(chunk, r, key_columns, table.name);
      if (!incoming.count(key)) continue;
      Stored entry{row_ids.GetData<int64_t>()[r], {}};
      // In the evolved columns: new ones NULL, STRUCTs with their new fields NULL.
      for (idx_t c = 0; c < types.size(); c++) {
        entry.values.push_back(c < stored_types.size() ? ConformValue(chunk.GetValue(c, r), types[c]) : Value(types[c]));
      }
      stored[key] = std::move(entry);
    }
    chunk.Reset();
  }
  commit.updated = ChunkCollection(types);
  DataChunk one;
  for (auto& key : order) {
    const Candidate& c = incoming[key];
    const DataChunk& source = rows.Chunk(c.chunk);
    auto it = stored.find(key);
    if (it != stored.end()) {
      // Older than what is stored, or the same row again: nothing changes.
      const Value& old_sequence = sequence_column >= 0 ? it->second.values[sequence_column] : Value();
      bool older = sequence_column >= 0 && !c.sequence.IsNull() && !old_sequence.IsNull() &&
                   c.sequence.Compare(old_sequence) < 0;
      bool same = true;
      for (idx_t col = 0; col < types.size() && same; col++) {
        Value v = source.GetValue(col, c.row);
        const Value& w = it->second.values[col];
        same = v.IsNull() == w.IsNull() && (v.IsNull() || v.Compare(w) == 0);
      }
      if (older || same) {
        ignored++;
        continue;
      }
    }
    one.Initialize(types, 1);
    sel_t sel = static_cast<sel_t>(c.row);
    one.Append(source, &sel, 1);
    if (it != stored.end()) {
      commit.updated_row_ids.push_back(it->second.id);
      commit.updated.Append(one);
    } else {
      commit.inserted.Append(one);
    }
  }
  return ignored;
}

}  // namespace lakestream
