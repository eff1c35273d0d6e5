#include "ivm/view_stored_rows.hpp"

#include <algorithm>
#include <cstring>

#include "common/exception.hpp"

namespace lakestream {

bool ViewStoredRows::Supports(const std::vector<LogicalType>& types) {
  return std::none_of(types.begin(), types.end(), [](const LogicalType& t) {
    return t.IsNested() || t.id() == TypeId::INVALID || t.id() == TypeId::SQLNULL;
  });
}

ViewStoredRows::ViewStoredRows(std::vector<LogicalType> types) : types_(std::move(types)) {
  if (!Supports(types_)) throw InternalError("view stored rows: a nested column type");
  for (auto& type : types_) {
    Column column;
    column.type = type;
    column.is_string = type.id() == TypeId::VARCHAR;
    column.width = column.is_string ? 0 : type.PhysicalSize();
    columns_.push_back(std::move(column));
  }
  scratch_.Initialize(types_, 1);
}

void ViewStoredRows::Grow(Id id) {
  if (id < present_.size()) return;
  idx_t n = std::max<idx_t>(idx_t(id) + 1, present_.size() * 2);
  present_.resize(n, 0);
  file_.resize(n, 0);
  position_.resize(n, 0);
  for (auto& column : columns_) {
    column.valid.resize(n, 0);
    if (column.is_string) {
      column.strings.resize(n);
    } else {
      column.bytes.resize(n * column.width, 0);
    }
  }
}

void ViewStoredRows::Set(Id id, const Row& row, uint32_t file, uint32_t position) {
  if (row.size() != columns_.size()) throw InternalError("view stored rows: a row of the wrong width");
  scratch_.Reset();
  for (idx_t c = 0; c < row.size(); c++) scratch_.SetValue(c, 0, row[c]);  // casts to the column's type
  scratch_.SetCardinality(1);
  Set(id, scratch_, 0, file, position);
}

void ViewStoredRows::Set(Id id, const DataChunk& chunk, idx_t row, uint32_t file, uint32_t position) {
  Grow(id);
  for (idx_t c = 0; c < columns_.size(); c++) {
    Column& column = columns_[c];
    const Vector& in = chunk.data[c];
    bool valid = in.IsValid(row);
    column.valid[id] = valid ? 1 : 0;
    if (column.is_string) {
      if (valid) {
        column.strings[id].assign(in.GetData<string_t>()[row]);
      } else {
        column.strings[id].clear();
      }
    } else if (valid) {
      std::memcpy(column.bytes.data() + id * column.width, in.GetData<uint8_t>() + row * column.width, column.width);
    } else {
      std::memset(column.bytes.data() + id * column.width, 0, column.width);  // Equals compares whole cells
    }
  }
  if (!present_[id]) size_++;
  present_[id] = 1;
  file_[id] = file;
  position_[id] = position;
}

void ViewStoredRows::Erase(Id id) {
  if (!Has(id)) return;
  present_[id] = 0;
  size_--;
  for (auto& column : columns_) {
    if (column.is_string) std::string().swap(column.strings[id]);
  }
}

void ViewStoredRows::Clear() {
  present_.clear();
  file_.clear();
  position_.clear();
  for (auto& column : columns_) {
    column.bytes.clear();
    column.strings.clear();
    column.valid.clear();
  }
  size_ = 0;
  paths_.clear();
  path_ids_.clear();
}

bool ViewStoredRows::Equals(Id id, const DataChunk& chunk, idx_t row) const {
  for (idx_t c = 0; c < columns_.size(); c++) {
    const Column& column = columns_[c];
    const Vector& in = chunk.data[c];
    bool valid = in.IsValid(row);
    if (valid != (column.valid[id] != 0)) return false;
    if (!valid) continue;
    if (column.is_string) {
      if (column.strings[id] != in.GetData<string_t>()[row]) return false;
    } else if (std::memcmp(column.bytes.data() + id * column.width, in.GetData<uint8_t>() + row * column.width,
                           column.width) != 0) {
      return false;
    }
  }
  return true;
}

void ViewStoredRows::Gather(const std::vector<Id>& ids, ChunkCollection& out) const {
  for (idx_t start = 0; start < ids.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t count = std::min<idx_t>(STANDARD_VECTOR_SIZE, ids.size() - start);
    DataChunk chunk;
    chunk.Initialize(types_, count);
    for (idx_t c = 0; c < columns_.size(); c++) {
      const Column& column = columns_[c];
      Vector& v = chunk.data[c];
      uint8_t* valid = v.Validity();
      if (column.is_string) {
        auto* data = v.GetData<string_t>();
        for (idx_t r = 0; r < count; r++) {
          Id id = ids[start + r];
          valid[r] = column.valid[id];
          data[r] = valid[r] ? v.AddString(column.strings[id]) : string_t();
        }
        continue;
      }
      auto* data = v.GetData<uint8_t>();
      for (idx_t r = 0; r < count; r++) {
        Id id = ids[start + r];
        valid[r] = column.valid[id];
        std::memcpy(data + r * column.width, column.bytes.data() + id * column.width, column.width);
      }
    }
    chunk.SetCardinality(count);
    out.Append(std::move(chunk));
  }
}

uint32_t ViewStoredRows::PathId(const std::string& path) {
  auto [it, fresh] = path_ids_.try_emplace(path, static_cast<uint32_t>(paths_.size()));
  if (fresh) paths_.push_back(path);
  return it->second;
}

void ViewStoredRows::CompactPaths(idx_t live_files) {
  if (paths_.size() <= 64 + 2 * live_files) return;
  std::vector<std::string> old = std::move(paths_);
  paths_.clear();
  path_ids_.clear();
  for (Id id = 0; id < present_.size(); id++) {
    if (present_[id]) file_[id] = PathId(old[file_[id]]);
  }
}

}  // namespace lakestream
