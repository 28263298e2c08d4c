#pragma once

#include <optional>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/page_values.h"
#include "quarry/io/storage.h"

/// Dictionary pruning (query-controls.txt, "Bloom filter and dictionary
/// pruning"): in a column chunk whose every data page is dictionary-encoded, the
/// dictionary page lists every value the chunk stores, so an eq / in none of
/// whose literals equals a dictionary entry matches no row of the chunk. Entries
/// are compared with the keys row filtering uses (column_keys.h), so NaN, -0.0,
/// unsigned integers, decimals and INT96 bytes behave exactly as they do there.
namespace quarry::parquet {

/// Returns whether `node` (a leaf eq or in) may be decided from a dictionary: not
/// on a BOOLEAN column, not a Decimal on DECIMAL over BYTE_ARRAY and not an
/// Instant on INT96 (the spec's table).
bool dictionaryProbeApplies(const BoundNode& node);

/// Returns whether the chunk's encoding_stats prove that every data page is
/// dictionary-encoded (PLAIN_DICTIONARY or RLE_DICTIONARY), with at least one.
bool fullyDictionaryEncoded(const ColumnMetaData& meta);

/// Reads and decodes only the dictionary page of column chunk `meta` (column
/// `leaf`, row group `rowGroup`): one range read when the chunk records a
/// dictionary_page_offset before its data_page_offset, else the page header then
/// the body. Returns nullopt when the chunk is not fully dictionary-encoded or does
/// not start with a dictionary page. Verifies the page CRC when `verifyChecksums`
/// and the header carries one. Throws CorruptFile naming the file, row group,
/// column and page offset on any defect.
std::optional<Dictionary> readChunkDictionary(io::StorageObject& file, int rowGroup,
                                              const ColumnMetaData& meta, const SchemaNode& leaf,
                                              bool verifyChecksums);

/// Returns whether no entry of `dictionary` satisfies `node` (an eq or in on the
/// dictionary's column): then no row of the chunk does.
bool dictionaryExcludes(const BoundNode& node, const Dictionary& dictionary);

}  // namespace quarry::parquet
