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

}  // namespace lakestream::delta
