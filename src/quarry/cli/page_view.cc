#include "quarry/cli/page_view.h"

#include <algorithm>
#include <optional>

#include "quarry/cli/chunk_reader.h"
#include "quarry/cli/statistics_view.h"
#include "quarry/cli/text_table.h"

namespace quarry::cli {

using parquet::ColumnChunk;
using parquet::PageHeader;

ChunkPages readChunkPages(const InspectedFile& file, size_t rowGroup, size_t column) {
  const ColumnChunk& chunk = file.metadata().row_groups[rowGroup].columns[column];
  ChunkPages result;
  result.where = ChunkLocation{rowGroup, column, file.columnPath(chunk, column)};
  result.valueType = file.valueType(chunk, column);
  result.chunk = &chunk;
  if (!chunk.meta_data.has_value()) {
    result.skipped = "the column chunk has no metadata";
  } else if (chunk.file_path.has_value()) {
    result.skipped = "the column chunk's data is in another file";
  } else {
    result.range = columnChunkRange(file.object(), *chunk.meta_data, result.where);
    result.pages = readPageHeaders(file.object(), result.range, result.where);
  }
  if (chunk.offset_index_offset.has_value() || chunk.offset_index_length.has_value()) {
    result.offsetIndex = readOffsetIndex(file.object(), chunk, result.where);
  }
  if (chunk.column_index_offset.has_value() || chunk.column_index_length.has_value()) {
    result.columnIndex = readColumnIndex(file.object(), chunk, result.where);
  }
  return result;
}

namespace {

std::string pageEncodingText(const PageHeader& header) {
  if (header.data_page_header.has_value()) {
    return parquet::toString(header.data_page_header->encoding);
  }
  if (header.data_page_header_v2.has_value()) {
    return parquet::toString(header.data_page_header_v2->encoding);
  }
  if (header.dictionary_page_header.has_value()) {
    return parquet::toString(header.dictionary_page_header->encoding);
  }
  return "";
}

/// The levels column: v1 pages name their level encodings (def/rep), v2 pages
/// give the byte lengths of their uncompressed level sections.
std::string levelsText(const PageHeader& header) {
  if (header.data_page_header.has_value()) {
    return parquet::toString(header.data_page_header->definition_level_encoding) + "/" +
           parquet::toString(header.data_page_header->repetition_level_encoding);
  }
  if (header.data_page_header_v2.has_value()) {
    return std::to_string(header.data_page_header_v2->definition_levels_byte_length) + "+" +
           std::to_string(header.data_page_header_v2->repetition_levels_byte_length) + " B";
  }
  return "";
}

std::string valuesText(const PageHeader& header) {
  if (header.data_page_header.has_value()) {
    return std::to_string(header.data_page_header->num_values);
  }
  if (header.data_page_header_v2.has_value()) {
    return std::to_string(header.data_page_header_v2->num_values);
  }
  if (header.dictionary_page_header.has_value()) {
    return std::to_string(header.dictionary_page_header->num_values);
  }
  return "";
}

const std::optional<parquet::Statistics>* pageStatistics(const PageHeader& header) {
  if (header.data_page_header.has_value()) {
    return &header.data_page_header->statistics;
  }
  if (header.data_page_header_v2.has_value()) {
    return &header.data_page_header_v2->statistics;
  }
  return nullptr;
}

}  // namespace

void appendPageTable(const ChunkPages& chunk, std::string& out) {
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight},
                   {"offset", Align::kRight},
                   {"type"},
                   {"encoding"},
                   {"levels"},
                   {"header", Align::kRight},
                   {"compressed", Align::kRight},
                   {"uncompressed", Align::kRight},
                   {"values", Align::kRight},
                   {"nulls", Align::kRight},
                   {"rows", Align::kRight},
                   {"crc"},
                   {"statistics"}});
  for (size_t i = 0; i < chunk.pages.size(); ++i) {
    const PageEntry& page = chunk.pages[i];
    const PageHeader& header = page.header;
    const auto& v2 = header.data_page_header_v2;
    const auto* statistics = pageStatistics(header);
    std::string type = parquet::toString(header.type);
    if (v2.has_value() && !v2->is_compressed) {
      type += " (uncompressed)";
    }
    if (header.dictionary_page_header.has_value() &&
        header.dictionary_page_header->is_sorted.value_or(false)) {
      type += " (sorted)";
    }
    table.addRow(
        {std::to_string(i), std::to_string(page.offset), type, pageEncodingText(header),
         levelsText(header), std::to_string(page.headerSize),
         std::to_string(header.compressed_page_size), std::to_string(header.uncompressed_page_size),
         valuesText(header), v2.has_value() ? std::to_string(v2->num_nulls) : "",
         v2.has_value() ? std::to_string(v2->num_rows) : "", header.crc.has_value() ? "yes" : "",
         statistics != nullptr && statistics->has_value()
             ? summarizeStatistics(**statistics, chunk.valueType)
             : ""});
  }
  table.render(out, "  ");
}

