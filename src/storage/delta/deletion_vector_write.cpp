// Writing deletion vectors: the encoder beside deletion_vector.cpp's decoder
// (the grammar is in deletion_vector.hpp).
#include <zlib.h>

#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#include "storage/delta/deletion_vector.hpp"
#include "storage/delta/deletion_vector_format.hpp"

namespace lakestream::delta {

namespace {

using namespace dv_format;  // NOLINT(google-build-using-namespace): the format's constants, read throughout

void PutLE(std::string& out, uint64_t v, int width) {
  for (int i = 0; i < width; i++) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void PutBE32(std::string& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>((v >> s) & 0xFF));
}

// One standard 32-bit Roaring bitmap of the low 32 bits of rows[begin, end).
void EncodeRoaring32(const std::vector<uint64_t>& rows, size_t begin, size_t end, std::string& out) {
  struct Container {
    uint16_t key;
    size_t begin, end;
  };
  std::vector<Container> containers;
  for (size_t i = begin; i < end;) {
    auto key = static_cast<uint16_t>((rows[i] >> 16) & 0xFFFF);
    size_t j = i;
    while (j < end && ((rows[j] >> 16) & 0xFFFF) == key) j++;
    containers.push_back({key, i, j});
    i = j;
  }
  auto n = static_cast<uint32_t>(containers.size());
  PutLE(out, kSerialCookieNoRun, 4);
  PutLE(out, n, 4);
  for (auto& c : containers) {
    PutLE(out, c.key, 2);
    PutLE(out, c.end - c.begin - 1, 2);
  }
  // Offsets count from the cookie: the header is 8 bytes plus 8 per container.
  uint32_t offset = 8 + 8 * n;
  for (auto& c : containers) {
    PutLE(out, offset, 4);
    size_t card = c.end - c.begin;
    offset += card <= kMaxArrayCardinality ? static_cast<uint32_t>(2 * card) : 8192;
  }
  for (auto& c : containers) {
    size_t card = c.end - c.begin;
    if (card <= kMaxArrayCardinality) {
      // Written in place: a refresh re-encodes a large file's whole vector each time.
      size_t at = out.size();
      out.resize(at + 2 * card);
      char* p = out.data() + at;
      for (size_t i = c.begin; i < c.end; i++, p += 2) {
        p[0] = static_cast<char>(rows[i] & 0xFF);
        p[1] = static_cast<char>((rows[i] >> 8) & 0xFF);
      }
    } else {
      std::vector<uint64_t> words(1024, 0);
      for (size_t i = c.begin; i < c.end; i++) {
        uint32_t v = rows[i] & 0xFFFF;
        words[v / 64] |= uint64_t{1} << (v % 64);
      }
      for (uint64_t w : words) PutLE(out, w, 8);
    }
  }
}

}  // namespace

std::string EncodeRoaringBitmapArray(const std::vector<uint64_t>& rows) {
  std::string out;
  out.reserve(16 + 2 * rows.size());  // array containers take 2 bytes a row, plus headers
  PutLE(out, kRoaringArrayMagic, 4);
  uint64_t bitmaps = rows.empty() ? 0 : (rows.back() >> 32) + 1;
  PutLE(out, bitmaps, 8);
  size_t at = 0;
  for (uint64_t high = 0; high < bitmaps; high++) {
    size_t end = at;
    while (end < rows.size() && rows[end] >> 32 == high) end++;
    PutLE(out, high, 4);
    EncodeRoaring32(rows, at, end, out);
    at = end;
  }
  return out;
}

Result<std::string> EncodeZ85(std::string_view bytes) {
  if (bytes.size() % 4 != 0)
    return Status::InvalidArgument("Z85 encodes whole groups of 4 bytes, not " + std::to_string(bytes.size()) + " bytes");
  std::string out;
  out.reserve(bytes.size() / 4 * 5);
  for (size_t i = 0; i < bytes.size(); i += 4) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; k++) v = (v << 8) | static_cast<uint8_t>(bytes[i + k]);
    char group[5];
    for (int k = 4; k >= 0; k--) {
      group[k] = kZ85Alphabet[v % 85];
      v /= 85;
    }
    out.append(group, 5);
  }
  return out;
}

DeletionVectorFileBuilder::DeletionVectorFileBuilder(std::string uuid) : uuid_(std::move(uuid)), contents_(1, '\x01') {
  std::string raw;
  for (size_t i = 0; i + 1 < uuid_.size();) {
    if (uuid_[i] == '-') {
      i++;
      continue;
    }
    raw.push_back(static_cast<char>(std::stoi(uuid_.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  // A UUID is 16 bytes: its Z85 text is always 20 characters.
  z85_uuid_ = EncodeZ85(raw).value();
}

DeletionVectorDescriptor DeletionVectorFileBuilder::Add(const std::vector<uint64_t>& rows) {
  std::string bitmap = EncodeRoaringBitmapArray(rows);
  DeletionVectorDescriptor dv;
  dv.storage_type = 'u';
  dv.path_or_inline_dv = z85_uuid_;
  dv.offset = static_cast<int32_t>(contents_.size());
  dv.size_in_bytes = static_cast<int32_t>(bitmap.size());
  dv.cardinality = static_cast<int64_t>(rows.size());
  PutBE32(contents_, static_cast<uint32_t>(bitmap.size()));
  contents_ += bitmap;
  PutBE32(contents_, static_cast<uint32_t>(
                         crc32(0L, reinterpret_cast<const Bytef*>(bitmap.data()), static_cast<uInt>(bitmap.size()))));
  return dv;
}

std::string DeletionVectorJson(const DeletionVectorDescriptor& dv) {
  nlohmann::ordered_json j;
  j["storageType"] = std::string(1, dv.storage_type);
  j["pathOrInlineDv"] = dv.path_or_inline_dv;
  if (dv.offset) j["offset"] = *dv.offset;
  j["sizeInBytes"] = dv.size_in_bytes;
  j["cardinality"] = dv.cardinality;
  return j.dump();
}

std::vector<uint64_t> UnionRows(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace lakestream::delta
