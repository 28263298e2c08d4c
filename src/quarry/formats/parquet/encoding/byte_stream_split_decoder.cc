#include "quarry/formats/parquet/encoding/byte_stream_split_decoder.h"

#include <algorithm>
#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

/// Gathers `count` values of a compile-time width: the inner loop has a constant
/// trip count, which lets the compiler turn the transposition into shuffles.
template <size_t kWidth>
void mergeStreams(const uint8_t* streams, size_t streamLength, size_t first, size_t count,
                  uint8_t* out) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < kWidth; ++k) {
      out[i * kWidth + k] = streams[k * streamLength + first + i];
    }
  }
}

void mergeStreams(const uint8_t* streams, size_t streamLength, size_t width, size_t first,
                  size_t count, uint8_t* out) {
  // Stream by stream: each pass reads one stream sequentially, writing with a
  // stride, which keeps wide FIXED_LEN_BYTE_ARRAY values cache-friendly.
  for (size_t k = 0; k < width; ++k) {
    const uint8_t* stream = streams + k * streamLength + first;
    for (size_t i = 0; i < count; ++i) out[i * width + k] = stream[i];
  }
}

}  // namespace

ByteStreamSplitDecoder::ByteStreamSplitDecoder(std::span<const uint8_t> data, size_t width)
    : data_(data), width_(width) {
  if (width == 0) throw InvalidArgument("BYTE_STREAM_SPLIT: value width must be at least 1");
  if (data.size() % width != 0) {
    throw CorruptFile("BYTE_STREAM_SPLIT data: " + std::to_string(data.size()) +
                      " bytes are not a whole number of " + std::to_string(width) + "-byte values");
  }
  valueCount_ = data.size() / width;
}

void ByteStreamSplitDecoder::checkWidth(size_t size) const {
  if (size != width_) {
    throw InvalidArgument("BYTE_STREAM_SPLIT: decoding " + std::to_string(width_) +
                          "-byte values into an array of " + std::to_string(size) +
                          "-byte elements");
  }
}

size_t ByteStreamSplitDecoder::getBatch(uint8_t* out, size_t n) {
  const size_t count = std::min(n, remaining());
  if (count == 0) return 0;
  const uint8_t* streams = data_.data();
  switch (width_) {
    case 2:
      mergeStreams<2>(streams, valueCount_, next_, count, out);
      break;
    case 4:
      mergeStreams<4>(streams, valueCount_, next_, count, out);
      break;
    case 8:
      mergeStreams<8>(streams, valueCount_, next_, count, out);
      break;
    case 16:
      mergeStreams<16>(streams, valueCount_, next_, count, out);
      break;
    default:
      mergeStreams(streams, valueCount_, width_, next_, count, out);
  }
  next_ += count;
  return count;
}

size_t ByteStreamSplitDecoder::skip(size_t n) {
  const size_t count = std::min(n, remaining());
  next_ += count;
  return count;
}

}  // namespace quarry::parquet
