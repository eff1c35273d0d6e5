// Vector: one column of up to `capacity` rows, stored flat (columnar) with a
// validity byte per row (1 = valid, 0 = NULL). See types.hpp for the physical
// layout of each type.
//
// Strings live in StringHeaps. A vector owns its heap and may keep other
// vectors' heaps alive (AddHeapReference), so copying a string_t between
// vectors needs no byte copy as long as the source heap is referenced.
//
// DataChunk: a set of vectors of the same row count, the unit operators pass.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/types.hpp"
#include "common/value.hpp"

namespace lakestream {

using sel_t = uint32_t;

// Append-only arena; returned views stay valid for the heap's lifetime.
class StringHeap {
 public:
  string_t Add(std::string_view s);
  // Reserves `len` bytes, to be filled by the caller (for building strings in place).
  char* Allocate(idx_t len);
  // Forgets every string and keeps the largest block for the next Allocate
  // calls. Only for a heap nothing points into any more (see
  // Vector::HeapShared).
  void Recycle();

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  idx_t block_used_ = 0;
  idx_t block_size_ = 0;
};

class Vector {
 public:
  explicit Vector(LogicalType type, idx_t capacity = STANDARD_VECTOR_SIZE);
  Vector(Vector&&) = default;
  Vector& operator=(Vector&&) = default;
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;

  const LogicalType& GetType() const { return type_; }
  idx_t Capacity() const { return capacity_; }
  // Grows (never shrinks) keeping the rows already written.
  void Resize(idx_t new_capacity);

  template <class T>
  T* GetData() { return reinterpret_cast<T*>(data_.get()); }
  template <class T>
  const T* GetData() const { return reinterpret_cast<const T*>(data_.get()); }

  bool IsValid(idx_t row) const { return validity_[row] != 0; }
  void SetValid(idx_t row, bool valid) { validity_[row] = valid ? 1 : 0; }
  uint8_t* Validity() { return validity_.data(); }
  const uint8_t* Validity() const { return validity_.data(); }
  // Marks rows [0, count) valid.
  void SetAllValid(idx_t count);

  // Rows [0, count) all `value` and valid: a constant column.
  template <class T>
  void Fill(T value, idx_t count) {
    std::fill_n(GetData<T>(), count, value);
    SetAllValid(count);
  }
  // The same with one string, stored once in this vector's heap.
  void FillString(std::string_view s, idx_t count) { Fill(AddString(s), count); }

  // Copies `s` into this vector's heap.
  string_t AddString(std::string_view s);
  StringHeap& Heap();
  // Whether another vector keeps this vector's own heap alive (and so may
  // hold strings pointing into it).
  bool HeapShared() const { return heap_ && heap_.use_count() > 1; }
  // Keeps `other`'s string heaps alive as long as this vector lives.
  void AddHeapReference(const Vector& other);

  // STRUCT: one child per field; LIST/MAP: one child holding all elements.
  Vector& Child(idx_t i) { return *children_[i]; }
  const Vector& Child(idx_t i) const { return *children_[i]; }
  idx_t ChildCount() const { return children_.size(); }
  // LIST/MAP: number of element rows used in the child vector.
  idx_t ListSize() const { return list_size_; }
  // LIST/MAP: appends one element to the child (growing it) and returns its row.
  idx_t ListAppendElement(const Value& element);
  void SetListSize(idx_t size) { list_size_ = size; }

  Value GetValue(idx_t row) const;
  void SetValue(idx_t row, const Value& input);

  // Copies rows: for i in [0, count): this[dst_offset + i] = src[sel ? sel[i] : src_offset + i].
  // The vector grows when needed.
  void Copy(const Vector& src, const sel_t* sel, idx_t count, idx_t src_offset, idx_t dst_offset);

  // Drops all rows: validity and heap are reset (capacity kept).
  void Reset();

 private:
  void Allocate(idx_t capacity);

  LogicalType type_;
  idx_t capacity_ = 0;
  std::unique_ptr<uint8_t[]> data_;
  std::vector<uint8_t> validity_;
  std::shared_ptr<StringHeap> heap_;
  std::vector<std::shared_ptr<StringHeap>> foreign_heaps_;
  std::vector<std::unique_ptr<Vector>> children_;
  idx_t list_size_ = 0;
};

class DataChunk {
 public:
  DataChunk() = default;
  DataChunk(DataChunk&&) = default;
  DataChunk& operator=(DataChunk&&) = default;

  void Initialize(const std::vector<LogicalType>& types, idx_t capacity = STANDARD_VECTOR_SIZE);
  idx_t size() const { return count_; }
  void SetCardinality(idx_t count) { count_ = count; }
  idx_t ColumnCount() const { return data.size(); }
  std::vector<LogicalType> GetTypes() const;

  Value GetValue(idx_t col, idx_t row) const { return data[col].GetValue(row); }
  void SetValue(idx_t col, idx_t row, const Value& v) { data[col].SetValue(row, v); }

  // size = 0 and every vector reset; types and capacity kept.
  void Reset();
  // Appends other's rows (all, or the `count` rows named by `sel`) after this chunk's rows.
  void Append(const DataChunk& other, const sel_t* sel = nullptr, idx_t count = 0);
  // Rows as text, for debugging.
  std::string ToString() const;

  std::vector<Vector> data;

 private:
  idx_t count_ = 0;
};

}  // namespace lakestream
