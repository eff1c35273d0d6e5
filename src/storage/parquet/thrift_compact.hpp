// A small hand-written Thrift compact-protocol codec, just enough for the
// Parquet footer and page headers (see docs/parquet.md for why not libthrift).
//
// TReader never reads past its buffer, never recurses deeper than kMaxDepth,
// and never reports a container size larger than the bytes left (every element
// takes at least one byte), so hostile input cannot make callers allocate more
// than the input size. After an error every read returns 0/empty and ok() is
// false; callers check ok() once at the end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lakestream::parquet {

enum class TType : uint8_t {
  STOP = 0, BOOL_TRUE = 1, BOOL_FALSE = 2, BYTE = 3, I16 = 4, I32 = 5, I64 = 6,
  DOUBLE = 7, BINARY = 8, LIST = 9, SET = 10, MAP = 11, STRUCT = 12,
};

class TReader {
 public:
  static constexpr int kMaxDepth = 64;
  TReader(const uint8_t* data, size_t size) : p_(data), begin_(data), end_(data + size) {}

  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  size_t consumed() const { return static_cast<size_t>(p_ - begin_); }
  void Fail(const char* what);

  // Struct framing. ReadFieldBegin returns false at STOP (or on error).
  void StructBegin();
  void StructEnd();
  bool ReadFieldBegin(int16_t& id, TType& type);
  // Value readers for a field of the given type.
  bool ReadBool(TType field_type);
  int32_t ReadI32();
  int64_t ReadI64();
  int8_t ReadByte();
  double ReadDouble();
  std::string_view ReadBinary();
  // List/set header; size is bounded by the remaining bytes.
  uint32_t ReadListBegin(TType& elem_type);
  // Element of a list of bools.
  void Skip(TType type);

 private:
  uint64_t ReadVarint();
  const uint8_t* p_;
  const uint8_t* begin_;
  const uint8_t* end_;
  int16_t last_id_ = 0;
  int16_t id_stack_[kMaxDepth + 1];
  int depth_ = 0;
  bool ok_ = true;
  std::string error_;
};

class TWriter {
 public:
  explicit TWriter(std::string& out) : out_(out) {}
  void StructBegin();
  void StructEnd();  // writes STOP
  void FieldBegin(int16_t id, TType type);
  void FieldI32(int16_t id, int32_t v) { FieldBegin(id, TType::I32); WriteVarint(Zigzag(v)); }
  void FieldI64(int16_t id, int64_t v) { FieldBegin(id, TType::I64); WriteVarint(Zigzag(v)); }
  void FieldBool(int16_t id, bool v) { FieldBegin(id, v ? TType::BOOL_TRUE : TType::BOOL_FALSE); }
  void FieldBinary(int16_t id, std::string_view v) { FieldBegin(id, TType::BINARY); WriteBinary(v); }
  void FieldByte(int16_t id, int8_t v) { FieldBegin(id, TType::BYTE); out_.push_back(static_cast<char>(v)); }
  void ListBegin(TType elem, uint32_t size);
  void WriteI32(int32_t v) { WriteVarint(Zigzag(v)); }
  void WriteBinary(std::string_view v);
  void WriteVarint(uint64_t v);
  // An empty struct as a field (for union members such as StringType).
  void FieldEmptyStruct(int16_t id) { FieldBegin(id, TType::STRUCT); StructBegin(); StructEnd(); }

 private:
  static uint64_t Zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
  std::string& out_;
  int16_t last_id_ = 0;
  int16_t id_stack_[TReader::kMaxDepth + 1];
  int depth_ = 0;
};

}  // namespace lakestream::parquet
