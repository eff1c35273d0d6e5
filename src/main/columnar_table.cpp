// ColumnarTable (lakestream/columnar_table.hpp) and the Connection calls that
// register it: the application's columns copied chunk by chunk into engine
// vectors, once, so every read of the name is a plain scan of those chunks.
#include "lakestream/columnar_table.hpp"

#include <cstring>
#include <set>
#include <stdexcept>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "lakestream/connection.hpp"
#include "main/connection_access.hpp"

namespace lakestream {

struct ColumnarTable::Columns {
  std::vector<std::string> names;
  std::set<std::string> lower_names;
  std::vector<LogicalType> types;
  std::vector<std::vector<Vector>> chunks;  // per column, its vectors of STANDARD_VECTOR_SIZE rows
  idx_t rows = 0;

  // Checks the name and length, then fills one vector per chunk with
  // `fill(vector, first_row, count)` and the validity bytes.
  template <class Fill>
  void Add(const std::string& name, const LogicalType& type, const uint8_t* validity, idx_t count, Fill fill) {
    if (!lower_names.insert(StringUtil::Lower(name)).second) {
      throw std::invalid_argument("ColumnarTable: the column " + name + " is given twice; give each column once");
    }
    if (!names.empty() && count != rows) {
      lower_names.erase(StringUtil::Lower(name));
      throw std::invalid_argument("ColumnarTable: the column " + name + " has " + std::to_string(count) +
                                  " rows, the columns before it " + std::to_string(rows) +
                                  "; give every column the same number of rows");
    }
    std::vector<Vector> vectors;
    for (idx_t start = 0; start < count; start += STANDARD_VECTOR_SIZE) {
      idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, count - start);
      Vector& v = vectors.emplace_back(type, n);
      fill(v, start, n);
      uint8_t* valid = v.Validity();
      if (validity) {
        for (idx_t i = 0; i < n; i++) valid[i] = validity[start + i] != 0;
      } else {
        std::memset(valid, 1, n);
      }
    }
    names.push_back(name);
    types.push_back(type);
    chunks.push_back(std::move(vectors));
    rows = count;
  }

  template <class T>
  void AddFixed(const std::string& name, LogicalType type, const T* values, const uint8_t* validity, idx_t count) {
    Add(name, type, validity, count,
        [values](Vector& v, idx_t start, idx_t n) { std::memcpy(v.GetData<T>(), values + start, n * sizeof(T)); });
  }
};

ColumnarTable::ColumnarTable() : columns_(std::make_unique<Columns>()) {}
ColumnarTable::~ColumnarTable() = default;
ColumnarTable::ColumnarTable(ColumnarTable&&) noexcept = default;
ColumnarTable& ColumnarTable::operator=(ColumnarTable&&) noexcept = default;

idx_t ColumnarTable::RowCount() const { return columns_ ? columns_->rows : 0; }
idx_t ColumnarTable::ColumnCount() const { return columns_ ? columns_->names.size() : 0; }

void ColumnarTable::AddBooleans(const std::string& name, const bool* values, const uint8_t* validity, idx_t rows) {
  columns_->AddFixed(name, TypeId::BOOLEAN, values, validity, rows);
}
void ColumnarTable::AddIntegers(const std::string& name, const int32_t* values, const uint8_t* validity, idx_t rows) {
  columns_->AddFixed(name, TypeId::INTEGER, values, validity, rows);
}
void ColumnarTable::AddBigints(const std::string& name, const int64_t* values, const uint8_t* validity, idx_t rows) {
  columns_->AddFixed(name, TypeId::BIGINT, values, validity, rows);
}
void ColumnarTable::AddDoubles(const std::string& name, const double* values, const uint8_t* validity, idx_t rows) {
  columns_->AddFixed(name, TypeId::DOUBLE, values, validity, rows);
}
void ColumnarTable::AddDates(const std::string& name, const int32_t* days, const uint8_t* validity, idx_t rows) {
  columns_->AddFixed(name, TypeId::DATE, days, validity, rows);
}
void ColumnarTable::AddTimestamps(const std::string& name, const int64_t* micros, const uint8_t* validity, idx_t rows,
                                  bool without_time_zone) {
  columns_->AddFixed(name, without_time_zone ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP, micros, validity, rows);
}
void ColumnarTable::AddStrings(const std::string& name, const std::string_view* values, const uint8_t* validity,
                               idx_t rows) {
  columns_->Add(name, TypeId::VARCHAR, validity, rows, [values, validity](Vector& v, idx_t start, idx_t n) {
    auto* out = v.GetData<string_t>();
    for (idx_t i = 0; i < n; i++) {
      out[i] = validity && !validity[start + i] ? string_t() : v.AddString(values[start + i]);
    }
  });
}

std::shared_ptr<const ConnectionTable> ConnectionAccess::TakeTable(ColumnarTable& table) {
  auto columns = std::move(table.columns_);
  table.columns_ = std::make_unique<ColumnarTable::Columns>();
  if (!columns || columns->names.empty()) {
    throw std::invalid_argument("ColumnarTable: the table has no columns; add at least one column");
  }
  auto rows = std::make_shared<ChunkCollection>(columns->types);
  idx_t chunk_count = columns->chunks[0].size();
  for (idx_t k = 0; k < chunk_count; k++) {
    DataChunk chunk;
    for (auto& column : columns->chunks) chunk.data.push_back(std::move(column[k]));
    chunk.SetCardinality(std::min<idx_t>(STANDARD_VECTOR_SIZE, columns->rows - k * STANDARD_VECTOR_SIZE));
    rows->Append(std::move(chunk));
  }
  auto out = std::make_shared<ConnectionTable>();
  out->names = std::move(columns->names);
  out->rows = std::move(rows);
  return out;
}

void Connection::RegisterTable(const std::string& name, ColumnarTable table) {
  if (name.empty()) throw std::invalid_argument("RegisterTable: the name is empty; give the table a name");
  context_->connection_tables[StringUtil::Lower(name)] = ConnectionAccess::TakeTable(table);
}

bool Connection::UnregisterTable(const std::string& name) {
  return context_->connection_tables.erase(StringUtil::Lower(name)) > 0;
}

void Connection::SetReplacementScan(ReplacementScan scan) {
  if (!scan) {
    context_->replacement_scan = nullptr;
    return;
  }
  context_->replacement_scan = [scan = std::move(scan)](const std::string& name) -> std::shared_ptr<const ConnectionTable> {
    // What the application's scan throws fails the statement as invalid input naming the table.
    try {
      std::optional<ColumnarTable> table = scan(name);
      if (!table) return nullptr;
      return ConnectionAccess::TakeTable(*table);
    } catch (const Exception&) {
      throw;
    } catch (const std::exception& e) {
      throw InvalidInputError("Cannot read " + name + " (the connection's replacement scan): " + e.what());
    }
  };
}

}  // namespace lakestream
