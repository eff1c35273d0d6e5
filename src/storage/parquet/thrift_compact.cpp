#include "storage/parquet/thrift_compact.hpp"

#include <cstring>

namespace lakestream::parquet {

void TReader::Fail(const char* what) {
  if (ok_) {
    ok_ = false;
    error_ = what;
  }
  p_ = end_;
}

uint64_t TReader::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (p_ >= end_) {
      Fail("truncated varint");
      return 0;
    }
    uint8_t b = *p_++;
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return result;
  }
  Fail("varint too long");
  return 0;
}

void TReader::StructBegin() {
  if (depth_ >= kMaxDepth) {
    Fail("thrift nesting too deep");
    return;
  }
  id_stack_[depth_++] = last_id_;
  last_id_ = 0;
}

void TReader::StructEnd() {
  if (depth_ > 0) last_id_ = id_stack_[--depth_];
}

bool TReader::ReadFieldBegin(int16_t& id, TType& type) {
  if (!ok_) return false;
  if (p_ >= end_) {
    Fail("truncated struct");
    return false;
  }
  uint8_t b = *p_++;
  type = static_cast<TType>(b & 0x0f);
  if (type == TType::STOP) return false;
  if (static_cast<uint8_t>(type) > 12) {
    Fail("bad thrift field type");
    return false;
  }
  uint8_t delta = b >> 4;
  if (delta != 0) {
    id = static_cast<int16_t>(last_id_ + delta);
  } else {
    uint64_t z = ReadVarint();
    id = static_cast<int16_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  last_id_ = id;
  return ok_;
}

bool TReader::ReadBool(TType field_type) { return field_type == TType::BOOL_TRUE; }

int32_t TReader::ReadI32() {
  uint64_t z = ReadVarint();
  return static_cast<int32_t>(static_cast<uint32_t>((z >> 1) ^ (~(z & 1) + 1)));
}

int64_t TReader::ReadI64() {
  uint64_t z = ReadVarint();
  return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
}

int8_t TReader::ReadByte() {
  if (p_ >= end_) {
    Fail("truncated byte");
    return 0;
  }
  return static_cast<int8_t>(*p_++);
}

double TReader::ReadDouble() {
  if (end_ - p_ < 8) {
    Fail("truncated double");
    return 0;
  }
  double d;
  std::memcpy(&d, p_, 8);
  p_ += 8;
  return d;
}

std::string_view TReader::ReadBinary() {
  uint64_t len = ReadVarint();
  if (!ok_) return {};
  if (len > static_cast<uint64_t>(end_ - p_)) {
    Fail("thrift string length past the end of its buffer");
    return {};
  }
  std::string_view v(reinterpret_cast<const char*>(p_), len);
  p_ += len;
  return v;
}

uint32_t TReader::ReadListBegin(TType& elem_type) {
  if (p_ >= end_) {
    Fail("truncated list");
    return 0;
  }
  uint8_t b = *p_++;
  elem_type = static_cast<TType>(b & 0x0f);
  uint64_t size = b >> 4;
  if (size == 15) size = ReadVarint();
  if (!ok_) return 0;
  if (size > static_cast<uint64_t>(end_ - p_)) {
    Fail("thrift list size past the end of its buffer");
    return 0;
  }
  return static_cast<uint32_t>(size);
}


void TReader::Skip(TType type) {
  if (!ok_) return;
  switch (type) {
    case TType::BOOL_TRUE:
    case TType::BOOL_FALSE: return;
    case TType::BYTE: ReadByte(); return;
    case TType::I16:
    case TType::I32:
    case TType::I64: ReadVarint(); return;
    case TType::DOUBLE: ReadDouble(); return;
    case TType::BINARY: ReadBinary(); return;
    case TType::LIST:
    case TType::SET: {
      TType et;
      uint32_t n = ReadListBegin(et);
      if (depth_ >= kMaxDepth) return Fail("thrift nesting too deep");
      depth_++;
      for (uint32_t i = 0; i < n && ok_; i++) {
        if (et == TType::BOOL_TRUE || et == TType::BOOL_FALSE) ReadByte();
        else Skip(et);
      }
      depth_--;
      return;
    }
    case TType::MAP: {
      uint64_t n = ReadVarint();
      if (n > static_cast<uint64_t>(end_ - p_)) return Fail("thrift map size past the end of its buffer");
      if (n == 0) return;
      uint8_t kv = static_cast<uint8_t>(ReadByte());
      TType kt = static_cast<TType>(kv >> 4), vt = static_cast<TType>(kv & 0x0f);
      if (depth_ >= kMaxDepth) return Fail("thrift nesting too deep");
      depth_++;
      for (uint64_t i = 0; i < n && ok_; i++) {
        if (kt == TType::BOOL_TRUE || kt == TType::BOOL_FALSE) ReadByte(); else Skip(kt);
        if (vt == TType::BOOL_TRUE || vt == TType::BOOL_FALSE) ReadByte(); else Skip(vt);
      }
      depth_--;
      return;
    }
    case TType::STRUCT: {
      StructBegin();
      int16_t id;
      TType ft;
      while (ok_ && ReadFieldBegin(id, ft)) Skip(ft);
      StructEnd();
      return;
    }
    default: Fail("bad thrift type"); return;
  }
}

// ---- writer ----

void TWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void TWriter::StructBegin() {
  id_stack_[depth_++] = last_id_;
  last_id_ = 0;
}

void TWriter::StructEnd() {
  out_.push_back(0);
  last_id_ = id_stack_[--depth_];
}

void TWriter::FieldBegin(int16_t id, TType type) {
  int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_.push_back(static_cast<char>(type));
    WriteVarint(Zigzag(id));
  }
  last_id_ = id;
}

void TWriter::ListBegin(TType elem, uint32_t size) {
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | static_cast<uint8_t>(elem)));
  } else {
    out_.push_back(static_cast<char>(0xf0 | static_cast<uint8_t>(elem)));
    WriteVarint(size);
  }
}

void TWriter::WriteBinary(std::string_view v) {
  WriteVarint(v.size());
  out_.append(v.data(), v.size());
}

}  // namespace lakestream::parquet
