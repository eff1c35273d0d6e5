#include "storage/parquet/parquet_codec.hpp"

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <memory>

namespace lakestream::parquet {

namespace {

bool GzipDecompress(const uint8_t* src, size_t src_len, uint8_t* dst, size_t dst_len) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return false;  // gzip or zlib header
  zs.next_in = const_cast<Bytef*>(src);
  zs.avail_in = static_cast<uInt>(src_len);
  zs.next_out = dst;
  zs.avail_out = static_cast<uInt>(dst_len);
  int rc = inflate(&zs, Z_FINISH);
  size_t produced = dst_len - zs.avail_out;
  inflateEnd(&zs);
  return (rc == Z_STREAM_END || rc == Z_OK || rc == Z_BUF_ERROR) && produced == dst_len && src_len <= UINT32_MAX;
}

uint32_t LoadBE32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

bool Lz4RawDecompress(const uint8_t* src, size_t src_len, uint8_t* dst, size_t dst_len) {
  if (src_len > INT32_MAX || dst_len > INT32_MAX) return false;
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                              static_cast<int>(src_len), static_cast<int>(dst_len));
  return n >= 0 && static_cast<size_t>(n) == dst_len;
}

bool Lz4HadoopDecompress(const uint8_t* src, size_t src_len, uint8_t* dst, size_t dst_len) {
  size_t in = 0, out = 0;
  while (in + 8 <= src_len) {
    uint32_t raw = LoadBE32(src + in), comp = LoadBE32(src + in + 4);
    in += 8;
    if (comp > src_len - in || raw > dst_len - out) return false;
    if (!Lz4RawDecompress(src + in, comp, dst + out, raw)) return false;
    in += comp;
    out += raw;
  }
  return in == src_len && out == dst_len;
}

}  // namespace

bool CodecSupported(Codec codec) {
  switch (codec) {
    case Codec::UNCOMPRESSED:
    case Codec::SNAPPY:
    case Codec::GZIP:
    case Codec::ZSTD:
    case Codec::LZ4:
    case Codec::LZ4_RAW: return true;
    default: return false;
  }
}

const char* CodecName(Codec codec) {
  switch (codec) {
    case Codec::UNCOMPRESSED: return "UNCOMPRESSED";
    case Codec::SNAPPY: return "SNAPPY";
    case Codec::GZIP: return "GZIP";
    case Codec::LZO: return "LZO";
    case Codec::BROTLI: return "BROTLI";
    case Codec::LZ4: return "LZ4";
    case Codec::ZSTD: return "ZSTD";
    case Codec::LZ4_RAW: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

bool Decompress(Codec codec, const uint8_t* src, size_t src_len, uint8_t* dst, size_t dst_len) {
  switch (codec) {
    case Codec::UNCOMPRESSED:
      if (src_len != dst_len) return false;
      if (dst_len) std::memcpy(dst, src, dst_len);
      return true;
    case Codec::SNAPPY: {
      size_t len = 0;
      if (snappy_uncompressed_length(reinterpret_cast<const char*>(src), src_len, &len) != SNAPPY_OK) return false;
      if (len != dst_len) return false;
      return snappy_uncompress(reinterpret_cast<const char*>(src), src_len, reinterpret_cast<char*>(dst), &len) ==
                 SNAPPY_OK && len == dst_len;
    }
    case Codec::GZIP: return GzipDecompress(src, src_len, dst, dst_len);
    case Codec::ZSTD: {
      // One context per thread: ZSTD_decompress would allocate and set up a
      // fresh one for every page.
      thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
      if (!dctx) return false;
      size_t n = ZSTD_decompressDCtx(dctx.get(), dst, dst_len, src, src_len);
      return !ZSTD_isError(n) && n == dst_len;
    }
    case Codec::LZ4_RAW: return Lz4RawDecompress(src, src_len, dst, dst_len);
    case Codec::LZ4:
      return Lz4HadoopDecompress(src, src_len, dst, dst_len) || Lz4RawDecompress(src, src_len, dst, dst_len);
    default: return false;
  }
}

bool Compress(Codec codec, const uint8_t* src, size_t src_len, std::string& out, int level) {
  size_t base = out.size();
  switch (codec) {
    case Codec::UNCOMPRESSED: out.append(reinterpret_cast<const char*>(src), src_len); return true;
    case Codec::SNAPPY: {
      size_t cap = snappy_max_compressed_length(src_len);
      out.resize(base + cap);
      size_t len = cap;
      if (snappy_compress(reinterpret_cast<const char*>(src), src_len, out.data() + base, &len) != SNAPPY_OK) return false;
      out.resize(base + len);
      return true;
    }
    case Codec::GZIP: {
      z_stream zs;
      std::memset(&zs, 0, sizeof(zs));
      if (deflateInit2(&zs, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
      size_t cap = deflateBound(&zs, src_len) + 32;
      out.resize(base + cap);
      zs.next_in = const_cast<Bytef*>(src);
      zs.avail_in = static_cast<uInt>(src_len);
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + base);
      zs.avail_out = static_cast<uInt>(cap);
      int rc = deflate(&zs, Z_FINISH);
      size_t produced = cap - zs.avail_out;
      deflateEnd(&zs);
      if (rc != Z_STREAM_END) return false;
      out.resize(base + produced);
      return true;
    }
    case Codec::ZSTD: {
      size_t cap = ZSTD_compressBound(src_len);
      out.resize(base + cap);
      // Freed when the thread ends (a raw pointer leaked one per writing thread).
      thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx_owner(ZSTD_createCCtx(), ZSTD_freeCCtx);
      ZSTD_CCtx* cctx = cctx_owner.get();
      size_t n = ZSTD_compressCCtx(cctx, out.data() + base, cap, src, src_len, level ? level : 3);
      if (ZSTD_isError(n)) return false;
      out.resize(base + n);
      return true;
    }
    case Codec::LZ4_RAW: {
      int cap = LZ4_compressBound(static_cast<int>(src_len));
      out.resize(base + cap);
      int n = LZ4_compress_default(reinterpret_cast<const char*>(src), out.data() + base, static_cast<int>(src_len), cap);
      if (n <= 0 && src_len > 0) return false;
      out.resize(base + n);
      return true;
    }
    default: return false;
  }
}

}  // namespace lakestream::parquet
