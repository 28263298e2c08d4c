#include "quarry/formats/codec/compression.h"

#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/formats/codec/lz4_decompression.h"
#include "quarry/formats/codec/snappy_decompression.h"

namespace quarry::parquet {
namespace {

[[noreturn]] void throwCorrupt(CompressionCodec codec, std::string_view reason,
                               std::span<const uint8_t> input, std::span<uint8_t> output) {
  throw CorruptFile(toString(codec) + " page data does not decompress: " + std::string(reason) +
                    " (compressed size " + std::to_string(input.size()) +
                    ", uncompressed size in the page header " + std::to_string(output.size()) +
                    ")");
}

[[noreturn]] void throwWrongSize(CompressionCodec codec, size_t decoded,
                                 std::span<const uint8_t> input, std::span<uint8_t> output) {
  throwCorrupt(codec, "it decompresses to " + std::to_string(decoded) + " bytes", input, output);
}

/// Returns a pointer libraries may be handed for `output`: some (zlib) refuse a
/// null output pointer even when its capacity is zero.
uint8_t* writablePointer(std::span<uint8_t> output) {
  thread_local uint8_t emptyOutput = 0;
  return output.empty() ? &emptyOutput : output.data();
}

void copyUncompressed(std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (input.size() != output.size()) {
    throwCorrupt(CompressionCodec::UNCOMPRESSED,
                 "the compressed and uncompressed sizes of an uncompressed page differ", input,
                 output);
  }
  if (!output.empty()) std::memcpy(output.data(), input.data(), output.size());
}

void decompressSnappy(std::span<const uint8_t> input, std::span<uint8_t> output,
                      size_t outputSlack) {
  const auto announced = snappyUncompressedLength(input);
  if (!announced) {
    throwCorrupt(CompressionCodec::SNAPPY, "the length preamble is malformed", input, output);
  }
  if (*announced != output.size()) {
    throwCorrupt(CompressionCodec::SNAPPY,
                 "its preamble announces " + std::to_string(*announced) + " bytes", input, output);
  }
  // quarry's own decoder (snappy_decompression.h): bounds-checked on every
  // element, and free to use the slack the reader leaves after its page buffer.
  if (const char* reason = decompressSnappyBlock(input, output, outputSlack)) {
    throwCorrupt(CompressionCodec::SNAPPY, reason, input, output);
  }
}

/// One zlib inflate state per thread, reset between pages instead of rebuilt.
class GzipInflater {
 public:
  GzipInflater() {
    // 15 + 32: the largest window, and the header (gzip or zlib) detected.
    if (inflateInit2(&stream_, 15 + 32) != Z_OK) throw std::bad_alloc();
  }
  ~GzipInflater() { inflateEnd(&stream_); }
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  void decompress(std::span<const uint8_t> input, std::span<uint8_t> output) {
    constexpr auto codec = CompressionCodec::GZIP;
    if (input.size() > UINT_MAX || output.size() > UINT_MAX) {
      throwCorrupt(codec, "the page is larger than zlib can take in one call", input, output);
    }
    inflateReset(&stream_);
    stream_.next_in = const_cast<Bytef*>(input.data());
    stream_.avail_in = static_cast<uInt>(input.size());
    stream_.next_out = writablePointer(output);
    stream_.avail_out = static_cast<uInt>(output.size());
    while (true) {
      const int rc = inflate(&stream_, Z_FINISH);
      if (rc == Z_STREAM_END) {
        if (stream_.avail_in == 0) break;
        // Concatenated gzip members (as `cat a.gz b.gz` makes) are one stream
        // to gzip(1), and some writers produce them: continue with the next.
        inflateReset(&stream_);
        continue;
      }
      if (rc == Z_BUF_ERROR && stream_.avail_out == 0) {
        throwCorrupt(codec, "it decompresses to more bytes than that", input, output);
      }
      if (rc == Z_BUF_ERROR) {
        throwCorrupt(codec, "the stream is truncated", input, output);
      }
      if (rc == Z_MEM_ERROR) throw std::bad_alloc();
      const std::string reason = stream_.msg != nullptr ? stream_.msg : "zlib error";
      throwCorrupt(codec, reason + " (zlib code " + std::to_string(rc) + ")", input, output);
    }
    const size_t decoded = output.size() - stream_.avail_out;
    if (decoded != output.size()) throwWrongSize(codec, decoded, input, output);
  }

