#pragma once

#include <memory>

#include "quarry/engine/source/format_reader.h"
#include "quarry/formats/parquet/footer_cache.h"
#include "quarry/io/storage.h"

/// Reading one split of a Parquet file as engine pages (ParquetFormatReader::read):
/// the footer through the reader's cache, the split's row groups through
/// ColumnReaders with the request's projection, filter, limit and byte ranges, and
/// each batch converted to Blocks of the engine types ParquetFormatReader maps
/// (values widened to the query's type where schemas differ, strings kept in
/// dictionary form where every page of a chunk is, lists as list blocks).
namespace quarry::engine {

class ParquetFormatReader;

/// Returns the supplier of `split`'s pages for `request`; the file is opened on
/// the first call.
LocalSupplier scanParquetSplit(const ParquetFormatReader& owner, const FileSplit& split,
                               const ReadRequest& request);

/// Returns the footer of `object` through `cache` (decoded at most once per uri,
/// size and version within the process).
std::shared_ptr<const parquet::ParquetFooter> cachedFooter(parquet::FooterCache& cache,
                                                           io::StorageObject& object);

}  // namespace quarry::engine
