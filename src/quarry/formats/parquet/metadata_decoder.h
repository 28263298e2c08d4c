#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "quarry/formats/parquet/metadata.h"

/// Decoding of Parquet's thrift-compact metadata structures from raw bytes.
/// Every function throws CorruptFile (with the byte offset and what was expected)
/// when the bytes are not a valid encoding; none reads past `bytes`, recurses
/// without bound, or allocates more than the input could describe.
namespace quarry::parquet {

/// Chooses what decodeFileMetaData materializes. Skipped fields are stepped
/// over without being built, which is what makes footers of wide files cheap
/// when only a few columns are projected.
struct FileMetaDataOptions {
  /// When non-empty, column chunk i of every row group keeps its statistics,
  /// size statistics, geospatial statistics, encoding stats and key-value
  /// metadata only if wantColumn[i] is true (indices past the end count as true).
  std::vector<bool> wantColumn;
  /// When false, no column chunk keeps statistics of any kind.
  bool statistics = true;
  /// When false, file and column key-value metadata are skipped.
  bool keyValueMetadata = true;
};

/// Decodes a FileMetaData from the footer bytes (without the 8-byte trailer).
FileMetaData decodeFileMetaData(std::span<const uint8_t> bytes,
                                const FileMetaDataOptions& options = {});

/// Decodes a PageHeader at the start of `bytes`; sets `headerSize` to the
/// number of bytes it occupied.
PageHeader decodePageHeader(std::span<const uint8_t> bytes, uint32_t& headerSize);

ColumnIndex decodeColumnIndex(std::span<const uint8_t> bytes);
OffsetIndex decodeOffsetIndex(std::span<const uint8_t> bytes);

/// Decodes a BloomFilterHeader at the start of `bytes`; sets `headerSize`.
BloomFilterHeader decodeBloomFilterHeader(std::span<const uint8_t> bytes, uint32_t& headerSize);

}  // namespace quarry::parquet