 private:
  z_stream stream_{};
};

void decompressGzip(std::span<const uint8_t> input, std::span<uint8_t> output) {
  thread_local GzipInflater inflater;
  inflater.decompress(input, output);
}

struct ZstdContextDeleter {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

void decompressZstd(std::span<const uint8_t> input, std::span<uint8_t> output) {
  thread_local const std::unique_ptr<ZSTD_DCtx, ZstdContextDeleter> context(ZSTD_createDCtx());
  if (context == nullptr) throw std::bad_alloc();
  // Decodes every frame in the input, concatenated frames and skippable frames included.
  const size_t decoded = ZSTD_decompressDCtx(context.get(), writablePointer(output), output.size(),
                                             input.data(), input.size());
  if (ZSTD_isError(decoded)) {
    throwCorrupt(CompressionCodec::ZSTD, ZSTD_getErrorName(decoded), input, output);
  }
  if (decoded != output.size()) throwWrongSize(CompressionCodec::ZSTD, decoded, input, output);
}

void decompressBrotli(std::span<const uint8_t> input, std::span<uint8_t> output) {
  size_t decoded = output.size();
  const BrotliDecoderResult result =
      BrotliDecoderDecompress(input.size(), input.data(), &decoded, writablePointer(output));
  if (result != BROTLI_DECODER_RESULT_SUCCESS) {
    // One-shot decoding reports "more output needed" as an error too.
    throwCorrupt(CompressionCodec::BROTLI, "the stream is malformed, truncated or longer than that",
                 input, output);
  }
  if (decoded != output.size()) throwWrongSize(CompressionCodec::BROTLI, decoded, input, output);
}

}  // namespace

void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output) {
  decompress(codec, input, output, 0);
}

void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output,
                size_t outputSlack) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      copyUncompressed(input, output);
      return;
    case CompressionCodec::LZO:
      throw Unsupported(
          "LZO compression is not supported in Parquet pages (the Parquet spec never fixed "
          "LZO's framing; ORC's LZO is read); rewrite the file with another codec, such as "
          "ZSTD or SNAPPY (codec LZO)");
    case CompressionCodec::SNAPPY:
    case CompressionCodec::GZIP:
    case CompressionCodec::BROTLI:
    case CompressionCodec::LZ4:
    case CompressionCodec::ZSTD:
    case CompressionCodec::LZ4_RAW:
      break;
    default:
      throw Unsupported("unknown compression codec; the spec defines ids 0 to 7 (codec id " +
                        std::to_string(static_cast<int32_t>(codec)) + ")");
  }
  // A page section with nothing in it, such as the values of a DATA_PAGE_V2
  // whose values are all null, may be stored as zero bytes whatever the codec.
  if (input.empty() && output.empty()) return;

  switch (codec) {
    case CompressionCodec::SNAPPY:
      decompressSnappy(input, output, outputSlack);
      return;
    case CompressionCodec::GZIP:
      decompressGzip(input, output);
      return;
    case CompressionCodec::ZSTD:
      decompressZstd(input, output);
      return;
    case CompressionCodec::BROTLI:
      decompressBrotli(input, output);
      return;
    case CompressionCodec::LZ4_RAW:
      if (!decompressLz4Block(input, output)) {
        throwCorrupt(codec, "it is not an LZ4 block of exactly that many bytes", input, output);
      }
      return;
    case CompressionCodec::LZ4:
      if (!decompressLz4Legacy(input, output)) {
        throwCorrupt(codec,
                     "it is neither Hadoop-framed LZ4, a bare LZ4 block nor LZ4 frames of exactly "
                     "that many bytes",
                     input, output);
      }
      return;
    default:
      return;  // refused above
  }
}

}  // namespace quarry::parquet
