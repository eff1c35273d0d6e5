// Deletion vectors (PROTOCOL.md "Deletion Vectors"): the rows of a data file
// that are deleted without rewriting it, named by an add action's
// `deletionVector` descriptor and stored as a 64-bit RoaringBitmap in the
// "portable" serialization, either inline in the log (storage type 'i',
// Z85-encoded) or in a `deletion_vector_<uuid>.bin` file ('u': a Z85-encoded
// UUID, optionally after a random directory prefix; 'p': an absolute path).
//
//   auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
//   auto rows = delta::LoadDeletionVector(fs, snapshot, dv.value());
//   // rows.value(): sorted, distinct row indexes (0-based position in the file)
//
// Every decoding error is Corruption naming the data file the vector belongs
// to (and the vector file when there is one) and what was wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_system.hpp"
#include "common/status.hpp"

namespace lakestream::delta {

struct Snapshot;

struct DeletionVectorDescriptor {
  char storage_type = 'u';  // 'u', 'i' or 'p'
  std::string path_or_inline_dv;
  std::optional<int32_t> offset;  // position of the vector in a 'u'/'p' file
  int32_t size_in_bytes = 0;      // of the serialized bitmap (without the file's size prefix and checksum)
  int64_t cardinality = 0;        // number of deleted rows

  // What makes (path, deletion vector) a distinct file in the log: the
  // protocol's "unique id", storage type + path + "@offset".
  std::string UniqueId() const;
};

// Parses the descriptor's JSON object text (as kept in AddFile::deletion_vector).
Result<DeletionVectorDescriptor> ParseDeletionVectorDescriptor(std::string_view json);

// The unique id of a raw descriptor (AddFile/RemoveFile::deletion_vector),
// "" for none or an unparsable one.
std::string DeletionVectorId(const std::optional<std::string>& json);

// Z85 (ZeroMQ base85) decoding: every 5 characters give 4 bytes. Corruption
// for a length that is not a multiple of 5 or a character outside the alphabet.
Result<std::string> DecodeZ85(std::string_view text);

// The base name of the vector file with UUID `uuid` (canonical text form):
// "deletion_vector_<uuid>.bin"; and the UUID of such a name, "" for any other.
std::string DeletionVectorFileName(std::string_view uuid);
std::string UuidOfDeletionVectorFileName(std::string_view name);

// The table-relative path of a 'u' vector: "<prefix>/deletion_vector_<uuid>.bin"
// (no prefix directory when the field is just the 20-character UUID).
Result<std::string> DeletionVectorRelativePath(std::string_view path_or_inline_dv);

// The file holding a 'u' or 'p' vector, as a path like Snapshot::FilePath's.
// InvalidArgument for an inline vector; Corruption for an undecodable path.
Result<std::string> DeletionVectorFile(const Snapshot& snapshot, const DeletionVectorDescriptor& dv);

// Decodes a serialized RoaringBitmapArray (magic number 1681511377, then the
// 64-bit portable format: a count of 32-bit bitmaps, each a key (the high 32
// bits) and a standard Roaring bitmap of array, bitmap and run containers).
// `what` names the source in errors. Returns the row indexes in ascending order.
// Corruption as soon as a run container would go beyond `max_rows` rows (a
// few corrupt bytes must not expand to gigabytes).
Result<std::vector<uint64_t>> DecodeRoaringBitmapArray(std::string_view bytes, const std::string& what,
                                                       uint64_t max_rows = UINT64_MAX);

// The deleted row indexes of `data_file` (a log path) under `dv`: reads the
// vector file (checking its size prefix and CRC-32) or decodes the inline
// vector, and checks the row count against the descriptor's cardinality.
Result<std::vector<uint64_t>> LoadDeletionVector(FileSystem* fs, const Snapshot& snapshot,
                                                 const DeletionVectorDescriptor& dv, const std::string& data_file);

// ---- Writing (PROTOCOL.md "Deletion Vector Format") ----
//
// What lakestream writes, in the grammar of the protocol (integers of the
// bitmap little-endian, those of the file framing big-endian):
//
//   dv_file     := version:u8 (= 1) entry*
//   entry       := size:be32 bitmap crc:be32        crc = CRC-32 of bitmap
//   bitmap      := magic:le32 (= 1681511377) count:le64 (key:le32 roaring32){count}
//   roaring32   := cookie:le32 (= 12346, no run containers) n:le32
//                  (key:le16 card_minus_1:le16){n} offset:le32{n} container{n}
//   container   := value:le16{card}            when card <= 4096 (array)
//                | word:le64{1024}             otherwise (bitmap)
//
// The 64-bit bitmap holds one 32-bit bitmap per high key from 0 up to the
// highest row's (empty ones too), as Delta's RoaringBitmapArray writes them;
// an entry's offset in the file (the descriptor's `offset`) is that of its
// size field. Files go to the table's root as deletion_vector_<uuid>.bin,
// named by storage type 'u' with no random prefix.

// The serialized RoaringBitmapArray of `rows` (sorted, distinct row indexes).
std::string EncodeRoaringBitmapArray(const std::vector<uint64_t>& rows);

// Z85 encoding of `bytes` (a multiple of 4 bytes long, else InvalidArgument).
Result<std::string> EncodeZ85(std::string_view bytes);

// Builds one deletion vector file of several entries, e.g. the vectors of
// every data file one commit changes.
class DeletionVectorFileBuilder {
 public:
  // `uuid`: the file's UUID in canonical text form (NewUuid()).
  explicit DeletionVectorFileBuilder(std::string uuid);
  // Adds an entry for `rows` (sorted, distinct, not empty) and returns its
  // descriptor ('u', this file, the entry's offset).
  DeletionVectorDescriptor Add(const std::vector<uint64_t>& rows);
  bool empty() const { return contents_.size() <= 1; }
  // The table-relative path (deletion_vector_<uuid>.bin) and the bytes to write there.
  std::string RelativePath() const { return DeletionVectorFileName(uuid_); }
  const std::string& Contents() const { return contents_; }

 private:
  std::string uuid_;
  std::string z85_uuid_;  // pathOrInlineDv
  std::string contents_;
};

// The descriptor as the JSON object an add or remove action carries
// (AddFile::deletion_vector).
std::string DeletionVectorJson(const DeletionVectorDescriptor& dv);

// The sorted union of two sorted, distinct row lists.
std::vector<uint64_t> UnionRows(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);

}  // namespace lakestream::delta
