#include "storage/delta/deletion_vector.hpp"

#include <zlib.h>

#include <array>

#include <nlohmann/json.hpp>

#include "common/json_parse.hpp"
#include "storage/delta/deletion_vector_format.hpp"
#include "storage/delta/delta_snapshot.hpp"

namespace lakestream::delta {

namespace {

using namespace dv_format;  // NOLINT(google-build-using-namespace): the format's constants, read throughout

// Little-endian reads over a bounded buffer; `ok` turns false (and stays) on
// the first read past the end.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return ok_ ? bytes_.size() - pos_ : 0; }
  uint64_t Read(size_t width) {
    if (!ok_ || bytes_.size() - pos_ < width) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < width; i++) v |= static_cast<uint64_t>(static_cast<uint8_t>(bytes_[pos_ + i])) << (8 * i);
    pos_ += width;
    return v;
  }
  void Skip(size_t n) {
    if (!ok_ || bytes_.size() - pos_ < n) {
      ok_ = false;
      return;
    }
    pos_ += n;
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
  bool ok_ = true;
};

uint32_t BigEndian32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; i++) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}

// One standard (32-bit) Roaring bitmap: appends (high << 32) | value for each
// value, ascending.
Status DecodeRoaring32(Reader& in, uint64_t high, std::vector<uint64_t>& out, uint64_t max_rows, const std::string& what) {
  auto corrupt = [&](const std::string& why) {
    return Status::Corruption("deletion vector of " + what + ": " + why + " (bitmap for the high bits " +
                              std::to_string(high) + ")");
  };
  uint32_t cookie = static_cast<uint32_t>(in.Read(4));
  if (!in.ok()) return corrupt("truncated before the Roaring cookie");
  bool has_runs = (cookie & 0xFFFF) == kSerialCookie;
  uint32_t containers = 0;
  std::vector<uint8_t> run_flags;
  if (has_runs) {
    containers = (cookie >> 16) + 1;
    run_flags.resize((containers + 7) / 8);
    for (auto& f : run_flags) f = static_cast<uint8_t>(in.Read(1));
  } else if (cookie == kSerialCookieNoRun) {
    containers = static_cast<uint32_t>(in.Read(4));
    if (containers > 65536) return corrupt("container count " + std::to_string(containers) + " exceeds 65536");
  } else {
    return corrupt("unknown Roaring cookie " + std::to_string(cookie));
  }
  if (!in.ok()) return corrupt("truncated in the Roaring header");
  // Each container takes at least 4 header bytes: a count beyond the input is
  // corruption, not an allocation to attempt.
  if (static_cast<uint64_t>(containers) * 4 > in.remaining()) return corrupt("truncated in the container headers");
  std::vector<uint16_t> keys(containers);
  std::vector<uint32_t> cards(containers);
  for (uint32_t i = 0; i < containers; i++) {
    keys[i] = static_cast<uint16_t>(in.Read(2));
    cards[i] = static_cast<uint32_t>(in.Read(2)) + 1;
    if (i > 0 && keys[i] <= keys[i - 1]) return corrupt("container keys are not ascending");
  }
  if (!has_runs || containers >= kNoOffsetThreshold) in.Skip(static_cast<size_t>(containers) * 4);  // offsets
  if (!in.ok()) return corrupt("truncated in the container headers");
  for (uint32_t i = 0; i < containers; i++) {
    uint64_t base = (high << 32) | (static_cast<uint64_t>(keys[i]) << 16);
    bool run = has_runs && (run_flags[i / 8] >> (i % 8)) & 1;
    if (run) {
      uint32_t runs = static_cast<uint32_t>(in.Read(2));
      if (static_cast<uint64_t>(runs) * 4 > in.remaining()) return corrupt("truncated in a run container");
      int64_t last = -1;
      for (uint32_t r = 0; r < runs; r++) {
        uint32_t start = static_cast<uint32_t>(in.Read(2));
        uint32_t length = static_cast<uint32_t>(in.Read(2));
        if (start + length > 0xFFFF) return corrupt("a run goes past the end of its container");
        if (static_cast<int64_t>(start) <= last) return corrupt("runs overlap or are not ascending");
        // A 4-byte run can stand for 65536 rows: stop before a corrupt one exhausts memory.
        if (out.size() + length + 1 > max_rows) return corrupt("more rows than the " + std::to_string(max_rows) + " expected");
        for (uint32_t v = start; v <= start + length; v++) out.push_back(base | v);
        last = start + length;
      }
    } else if (cards[i] <= kMaxArrayCardinality) {
      if (static_cast<uint64_t>(cards[i]) * 2 > in.remaining()) return corrupt("truncated in an array container");
      int64_t last = -1;
      for (uint32_t c = 0; c < cards[i]; c++) {
        uint32_t v = static_cast<uint32_t>(in.Read(2));
        if (static_cast<int64_t>(v) <= last) return corrupt("array container values are not ascending");
        out.push_back(base | v);
        last = v;
      }
    } else {
      if (in.remaining() < 8192) return corrupt("truncated in a bitmap container");
      uint32_t seen = 0;
      for (uint32_t w = 0; w < 1024; w++) {
        uint64_t word = in.Read(8);
        while (word) {
          int bit = __builtin_ctzll(word);
          out.push_back(base | (w * 64 + static_cast<uint32_t>(bit)));
          word &= word - 1;
          seen++;
        }
      }
      if (seen != cards[i]) {
        return corrupt("a bitmap container holds " + std::to_string(seen) + " values but its header says " +
                       std::to_string(cards[i]));
      }
    }
  }
  return Status::OK();
}

}  // namespace

