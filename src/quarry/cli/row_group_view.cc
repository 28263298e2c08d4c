#include "quarry/cli/row_group_view.h"

#include "quarry/cli/text_table.h"

namespace quarry::cli {

namespace {

std::string sortingColumnName(const InspectedFile& file, const parquet::SortingColumn& column) {
  if (column.column_idx >= 0) {
    if (const auto* leaf = file.leaf(static_cast<size_t>(column.column_idx))) {
      return printableText(leaf->path, 40);
    }
  }
  return "#" + std::to_string(column.column_idx);
}

std::string sortingColumnsText(const InspectedFile& file, const parquet::RowGroup& rowGroup) {
  std::string out;
  for (const auto& column : rowGroup.sorting_columns) {
    if (!out.empty()) {
      out += ", ";
    }
    out += sortingColumnName(file, column);
    out += column.descending ? " DESC" : " ASC";
    out += column.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  }
  return out;
}

template <typename T>
std::string optionalText(const std::optional<T>& value) {
  return value.has_value() ? std::to_string(*value) : "-";
}

}  // namespace

void appendRowGroupsText(const InspectedFile& file, std::string& out) {
  const auto& metadata = file.metadata();
  appendField(out, "", "file", printableText(file.uri()), 12);
  appendField(out, "", "rows", std::to_string(metadata.num_rows), 12);
  appendField(out, "", "row groups", std::to_string(metadata.row_groups.size()), 12);
  out += "\n";
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight},
                   {"rows", Align::kRight},
                   {"total bytes", Align::kRight},
                   {"compressed", Align::kRight},
                   {"file offset", Align::kRight},
                   {"ordinal", Align::kRight},
                   {"columns", Align::kRight},
                   {"sorting columns"}});
  for (size_t i = 0; i < metadata.row_groups.size(); ++i) {
    const auto& rowGroup = metadata.row_groups[i];
    table.addRow({std::to_string(i), std::to_string(rowGroup.num_rows),
                  std::to_string(rowGroup.total_byte_size),
                  optionalText(rowGroup.total_compressed_size), optionalText(rowGroup.file_offset),
                  optionalText(rowGroup.ordinal), std::to_string(rowGroup.columns.size()),
                  sortingColumnsText(file, rowGroup)});
  }
  table.render(out);
}

void writeRowGroupsJson(const InspectedFile& file, JsonWriter& json) {
  const auto& metadata = file.metadata();
  json.beginObject();
  json.field("file", file.uri());
  json.field("num_rows", metadata.num_rows);
  json.field("num_row_groups", metadata.row_groups.size());
  json.key("row_groups");
  json.beginArray();
  for (size_t i = 0; i < metadata.row_groups.size(); ++i) {
    const auto& rowGroup = metadata.row_groups[i];
    json.beginObject();
    json.field("index", i);
    json.field("num_rows", rowGroup.num_rows);
    json.field("total_byte_size", rowGroup.total_byte_size);
    json.field("total_compressed_size", rowGroup.total_compressed_size);
    json.field("file_offset", rowGroup.file_offset);
    json.field("ordinal", rowGroup.ordinal);
    json.field("num_columns", rowGroup.columns.size());
    json.key("sorting_columns");
    json.beginArray();
    for (const auto& column : rowGroup.sorting_columns) {
      json.beginObject(/*isInline=*/true);
      json.field("column_idx", column.column_idx);
      json.key("path");
      const auto* leaf =
          column.column_idx >= 0 ? file.leaf(static_cast<size_t>(column.column_idx)) : nullptr;
      leaf != nullptr ? json.value(leaf->path) : json.null();
      json.field("descending", column.descending);
      json.field("nulls_first", column.nulls_first);
      json.endObject();
    }
    json.endArray();
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

}  // namespace quarry::cli