namespace {

/// Renders a page bound for a table; a null page's empty bounds show as blank.
std::string pageBoundText(const ChunkPages& chunk, size_t page,
                          const std::vector<std::string>& bounds) {
  if (page >= bounds.size()) {
    return "";
  }
  const auto& nullPages = chunk.columnIndex->null_pages;
  if (bounds[page].empty() && page < nullPages.size() && nullPages[page]) {
    return "";
  }
  return boundText(bounds[page], chunk.valueType, 24);
}

template <typename T>
std::string elementText(const std::optional<std::vector<T>>& values, size_t i) {
  return values.has_value() && i < values->size() ? std::to_string((*values)[i]) : "";
}

}  // namespace

void appendPageIndexTable(const ChunkPages& chunk, std::string& out) {
  const auto& offsetIndex = chunk.offsetIndex;
  const auto& columnIndex = chunk.columnIndex;
  out += "  page index:";
  out += offsetIndex.has_value() ? " offset index" : " no offset index";
  out += columnIndex.has_value() ? ", column index (boundary order " +
                                       parquet::toString(columnIndex->boundary_order) + ")\n"
                                 : ", no column index\n";
  using Align = TextTable::Align;
  TextTable table({{"page", Align::kRight},
                   {"offset", Align::kRight},
                   {"compressed", Align::kRight},
                   {"first row", Align::kRight},
                   {"null page"},
                   {"min"},
                   {"max"},
                   {"nulls", Align::kRight},
                   {"nans", Align::kRight}});
  const size_t locations = offsetIndex.has_value() ? offsetIndex->page_locations.size() : 0;
  const size_t bounded = columnIndex.has_value() ? columnIndex->null_pages.size() : 0;
  for (size_t i = 0; i < std::max(locations, bounded); ++i) {
    std::vector<std::string> row{std::to_string(i)};
    if (i < locations) {
      const auto& location = offsetIndex->page_locations[i];
      row.push_back(std::to_string(location.offset));
      row.push_back(std::to_string(location.compressed_page_size));
      row.push_back(std::to_string(location.first_row_index));
    } else {
      row.insert(row.end(), 3, "");
    }
    if (i < bounded) {
      row.push_back(columnIndex->null_pages[i] ? "yes" : "no");
      row.push_back(pageBoundText(chunk, i, columnIndex->min_values));
      row.push_back(pageBoundText(chunk, i, columnIndex->max_values));
      row.push_back(elementText(columnIndex->null_counts, i));
      row.push_back(elementText(columnIndex->nan_counts, i));
    }
    table.addRow(std::move(row));
  }
  table.render(out, "  ");
}