std::string DeletionVectorDescriptor::UniqueId() const {
  std::string id(1, storage_type);
  id += path_or_inline_dv;
  if (offset) id += "@" + std::to_string(*offset);
  return id;
}

Result<DeletionVectorDescriptor> ParseDeletionVectorDescriptor(std::string_view json) {
  auto j = ParseJson(json);
  auto bad = [&](const std::string& why) {
    return Status::Corruption("malformed deletionVector " + std::string(json.substr(0, 200)) + ": " + why);
  };
  if (!j.is_object()) return bad("not a JSON object");
  DeletionVectorDescriptor dv;
  auto type = j.find("storageType");
  if (type == j.end() || !type->is_string() || type->get<std::string>().size() != 1) return bad("storageType is missing");
  dv.storage_type = type->get<std::string>()[0];
  if (dv.storage_type != 'u' && dv.storage_type != 'i' && dv.storage_type != 'p')
    return bad("unknown storageType '" + type->get<std::string>() + "' (expected u, i or p)");
  auto path = j.find("pathOrInlineDv");
  if (path == j.end() || !path->is_string()) return bad("pathOrInlineDv is missing");
  dv.path_or_inline_dv = path->get<std::string>();
  auto offset = j.find("offset");
  if (offset != j.end() && !offset->is_null()) {
    if (!offset->is_number_integer() || offset->get<int64_t>() < 0 || offset->get<int64_t>() > INT32_MAX)
      return bad("offset is not a non-negative 32-bit integer");
    dv.offset = static_cast<int32_t>(offset->get<int64_t>());
  }
  auto size = j.find("sizeInBytes");
  if (size == j.end() || !size->is_number_integer() || size->get<int64_t>() < 0 || size->get<int64_t>() > INT32_MAX)
    return bad("sizeInBytes is missing or out of range");
  dv.size_in_bytes = static_cast<int32_t>(size->get<int64_t>());
  auto card = j.find("cardinality");
  if (card == j.end() || !card->is_number_integer() || card->get<int64_t>() < 0)
    return bad("cardinality is missing or negative");
  dv.cardinality = card->get<int64_t>();
  return dv;
}

std::string DeletionVectorId(const std::optional<std::string>& json) {
  if (!json) return "";
  auto dv = ParseDeletionVectorDescriptor(*json);
  return dv.ok() ? dv.value().UniqueId() : *json;
}

