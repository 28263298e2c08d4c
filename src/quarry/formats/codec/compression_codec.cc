#include "quarry/formats/codec/compression_codec.h"

#include <array>
#include <string_view>

namespace quarry::parquet {

std::string toString(CompressionCodec v) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
  const auto i = static_cast<int32_t>(v);
  if (i >= 0 && static_cast<size_t>(i) < kNames.size()) return std::string(kNames[i]);
  return "UNKNOWN(" + std::to_string(i) + ")";
}

}  // namespace quarry::parquet
