#include "common/vector.hpp"

#include <algorithm>
#include <sstream>

#include "common/exception.hpp"

namespace lakestream {

// ---- StringHeap ----

char* StringHeap::Allocate(idx_t len) {
  if (blocks_.empty() || block_used_ + len > block_size_) {
    idx_t size = std::max<idx_t>(len, block_size_ == 0 ? 4096 : std::min<idx_t>(block_size_ * 2, 1 << 20));
    blocks_.push_back(std::unique_ptr<char[]>(new char[size]));  // no zero-fill: every byte is written before use
    block_size_ = size;
    block_used_ = 0;
  }
  char* ptr = blocks_.back().get() + block_used_;
  block_used_ += len;
  return ptr;
}

void StringHeap::Recycle() {
  if (blocks_.size() > 1) {
    // Blocks grow geometrically: the last is the largest.
    std::unique_ptr<char[]> largest = std::move(blocks_.back());
    blocks_.clear();
    blocks_.push_back(std::move(largest));
  }
  block_used_ = 0;
}

string_t StringHeap::Add(std::string_view s) {
  // A non-null pointer even for "": callers may memcpy from it.
  static const char kEmpty[] = "";
  if (s.empty()) return string_t(kEmpty, 0);  // NOLINT(bugprone-string-constructor): empty on purpose, non-null data
  char* ptr = Allocate(s.size());
  std::memcpy(ptr, s.data(), s.size());
  return string_t(ptr, s.size());
}

// ---- Vector ----

Vector::Vector(LogicalType type, idx_t capacity) : type_(std::move(type)) {
  if (type_.id() == TypeId::STRUCT) {
    for (auto& [name, child_type] : type_.children()) {
      children_.push_back(std::make_unique<Vector>(child_type, capacity));
    }
  } else if (type_.id() == TypeId::LIST || type_.id() == TypeId::MAP) {
    children_.push_back(std::make_unique<Vector>(type_.ListChild(), capacity));
  }
  Allocate(capacity);
}

void Vector::Attach(std::shared_ptr<Buffer> buffer) {
  buffer_ = std::move(buffer);
  data_ = buffer_->data.get();
  validity_ = buffer_->validity.get();
  capacity_ = buffer_->capacity;
}

std::shared_ptr<Vector::Buffer> Vector::NewBuffer(idx_t width, idx_t capacity) {
  auto buffer = std::make_shared<Vector::Buffer>();
  // Not zero-filled: a slot is written before it is read, and NULL slots are never read.
  if (width > 0) buffer->data.reset(new uint8_t[width * capacity]);
  buffer->validity.reset(new uint8_t[capacity]);
  std::memset(buffer->validity.get(), 1, capacity);
  buffer->capacity = capacity;
  return buffer;
}

void Vector::Allocate(idx_t capacity) {
  own_capacity_ = std::max<idx_t>(capacity, 1);
  Attach(NewBuffer(type_.PhysicalSize(), own_capacity_));
}

void Vector::Resize(idx_t new_capacity) {
  if (new_capacity <= capacity_) return;
  idx_t width = type_.PhysicalSize();
  auto fresh = NewBuffer(width, new_capacity);
  if (width > 0) std::memcpy(fresh->data.get(), data_, width * capacity_);
  std::memcpy(fresh->validity.get(), validity_, capacity_);
  spare_.reset();
  Attach(std::move(fresh));
  own_capacity_ = std::max(own_capacity_, new_capacity);
  if (type_.id() == TypeId::STRUCT) {
    for (auto& child : children_) child->Resize(new_capacity);
  }
}

void Vector::Unshare(bool keep_rows) {
  idx_t width = type_.PhysicalSize();
  idx_t needed = std::max(capacity_, own_capacity_);
  std::shared_ptr<Buffer> own;
  if (spare_ && spare_->capacity >= needed) {
    own = std::move(spare_);
  } else {
    own = NewBuffer(width, needed);
    spare_.reset();
  }
  if (keep_rows) {
    if (width > 0) std::memcpy(own->data.get(), data_, width * capacity_);
    std::memcpy(own->validity.get(), validity_, capacity_);
  }
  // Rows past the kept ones are valid, as in a fresh vector.
  if (own->capacity > capacity_) std::memset(own->validity.get() + capacity_, 1, own->capacity - capacity_);
  Attach(std::move(own));
}

void Vector::Reference(const Vector& other, idx_t count) {
  if (&other == this) return;
  if (other.type_ != type_) {
    Reset();
    Copy(other, nullptr, count, 0, 0);
    return;
  }
  if (other.buffer_ != buffer_) {
    if (!spare_ && buffer_.use_count() == 1) spare_ = std::move(buffer_);
    Attach(other.buffer_);
  }
  heap_.reset();
  foreign_heaps_.clear();
  if (type_.id() == TypeId::VARCHAR) AddHeapReference(other);
  list_size_ = other.list_size_;
  for (idx_t i = 0; i < children_.size(); i++) children_[i]->Reference(*other.children_[i], other.children_[i]->capacity_);
}

void Vector::SetAllValid(idx_t count) {
  MakeWritable();
  std::memset(validity_, 1, std::min(count, capacity_));
}

StringHeap& Vector::Heap() {
  if (!heap_) heap_ = std::make_shared<StringHeap>();
  return *heap_;
}

string_t Vector::AddString(std::string_view s) { return Heap().Add(s); }

void Vector::AddHeapReference(const Vector& other) {
  if (&other == this) return;
  if (!heap_ && foreign_heaps_.empty()) {
    // Nothing to deduplicate against: take other's heaps wholesale (O(n), not O(n^2)).
    if (other.heap_) foreign_heaps_.push_back(other.heap_);
    foreign_heaps_.insert(foreign_heaps_.end(), other.foreign_heaps_.begin(), other.foreign_heaps_.end());
    return;
  }
  if (other.heap_) {
    bool present = other.heap_ == heap_ ||
                   std::find(foreign_heaps_.begin(), foreign_heaps_.end(), other.heap_) != foreign_heaps_.end();
    if (!present) foreign_heaps_.push_back(other.heap_);
  }
  for (auto& h : other.foreign_heaps_) {
    if (h != heap_ && std::find(foreign_heaps_.begin(), foreign_heaps_.end(), h) == foreign_heaps_.end()) {
      foreign_heaps_.push_back(h);
    }
  }
}

void Vector::AddHeapReference(std::shared_ptr<StringHeap> heap) {
  if (heap == heap_ || std::find(foreign_heaps_.begin(), foreign_heaps_.end(), heap) != foreign_heaps_.end()) return;
  foreign_heaps_.push_back(std::move(heap));
}

idx_t Vector::ListAppendElement(const Value& element) {
  Vector& child = *children_[0];
  if (list_size_ >= child.Capacity()) child.Resize(std::max<idx_t>(list_size_ * 2, STANDARD_VECTOR_SIZE));
  child.SetValue(list_size_, element);
  return list_size_++;
}

Value Vector::GetValue(idx_t row) const {
  if (!IsValid(row)) return Value(type_);
  switch (type_.id()) {
    case TypeId::BOOLEAN: return Value::BOOLEAN(GetData<bool>()[row]);
    case TypeId::INTEGER: return Value::INTEGER(GetData<int32_t>()[row]);
    case TypeId::BIGINT: return Value::BIGINT(GetData<int64_t>()[row]);
    case TypeId::DOUBLE: return Value::DOUBLE(GetData<double>()[row]);
    case TypeId::DECIMAL: return Value::DECIMAL(GetData<hugeint_t>()[row], type_.width(), type_.scale());
    case TypeId::VARCHAR: return Value::VARCHAR(std::string(GetData<string_t>()[row]));
    case TypeId::DATE: return Value::DATE(GetData<date_t>()[row]);
    case TypeId::TIMESTAMP: return Value::TIMESTAMP(GetData<timestamp_t>()[row]);
    case TypeId::TIMESTAMP_NTZ: return Value::TIMESTAMP_NTZ(GetData<timestamp_t>()[row]);
    case TypeId::INTERVAL: return Value::INTERVAL(GetData<interval_t>()[row]);
    case TypeId::SQLNULL: return Value();
    case TypeId::STRUCT: {
      std::vector<Value> fields;
      for (auto& child : children_) fields.push_back(child->GetValue(row));
      return Value::STRUCT(type_, std::move(fields));
    }
    case TypeId::LIST:
    case TypeId::MAP: {
      auto entry = GetData<list_entry_t>()[row];
      std::vector<Value> elements;
      for (idx_t i = 0; i < entry.length; i++) elements.push_back(children_[0]->GetValue(entry.offset + i));
      return Value::LIST(type_, std::move(elements));
    }
    case TypeId::INVALID: break;
  }
  throw InternalError("GetValue on a vector of type " + type_.ToString());
}

void Vector::SetValue(idx_t row, const Value& input) {
  if (input.IsNull()) {
    SetValid(row, false);
    return;
  }
  const Value& v = input.type() == type_ ? input : input.CastAs(type_);
  SetValid(row, true);
  switch (type_.id()) {
    case TypeId::BOOLEAN: GetData<bool>()[row] = v.GetBoolean(); return;
    case TypeId::INTEGER: GetData<int32_t>()[row] = v.GetInteger(); return;
    case TypeId::BIGINT: GetData<int64_t>()[row] = v.GetBigint(); return;
    case TypeId::DOUBLE: GetData<double>()[row] = v.GetDouble(); return;
    case TypeId::DECIMAL: GetData<hugeint_t>()[row] = v.GetHugeint(); return;
    case TypeId::VARCHAR: GetData<string_t>()[row] = AddString(v.GetString()); return;
    case TypeId::DATE: GetData<date_t>()[row] = v.GetDate(); return;
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: GetData<timestamp_t>()[row] = v.GetTimestamp(); return;
    case TypeId::INTERVAL: GetData<interval_t>()[row] = v.GetInterval(); return;
    case TypeId::STRUCT:
      for (idx_t i = 0; i < children_.size(); i++) children_[i]->SetValue(row, v.Children()[i]);
      return;
    case TypeId::LIST:
    case TypeId::MAP: {
      list_entry_t entry{list_size_, v.Children().size()};
      for (auto& element : v.Children()) ListAppendElement(element);
      GetData<list_entry_t>()[row] = entry;
      return;
    }
    default: break;
  }
  throw InternalError("SetValue on a vector of type " + type_.ToString());
}

// Same-typed rows, nested ones child vector by child vector rather than
// through a Value per row (nested JSON ingestion copies every row). `mask`
// (per copied row, may be null) is the validity of the enclosing STRUCT: under
// a NULL struct the fields' slots were never written, so they are not read.
static void CopyRows(Vector& dst, const Vector& src, const sel_t* sel, idx_t count, idx_t src_offset, idx_t dst_offset,
                     const uint8_t* mask) {
  if (!dst.GetType().IsNested()) {
    dst.Copy(src, sel, count, src_offset, dst_offset);
    for (idx_t i = 0; mask && i < count; i++) {
      if (!mask[i]) dst.SetValid(dst_offset + i, false);
    }
    return;
  }
  if (dst_offset + count > dst.Capacity()) dst.Resize(std::max(dst_offset + count, dst.Capacity() * 2));
  std::vector<uint8_t> valid(count);
  for (idx_t i = 0; i < count; i++) {
    valid[i] = src.IsValid(sel ? sel[i] : src_offset + i) && (!mask || mask[i]) ? 1 : 0;
    dst.SetValid(dst_offset + i, valid[i] != 0);
  }
  if (dst.GetType().id() == TypeId::STRUCT) {
    for (idx_t c = 0; c < dst.ChildCount(); c++) {
      CopyRows(dst.Child(c), src.Child(c), sel, count, src_offset, dst_offset, valid.data());
    }
    return;
  }
  // LIST / MAP: each valid row's elements appended to the destination's child.
  const auto* entries = src.GetData<list_entry_t>();
  auto* out = dst.GetData<list_entry_t>();
  idx_t size = dst.ListSize();
  for (idx_t i = 0; i < count; i++) {
    list_entry_t entry = valid[i] ? entries[sel ? sel[i] : src_offset + i] : list_entry_t{0, 0};
    out[dst_offset + i] = list_entry_t{size, entry.length};
    if (entry.length > 0) CopyRows(dst.Child(0), src.Child(0), nullptr, entry.length, entry.offset, size, nullptr);
    size += entry.length;
  }
  dst.SetListSize(size);
}

namespace {
struct Bytes16 {
  uint64_t lo, hi;
};
template <class T>
void GatherRows(uint8_t* dst, const uint8_t* src, const sel_t* sel, idx_t count, idx_t dst_offset) {
  auto* out = reinterpret_cast<T*>(dst) + dst_offset;
  const auto* in = reinterpret_cast<const T*>(src);
  for (idx_t i = 0; i < count; i++) std::memcpy(out + i, in + sel[i], sizeof(T));
}
}  // namespace

void Vector::Copy(const Vector& src, const sel_t* sel, idx_t count, idx_t src_offset, idx_t dst_offset) {
  MakeWritable();
  if (dst_offset + count > capacity_) Resize(std::max(dst_offset + count, capacity_ * 2));
  // Values one by one between types, or within one nested vector (whose
  // child may move while it grows).
  if (src.type_ != type_ || (type_.IsNested() && &src == this)) {
    for (idx_t i = 0; i < count; i++) SetValue(dst_offset + i, src.GetValue(sel ? sel[i] : src_offset + i));
    return;
  }
  if (type_.IsNested()) {
    CopyRows(*this, src, sel, count, src_offset, dst_offset, nullptr);
    return;
  }
  idx_t width = type_.PhysicalSize();
  if (type_.id() == TypeId::VARCHAR) AddHeapReference(src);
  if (sel) {
    for (idx_t i = 0; i < count; i++) validity_[dst_offset + i] = src.validity_[sel[i]];
    // One typed loop per width: a memcpy call per row (the width not being a
    // constant) made selective filters bound by the calls.
    switch (width) {
      case 1: GatherRows<uint8_t>(data_, src.data_, sel, count, dst_offset); break;
      case 2: GatherRows<uint16_t>(data_, src.data_, sel, count, dst_offset); break;
      case 4: GatherRows<uint32_t>(data_, src.data_, sel, count, dst_offset); break;
      case 8: GatherRows<uint64_t>(data_, src.data_, sel, count, dst_offset); break;
      case 16: GatherRows<Bytes16>(data_, src.data_, sel, count, dst_offset); break;
      default:
        for (idx_t i = 0; i < count; i++) {
          std::memcpy(data_ + (dst_offset + i) * width, src.data_ + sel[i] * width, width);
        }
    }
  } else {
    std::memcpy(validity_ + dst_offset, src.validity_ + src_offset, count);
    if (width > 0) std::memcpy(data_ + dst_offset * width, src.data_ + src_offset * width, count * width);
  }
}

void Vector::Reset() {
  if (BufferShared() || capacity_ < own_capacity_) Unshare(false);
  std::memset(validity_, 1, capacity_);
  heap_.reset();
  foreign_heaps_.clear();
  list_size_ = 0;
  for (auto& child : children_) child->Reset();
}

// ---- DataChunk ----

void DataChunk::Initialize(const std::vector<LogicalType>& types, idx_t capacity) {
  data.clear();
  data.reserve(types.size());
  for (auto& t : types) data.emplace_back(t, capacity);
  count_ = 0;
}

std::vector<LogicalType> DataChunk::GetTypes() const {
  std::vector<LogicalType> types;
  for (auto& v : data) types.push_back(v.GetType());
  return types;
}

void DataChunk::Reset() {
  for (auto& v : data) v.Reset();
  count_ = 0;
}

void DataChunk::Append(const DataChunk& other, const sel_t* sel, idx_t count) {
  idx_t n = sel ? count : other.size();
  for (idx_t c = 0; c < data.size(); c++) data[c].Copy(other.data[c], sel, n, 0, count_);
  count_ += n;
}

std::string DataChunk::ToString() const {
  std::ostringstream out;
  for (idx_t r = 0; r < count_; r++) {
    for (idx_t c = 0; c < data.size(); c++) {
      if (c) out << '\t';
      out << data[c].GetValue(r).ToString();
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace lakestream