Result<std::string> DecodeZ85(std::string_view text) {
  static const auto kIndex = [] {
    std::array<int8_t, 256> index;
    index.fill(-1);
    for (int i = 0; i < 85; i++) index[static_cast<uint8_t>(kZ85Alphabet[i])] = static_cast<int8_t>(i);
    return index;
  }();
  if (text.size() % 5 != 0)
    return Status::Corruption("Z85 text of " + std::to_string(text.size()) + " characters is not a multiple of 5");
  std::string out;
  out.reserve(text.size() / 5 * 4);
  for (size_t i = 0; i < text.size(); i += 5) {
    uint64_t v = 0;
    for (size_t k = 0; k < 5; k++) {
      int8_t d = kIndex[static_cast<uint8_t>(text[i + k])];
      if (d < 0) return Status::Corruption("character '" + std::string(1, text[i + k]) + "' at position " +
                                           std::to_string(i + k) + " is not Z85");
      v = v * 85 + static_cast<uint64_t>(d);
    }
    if (v > 0xFFFFFFFFull) return Status::Corruption("Z85 group at position " + std::to_string(i) + " exceeds 32 bits");
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>((v >> s) & 0xFF));
  }
  return out;
}

Result<std::string> DeletionVectorRelativePath(std::string_view path_or_inline_dv) {
  constexpr size_t kUuidChars = 20;
  if (path_or_inline_dv.size() < kUuidChars)
    return Status::Corruption("deletion vector path '" + std::string(path_or_inline_dv) + "' is shorter than a Z85 UUID");
  std::string_view prefix = path_or_inline_dv.substr(0, path_or_inline_dv.size() - kUuidChars);
  auto raw = DecodeZ85(path_or_inline_dv.substr(prefix.size()));
  if (!raw.ok()) return Status::Corruption("deletion vector path '" + std::string(path_or_inline_dv) + "': " +
                                           raw.status().message());
  static const char kHex[] = "0123456789abcdef";
  std::string uuid;
  for (size_t i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uuid.push_back('-');
    uint8_t b = static_cast<uint8_t>(raw.value()[i]);
    uuid.push_back(kHex[b >> 4]);
    uuid.push_back(kHex[b & 15]);
  }
  std::string path = prefix.empty() ? "" : std::string(prefix) + "/";
  return path + DeletionVectorFileName(uuid);
}

namespace {
constexpr std::string_view kVectorFilePrefix = "deletion_vector_";
constexpr std::string_view kVectorFileSuffix = ".bin";
}  // namespace

std::string DeletionVectorFileName(std::string_view uuid) {
  return std::string(kVectorFilePrefix) + std::string(uuid) + std::string(kVectorFileSuffix);
}

std::string UuidOfDeletionVectorFileName(std::string_view name) {
  if (name.size() <= kVectorFilePrefix.size() + kVectorFileSuffix.size() || !name.starts_with(kVectorFilePrefix) ||
      !name.ends_with(kVectorFileSuffix))
    return "";
  return std::string(name.substr(kVectorFilePrefix.size(), name.size() - kVectorFilePrefix.size() - kVectorFileSuffix.size()));
}

Result<std::vector<uint64_t>> DecodeRoaringBitmapArray(std::string_view bytes, const std::string& what, uint64_t max_rows) {
  Reader in(bytes);
  uint32_t magic = static_cast<uint32_t>(in.Read(4));
  if (!in.ok()) return Status::Corruption("deletion vector of " + what + ": truncated before the magic number");
  if (magic != kRoaringArrayMagic)
    return Status::Corruption("deletion vector of " + what + ": bad magic number " + std::to_string(magic) +
                              " (expected " + std::to_string(kRoaringArrayMagic) + ", a RoaringBitmapArray)");
  uint64_t bitmaps = in.Read(8);
  if (!in.ok()) return Status::Corruption("deletion vector of " + what + ": truncated before the bitmap count");
  if (bitmaps > in.remaining() / 8)
    return Status::Corruption("deletion vector of " + what + ": " + std::to_string(bitmaps) +
                              " bitmaps cannot fit in " + std::to_string(in.remaining()) + " bytes");
  std::vector<uint64_t> rows;
  int64_t last_key = -1;
  for (uint64_t b = 0; b < bitmaps; b++) {
    uint32_t key = static_cast<uint32_t>(in.Read(4));
    if (!in.ok()) return Status::Corruption("deletion vector of " + what + ": truncated before bitmap " + std::to_string(b));
    if (static_cast<int64_t>(key) <= last_key)
      return Status::Corruption("deletion vector of " + what + ": bitmap keys are not ascending");
    last_key = key;
    LS_RETURN_NOT_OK(DecodeRoaring32(in, key, rows, max_rows, what));
  }
  if (in.remaining() != 0)
    return Status::Corruption("deletion vector of " + what + ": " + std::to_string(in.remaining()) +
                              " bytes left over after the last bitmap");
  return rows;
}

