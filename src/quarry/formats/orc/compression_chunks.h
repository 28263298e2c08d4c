#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

/// ORC's generic compression. Every part of a compressed file but the
/// PostScript is a sequence of chunks, each behind a 3-byte little-endian
/// header holding (chunkLength * 2 + isOriginal); an original chunk is stored
/// as is, the others are one independent block of the file's codec (ZLIB is
/// raw deflate without a zlib header, LZ4 a raw block, SNAPPY a raw block,
/// LZO a raw LZO1X block, ZSTD a frame). No chunk expands beyond the PostScript's compression block
/// size, which bounds every allocation here.
///
/// Worked example: 5 bytes that did not compress are [0x0b, 0x00, 0x00]
/// followed by the 5 bytes (0x0b = 5 * 2 + 1).
namespace quarry::orc {

/// The codecs a PostScript names (values as in the specification).
enum class CompressionKind : uint8_t {
  kNone = 0,
  kZlib = 1,
  kSnappy = 2,
  kLzo = 3,
  kLz4 = 4,
  kZstd = 5
};

/// Returns the codec's name as the specification spells it ("ZLIB").
std::string toString(CompressionKind kind);

/// How a file compresses its streams.
struct CompressionSettings {
  CompressionKind kind = CompressionKind::kNone;
  uint64_t blockSize = 256 * 1024;
};

/// Decompresses one stream (or footer, metadata, stripe footer) into its plain
/// bytes. With kNone the input is copied. Throws CorruptFile naming `context`
/// (file, stripe, column, stream) and the chunk's offset when a header runs past
/// the input or a chunk does not decompress within the block size (a malformed
/// LZO1X block included).
std::vector<uint8_t> decompressStream(const CompressionSettings& settings,
                                      std::span<const uint8_t> input, const std::string& context);

}  // namespace quarry::orc
