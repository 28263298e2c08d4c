#include "quarry/engine/source/file_split_provider.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/engine/source/orc_file_statistics.h"
#include "quarry/engine/source/parquet_file_statistics.h"
#include "quarry/formats/parquet/row_limits.h"

namespace quarry::engine {
namespace {

uint64_t endOf(const SplitUnit& unit) {
  return unit.start + unit.length;
}

void requireOrdered(const std::vector<SplitUnit>& units, const std::string& uri,
                    const char* unitName) {
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].length > UINT64_MAX - units[i].start) {
      throw CorruptFile(uri + ": " + unitName + " " + std::to_string(i) + " extends past 2^64");
    }
    if (i > 0 && units[i].start < endOf(units[i - 1])) {
      throw CorruptFile(uri + ": " + unitName + " " + std::to_string(i) + " starts at byte " +
                        std::to_string(units[i].start) + ", inside or before " + unitName + " " +
                        std::to_string(i - 1) + " (ending at byte " +
                        std::to_string(endOf(units[i - 1])) + ")");
    }
  }
}

template <typename StatisticsOf>
std::vector<FileSplit> makeSplits(const std::string& uri, const char* format,
                                  const std::vector<SplitUnit>& units, const SplitOptions& options,
                                  StatisticsOf statisticsOf) {
  std::vector<FileSplit> splits;
  for (const auto& [first, last] : coalesceUnits(units, options.targetSplitBytes)) {
    FileSplit split;
    split.uri = uri;
    split.format = format;
    split.start = units[first].start;
    split.length = endOf(units[last - 1]) - split.start;
    split.units = last - first;
    if (options.withStatistics) {
      split.statistics = std::make_shared<const SourceStatistics>(statisticsOf(first, last - first));
    }
    splits.push_back(std::move(split));
  }
  return splits;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> coalesceUnits(const std::vector<SplitUnit>& units,
                                                     uint64_t targetBytes) {
  std::vector<std::pair<size_t, size_t>> runs;
  size_t first = 0;
  for (size_t i = 1; i <= units.size(); ++i) {
    const bool fits = i < units.size() && endOf(units[i]) - units[first].start <= targetBytes;
    if (!fits) {
      runs.emplace_back(first, i);
      first = i;
    }
  }
  if (units.empty()) runs.clear();
  return runs;
}

std::vector<FileSplit> FileSplitProvider::parquetSplits(const std::string& uri,
                                                        const parquet::FileMetaData& metadata,
                                                        const parquet::FileSchema& schema,
                                                        const SplitOptions& options) {
  std::vector<SplitUnit> units;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const parquet::RowGroup& group = metadata.row_groups[g];
    // The extent is placed where the reader places the row group: its midpoint
    // is start + size / 2, so [start, start + size) holds it (one byte at least).
    const int64_t midpoint = parquet::rowGroupMidpoint(group, g, uri);
    // The size the midpoint was computed from (rowGroupMidpoint's two cases).
    int64_t size = 0;
    if (!group.columns.empty() && group.columns[0].meta_data) {
      for (const parquet::ColumnChunk& chunk : group.columns) {
        if (chunk.meta_data &&
            __builtin_add_overflow(size, chunk.meta_data->total_compressed_size, &size)) {
          throw CorruptFile(uri + ": row group " + std::to_string(g) +
                            " has column sizes that overflow");
        }
      }
    } else {
      size = group.total_compressed_size.value_or(0);
    }
    const int64_t start = midpoint - size / 2;
    if (start < 0 || size < 0) {
      throw CorruptFile(uri + ": row group " + std::to_string(g) +
                        " has a negative offset or size");
    }
    units.push_back(
        {static_cast<uint64_t>(start), static_cast<uint64_t>(std::max<int64_t>(size, 1))});
  }
  requireOrdered(units, uri, "row group");
  return makeSplits(uri, "parquet", units, options, [&](size_t first, size_t count) {
    return ParquetFileStatistics::extractRowGroups(metadata, schema, first, count);
  });
}

std::vector<FileSplit> FileSplitProvider::orcSplits(const std::string& uri,
                                                    const orc::OrcTail& tail,
                                                    const orc::OrcSchema& schema,
                                                    const SplitOptions& options) {
  std::vector<SplitUnit> units;
  for (int s = 0; s < tail.footer.stripes_size(); ++s) {
    const auto& stripe = tail.footer.stripes(s);
    const uint64_t length = stripe.indexlength() + stripe.datalength() + stripe.footerlength();
    units.push_back({stripe.offset(), std::max<uint64_t>(length, 1)});
  }
  requireOrdered(units, uri, "stripe");
  return makeSplits(uri, "orc", units, options, [&](size_t first, size_t count) {
    return OrcFileStatistics::extractStripes(tail, schema, first, count);
  });
}

}  // namespace quarry::engine
