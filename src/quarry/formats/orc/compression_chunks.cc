#include "quarry/formats/orc/compression_chunks.h"

#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <cstring>

#include "quarry/common/error.h"
#include "quarry/formats/codec/lzo_decompression.h"
#include "quarry/formats/codec/snappy_decompression.h"

namespace quarry::orc {
namespace {

constexpr size_t kChunkHeaderSize = 3;

[[noreturn]] void throwCorrupt(const std::string& context, CompressionKind kind, size_t offset,
                               const std::string& reason) {
  throw CorruptFile(context + ": " + toString(kind) + " chunk at stream offset " +
                    std::to_string(offset) + " is invalid: " + reason);
}

/// Inflates raw deflate (no zlib or gzip header) into `out`; returns the bytes written.
size_t inflateRaw(std::span<const uint8_t> in, std::span<uint8_t> out, const std::string& context,
                  size_t offset) {
  z_stream stream{};
  if (inflateInit2(&stream, -15) != Z_OK) throw std::bad_alloc();
  uint8_t empty = 0;
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = out.empty() ? &empty : out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&stream, Z_FINISH);
  const size_t written = out.size() - stream.avail_out;
  inflateEnd(&stream);
  if (rc != Z_STREAM_END) {
    throwCorrupt(context, CompressionKind::kZlib, offset,
                 rc == Z_BUF_ERROR
                     ? "it inflates beyond the compression block size"
                     : "the deflate data is malformed (zlib code " + std::to_string(rc) + ")");
  }
  return written;
}

size_t decompressChunk(CompressionKind kind, std::span<const uint8_t> in, std::span<uint8_t> out,
                       const std::string& context, size_t offset) {
  switch (kind) {
    case CompressionKind::kZlib:
      return inflateRaw(in, out, context, offset);
    case CompressionKind::kSnappy: {
      const auto length = parquet::snappyUncompressedLength(in);
      if (!length || *length > out.size()) {
        throwCorrupt(context, kind, offset,
                     "the snappy length preamble is malformed or exceeds the block size " +
                         std::to_string(out.size()));
      }
      if (const char* reason = parquet::decompressSnappyBlock(in, out.first(*length))) {
        throwCorrupt(context, kind, offset, reason);
      }
      return *length;
    }
    case CompressionKind::kLz4: {
      if (in.size() > INT_MAX || out.size() > INT_MAX) {
        throwCorrupt(context, kind, offset, "the chunk is larger than LZ4 can address");
      }
      const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()),
                                        reinterpret_cast<char*>(out.data()),
                                        static_cast<int>(in.size()), static_cast<int>(out.size()));
      if (n < 0) throwCorrupt(context, kind, offset, "the LZ4 block is malformed or too large");
      return static_cast<size_t>(n);
    }
    case CompressionKind::kZstd: {
      const size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
      if (ZSTD_isError(n)) {
        throwCorrupt(context, kind, offset, std::string("zstd: ") + ZSTD_getErrorName(n));
      }
      return n;
    }
    case CompressionKind::kLzo: {
      const char* reason = nullptr;
      const auto n = parquet::decompressLzo1x(in, out, &reason);
      if (!n) throwCorrupt(context, kind, offset, reason);
      return *n;
    }
    case CompressionKind::kNone:
      break;
  }
  throwCorrupt(context, kind, offset, "unknown codec");
}

}  // namespace

std::string toString(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return "NONE";
    case CompressionKind::kZlib:
      return "ZLIB";
    case CompressionKind::kSnappy:
      return "SNAPPY";
    case CompressionKind::kLzo:
      return "LZO";
    case CompressionKind::kLz4:
      return "LZ4";
    case CompressionKind::kZstd:
      return "ZSTD";
  }
  return "codec " + std::to_string(static_cast<int>(kind));
}

std::vector<uint8_t> decompressStream(const CompressionSettings& settings,
                                      std::span<const uint8_t> input, const std::string& context) {
  if (settings.kind == CompressionKind::kNone) {
    return std::vector<uint8_t>(input.begin(), input.end());
  }
  std::vector<uint8_t> out;
  // Compressed chunks rarely shrink below a quarter; an estimate avoids most regrowth
  // without trusting any length field.
  out.reserve(std::min<size_t>(input.size() * 4, size_t{64} << 20));
  size_t pos = 0;
  while (pos < input.size()) {
    if (input.size() - pos < kChunkHeaderSize) {
      throwCorrupt(context, settings.kind, pos,
                   "the 3-byte chunk header is cut off (" + std::to_string(input.size() - pos) +
                       " bytes left)");
    }
    const uint32_t header = static_cast<uint32_t>(input[pos]) |
                            static_cast<uint32_t>(input[pos + 1]) << 8 |
                            static_cast<uint32_t>(input[pos + 2]) << 16;
    const bool original = (header & 1) != 0;
    const size_t length = header >> 1;
    const size_t start = pos + kChunkHeaderSize;
    if (length > input.size() - start) {
      throwCorrupt(context, settings.kind, pos,
                   "its length " + std::to_string(length) + " runs past the stream's " +
                       std::to_string(input.size()) + " bytes");
    }
    const auto chunk = input.subspan(start, length);
    if (original) {
      out.insert(out.end(), chunk.begin(), chunk.end());
    } else {
      const size_t before = out.size();
      out.resize(before + settings.blockSize);
      const size_t n = decompressChunk(settings.kind, chunk,
                                       std::span<uint8_t>(out.data() + before, settings.blockSize),
                                       context, pos);
      out.resize(before + n);
    }
    pos = start + length;
  }
  return out;
}

}  // namespace quarry::orc
