#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/schema.h"

/// Keeping some rows of an assembled row group: what a filtered column reader
/// hands out, a batch that describes the selected rows alone.
///
/// Selection works on the decoded chunks, then assembles them again. A row owns
/// a contiguous run of each chunk's level entries (from an entry of repetition
/// level 0 up to the next one; one entry when the column is not repeated) and a
/// contiguous run of its dense values (those of its entries at the maximum
/// definition level). The kept chunk is the concatenation of the selected rows'
/// runs, i.e. exactly what a row group of only those rows would decode to, so
/// record assembly rebuilds every node's slots (present, offsets, value indices)
/// for the kept rows with no second mechanism to keep in step.
///
/// Example, a list column over rows [a, b], null, [], [c] (levels (r, d):
/// (0,3) (1,3) | (0,0) | (0,1) | (0,3); values a b c), rows {0, 3} kept:
/// levels (0,3) (1,3) (0,3), values a b c; rows {1, 2}: levels (0,0) (0,1), no value.
namespace quarry::parquet {

/// Returns the part of `column` (the chunk of one row group) that holds the rows
/// `rows` (ascending, distinct, each below the row group's row count), built in
/// `reuse`'s memory. A column that is not repeated keeps no definition levels when
/// every kept entry holds a value, as the chunk decoder leaves them.
ColumnChunkData keepRows(const ColumnChunkData& column, std::span<const int64_t> rows,
                         ColumnChunkData reuse = {});

/// Returns a row group of the rows `rows` (ascending indices into `group`) and the
/// columns of `leaves` (each decoded into `group`), its chunks built in `reuse`'s
/// memory. Throws InvalidArgument for a leaf `group` does not hold.
AssembledRowGroup keepRows(const AssembledRowGroup& group, std::span<const int64_t> rows,
                           std::span<const SchemaNode* const> leaves,
                           std::vector<ColumnChunkData> reuse = {});

}  // namespace quarry::parquet
