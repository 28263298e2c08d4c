#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "quarry/common/raw_vector.h"
#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/metadata.h"

/// The values section of Parquet pages: decoding a dictionary page, and
/// appending one data page's non-null values, whatever their encoding, to a
/// ColumnChunkData. Dispatch on encoding and physical type happens once per page;
/// the loops below it run over contiguous batches.
namespace quarry::parquet {

/// A chunk's dictionary, in the same dense form as ColumnChunkData's values.
struct Dictionary {
  size_t count = 0;
  size_t width = 0;  // as ColumnChunkData::valueWidth; 0 for BYTE_ARRAY
  RawVector<uint8_t> fixed;
  RawVector<int64_t> offsets;
  RawVector<uint8_t> bytes;
};

/// Returns the in-memory width of one value of `leaf`'s physical type (0 for BYTE_ARRAY).
size_t valueWidthOf(const SchemaNode& leaf);

/// Decodes a dictionary page's PLAIN values (`numValues` of them).
Dictionary decodeDictionary(std::span<const uint8_t> page, int64_t numValues, const SchemaNode& leaf);
/// Same, into `out`, whose memory is reused.
void decodeDictionary(std::span<const uint8_t> page, int64_t numValues, const SchemaNode& leaf,
                      Dictionary& out);

/// Decodes `count` values of a data page's values section, encoded with
/// `encoding`, and appends them to `out`. `dictionary` is the chunk's dictionary,
/// required by the dictionary encodings.
void appendPageValues(Encoding encoding, std::span<const uint8_t> bytes, size_t count,
                      const Dictionary* dictionary, ColumnChunkData& out);

}  // namespace quarry::parquet
