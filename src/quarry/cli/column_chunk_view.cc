#include "quarry/cli/column_chunk_view.h"

#include <charconv>

#include "quarry/cli/statistics_view.h"
#include "quarry/cli/text_table.h"

namespace quarry::cli {

using parquet::ColumnChunk;
using parquet::ColumnMetaData;

namespace {

constexpr size_t kLabelWidth = 25;
/// Histogram entries shown in text before "...".
constexpr size_t kMaxHistogramEntries = 16;

std::string encodingsText(const ColumnMetaData& meta) {
  std::vector<std::string> names;
  for (auto encoding : meta.encodings) {
    names.push_back(parquet::toString(encoding));
  }
  return join(names, ", ");
}

std::string encodingStatsText(const std::vector<parquet::PageEncodingStats>& stats) {
  std::vector<std::string> parts;
  for (const auto& entry : stats) {
    parts.push_back(parquet::toString(entry.page_type) + " " + parquet::toString(entry.encoding) +
                    " x" + std::to_string(entry.count));
  }
  return parts.empty() ? "(empty)" : join(parts, ", ");
}

std::string histogramText(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i == kMaxHistogramEntries) {
      out += ", ... (" + std::to_string(values.size()) + " entries)";
      break;
    }
    if (i > 0) {
      out += ", ";
    }
    out += std::to_string(values[i]);
  }
  return out + "]";
}

template <typename T>
std::string optionalText(const std::optional<T>& value) {
  return value.has_value() ? std::to_string(*value) : "-";
}

std::string rangeText(const std::optional<int64_t>& offset, const std::optional<int32_t>& length) {
  if (!offset.has_value() && !length.has_value()) {
    return "absent";
  }
  return "offset " + optionalText(offset) + ", length " + optionalText(length);
}

std::string doubleText(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

std::string boundingBoxText(const parquet::BoundingBox& box) {
  std::string out = "x [" + doubleText(box.xmin) + ", " + doubleText(box.xmax) + "], y [" +
                    doubleText(box.ymin) + ", " + doubleText(box.ymax) + "]";
  if (box.zmin.has_value() || box.zmax.has_value()) {
    out += ", z [" + (box.zmin ? doubleText(*box.zmin) : "-") + ", " +
           (box.zmax ? doubleText(*box.zmax) : "-") + "]";
  }
  if (box.mmin.has_value() || box.mmax.has_value()) {
    out += ", m [" + (box.mmin ? doubleText(*box.mmin) : "-") + ", " +
           (box.mmax ? doubleText(*box.mmax) : "-") + "]";
  }
  return out;
}

}  // namespace

