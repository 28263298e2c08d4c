// libFuzzer target for page decompression. The first input byte picks the
// codec (ids past the spec's included, to reach the refusal path), the next
// four (little-endian) the uncompressed size, capped at 1 MiB as a page
// header's would be by the reader, and the rest is the compressed page.
// Every input must end in decompressed bytes or one of quarry's errors. SNAPPY
// inputs also go to quarry's snappy decoder directly, with output slack.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/codec/snappy_decompression.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t kHeaderSize = 5;
  constexpr uint32_t kMaxOutputSize = 1 << 20;
  if (size < kHeaderSize) return 0;
  const auto codec = static_cast<quarry::parquet::CompressionCodec>(data[0] % 9);
  const uint32_t outputSize = (uint32_t{data[1]} | (uint32_t{data[2]} << 8) |
                               (uint32_t{data[3]} << 16) | (uint32_t{data[4]} << 24)) %
                              (kMaxOutputSize + 1);
  std::vector<uint8_t> output(outputSize);
  try {
    quarry::parquet::decompress(codec, std::span(data + kHeaderSize, size - kHeaderSize), output);
  } catch (const quarry::Error&) {
  }
  if (codec == quarry::parquet::CompressionCodec::SNAPPY) {
    // quarry's snappy decoder with slack after the output, as the page reader
    // calls it: its wide copies may write there, never past it (ASan checks).
    constexpr size_t kSlack = 64;
    std::vector<uint8_t> padded(outputSize + kSlack);
    quarry::parquet::decompressSnappyBlock(std::span(data + kHeaderSize, size - kHeaderSize),
                                           std::span(padded.data(), outputSize), kSlack);
  }
  return 0;
}
