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

/// Appends `count` dictionary indices of a data page's values section (RLE_DICTIONARY
/// or PLAIN_DICTIONARY) to `out.dictionaryIds`, checking each below the size of
/// `out.dictionary` (an index out of range is CorruptFile).
void appendDictionaryIds(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out);

/// Turns a chunk in the dictionary form (ColumnChunkData::dictionary) into the
/// plain one: its values' bytes copied out of the dictionary into offsets and
/// byteData. Does nothing to a chunk in the plain form.
void materializeDictionaryIds(ColumnChunkData& out);

}  // namespace quarry::parquet
