// libFuzzer target for page and stream decompression, and a differential test of
// quarry's decoders against the reference libraries. quarry decodes SNAPPY itself
// (snappy_decompression.h), frames LZ4 itself (Hadoop's framing, LZ4 frames
// tried after it: lz4_decompression.h) and cuts ORC streams into chunks itself
// (compression_chunks.h); ZSTD, LZ4 blocks and zlib are the libraries' one-shot
// calls behind quarry's checks of the sizes.
//
// Input: byte 0 picks the mode (byte 0 % 6) and its parameter (byte 0 / 6);
// bytes 1-4 (little endian) give an uncompressed size, capped at 1 MiB as a page
// header's would be by the reader; the rest is the payload. The modes:
//   0  the payload as a page of any codec id (those past the spec's included, to
//      reach the refusal path): it must end in bytes or one of quarry's errors;
//   1  the payload as a snappy block, decoded by quarry and by libsnappy: the
//      length preamble, the verdict and the bytes must agree;
//   2  the payload as ZSTD frames, decoded by quarry and by libzstd (into a
//      buffer of 1 MiB + 1): the verdict at the given size and the bytes;
//   3  the payload as an LZ4 block (LZ4_RAW), and as the deprecated LZ4 codec,
//      decoded by quarry and by liblz4: the verdict and the bytes; an LZ4 frame or
//      bare block liblz4 decodes to exactly the size must decode in the LZ4 codec;
//   4  round trip: the payload compressed by the library (snappy, zstd, an LZ4
//      block, Hadoop-framed LZ4, an LZ4 frame, zlib, gzip) must decompress in
//      quarry to the payload;
//   5  the same round trip through an ORC stream: the payload cut into
//      compression blocks, each compressed (or kept original when that is not
//      smaller, as ORC writers do) behind its 3-byte header; the payload itself is
//      also decoded as an ORC stream of every codec.
// A disagreement traps (__builtin_trap), so that libFuzzer keeps the input.
#include <lz4.h>
#include <lz4frame.h>
#include <sanitizer/asan_interface.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/codec/lz4_decompression.h"
#include "quarry/formats/codec/snappy_decompression.h"
#include "quarry/formats/orc/compression_chunks.h"

namespace {

using quarry::parquet::CompressionCodec;
using Bytes = std::vector<uint8_t>;
using Input = std::span<const uint8_t>;

constexpr uint32_t kMaxOutputSize = 1 << 20;
/// What quarry's page reader leaves after a page buffer for the snappy decoder's wide copies.
constexpr size_t kSnappySlack = 64;

void agree(bool same) {
  if (!same) __builtin_trap();
}

/// An output buffer of up to 1 MiB (and slack) reused from input to input: a fresh
/// allocation that large costs a mapping and its page faults, and made the fuzzer
/// some hundred times slower. Every byte outside what `take` hands out is
/// poisoned, so that ASan reports a write or read past either end as it would on
/// a buffer of exactly that size. The bytes handed out are not cleared.
class OutputSlot {
 public:
  OutputSlot() : storage_(kLead + kMaxOutputSize + kSnappySlack + 16) {
    ASAN_POISON_MEMORY_REGION(storage_.data(), storage_.size());
  }

  std::span<uint8_t> take(size_t size, size_t slack = 0) {
    ASAN_POISON_MEMORY_REGION(storage_.data() + kLead, taken_);
    taken_ = size + slack;
    ASAN_UNPOISON_MEMORY_REGION(storage_.data() + kLead, taken_);
    return std::span(storage_.data() + kLead, size);
  }