void appendColumnChunkText(const InspectedFile& file, const ColumnChunk& chunk, size_t column,
                           std::string& out) {
  const std::string indent = "    ";
  out += "  Column " + std::to_string(column) + ": " +
         printableText(file.columnPath(chunk, column), 80) + "\n";
  const auto field = [&](std::string_view label, const std::string& value) {
    appendField(out, indent, label, value, kLabelWidth);
  };
  if (chunk.file_path.has_value()) {
    field("file path", printableText(*chunk.file_path, 120));
  }
  field("file offset", std::to_string(chunk.file_offset));
  if (chunk.has_crypto_metadata || chunk.has_encrypted_column_metadata) {
    field("encryption", "column is encrypted");
  }
  if (!chunk.meta_data.has_value()) {
    field("metadata", "absent");
  } else {
    const ColumnMetaData& meta = *chunk.meta_data;
    field("physical type", parquet::toString(meta.type));
    field("codec", parquet::toString(meta.codec));
    field("encodings", encodingsText(meta));
    if (meta.encoding_stats.has_value()) {
      field("encoding stats", encodingStatsText(*meta.encoding_stats));
    }
    field("values", std::to_string(meta.num_values));
    field("compressed size", std::to_string(meta.total_compressed_size));
    field("uncompressed size", std::to_string(meta.total_uncompressed_size));
    field("data page offset", std::to_string(meta.data_page_offset));
    field("dictionary page offset", optionalText(meta.dictionary_page_offset));
    field("index page offset", optionalText(meta.index_page_offset));
    if (meta.statistics.has_value()) {
      out += indent + "statistics\n";
      appendStatisticsText(out, indent + "  ", *meta.statistics, file.valueType(chunk, column),
                           kLabelWidth - 2);
    } else {
      field("statistics", "absent");
    }
    if (meta.size_statistics.has_value()) {
      const auto& sizes = *meta.size_statistics;
      out += indent + "size statistics\n";
      appendField(out, indent + "  ", "unencoded bytes",
                  optionalText(sizes.unencoded_byte_array_data_bytes), kLabelWidth - 2);
      appendField(out, indent + "  ", "repetition histogram",
                  histogramText(sizes.repetition_level_histogram), kLabelWidth - 2);
      appendField(out, indent + "  ", "definition histogram",
                  histogramText(sizes.definition_level_histogram), kLabelWidth - 2);
    }
    if (meta.geospatial_statistics.has_value()) {
      const auto& geo = *meta.geospatial_statistics;
      field("geospatial bbox", geo.bbox.has_value() ? boundingBoxText(*geo.bbox) : "absent");
      std::vector<std::string> types;
      for (int32_t type : geo.geospatial_types) {
        types.push_back(std::to_string(type));
      }
      field("geospatial types", types.empty() ? "-" : join(types, ", "));
    }
    field("bloom filter", rangeText(meta.bloom_filter_offset, meta.bloom_filter_length));
    for (const auto& entry : meta.key_value_metadata) {
      field("metadata " + printableText(entry.key, 40),
            entry.value.has_value() ? printableText(*entry.value, 80) : "(no value)");
    }
  }
  field("column index", rangeText(chunk.column_index_offset, chunk.column_index_length));
  field("offset index", rangeText(chunk.offset_index_offset, chunk.offset_index_length));
}

namespace {

void writeRangeJson(JsonWriter& json, std::string_view name, const std::optional<int64_t>& offset,
                    const std::optional<int32_t>& length) {
  json.key(name);
  if (!offset.has_value() && !length.has_value()) {
    json.null();
    return;
  }
  json.beginObject(/*isInline=*/true);
  json.field("offset", offset);
  json.field("length", length);
  json.endObject();
}

void writeInt64ArrayJson(JsonWriter& json, std::string_view name,
                         const std::vector<int64_t>& values) {
  json.key(name);
  json.beginArray(/*isInline=*/true);
  for (int64_t v : values) {
    json.value(v);
  }
  json.endArray();
}

void writeMetaDataJson(const InspectedFile& file, const ColumnChunk& chunk, size_t column,
                       const ColumnMetaData& meta, JsonWriter& json) {
  json.field("physical_type", parquet::toString(meta.type));
  json.key("path_in_schema");
  json.beginArray(/*isInline=*/true);
  for (const auto& part : meta.path_in_schema ? *meta.path_in_schema : std::vector<std::string>{}) {
    json.value(part);
  }
  json.endArray();
  json.field("codec", parquet::toString(meta.codec));
  json.key("encodings");
  json.beginArray(/*isInline=*/true);
  for (auto encoding : meta.encodings) {
    json.value(parquet::toString(encoding));
  }
  json.endArray();
  json.key("encoding_stats");
  if (meta.encoding_stats.has_value()) {
    json.beginArray();
    for (const auto& entry : *meta.encoding_stats) {
      json.beginObject(/*isInline=*/true);
      json.field("page_type", parquet::toString(entry.page_type));
      json.field("encoding", parquet::toString(entry.encoding));
      json.field("count", entry.count);
      json.endObject();
    }
    json.endArray();
  } else {
    json.null();
  }
  json.field("num_values", meta.num_values);
  json.field("total_compressed_size", meta.total_compressed_size);
  json.field("total_uncompressed_size", meta.total_uncompressed_size);
  json.field("data_page_offset", meta.data_page_offset);
  json.field("dictionary_page_offset", meta.dictionary_page_offset);
  json.field("index_page_offset", meta.index_page_offset);
  json.key("statistics");
  if (meta.statistics.has_value()) {
    writeStatisticsJson(json, *meta.statistics, file.valueType(chunk, column));
  } else {
    json.null();
  }
  json.key("size_statistics");
  if (meta.size_statistics.has_value()) {
    json.beginObject();
    json.field("unencoded_byte_array_data_bytes",
               meta.size_statistics->unencoded_byte_array_data_bytes);
    writeInt64ArrayJson(json, "repetition_level_histogram",
                        meta.size_statistics->repetition_level_histogram);
    writeInt64ArrayJson(json, "definition_level_histogram",
                        meta.size_statistics->definition_level_histogram);
    json.endObject();
  } else {
    json.null();
  }
  json.key("geospatial_statistics");
  if (meta.geospatial_statistics.has_value()) {
    const auto& geo = *meta.geospatial_statistics;
    json.beginObject();
    json.key("bbox");
    if (geo.bbox.has_value()) {
      const auto& box = *geo.bbox;
      json.beginObject(/*isInline=*/true);
      json.field("xmin", box.xmin);
      json.field("xmax", box.xmax);
      json.field("ymin", box.ymin);
      json.field("ymax", box.ymax);
      json.field("zmin", box.zmin);
      json.field("zmax", box.zmax);
      json.field("mmin", box.mmin);
      json.field("mmax", box.mmax);
      json.endObject();
    } else {
      json.null();
    }
    json.key("geospatial_types");
    json.beginArray(/*isInline=*/true);
    for (int32_t type : geo.geospatial_types) {
      json.value(type);
    }
    json.endArray();
    json.endObject();
  } else {
    json.null();
  }
  writeRangeJson(json, "bloom_filter", meta.bloom_filter_offset, meta.bloom_filter_length);
  json.key("key_value_metadata");
  json.beginArray();
  for (const auto& entry : meta.key_value_metadata) {
    json.beginObject(/*isInline=*/true);
    json.field("key", entry.key);
    json.field("value", entry.value);
    json.endObject();
  }
  json.endArray();
}

}  // namespace