Result<std::string> DeletionVectorFile(const Snapshot& snapshot, const DeletionVectorDescriptor& dv) {
  if (dv.storage_type == 'i') return Status::InvalidArgument("an inline deletion vector has no file");
  if (dv.storage_type == 'u') {
    auto relative = DeletionVectorRelativePath(dv.path_or_inline_dv);
    if (!relative.ok()) return relative.status();
    return snapshot.FilePath(relative.value());
  }
  auto decoded = DecodePath(dv.path_or_inline_dv);
  if (!decoded.ok()) return decoded.status();
  return snapshot.FilePath(decoded.value());
}

Result<std::vector<uint64_t>> LoadDeletionVector(FileSystem* fs, const Snapshot& snapshot,
                                                 const DeletionVectorDescriptor& dv, const std::string& data_file) {
  std::string what = snapshot.FilePath(data_file);
  std::string bytes;
  if (dv.storage_type == 'i') {
    auto decoded = DecodeZ85(dv.path_or_inline_dv);
    if (!decoded.ok()) return Status::Corruption("inline deletion vector of " + what + ": " + decoded.status().message());
    if (static_cast<size_t>(dv.size_in_bytes) > decoded.value().size())
      return Status::Corruption("inline deletion vector of " + what + ": sizeInBytes " + std::to_string(dv.size_in_bytes) +
                                " exceeds its " + std::to_string(decoded.value().size()) + " decoded bytes");
    bytes = decoded.value().substr(0, static_cast<size_t>(dv.size_in_bytes));
  } else {
    auto located = DeletionVectorFile(snapshot, dv);
    if (!located.ok()) return Status::Corruption("deletion vector of " + what + ": " + located.status().message());
    const std::string& file = located.value();
    what += " (in " + file + ")";
    auto contents = fs->ReadFile(file);
    if (!contents.ok()) {
      return Status::IOError("cannot read the deletion vector file " + file + " of " + snapshot.FilePath(data_file) +
                             ": " + contents.status().message());
    }
    const std::string& c = contents.value();
    size_t at = static_cast<size_t>(dv.offset.value_or(1));
    if (c.empty() || c[0] != 1)
      return Status::Corruption("deletion vector of " + what + ": unknown file format version (first byte is not 1)");
    if (at + 4 > c.size() || c.size() - at - 4 < static_cast<size_t>(dv.size_in_bytes) + 4)
      return Status::Corruption("deletion vector of " + what + ": offset " + std::to_string(at) + " and size " +
                                std::to_string(dv.size_in_bytes) + " go past the end of the " +
                                std::to_string(c.size()) + "-byte file");
    uint32_t size = BigEndian32(c, at);
    if (size != static_cast<uint32_t>(dv.size_in_bytes))
      return Status::Corruption("deletion vector of " + what + ": the file stores " + std::to_string(size) +
                                " bytes at offset " + std::to_string(at) + " but the log says " +
                                std::to_string(dv.size_in_bytes));
    bytes = c.substr(at + 4, size);
    uint32_t expected = BigEndian32(c, at + 4 + size);
    uint32_t actual = static_cast<uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
    if (expected != actual) return Status::Corruption("deletion vector of " + what + ": checksum mismatch");
  }
  auto rows = DecodeRoaringBitmapArray(bytes, what, static_cast<uint64_t>(dv.cardinality));
  if (!rows.ok()) return rows.status();
  if (static_cast<int64_t>(rows.value().size()) != dv.cardinality)
    return Status::Corruption("deletion vector of " + what + ": holds " + std::to_string(rows.value().size()) +
                              " rows but the log says cardinality " + std::to_string(dv.cardinality));
  return rows;
}

}  // namespace lakestream::delta
