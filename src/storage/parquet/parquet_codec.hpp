// Page compression codecs (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, and the
// Hadoop-framed LZ4 that older parquet-mr wrote).
#pragma once

#include <cstdint>
#include <string>

#include "storage/parquet/parquet_metadata.hpp"

namespace lakestream::parquet {

// Decompresses `src` into exactly `dst_len` bytes at `dst`. Returns false when
// the codec is unsupported or the data does not decompress to exactly dst_len.
bool Decompress(Codec codec, const uint8_t* src, size_t src_len, uint8_t* dst, size_t dst_len);

// Compresses `src` and appends to `out`. `level` is the codec's level (0 = default).
// Returns false for unsupported codecs.
bool Compress(Codec codec, const uint8_t* src, size_t src_len, std::string& out, int level = 0);

bool CodecSupported(Codec codec);
const char* CodecName(Codec codec);

}  // namespace lakestream::parquet
