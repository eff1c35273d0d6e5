// The rows an aggregate view stores, by the id of their group in the view's
// state (ViewAggregateState::GroupId), kept column by column in typed cells:
// what a refresh of a view whose columns are its GROUP BY keys and
// aggregates (aggregate_maintainer.hpp) compares its new rows against, takes
// the removed rows' values from (change data) and finds their row ids with,
// without a Value per cell or a lookup by encoded key.
//
// A row is its values and its place: a file (index into Paths()) and its
// position in that file. Only flat column types are kept (Supports()); a
// view with a nested column keeps its rows by encoded key instead.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/chunk_collection.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"

namespace lakestream {

using Row = std::vector<Value>;

class ViewStoredRows {
 public:
  using Id = uint32_t;

  // Whether rows of these column types can be kept (no STRUCT, LIST or MAP).
  static bool Supports(const std::vector<LogicalType>& types);
  explicit ViewStoredRows(std::vector<LogicalType> types);

  const std::vector<LogicalType>& Types() const { return types_; }
  bool Has(Id id) const { return id < present_.size() && present_[id] != 0; }
  uint32_t File(Id id) const { return file_[id]; }
  uint32_t Position(Id id) const { return position_[id]; }
  idx_t Size() const { return size_; }

  // Keeps `row` (in the view's columns) as row `id`'s, at `file`/`position`.
  void Set(Id id, const Row& row, uint32_t file, uint32_t position);
  // The same with row `row` of `chunk` (the view's columns).
  void Set(Id id, const DataChunk& chunk, idx_t row, uint32_t file, uint32_t position);
  void Erase(Id id);
  void Clear();

  // Whether row `id` holds the same values as row `row` of `chunk` (cells
  // compared by their bytes: a double differing only in the sign of zero
  // or in a NaN's payload counts as changed).
  bool Equals(Id id, const DataChunk& chunk, idx_t row) const;
  // Appends rows `ids` (each kept) to `out`, in that order.
  void Gather(const std::vector<Id>& ids, ChunkCollection& out) const;

  // Data file paths by index (File()).
  const std::vector<std::string>& Paths() const { return paths_; }
  uint32_t PathId(const std::string& path);
  // Renumbers the files when many of them no longer hold a row (each
  // refresh's commit adds one): at most `live_files` + 64 paths stay.
  void CompactPaths(idx_t live_files);

 private:
  // One column's cells: fixed-width bytes (`width` per row) and validity;
  // VARCHAR values in `strings` instead.
  struct Column {
    LogicalType type;
    idx_t width = 0;
    bool is_string = false;
    std::vector<uint8_t> bytes;
    std::vector<std::string> strings;
    std::vector<uint8_t> valid;
  };
  void Grow(Id id);

  std::vector<LogicalType> types_;
  std::vector<Column> columns_;
  std::vector<uint8_t> present_;
  std::vector<uint32_t> file_;
  std::vector<uint32_t> position_;
  idx_t size_ = 0;
  std::vector<std::string> paths_;
  std::unordered_map<std::string, uint32_t> path_ids_;
  DataChunk scratch_;  // one row, for Set(Row)
};

}  // namespace lakestream