namespace {

void appendChunkText(const ChunkPages& chunk, std::string& out) {
  out += "\nRow group " + std::to_string(chunk.where.rowGroup) + ", column " +
         std::to_string(chunk.where.column) + ": " + printableText(chunk.where.path, 80);
  if (chunk.chunk->meta_data.has_value()) {
    const auto& meta = *chunk.chunk->meta_data;
    out += " (" + parquet::toString(meta.type) + ", " + parquet::toString(meta.codec) + ")";
  }
  out += "\n";
  if (!chunk.skipped.empty()) {
    out += "  pages not walked: " + chunk.skipped + "\n";
  } else {
    out += "  " + std::to_string(chunk.pages.size()) +
           (chunk.pages.size() == 1 ? " page" : " pages") + " in bytes " +
           std::to_string(chunk.range.start) + ".." +
           std::to_string(chunk.range.start + chunk.range.length) + " (" +
           std::to_string(chunk.range.length) + " bytes)\n";
    if (!chunk.pages.empty()) {
      appendPageTable(chunk, out);
    }
  }
  if (chunk.offsetIndex.has_value() || chunk.columnIndex.has_value()) {
    appendPageIndexTable(chunk, out);
  } else {
    out += "  page index: none\n";
  }
}

}  // namespace

void writePageHeaderJson(const PageEntry& page, const ValueType& valueType, JsonWriter& json) {
  const PageHeader& header = page.header;
  json.beginObject();
  json.field("offset", page.offset);
  json.field("header_size", page.headerSize);
  json.field("type", parquet::toString(header.type));
  json.field("compressed_page_size", header.compressed_page_size);
  json.field("uncompressed_page_size", header.uncompressed_page_size);
  json.field("crc", header.crc);
  const auto statistics = [&](const std::optional<parquet::Statistics>& maybe) {
    json.key("statistics");
    if (maybe.has_value()) {
      writeStatisticsJson(json, *maybe, valueType);
    } else {
      json.null();
    }
  };
  if (const auto& v1 = header.data_page_header) {
    json.key("data_page_header");
    json.beginObject();
    json.field("num_values", v1->num_values);
    json.field("encoding", parquet::toString(v1->encoding));
    json.field("definition_level_encoding", parquet::toString(v1->definition_level_encoding));
    json.field("repetition_level_encoding", parquet::toString(v1->repetition_level_encoding));
    statistics(v1->statistics);
    json.endObject();
  }
  if (const auto& v2 = header.data_page_header_v2) {
    json.key("data_page_header_v2");
    json.beginObject();
    json.field("num_values", v2->num_values);
    json.field("num_nulls", v2->num_nulls);
    json.field("num_rows", v2->num_rows);
    json.field("encoding", parquet::toString(v2->encoding));
    json.field("definition_levels_byte_length", v2->definition_levels_byte_length);
    json.field("repetition_levels_byte_length", v2->repetition_levels_byte_length);
    json.field("is_compressed", v2->is_compressed);
    statistics(v2->statistics);
    json.endObject();
  }
  if (const auto& dictionary = header.dictionary_page_header) {
    json.key("dictionary_page_header");
    json.beginObject(/*isInline=*/true);
    json.field("num_values", dictionary->num_values);
    json.field("encoding", parquet::toString(dictionary->encoding));
    json.field("is_sorted", dictionary->is_sorted);
    json.endObject();
  }
  if (header.has_index_page_header) {
    json.field("index_page_header", true);
  }
  json.endObject();
}

