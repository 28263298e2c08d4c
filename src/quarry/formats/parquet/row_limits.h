#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/metadata.h"

/// Row limits (head, skip, tail) and byte-range splits of a RowReader, and the
/// plan they make over a file's row groups before any data is read.
///
/// query-controls.txt names these controls ("see Predicate Pushdown, Projection,
/// Limits, and Splits") without defining them; the semantics follow that page
/// of the upstream documentation:
/// - byteRange(start, end) keeps the row groups whose midpoint (the start of the
///   first column chunk plus half the row group's compressed size, the Hadoop
///   split convention of parquet-mr) lies in [start, end); several ranges
///   intersect; end < start is an empty range. Granularity is the row group.
/// - skip(n) starts at row n of the kept row groups: whole row groups before it
///   are not read. skip(0) is the default. n equal to the kept rows gives an
///   empty reader; n above them is rejected.
/// - tail(n) reads the last n rows of the file: earlier row groups are not read.
/// - head(n) stops after n returned rows (matching rows, with a filter): no row
///   group beyond the one holding the n-th row is read. It applies after skip
///   or tail, so skip(s).head(n) is the window [s, s + n).
/// - Rejected at build(): skip with a filter (an OFFSET over the filtered rows
///   is not supported), tail with a filter, tail with skip, tail with a byte
///   range (tail needs the total row count, which a byte range changes).
namespace quarry::parquet {

/// One [start, end) byte range of a split.
struct ByteRange {
  int64_t start = 0;
  int64_t end = 0;
  bool contains(int64_t offset) const { return offset >= start && offset < end; }
};

struct RowLimits {
  /// Rows of the kept row groups to pass over first (0: none).
  int64_t skip = 0;
  /// Rows to return at most.
  std::optional<int64_t> head;
  /// Rows at the end of the file to read.
  std::optional<int64_t> tail;
  /// Ranges whose intersection selects the row groups by midpoint (none: every row group).
  std::vector<ByteRange> byteRanges;

  /// Throws InvalidArgument naming the argument when `n` is negative.
  static void requireCount(const char* control, int64_t n);
};

/// What a RowReader reads of a file, decided from the footer alone.
struct RowGroupPlan {
  /// Per row group: whether its midpoint lies in every byte range.
  std::vector<bool> inByteRange;
  /// Rows of the kept row groups before the first row to return (skip or tail).
  int64_t firstRow = 0;
  /// Rows to return at most (head).
  std::optional<int64_t> maxRows;
};

/// Returns the byte offset of `group`'s midpoint: the start of its first column
/// chunk (its dictionary page where it has one, else its first data page) plus
/// half the sum of its chunks' total_compressed_size. A first chunk without
/// metadata (an encrypted footer) falls back to RowGroup.file_offset and
/// total_compressed_size. Throws CorruptFile naming `uri` and the row group when
/// neither is there.
int64_t rowGroupMidpoint(const RowGroup& group, size_t index, const std::string& uri);

/// Validates `limits` against each other and the filter, and plans the row groups
/// of `metadata`. Throws InvalidArgument for a rejected combination or a skip past
/// the kept rows, naming the controls and their values.
RowGroupPlan planRowGroups(const FileMetaData& metadata, const RowLimits& limits, bool hasFilter,
                           const std::string& uri);

}  // namespace quarry::parquet