void appendColumnChunksText(const InspectedFile& file, std::string& out) {
  const auto& metadata = file.metadata();
  appendField(out, "", "file", printableText(file.uri()), 12);
  appendField(out, "", "rows", std::to_string(metadata.num_rows), 12);
  appendField(out, "", "row groups", std::to_string(metadata.row_groups.size()), 12);
  for (size_t r = 0; r < metadata.row_groups.size(); ++r) {
    const auto& rowGroup = metadata.row_groups[r];
    out += "\nRow group " + std::to_string(r) + ": " + std::to_string(rowGroup.num_rows) +
           " rows, " + std::to_string(rowGroup.columns.size()) + " column chunks\n";
    for (size_t c = 0; c < rowGroup.columns.size(); ++c) {
      if (c > 0) {
        out += "\n";
      }
      appendColumnChunkText(file, rowGroup.columns[c], c, out);
    }
  }
}

void writeColumnChunksJson(const InspectedFile& file, JsonWriter& json) {
  const auto& metadata = file.metadata();
  json.beginObject();
  json.field("file", file.uri());
  json.field("num_rows", metadata.num_rows);
  json.key("row_groups");
  json.beginArray();
  for (size_t r = 0; r < metadata.row_groups.size(); ++r) {
    const auto& rowGroup = metadata.row_groups[r];
    json.beginObject();
    json.field("index", r);
    json.field("num_rows", rowGroup.num_rows);
    json.key("columns");
    json.beginArray();
    for (size_t c = 0; c < rowGroup.columns.size(); ++c) {
      const ColumnChunk& chunk = rowGroup.columns[c];
      json.beginObject();
      json.field("column_index", c);
      json.field("path", file.columnPath(chunk, c));
      json.field("file_path", chunk.file_path);
      json.field("file_offset", chunk.file_offset);
      json.field("encrypted", chunk.has_crypto_metadata || chunk.has_encrypted_column_metadata);
      json.key("meta_data_present");
      json.value(chunk.meta_data.has_value());
      if (chunk.meta_data.has_value()) {
        writeMetaDataJson(file, chunk, c, *chunk.meta_data, json);
      }
      writeRangeJson(json, "column_index", chunk.column_index_offset, chunk.column_index_length);
      writeRangeJson(json, "offset_index", chunk.offset_index_offset, chunk.offset_index_length);
      json.endObject();
    }
    json.endArray();
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

}  // namespace quarry::cli