namespace {

void writeInt64ArrayJson(JsonWriter& json, std::string_view name,
                         const std::vector<int64_t>& values) {
  json.key(name);
  json.beginArray(/*isInline=*/true);
  for (int64_t v : values) {
    json.value(v);
  }
  json.endArray();
}

void writeOffsetIndexJson(const parquet::OffsetIndex& index, JsonWriter& json) {
  json.beginObject();
  json.key("page_locations");
  json.beginArray();
  for (const auto& location : index.page_locations) {
    json.beginObject(/*isInline=*/true);
    json.field("offset", location.offset);
    json.field("compressed_page_size", location.compressed_page_size);
    json.field("first_row_index", location.first_row_index);
    json.endObject();
  }
  json.endArray();
  writeInt64ArrayJson(json, "unencoded_byte_array_data_bytes",
                      index.unencoded_byte_array_data_bytes);
  json.endObject();
}

void writeColumnIndexJson(const parquet::ColumnIndex& index, const ValueType& valueType,
                          JsonWriter& json) {
  json.beginObject();
  json.field("boundary_order", parquet::toString(index.boundary_order));
  json.key("pages");
  json.beginArray();
  // Entries are listed as far as any of the parallel lists reaches, so that
  // lists of unequal length (a defect) are visible rather than hidden.
  const size_t pages =
      std::max({index.null_pages.size(), index.min_values.size(), index.max_values.size()});
  for (size_t i = 0; i < pages; ++i) {
    json.beginObject(/*isInline=*/true);
    json.key("null_page");
    i < index.null_pages.size() ? json.value(static_cast<bool>(index.null_pages[i])) : json.null();
    json.key("min");
    i < index.min_values.size() ? writeBoundJson(json, index.min_values[i], valueType)
                                : json.null();
    json.key("max");
    i < index.max_values.size() ? writeBoundJson(json, index.max_values[i], valueType)
                                : json.null();
    json.key("null_count");
    index.null_counts.has_value() && i < index.null_counts->size()
        ? json.value((*index.null_counts)[i])
        : json.null();
    json.key("nan_count");
    index.nan_counts.has_value() && i < index.nan_counts->size()
        ? json.value((*index.nan_counts)[i])
        : json.null();
    json.endObject();
  }
  json.endArray();
  json.field("null_counts_present", index.null_counts.has_value());
  json.field("nan_counts_present", index.nan_counts.has_value());
  writeInt64ArrayJson(json, "repetition_level_histograms", index.repetition_level_histograms);
  writeInt64ArrayJson(json, "definition_level_histograms", index.definition_level_histograms);
  json.endObject();
}

void writeChunkJson(const ChunkPages& chunk, JsonWriter& json) {
  json.beginObject();
  json.field("column_index", chunk.where.column);
  json.field("path", chunk.where.path);
  if (chunk.chunk->meta_data.has_value()) {
    json.field("physical_type", parquet::toString(chunk.chunk->meta_data->type));
    json.field("codec", parquet::toString(chunk.chunk->meta_data->codec));
  }
  if (!chunk.skipped.empty()) {
    json.field("pages_skipped", chunk.skipped);
    json.key("pages");
    json.null();
  } else {
    json.field("chunk_offset", chunk.range.start);
    json.field("chunk_length", chunk.range.length);
    json.key("pages");
    json.beginArray();
    for (const auto& page : chunk.pages) {
      writePageHeaderJson(page, chunk.valueType, json);
    }
    json.endArray();
  }
  json.key("offset_index");
  chunk.offsetIndex.has_value() ? writeOffsetIndexJson(*chunk.offsetIndex, json) : json.null();
  json.key("column_index");
  chunk.columnIndex.has_value() ? writeColumnIndexJson(*chunk.columnIndex, chunk.valueType, json)
                                : json.null();
  json.endObject();
}

}  // namespace

void appendPagesText(const InspectedFile& file, std::string& out) {
  const auto& metadata = file.metadata();
  appendField(out, "", "file", printableText(file.uri()), 12);
  appendField(out, "", "rows", std::to_string(metadata.num_rows), 12);
  appendField(out, "", "row groups", std::to_string(metadata.row_groups.size()), 12);
  for (size_t r = 0; r < metadata.row_groups.size(); ++r) {
    for (size_t c = 0; c < metadata.row_groups[r].columns.size(); ++c) {
      appendChunkText(readChunkPages(file, r, c), out);
    }
  }
}

void writePagesJson(const InspectedFile& file, JsonWriter& json) {
  const auto& metadata = file.metadata();
  json.beginObject();
  json.field("file", file.uri());
  json.field("num_rows", metadata.num_rows);
  json.key("row_groups");
  json.beginArray();
  for (size_t r = 0; r < metadata.row_groups.size(); ++r) {
    json.beginObject();
    json.field("index", r);
    json.field("num_rows", metadata.row_groups[r].num_rows);
    json.key("columns");
    json.beginArray();
    for (size_t c = 0; c < metadata.row_groups[r].columns.size(); ++c) {
      writeChunkJson(readChunkPages(file, r, c), json);
    }
    json.endArray();
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

}  // namespace quarry::cli
