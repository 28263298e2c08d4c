#include "quarry/cli/file_summary_view.h"

#include <algorithm>
#include <cctype>

#include "quarry/cli/text_table.h"

namespace quarry::cli {

using parquet::SchemaNode;

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string logicalTypeText(const SchemaNode& node) {
  return node.logicalType.kind == parquet::LogicalType::Kind::NONE
             ? std::string()
             : parquet::toString(node.logicalType);
}

/// Names the annotation a node's element carried but the schema dropped (one
/// this release does not know, or one its physical type cannot carry).
std::string droppedAnnotationText(const parquet::SchemaElement& element) {
  if (element.logicalType.has_value() &&
      element.logicalType->kind != parquet::LogicalType::Kind::NONE) {
    return parquet::toString(*element.logicalType);
  }
  if (element.converted_type.has_value()) {
    return parquet::toString(*element.converted_type);
  }
  return "";
}

std::string convertedTypeText(const SchemaNode& node) {
  return node.convertedType.has_value() ? parquet::toString(*node.convertedType) : std::string();
}

std::optional<parquet::ColumnOrder> columnOrder(const InspectedFile& file, const SchemaNode& leaf) {
  const auto& orders = file.metadata().column_orders;
  if (!orders.has_value() || leaf.leafIndex < 0 ||
      static_cast<size_t>(leaf.leafIndex) >= orders->size()) {
    return std::nullopt;
  }
  return (*orders)[leaf.leafIndex];
}

const parquet::SchemaElement& elementOf(const InspectedFile& file, const SchemaNode& node) {
  return file.metadata().schema.at(node.elementIndex);
}

/// Renders a node the way parquet-format's schema notation writes it:
/// "optional int32 id (INTEGER(32,true)) = 3;". With `withLevels`, each node
/// but the root ends with a comment naming its maximum levels and, on a leaf,
/// its column index: "-- def 1 rep 0, column 3".
void appendSchemaNode(const InspectedFile& file, const SchemaNode& node, size_t depth,
                      bool withLevels, std::string& out) {
  std::string line(2 * (depth + 1), ' ');
  if (node.isRoot()) {
    line += "message " + printableText(node.name) + " {";
  } else {
    line += lowercase(parquet::toString(node.repetition)) + " ";
    if (node.isLeaf()) {
      // The schema notation calls BYTE_ARRAY "binary".
      line += *node.physicalType == parquet::PhysicalType::BYTE_ARRAY
                  ? "binary"
                  : lowercase(parquet::toString(*node.physicalType));
      if (*node.physicalType == parquet::PhysicalType::FIXED_LEN_BYTE_ARRAY) {
        line += "(" + std::to_string(node.typeLength) + ")";
      }
    } else {
      line += "group";
    }
    line += " " + printableText(node.name);
    std::string annotation = logicalTypeText(node);
    if (annotation.empty()) {
      annotation = convertedTypeText(node);
    }
    if (node.annotationDropped) {
      annotation = droppedAnnotationText(elementOf(file, node));
      annotation += annotation.empty() ? "dropped" : ", dropped";
    }
    if (!annotation.empty()) {
      line += " (" + annotation + ")";
    }
    if (const auto& fieldId = elementOf(file, node).field_id) {
      line += " = " + std::to_string(*fieldId);
    }
    line += node.isLeaf() ? ";" : " {";
    if (withLevels) {
      line += "  -- def " + std::to_string(node.maxDefinitionLevel) + " rep " +
              std::to_string(node.maxRepetitionLevel);
      if (node.isLeaf()) line += ", column " + std::to_string(node.leafIndex);
    }
  }
  out += line + "\n";
  for (const auto& child : node.children) {
    appendSchemaNode(file, *child, depth + 1, withLevels, out);
  }
  if (!node.isLeaf()) {
    out += std::string(2 * (depth + 1), ' ') + "}\n";
  }
}

void writeSchemaNodeJson(const InspectedFile& file, const SchemaNode& node, JsonWriter& json) {
  json.beginObject();
  json.field("name", node.name);
  if (!node.isRoot()) {
    json.field("path", node.path);
    json.field("repetition", parquet::toString(node.repetition));
  }
  if (node.isLeaf()) {
    json.field("physical_type", parquet::toString(*node.physicalType));
    if (*node.physicalType == parquet::PhysicalType::FIXED_LEN_BYTE_ARRAY) {
      json.field("type_length", node.typeLength);
    }
  }
  const std::string logical = logicalTypeText(node);
  json.key("logical_type");
  logical.empty() ? json.null() : json.value(logical);
  const std::string converted = convertedTypeText(node);
  json.key("converted_type");
  converted.empty() ? json.null() : json.value(converted);
  if (node.annotationDropped) {
    json.field("annotation_dropped", true);
    json.field("dropped_annotation", droppedAnnotationText(elementOf(file, node)));
  }
  json.field("field_id", elementOf(file, node).field_id);
  json.field("max_definition_level", node.maxDefinitionLevel);
  json.field("max_repetition_level", node.maxRepetitionLevel);
  if (!node.isLeaf()) {
    json.key("children");
    json.beginArray();
    for (const auto& child : node.children) {
      writeSchemaNodeJson(file, *child, json);
    }
    json.endArray();
  }
  json.endObject();
}

void appendColumnsText(const InspectedFile& file, std::string& out) {
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight},
                   {"path"},
                   {"physical"},
                   {"length", Align::kRight},
                   {"logical"},
                   {"converted"},
                   {"repetition"},
                   {"max def", Align::kRight},
                   {"max rep", Align::kRight},
                   {"order"}});
  for (const SchemaNode* leaf : file.schema().leaves()) {
    const bool isFixed = *leaf->physicalType == parquet::PhysicalType::FIXED_LEN_BYTE_ARRAY;
    std::string logical = logicalTypeText(*leaf);
    if (leaf->annotationDropped) {
      logical = droppedAnnotationText(elementOf(file, *leaf));
      logical += logical.empty() ? "(dropped)" : " (dropped)";
    }
    const auto order = columnOrder(file, *leaf);
    table.addRow(
        {std::to_string(leaf->leafIndex), printableText(leaf->path, 60),
         parquet::toString(*leaf->physicalType), isFixed ? std::to_string(leaf->typeLength) : "",
         logical, convertedTypeText(*leaf), parquet::toString(leaf->repetition),
         std::to_string(leaf->maxDefinitionLevel), std::to_string(leaf->maxRepetitionLevel),
         order.has_value() ? parquet::toString(*order) : ""});
  }
  table.render(out, "  ");
}

