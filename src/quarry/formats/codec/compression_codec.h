#pragma once

#include <cstdint>
#include <string>

/// The compression codecs' ids as Parquet's thrift definition numbers them
/// (ColumnMetaData.codec): what codec/compression.h decompresses by, read into
/// the footer's structures (parquet/metadata.h).
namespace quarry::parquet {

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,
  ZSTD = 6,
  LZ4_RAW = 7,
};

/// The spec's name, or "UNKNOWN(<n>)" for an id a newer writer may use.
std::string toString(CompressionCodec v);

}  // namespace quarry::parquet
