#include "quarry/cli/inspected_file.h"

#include "quarry/common/error.h"

namespace quarry::cli {

InspectedFile InspectedFile::open(const std::string& uri) { return open(io::openObject(uri)); }

InspectedFile InspectedFile::open(std::unique_ptr<io::StorageObject> object) {
  parquet::ParquetFooter footer = parquet::readFooter(*object);
  parquet::FileSchema schema;
  try {
    schema = parquet::FileSchema::build(footer.metadata.schema);
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    // The schema builder sees only elements, not the file: name it here.
    throw CorruptFile(message.starts_with(object->uri()) ? message
                                                         : object->uri() + ": " + message);
  }
  return InspectedFile(std::move(object), std::move(footer), std::move(schema));
}

const parquet::SchemaNode* InspectedFile::leaf(size_t column) const {
  return column < schema_.leafCount() ? &schema_.leaf(column) : nullptr;
}

std::string InspectedFile::columnPath(const parquet::ColumnChunk& chunk, size_t column) const {
  if (const auto* node = leaf(column)) {
    return node->path;
  }
  if (chunk.meta_data.has_value()) {
    const parquet::PathInSchema& path = chunk.meta_data->path_in_schema;
    return path ? join(*path, ".") : std::string();
  }
  return "#" + std::to_string(column);
}

ValueType InspectedFile::valueType(const parquet::ColumnChunk& chunk, size_t column) const {
  if (const auto* node = leaf(column)) {
    return ValueType::ofLeaf(*node);
  }
  ValueType type;
  if (chunk.meta_data.has_value()) {
    type.physical = chunk.meta_data->type;
  }
  return type;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

}  // namespace quarry::cli