/// Returns the rows the row groups hold, which readers return whatever the
/// footer's num_rows says.
int64_t rowGroupRows(const parquet::FileMetaData& metadata) {
  int64_t rows = 0;
  for (const auto& group : metadata.row_groups) rows += group.num_rows;
  return rows;
}

}  // namespace

void appendFileSummaryText(const InspectedFile& file, std::string& out) {
  const auto& metadata = file.metadata();
  constexpr size_t kLabelWidth = 16;
  appendField(out, "", "file", printableText(file.uri()), kLabelWidth);
  appendField(out, "", "file size", std::to_string(file.fileSize()) + " bytes", kLabelWidth);
  appendField(out, "", "format version", std::to_string(metadata.version), kLabelWidth);
  appendField(out, "", "created by",
              metadata.created_by.has_value() ? printableText(*metadata.created_by) : "(absent)",
              kLabelWidth);
  const int64_t rows = rowGroupRows(metadata);
  std::string rowsText = std::to_string(rows);
  if (rows != metadata.num_rows) {
    rowsText += " (the row groups' sum; the footer's num_rows says " +
                std::to_string(metadata.num_rows) + ")";
  }
  appendField(out, "", "rows", rowsText, kLabelWidth);
  appendField(out, "", "row groups", std::to_string(metadata.row_groups.size()), kLabelWidth);
  appendField(out, "", "columns", std::to_string(file.schema().leafCount()), kLabelWidth);

  out += "\nColumns\n";
  appendColumnsText(file, out);

  out += "\nSchema\n";
  appendSchemaNode(file, file.schema().root(), 0, /*withLevels=*/false, out);

  out += "\nKey-value metadata";
  if (metadata.key_value_metadata.empty()) {
    out += ": none\n";
    return;
  }
  out += " (" + std::to_string(metadata.key_value_metadata.size()) + ")\n";
  for (const auto& entry : metadata.key_value_metadata) {
    std::string line = "  " + printableText(entry.key, 80) + " = ";
    if (!entry.value.has_value()) {
      line += "(no value)";
    } else {
      bool truncated = false;
      line += printableText(*entry.value, kMaxTextValueLength, &truncated);
      if (truncated) {
        line += "... (truncated; " + std::to_string(entry.value->size()) +
                " bytes in all, --json shows it whole)";
      }
    }
    out += line + "\n";
  }
}