 private:
  /// Poisoned bytes before the output, 8-aligned as ASan's shadow needs.
  static constexpr size_t kLead = 64;
  Bytes storage_;
  size_t taken_ = 0;
};

/// The buffers one input uses at once, each by one role.
enum Slot { kQuarry, kQuarrySlack, kQuarryAgain, kReference, kSlotCount };

std::span<uint8_t> takeOutput(Slot slot, size_t size, size_t slack = 0) {
  static OutputSlot slots[kSlotCount];
  return slots[slot].take(size, slack);
}

/// Returns quarry's decompressed bytes, or nullopt when it refuses them with one
/// of its errors.
std::optional<std::span<uint8_t>> quarryDecompress(CompressionCodec codec, Input input, size_t size,
                                                   Slot slot = kQuarry) {
  const std::span<uint8_t> output = takeOutput(slot, size);
  try {
    quarry::parquet::decompress(codec, input, output);
  } catch (const quarry::Error&) {
    return std::nullopt;
  }
  return output;
}

/// quarry's snappy decoder as the page reader calls it, with slack after the
/// output: its wide copies may write there, never past it (ASan checks).
std::optional<std::span<uint8_t>> quarrySnappyWithSlack(Input input, size_t size) {
  const std::span<uint8_t> output = takeOutput(kQuarrySlack, size, kSnappySlack);
  if (quarry::parquet::decompressSnappyBlock(input, output, kSnappySlack)) return std::nullopt;
  return output;
}

bool equal(Input a, Input b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

const char* chars(Input input) {
  return reinterpret_cast<const char*>(input.data());
}

void anyCodec(unsigned param, Input payload, uint32_t size) {
  const auto codec = static_cast<CompressionCodec>(param % 9);
  quarryDecompress(codec, payload, size);
  if (codec == CompressionCodec::SNAPPY) quarrySnappyWithSlack(payload, size);
}

void snappyAgainstLibsnappy(Input payload) {
  size_t length = 0;
  const bool libLength = snappy::GetUncompressedLength(chars(payload), payload.size(), &length);
  const std::optional<uint64_t> ours = quarry::parquet::snappyUncompressedLength(payload);
  agree(libLength == ours.has_value());
  if (!libLength) return;
  agree(*ours == length);
  if (length > kMaxOutputSize) return;
  const std::span<uint8_t> expected = takeOutput(kReference, length);
  const bool libOk = snappy::RawUncompress(chars(payload), payload.size(),
                                           reinterpret_cast<char*>(expected.data()));
  const auto viaPage = quarryDecompress(CompressionCodec::SNAPPY, payload, length);
  const auto withSlack = quarrySnappyWithSlack(payload, length);
  agree(viaPage.has_value() == libOk && withSlack.has_value() == libOk);
  if (libOk) agree(equal(*viaPage, expected) && equal(*withSlack, expected));
}

void zstdAgainstLibzstd(Input payload, uint32_t size) {
  const std::span<uint8_t> reference = takeOutput(kReference, kMaxOutputSize + 1);
  // A context of its own: quarry keeps one per thread, and state carried over from
  // an earlier input must not change its answer.
  static ZSTD_DCtx* const context = ZSTD_createDCtx();
  const size_t decoded = ZSTD_decompressDCtx(context, reference.data(), reference.size(),
                                             payload.data(), payload.size());
  // An empty page section decodes to nothing whatever its codec.
  const bool libOk = payload.empty() ? size == 0 : !ZSTD_isError(decoded) && decoded == size;
  const auto ours = quarryDecompress(CompressionCodec::ZSTD, payload, size);
  agree(ours.has_value() == libOk);
  if (libOk && !payload.empty()) agree(equal(*ours, reference.first(size)));
  // Whatever libzstd decodes within the cap, quarry decodes at that size.
  if (!payload.empty() && !ZSTD_isError(decoded) && decoded <= kMaxOutputSize && decoded != size) {
    const auto atDecoded = quarryDecompress(CompressionCodec::ZSTD, payload, decoded, kQuarryAgain);
    agree(atDecoded.has_value() && equal(*atDecoded, reference.first(decoded)));
  }
}

/// Returns liblz4's decoding of LZ4 frames into exactly `size` bytes (every frame
/// complete, every input byte consumed), or nullopt.
bool lz4FramesByLibrary(Input payload, size_t size) {
  LZ4F_dctx* context = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) return false;
  // One byte more than asked for, so that a longer decoding shows.
  const std::span<uint8_t> output = takeOutput(kReference, size + 1);
  size_t in = 0;
  size_t out = 0;
  size_t hint = 1;
  bool ok = true;
  while (ok && in < payload.size()) {
    size_t produced = output.size() - out;
    size_t consumed = payload.size() - in;
    hint = LZ4F_decompress(context, output.data() + out, &produced, payload.data() + in, &consumed,
                           nullptr);
    ok = !LZ4F_isError(hint) && (produced > 0 || consumed > 0);
    in += consumed;
    out += produced;
  }
  LZ4F_freeDecompressionContext(context);
  return ok && !payload.empty() && hint == 0 && out == size;
}

void lz4AgainstLiblz4(Input payload, uint32_t size) {
  // LZ4_RAW: one block, decoded by liblz4 into exactly the page's size.
  const std::span<uint8_t> reference = takeOutput(kReference, size);
  uint8_t emptyOutput = 0;
  const int decoded =
      payload.empty() ? -1
                      : LZ4_decompress_safe(
                            chars(payload),
                            reinterpret_cast<char*>(size == 0 ? &emptyOutput : reference.data()),
                            static_cast<int>(payload.size()), static_cast<int>(size));
  const bool blockOk = payload.empty() ? size == 0 : decoded == static_cast<int>(size);
  const auto raw = quarryDecompress(CompressionCodec::LZ4_RAW, payload, size);
  agree(raw.has_value() == blockOk);
  if (blockOk && !payload.empty()) agree(equal(*raw, reference));
  // The deprecated LZ4: whatever liblz4 takes as a bare block or as frames of
  // exactly that size, quarry takes too (Hadoop's framing, tried first, may read
  // the bytes otherwise, so only the verdict is compared).
  const auto legacy = quarryDecompress(CompressionCodec::LZ4, payload, size, kQuarryAgain);
  if (blockOk) agree(legacy.has_value());
  if (lz4FramesByLibrary(payload, size)) agree(legacy.has_value());
}

std::string snappyCompress(Input payload) {
  std::string compressed;
  snappy::Compress(chars(payload), payload.size(), &compressed);
  return compressed;
}

Bytes zstdCompress(Input payload, int level) {
  // One context for every input: a new one allocates its tables each time.
  static ZSTD_CCtx* const context = ZSTD_createCCtx();
  Bytes compressed(ZSTD_compressBound(payload.size()));
  const size_t n = ZSTD_compressCCtx(context, compressed.data(), compressed.size(), payload.data(),
                                     payload.size(), level);
  agree(!ZSTD_isError(n));
  compressed.resize(n);
  return compressed;
}

Bytes lz4Block(Input payload) {
  Bytes compressed(static_cast<size_t>(LZ4_compressBound(static_cast<int>(payload.size()))));
  const int n =
      LZ4_compress_default(chars(payload), reinterpret_cast<char*>(compressed.data()),
                           static_cast<int>(payload.size()), static_cast<int>(compressed.size()));
  agree(n > 0);
  compressed.resize(static_cast<size_t>(n));
  return compressed;
}

void appendBigEndian32(Bytes& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

/// Hadoop's BlockCompressorStream: blocks of `blockSize` input bytes, each
/// compressed in chunks of `chunkSize` under the one block size prefix.
Bytes lz4HadoopFramed(Input payload, size_t blockSize, size_t chunkSize) {
  Bytes out;
  if (payload.empty()) {
    appendBigEndian32(out, 0);
    const Bytes empty = lz4Block(payload);
    appendBigEndian32(out, static_cast<uint32_t>(empty.size()));
    out.insert(out.end(), empty.begin(), empty.end());
    return out;
  }
  for (size_t block = 0; block < payload.size(); block += blockSize) {
    const Input blockBytes = payload.subspan(block, std::min(blockSize, payload.size() - block));
    appendBigEndian32(out, static_cast<uint32_t>(blockBytes.size()));
    for (size_t chunk = 0; chunk < blockBytes.size(); chunk += chunkSize) {
      const Bytes compressed =
          lz4Block(blockBytes.subspan(chunk, std::min(chunkSize, blockBytes.size() - chunk)));
      appendBigEndian32(out, static_cast<uint32_t>(compressed.size()));
      out.insert(out.end(), compressed.begin(), compressed.end());
    }
  }
  return out;
}

Bytes lz4Frame(Input payload, unsigned param) {
  LZ4F_preferences_t preferences{};
  preferences.frameInfo.blockSizeID = LZ4F_max64KB;
  preferences.frameInfo.blockMode = param % 2 == 0 ? LZ4F_blockLinked : LZ4F_blockIndependent;
  preferences.frameInfo.contentChecksumFlag =
      param % 3 == 0 ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
  preferences.frameInfo.contentSize = param % 4 < 2 ? payload.size() : 0;
  preferences.frameInfo.blockChecksumFlag =
      param % 5 == 0 ? LZ4F_blockChecksumEnabled : LZ4F_noBlockChecksum;
  Bytes compressed(LZ4F_compressFrameBound(payload.size(), &preferences));
  const size_t n = LZ4F_compressFrame(compressed.data(), compressed.size(), payload.data(),
                                      payload.size(), &preferences);
  agree(!LZ4F_isError(n));
  compressed.resize(n);
  return compressed;
}

/// zlib's deflate: windowBits 15 for a zlib header, 31 for gzip's, -15 for raw deflate.
Bytes deflateBytes(Input payload, int windowBits, int level) {
  // One deflate state per header kind and level, reset between inputs: a new one
  // allocates its window and tables each time.
  struct Deflater {
    z_stream stream{};
    bool ready = false;
  };
  static Deflater deflaters[3][10];
  Deflater& deflater = deflaters[windowBits < 0 ? 0 : windowBits == 15 ? 1 : 2][level];
  z_stream& stream = deflater.stream;
  if (!deflater.ready) {
    agree(deflateInit2(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    deflater.ready = true;
  } else {
    agree(deflateReset(&stream) == Z_OK);
  }
  Bytes compressed(deflateBound(&stream, static_cast<uLong>(payload.size())) + 16);
  stream.next_in = const_cast<Bytef*>(payload.data());
  stream.avail_in = static_cast<uInt>(payload.size());
  stream.next_out = compressed.data();
  stream.avail_out = static_cast<uInt>(compressed.size());
  const int rc = deflate(&stream, Z_FINISH);
  compressed.resize(stream.total_out);
  agree(rc == Z_STREAM_END);
  return compressed;
}

void expectRoundTrip(CompressionCodec codec, Input compressed, Input payload) {
  const auto ours = quarryDecompress(codec, compressed, payload.size());
  agree(ours.has_value() && equal(*ours, payload));
}

void roundTrip(unsigned param, Input payload, uint32_t size) {
  const unsigned variant = param / 7;
  switch (param % 7) {
    case 0: {
      const std::string compressed = snappyCompress(payload);
      const Input bytes(reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size());
      expectRoundTrip(CompressionCodec::SNAPPY, bytes, payload);
      const auto withSlack = quarrySnappyWithSlack(bytes, payload.size());
      agree(withSlack.has_value() && equal(*withSlack, payload));
      return;
    }
    case 1: {
      constexpr int kLevels[] = {-5, 1, 3, 9};
      expectRoundTrip(CompressionCodec::ZSTD, zstdCompress(payload, kLevels[variant % 4]), payload);
      return;
    }
    case 2: {
      const Bytes block = lz4Block(payload);
      expectRoundTrip(CompressionCodec::LZ4_RAW, block, payload);
      // Older parquet-cpp wrote the deprecated LZ4 as a bare block.
      expectRoundTrip(CompressionCodec::LZ4, block, payload);
      return;
    }
    case 3: {
      // Block and chunk sizes from the size field: Hadoop's defaults are larger
      // than a fuzz input, so small ones reach the several-blocks-and-chunks paths.
      const size_t blockSize = size % 4096 + 1;
      const size_t chunkSize = (size >> 12) % blockSize + 1;
      expectRoundTrip(CompressionCodec::LZ4, lz4HadoopFramed(payload, blockSize, chunkSize),
                      payload);
      return;
    }
    case 4: {
      Bytes frames = lz4Frame(payload, variant);
      if (variant % 2 == 1) {
        // Two frames in a row, the second empty, as concatenating writers leave them.
        const Bytes empty = lz4Frame({}, variant);
        frames.insert(frames.end(), empty.begin(), empty.end());
      }
      expectRoundTrip(CompressionCodec::LZ4, frames, payload);
      return;
    }
    case 5:
      expectRoundTrip(CompressionCodec::GZIP,
                      deflateBytes(payload, 31, static_cast<int>(variant % 10)), payload);
      return;
    default:
      expectRoundTrip(CompressionCodec::GZIP,
                      deflateBytes(payload, 15, static_cast<int>(variant % 10)), payload);
      return;
  }
}

/// One ORC chunk: compressed by `kind`'s library, or nullopt to store it original.
std::optional<Bytes> orcCompressChunk(quarry::orc::CompressionKind kind, Input chunk,
                                      unsigned variant) {
  using quarry::orc::CompressionKind;
  Bytes compressed;
  switch (kind) {
    case CompressionKind::kZlib:
      compressed = deflateBytes(chunk, -15, static_cast<int>(variant % 10));
      break;
    case CompressionKind::kSnappy: {
      const std::string s = snappyCompress(chunk);
      compressed.assign(s.begin(), s.end());
      break;
    }
    case CompressionKind::kLz4:
      compressed = lz4Block(chunk);
      break;
    default:
      compressed = zstdCompress(chunk, 1 + static_cast<int>(variant % 3));
      break;
  }
  if (compressed.size() >= chunk.size()) return std::nullopt;
  return compressed;
}

void orcStreams(unsigned param, Input payload, uint32_t size) {
  using quarry::orc::CompressionKind;
  constexpr CompressionKind kKinds[] = {CompressionKind::kZlib, CompressionKind::kSnappy,
                                        CompressionKind::kLz4, CompressionKind::kZstd};
  const CompressionKind kind = kKinds[param % 4];
  const unsigned variant = param / 4;
  quarry::orc::CompressionSettings settings;
  settings.kind = kind;
  // A block size small enough for a fuzz input to span several chunks (a chunk's
  // 3-byte header holds at most 2^23 - 1).
  settings.blockSize = size % 8192 + 1;
  // The payload itself as a stream of every codec.
  for (const CompressionKind any : kKinds) {
    quarry::orc::CompressionSettings anySettings = settings;
    anySettings.kind = any;
    try {
      quarry::orc::decompressStream(anySettings, payload, "fuzz");
    } catch (const quarry::CorruptFile&) {
    }
  }
  Bytes stream;
  for (size_t at = 0; at < payload.size(); at += settings.blockSize) {
    const Input chunk =
        payload.subspan(at, std::min<size_t>(settings.blockSize, payload.size() - at));
    const std::optional<Bytes> compressed = orcCompressChunk(kind, chunk, variant);
    const Input body = compressed ? Input(*compressed) : chunk;
    const uint32_t header = static_cast<uint32_t>(body.size()) * 2 + (compressed ? 0 : 1);
    stream.insert(stream.end(), {static_cast<uint8_t>(header), static_cast<uint8_t>(header >> 8),
                                 static_cast<uint8_t>(header >> 16)});
    stream.insert(stream.end(), body.begin(), body.end());
  }
  const Bytes decoded = quarry::orc::decompressStream(settings, stream, "fuzz");
  agree(equal(decoded, payload));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t kHeaderSize = 5;
  if (size < kHeaderSize) return 0;
  const unsigned mode = data[0] % 6;
  const unsigned param = data[0] / 6;
  const uint32_t outputSize = (uint32_t{data[1]} | (uint32_t{data[2]} << 8) |
                               (uint32_t{data[3]} << 16) | (uint32_t{data[4]} << 24)) %
                              (kMaxOutputSize + 1);
  const Input payload(data + kHeaderSize, size - kHeaderSize);
  switch (mode) {
    case 0:
      anyCodec(param, payload, outputSize);
      break;
    case 1:
      snappyAgainstLibsnappy(payload);
      break;
    case 2:
      zstdAgainstLibzstd(payload, outputSize);
      break;
    case 3:
      lz4AgainstLiblz4(payload, outputSize);
      break;
    case 4:
      roundTrip(param, payload, outputSize);
      break;
    default:
      orcStreams(param, payload, outputSize);
      break;
  }
  return 0;
}
