#include "quarry/formats/parquet/page_header_index.h"

#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/metadata_decoder.h"

namespace quarry::parquet {

std::optional<PageHeaderIndex> indexPageHeaders(std::span<const uint8_t> bytes, uint64_t fileOffset,
                                                const ColumnMetaData& meta, const SchemaNode& leaf,
                                                int64_t groupRows) {
  PageHeaderIndex out;
  bool anyStatistics = false;
  int64_t rows = 0;
  int64_t values = 0;
  size_t pos = 0;
  // As the chunk decoder does: pages until the chunk's values are all seen.
  while (pos < bytes.size() && values < meta.num_values) {
    const size_t start = pos;
    uint32_t headerSize = 0;
    PageHeader header;
    try {
      header = decodePageHeader(bytes.subspan(pos), headerSize);
    } catch (const CorruptFile&) {
      return std::nullopt;
    }
    pos += headerSize;
    if (header.compressed_page_size < 0 ||
        static_cast<uint64_t>(header.compressed_page_size) > bytes.size() - pos) {
      return std::nullopt;
    }
    pos += static_cast<size_t>(header.compressed_page_size);
    int64_t pageRows = 0;
    int64_t pageValues = 0;
    const std::optional<Statistics>* statistics = nullptr;
    if (header.type == PageType::DATA_PAGE && header.data_page_header) {
      if (leaf.maxRepetitionLevel > 0) return std::nullopt;
      pageValues = header.data_page_header->num_values;
      pageRows = pageValues;
      statistics = &header.data_page_header->statistics;
    } else if (header.type == PageType::DATA_PAGE_V2 && header.data_page_header_v2) {
      pageValues = header.data_page_header_v2->num_values;
      pageRows = header.data_page_header_v2->num_rows;
      // Not repeated: one level entry per row, whatever num_rows says.
      if (leaf.maxRepetitionLevel == 0 && pageRows != pageValues) return std::nullopt;
      statistics = &header.data_page_header_v2->statistics;
    } else if (header.type == PageType::DATA_PAGE || header.type == PageType::DATA_PAGE_V2) {
      return std::nullopt;  // a data page without its header: decoding reports it
    } else {
      continue;  // dictionary and index pages hold no rows
    }
    if (pageRows <= 0 || pageValues < 0 || pageRows > groupRows - rows ||
        pos - start > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return std::nullopt;
    }
    out.offsetIndex.page_locations.push_back(
        {static_cast<int64_t>(fileOffset + start), static_cast<int32_t>(pos - start), rows});
    out.statistics.push_back(*statistics);
    anyStatistics = anyStatistics || statistics->has_value();
    rows += pageRows;
    values += pageValues;
  }
  if (!anyStatistics || rows != groupRows || values != meta.num_values) return std::nullopt;
  return out;
}

}  // namespace quarry::parquet
