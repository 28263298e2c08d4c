// Hadoop's LZ4 framing, as Hadoop's BlockCompressorStream writes it and
// parquet-mr stores it in a page: a sequence of blocks, each
//
//   [uncompressed block size: u32 big-endian]
//   then one or more chunks until that many bytes are produced:
//   [compressed chunk size: u32 big-endian][LZ4 block of that many bytes]
//
// A block whose input exceeded the compressor's buffer is split into several
// chunks under the one size prefix. For example the page "aaaa" (4 bytes) is
//
//   00 00 00 04 | 00 00 00 05 | 40 61 61 61 61
//
// Nothing marks the framing as present, so a page is taken as Hadoop-framed
// only when the prefixes consume the input exactly and every chunk produces
// exactly the bytes its block promised; otherwise the bytes are tried as a bare
// block (older parquet-cpp) and then as LZ4 frames.
#include "quarry/formats/codec/lz4_decompression.h"

#include <lz4.h>
#include <lz4frame.h>

#include <climits>
#include <cstddef>
#include <memory>
#include <new>

namespace quarry::parquet {
namespace {

constexpr uint32_t kLz4FrameMagic = 0x184D2204;
/// Skippable frames: magics 0x184D2A50 to 0x184D2A5F, a length, that many bytes.
constexpr uint32_t kLz4SkippableMagic = 0x184D2A50;
constexpr uint32_t kLz4SkippableMagicMask = 0xFFFFFFF0;

uint32_t loadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

uint32_t loadLittleEndian32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

/// Returns how many bytes the LZ4 block `input` decompressed to within
/// `output`, or -1 when it is not a valid block fitting there.
int64_t lz4BlockInto(std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (input.size() > INT_MAX || output.size() > INT_MAX) return -1;
  // Null pointers are never handed to the library, even for empty spans.
  uint8_t emptyOutput = 0;
  uint8_t emptyInput = 0;
  const int decoded =
      LZ4_decompress_safe(reinterpret_cast<const char*>(input.empty() ? &emptyInput : input.data()),
                          reinterpret_cast<char*>(output.empty() ? &emptyOutput : output.data()),
                          static_cast<int>(input.size()), static_cast<int>(output.size()));
  return decoded;
}

bool decompressHadoopFramed(std::span<const uint8_t> input, std::span<uint8_t> output) {
  constexpr size_t kPrefixSize = 4;
  if (input.size() < 2 * kPrefixSize) return false;
  size_t in = 0;
  size_t out = 0;
  while (in < input.size()) {
    if (input.size() - in < kPrefixSize) return false;
    const uint32_t blockSize = loadBigEndian32(input.data() + in);
    in += kPrefixSize;
    if (blockSize > output.size() - out) return false;
    const size_t blockEnd = out + blockSize;
    // At least one chunk per block: writers emit [0][1][00] for an empty page.
    do {
      if (input.size() - in < kPrefixSize) return false;
      const uint32_t chunkSize = loadBigEndian32(input.data() + in);
      in += kPrefixSize;
      if (chunkSize > input.size() - in) return false;
      const int64_t decoded =
          lz4BlockInto(input.subspan(in, chunkSize), output.subspan(out, blockEnd - out));
      if (decoded < 0 || (decoded == 0 && out < blockEnd)) return false;
      out += static_cast<size_t>(decoded);
      in += chunkSize;
    } while (out < blockEnd);
  }
  return out == output.size();
}

struct Lz4FrameContextDeleter {
  void operator()(LZ4F_dctx* context) const { LZ4F_freeDecompressionContext(context); }
};

/// Decompresses one or more concatenated LZ4 frames (skippable frames included).
bool decompressLz4Frames(std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (input.size() < 4) return false;
  // A sequence may open with a skippable frame as well as with a frame.
  const uint32_t magic = loadLittleEndian32(input.data());
  if (magic != kLz4FrameMagic && (magic & kLz4SkippableMagicMask) != kLz4SkippableMagic)
    return false;
  LZ4F_dctx* raw = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) throw std::bad_alloc();
  const std::unique_ptr<LZ4F_dctx, Lz4FrameContextDeleter> context(raw);

  uint8_t emptyOutput = 0;
  uint8_t* const outBase = output.empty() ? &emptyOutput : output.data();
  size_t in = 0;
  size_t out = 0;
  size_t hint = 1;  // 0 once the last frame read is complete
  while (in < input.size()) {
    size_t produced = output.size() - out;
    size_t consumed = input.size() - in;
    hint = LZ4F_decompress(context.get(), outBase + out, &produced, input.data() + in, &consumed,
                           nullptr);
    if (LZ4F_isError(hint)) return false;
    // No progress means the output is full while the frame goes on.
    if (produced == 0 && consumed == 0) return false;
    in += consumed;
    out += produced;
  }
  return hint == 0 && out == output.size();
}

}  // namespace

bool decompressLz4Block(std::span<const uint8_t> input, std::span<uint8_t> output) {
  return lz4BlockInto(input, output) == static_cast<int64_t>(output.size());
}

bool decompressLz4Legacy(std::span<const uint8_t> input, std::span<uint8_t> output) {
  return decompressHadoopFramed(input, output) || decompressLz4Block(input, output) ||
         decompressLz4Frames(input, output);
}

}  // namespace quarry::parquet
