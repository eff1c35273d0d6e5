#include "common/vector_operations.hpp"

#include <cmath>
#include <cstring>
#include <string_view>

#include "common/exception.hpp"
#include "common/interval.hpp"

namespace lakestream {

static constexpr uint64_t kNullHash = 0xbf58476d1ce4e5b9ULL;

static inline uint64_t HashBytes(const void* data, size_t len) {
  // FNV-1a, then mixed; good enough for keys, and stable across runs.
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return MixHash(h);
}

template <class T>
static inline uint64_t HashValue(const T& v) {
  if constexpr (sizeof(T) <= 8) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return MixHash(bits + 0x9e3779b97f4a7c15ULL);
  } else {
    return HashBytes(&v, sizeof(T));
  }
}

static inline uint64_t HashValue(const string_t& s) { return HashBytes(s.data(), s.size()); }

static inline uint64_t HashValue(const double& d) {
  double v = d == 0.0 ? 0.0 : d;  // -0.0 groups with 0.0
  if (std::isnan(v)) v = NAN;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return MixHash(bits + 0x9e3779b97f4a7c15ULL);
}

template <class T>
static void HashLoop(const Vector& v, idx_t count, uint64_t* hashes, bool combine) {
  const T* data = v.GetData<T>();
  const uint8_t* valid = v.Validity();
  for (idx_t i = 0; i < count; i++) {
    uint64_t h = valid[i] ? HashValue(data[i]) : kNullHash;
    hashes[i] = combine ? MixHash(hashes[i] * 31 + h) : h;
  }
}

void HashVector(const Vector& v, idx_t count, uint64_t* hashes, bool combine) {
  switch (v.GetType().id()) {
    case TypeId::BOOLEAN: return HashLoop<bool>(v, count, hashes, combine);
    case TypeId::INTEGER:
    case TypeId::DATE: return HashLoop<int32_t>(v, count, hashes, combine);
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return HashLoop<int64_t>(v, count, hashes, combine);
    case TypeId::DOUBLE: return HashLoop<double>(v, count, hashes, combine);
    case TypeId::DECIMAL: return HashLoop<hugeint_t>(v, count, hashes, combine);
    case TypeId::VARCHAR: return HashLoop<string_t>(v, count, hashes, combine);
    default: {
      std::string key;
      for (idx_t i = 0; i < count; i++) {
        key.clear();
        EncodeKey(v, i, key);
        uint64_t h = HashBytes(key.data(), key.size());
        hashes[i] = combine ? MixHash(hashes[i] * 31 + h) : h;
      }
    }
  }
}

template <class T>
static bool RowEqual(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  bool va = a.IsValid(ra), vb = b.IsValid(rb);
  if (!va || !vb) return va == vb;
  return a.GetData<T>()[ra] == b.GetData<T>()[rb];
}

static bool RowEqualDouble(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  bool va = a.IsValid(ra), vb = b.IsValid(rb);
  if (!va || !vb) return va == vb;
  double x = a.GetData<double>()[ra], y = b.GetData<double>()[rb];
  return x == y || (std::isnan(x) && std::isnan(y));
}

static bool RowEqualGeneric(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  return a.GetValue(ra) == b.GetValue(rb);
}

row_equal_t GetRowEqualFunction(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return RowEqual<bool>;
    case TypeId::INTEGER:
    case TypeId::DATE: return RowEqual<int32_t>;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return RowEqual<int64_t>;
    case TypeId::DOUBLE: return RowEqualDouble;
    case TypeId::DECIMAL: return RowEqual<hugeint_t>;
    case TypeId::VARCHAR: return RowEqual<string_t>;
    default: return RowEqualGeneric;
  }
}

template <class T>
static int RowCompare(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  const T& x = a.GetData<T>()[ra];
  const T& y = b.GetData<T>()[rb];
  return x < y ? -1 : (y < x ? 1 : 0);
}

static int RowCompareDouble(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  double x = a.GetData<double>()[ra], y = b.GetData<double>()[rb];
  bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx || ny) return nx == ny ? 0 : (nx ? 1 : -1);  // NaN sorts above every number
  return x < y ? -1 : (y < x ? 1 : 0);
}

static int RowCompareGeneric(const Vector& a, idx_t ra, const Vector& b, idx_t rb) {
  return a.GetValue(ra).Compare(b.GetValue(rb));
}

row_compare_t GetRowCompareFunction(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::BOOLEAN: return RowCompare<bool>;
    case TypeId::INTEGER:
    case TypeId::DATE: return RowCompare<int32_t>;
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return RowCompare<int64_t>;
    case TypeId::DOUBLE: return RowCompareDouble;
    case TypeId::DECIMAL: return RowCompare<hugeint_t>;
    case TypeId::VARCHAR: return RowCompare<string_t>;
    default: return RowCompareGeneric;
  }
}

void EncodeKey(const Vector& v, idx_t row, std::string& out) {
  if (!v.IsValid(row)) {
    out.push_back('\0');
    return;
  }
  out.push_back('\1');
  const LogicalType& type = v.GetType();
  switch (type.id()) {
    case TypeId::VARCHAR: {
      string_t s = v.GetData<string_t>()[row];
      uint32_t len = static_cast<uint32_t>(s.size());
      out.append(reinterpret_cast<const char*>(&len), sizeof(len));
      out.append(s.data(), s.size());
      return;
    }
    case TypeId::DOUBLE: {
      double d = v.GetData<double>()[row];
      if (d == 0.0) d = 0.0;
      if (std::isnan(d)) d = NAN;
      out.append(reinterpret_cast<const char*>(&d), sizeof(d));
      return;
    }
    case TypeId::INTERVAL: {
      // Equal intervals ('1 month', '30 days') must group together.
      hugeint_t key = Interval::Normalize(v.GetData<interval_t>()[row]);
      out.append(reinterpret_cast<const char*>(&key), sizeof(key));
      return;
    }
    case TypeId::STRUCT:
      for (idx_t c = 0; c < v.ChildCount(); c++) EncodeKey(v.Child(c), row, out);
      return;
    case TypeId::LIST:
    case TypeId::MAP: {
      auto entry = v.GetData<list_entry_t>()[row];
      out.append(reinterpret_cast<const char*>(&entry.length), sizeof(entry.length));
      for (idx_t i = 0; i < entry.length; i++) EncodeKey(v.Child(0), entry.offset + i, out);
      return;
    }
    default: {
      idx_t width = type.PhysicalSize();
      out.append(reinterpret_cast<const char*>(v.GetData<uint8_t>() + row * width), width);
    }
  }
}

}  // namespace lakestream
