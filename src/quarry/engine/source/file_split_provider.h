#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/engine/source/file_split.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_tail.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/schema.h"

/// Cuts a file into FileSplits from its footer: one per Parquet row group or
/// ORC stripe, with adjacent small ones coalesced up to a target size. A
/// split's byte range is the extent of its row groups / stripes (from the start
/// of the first to the end of the last), so a reader that keeps the row groups
/// whose midpoint lies in the range (parquet/row_limits.h) reads exactly them.
/// Each split carries the statistics of its rows, taken from the footer already
/// read (ParquetFileStatistics / OrcFileStatistics).
namespace quarry::engine {

struct SplitOptions {
  /// Adjacent units are coalesced while the split stays at or under this many
  /// bytes; a unit larger than it is a split of its own.
  uint64_t targetSplitBytes = 128ull << 20;
  /// Whether splits carry SourceStatistics.
  bool withStatistics = true;
};

/// One row group or stripe: its extent and position.
struct SplitUnit {
  uint64_t start = 0;
  uint64_t length = 0;
};

/// Groups consecutive `units` (in file order) into runs whose total extent stays
/// within `targetBytes`; returns each run as [first index, end index).
std::vector<std::pair<size_t, size_t>> coalesceUnits(const std::vector<SplitUnit>& units,
                                                     uint64_t targetBytes);

class FileSplitProvider {
 public:
  /// Splits of a Parquet file. Throws CorruptFile naming `uri` for a row group
  /// that cannot be placed (see rowGroupMidpoint) or that lies before another.
  static std::vector<FileSplit> parquetSplits(const std::string& uri,
                                              const parquet::FileMetaData& metadata,
                                              const parquet::FileSchema& schema,
                                              const SplitOptions& options = {});
  /// Splits of an ORC file. Throws CorruptFile naming `uri` for stripes out of order.
  static std::vector<FileSplit> orcSplits(const std::string& uri, const orc::OrcTail& tail,
                                          const orc::OrcSchema& schema,
                                          const SplitOptions& options = {});
};

}  // namespace quarry::engine
