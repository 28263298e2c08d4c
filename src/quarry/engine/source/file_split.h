#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/source/source_statistics.h"
#include "quarry/io/storage.h"

/// A unit of scan work: a byte range of one file, in one format, optionally
/// carrying the statistics of the rows it covers (known from a footer already
/// read), so that an aggregate can be answered without reading it again.
namespace quarry::engine {

/// Rows [first, end) of a split's row group.
struct RowSpan {
  int64_t first = 0;
  int64_t end = 0;
  bool operator==(const RowSpan&) const = default;
};

/// A hive partition column's value for every row of a file (from its path):
/// the storage form of the column's type, std::monostate for null.
struct PartitionValue {
  std::string column;
  Scalar value;
  bool operator==(const PartitionValue&) const = default;
};

struct FileSplit {
  std::string uri;
  /// The byte range [start, start + length). A reader takes the row groups /
  /// stripes whose midpoint falls in it.
  uint64_t start = 0;
  uint64_t length = 0;
  /// "parquet" or "orc".
  std::string format;
  /// Null when the split's statistics are not known in advance. Shared and
  /// immutable: a plan copies its splits several times (clone, optimizer rules),
  /// and a thousand small files must not mean a thousand copies of each map.
  std::shared_ptr<const SourceStatistics> statistics;
  /// The row groups / stripes the range holds (0 when not known): what the
  /// profile counts when a split is answered from statistics.
  uint64_t units = 0;
  /// The file's size and version (an HTTP ETag) when its footer was read for
  /// the split (0 and absent when not known): a reader reopens the file without
  /// a request, and every answer is still checked against them
  /// (io::ObjectIdentity).
  uint64_t fileSize = 0;
  std::optional<std::string> fileVersion = std::nullopt;
  /// Empty: every row of the split. Otherwise the split is one row group
  /// (units == 1) of which only these rows are read, ascending and disjoint:
  /// what an aggregate answered page by page leaves to scan
  /// (FormatReader::segments).
  std::vector<RowSpan> rows = {};
  /// Where the file is opened; null: by its URI's scheme (io::openObject). A
  /// data node opens its local splits' files through its allowed roots
  /// (cluster/allowed_roots.h), which check each file as they open it. Not
  /// serialized nor compared; units and segments of the split keep it.
  std::shared_ptr<io::StorageProvider> storage = nullptr;
  /// The file's hive partition values (hive_partitioning.h), produced by the
  /// scan as constant columns; units and segments of the split keep them.
  std::vector<PartitionValue> partition = {};

  /// Equal fields but `storage`, the statistics compared by value.
  bool operator==(const FileSplit& other) const;
};

/// The `units` whose byte range lies within `split`'s, in order, with `split`'s
/// uri, format and file identity.
std::vector<FileSplit> unitsWithin(const FileSplit& split, std::vector<FileSplit> units);

/// Opens the file of `split` through its `storage` when set; else with the size
/// and version its footer read learnt, so that a remote file opens without a
/// request (every answer still checked against them).
std::unique_ptr<io::StorageObject> openSplitFile(const FileSplit& split);

/// Encodes `split` as bytes: a version, the fields little-endian, a presence
/// flag before the statistics, the row spans, the partition values last.
std::vector<uint8_t> serialize(const FileSplit& split);

/// Decodes bytes written by serialize. Throws CorruptFile naming the field for
/// truncated input, an unknown version or value tag, a range that overflows,
/// row spans that are empty, negative or out of order, trailing bytes, or a
/// count the remaining bytes cannot hold.
FileSplit deserializeFileSplit(std::span<const uint8_t> bytes);

}  // namespace quarry::engine
