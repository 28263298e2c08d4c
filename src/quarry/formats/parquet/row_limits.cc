#include "quarry/formats/parquet/row_limits.h"

#include <algorithm>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

std::string rangesToString(const std::vector<ByteRange>& ranges) {
  std::string out;
  for (const ByteRange& r : ranges) {
    if (!out.empty()) out += ", ";
    out += "[" + std::to_string(r.start) + ", " + std::to_string(r.end) + ")";
  }
  return out;
}

void rejectCombinations(const RowLimits& limits, bool hasFilter) {
  if (limits.skip > 0 && hasFilter) {
    throw InvalidArgument(
        "RowReader: skip(n) cannot be combined with filter(FilterPredicate), an offset over the "
        "filtered rows is not supported: skip = " + std::to_string(limits.skip));
  }
  if (!limits.tail) return;
  const std::string tail = "tail = " + std::to_string(*limits.tail);
  if (hasFilter) {
    throw InvalidArgument(
        "RowReader: tail(n) cannot be combined with filter(FilterPredicate), the row groups "
        "holding the last matching rows are not known from statistics: " + tail);
  }
  if (limits.skip > 0) {
    throw InvalidArgument("RowReader: tail(n) cannot be combined with skip(n): " + tail +
                          ", skip = " + std::to_string(limits.skip));
  }
  if (!limits.byteRanges.empty()) {
    throw InvalidArgument(
        "RowReader: tail(n) cannot be combined with byteRange(start, end), tail needs the file's "
        "total row count, which a byte range changes: " + tail + ", byteRange = " +
        rangesToString(limits.byteRanges));
  }
}

}  // namespace

void RowLimits::requireCount(const char* control, int64_t n) {
  if (n < 0) {
    throw InvalidArgument(std::string("RowReader: ") + control + "(n) needs n >= 0: n = " + std::to_string(n));
  }
}

int64_t rowGroupMidpoint(const RowGroup& group, size_t index, const std::string& uri) {
  if (!group.columns.empty() && group.columns[0].meta_data) {
    const ColumnMetaData& first = *group.columns[0].meta_data;
    int64_t start = first.data_page_offset;
    // Offset 0 is the file's magic, never a page: writers use it to mean "no dictionary".
    if (first.dictionary_page_offset && *first.dictionary_page_offset > 0 &&
        *first.dictionary_page_offset < start) {
      start = *first.dictionary_page_offset;
    }
    int64_t size = 0;
    for (const ColumnChunk& chunk : group.columns) {
      if (chunk.meta_data) size += chunk.meta_data->total_compressed_size;
    }
    return start + size / 2;
  }
  if (group.file_offset && group.total_compressed_size) {
    return *group.file_offset + *group.total_compressed_size / 2;
  }
  throw CorruptFile(uri + ": row group " + std::to_string(index) +
                    " has no column metadata and no file_offset / total_compressed_size to place it by");
}

RowGroupPlan planRowGroups(const FileMetaData& metadata, const RowLimits& limits, bool hasFilter,
                           const std::string& uri) {
  rejectCombinations(limits, hasFilter);
  RowGroupPlan plan;
  plan.maxRows = limits.head;
  plan.inByteRange.assign(metadata.row_groups.size(), true);
  int64_t keptRows = 0;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& group = metadata.row_groups[g];
    if (!limits.byteRanges.empty()) {
      const int64_t midpoint = rowGroupMidpoint(group, g, uri);
      plan.inByteRange[g] = std::all_of(limits.byteRanges.begin(), limits.byteRanges.end(),
                                        [&](const ByteRange& r) { return r.contains(midpoint); });
    }
    if (plan.inByteRange[g]) keptRows += group.num_rows;
  }
  if (limits.skip > keptRows) {
    throw InvalidArgument("RowReader: skip(n) is past the " + std::to_string(keptRows) + " rows of " +
                          (limits.byteRanges.empty() ? std::string() : "the byte range's row groups of ") +
                          uri + ": n = " + std::to_string(limits.skip));
  }
  plan.firstRow = limits.tail ? std::max<int64_t>(0, keptRows - *limits.tail) : limits.skip;
  return plan;
}

}  // namespace quarry::parquet
