// Vector: one column of up to `capacity` rows, stored flat (columnar) with a
// validity byte per row (1 = valid, 0 = NULL). See types.hpp for the physical
// layout of each type.
//
// A vector may share its row buffer with others (Reference): the buffer is
// reference counted, so a chunk that refers to a table's column keeps it
// alive, and is copied on write: every non-const accessor (GetData, Validity,
// SetValid, ...) first gives the vector a private copy when another vector
// shares the buffer. Read through a const Vector& where nothing is written,
// or the copy is made for nothing.
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

  // Write access: unshares the buffer first (see the top of this file).
  template <class T>
  T* GetData() {
    MakeWritable();
    return reinterpret_cast<T*>(data_);
  }
  template <class T>
  const T* GetData() const { return reinterpret_cast<const T*>(data_); }

  bool IsValid(idx_t row) const { return validity_[row] != 0; }
  void SetValid(idx_t row, bool valid) {
    MakeWritable();
    validity_[row] = valid ? 1 : 0;
  }
  uint8_t* Validity() {
    MakeWritable();
    return validity_;
  }
  const uint8_t* Validity() const { return validity_; }
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
  // Keeps `heap` alive as long as this vector lives. A structure holding many
  // vectors' heaps can pass one handle sharing its own ownership (the
  // aliasing constructor of std::shared_ptr) instead of every heap.
  void AddHeapReference(std::shared_ptr<StringHeap> heap);

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

  // Makes this vector hold other's rows without copying them: both share
  // other's buffers (nested types: their children's too) and string heaps
  // until one of them is written. Vectors of different types are not
  // shared: other's first `count` rows are converted (Copy).
  void Reference(const Vector& other, idx_t count);
  // Whether the row buffer is shared with another vector (Reference).
  bool BufferShared() const { return buffer_.use_count() > 1; }

  // Copies rows: for i in [0, count): this[dst_offset + i] = src[sel ? sel[i] : src_offset + i].
  // The vector grows when needed.
  void Copy(const Vector& src, const sel_t* sel, idx_t count, idx_t src_offset, idx_t dst_offset);

  // Drops all rows: validity and heap are reset (capacity kept).
  void Reset();

 private:
  // The rows' values and validity bytes; shared between vectors by Reference.
  struct Buffer {
    std::unique_ptr<uint8_t[]> data;  // null for types of width 0
    std::unique_ptr<uint8_t[]> validity;
    idx_t capacity = 0;
  };
  static std::shared_ptr<Buffer> NewBuffer(idx_t width, idx_t capacity);
  void Allocate(idx_t capacity);
  // Points data_/validity_/capacity_ at buffer_.
  void Attach(std::shared_ptr<Buffer> buffer);
  void MakeWritable() {
    if (buffer_.use_count() > 1 || capacity_ < own_capacity_) Unshare(true);
  }
  // Gives this vector a buffer of its own of at least own_capacity_ rows
  // (the spare one when it fits), copying the current rows when `keep_rows`.
  void Unshare(bool keep_rows);

  LogicalType type_;
  idx_t capacity_ = 0;
  // The capacity this vector was given (constructor, Resize): a referenced
  // buffer may be smaller, and writers count on this many rows.
  idx_t own_capacity_ = 0;
  std::shared_ptr<Buffer> buffer_;
  // This vector's own buffer while it refers to another's: reused when it
  // is written again, so chunk after chunk allocates nothing.
  std::shared_ptr<Buffer> spare_;
  uint8_t* data_ = nullptr;
  uint8_t* validity_ = nullptr;
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