void writeFileSummaryJson(const InspectedFile& file, JsonWriter& json) {
  const auto& metadata = file.metadata();
  json.beginObject();
  json.field("file", file.uri());
  json.field("file_size", file.fileSize());
  json.field("version", metadata.version);
  json.field("created_by", metadata.created_by);
  // num_rows is what a reader returns: the row groups' rows. The footer's own
  // field, which some writers left at 0, is reported as carried beside it.
  json.field("num_rows", rowGroupRows(metadata));
  json.field("footer_num_rows", metadata.num_rows);
  json.field("num_row_groups", metadata.row_groups.size());
  json.field("num_columns", file.schema().leafCount());

  json.key("columns");
  json.beginArray();
  for (const SchemaNode* leaf : file.schema().leaves()) {
    json.beginObject();
    json.field("index", leaf->leafIndex);
    json.field("path", leaf->path);
    json.key("path_in_schema");
    json.beginArray(/*isInline=*/true);
    for (const auto& part : leaf->pathParts) {
      json.value(part);
    }
    json.endArray();
    json.field("physical_type", parquet::toString(*leaf->physicalType));
    json.key("type_length");
    if (*leaf->physicalType == parquet::PhysicalType::FIXED_LEN_BYTE_ARRAY) {
      json.value(leaf->typeLength);
    } else {
      json.null();
    }
    const std::string logical = logicalTypeText(*leaf);
    json.key("logical_type");
    logical.empty() ? json.null() : json.value(logical);
    const std::string converted = convertedTypeText(*leaf);
    json.key("converted_type");
    converted.empty() ? json.null() : json.value(converted);
    json.field("annotation_dropped", leaf->annotationDropped);
    if (leaf->annotationDropped) {
      json.field("dropped_annotation", droppedAnnotationText(elementOf(file, *leaf)));
    }
    json.field("repetition", parquet::toString(leaf->repetition));
    json.field("max_definition_level", leaf->maxDefinitionLevel);
    json.field("max_repetition_level", leaf->maxRepetitionLevel);
    const auto order = columnOrder(file, *leaf);
    json.key("column_order");
    order.has_value() ? json.value(parquet::toString(*order)) : json.null();
    json.endObject();
  }
  json.endArray();

  json.key("schema");
  writeSchemaNodeJson(file, file.schema().root(), json);

  json.key("key_value_metadata");
  json.beginArray();
  for (const auto& entry : metadata.key_value_metadata) {
    json.beginObject(/*isInline=*/true);
    json.field("key", entry.key);
    json.field("value", entry.value);
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

void appendSchemaText(const InspectedFile& file, bool withLevels, std::string& out) {
  appendSchemaNode(file, file.schema().root(), 0, withLevels, out);
}

void writeSchemaJson(const InspectedFile& file, JsonWriter& json) {
  writeSchemaNodeJson(file, file.schema().root(), json);
}

}  // namespace quarry::cli
