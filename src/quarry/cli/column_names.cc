#include "quarry/cli/column_names.h"

#include <functional>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/parquet/schema.h"

namespace quarry::cli {

namespace {

/// Throws for the first name `exists` refuses; `paths` lists the schema's column paths.
void requireEach(const std::vector<std::string>& names,
                 const std::function<bool(const std::string&)>& exists,
                 const std::vector<std::string>& paths, std::string_view file) {
  for (const std::string& name : names) {
    if (exists(name)) continue;
    std::string message = "no column '" + name + "' in " + std::string(file);
    const std::string best = closestName(name, paths);
    if (!best.empty()) message += "; did you mean '" + best + "'?";
    throw InvalidArgument(message);
  }
}

void collectPaths(const parquet::SchemaNode& node, std::vector<std::string>& out) {
  for (const auto& child : node.children) {
    out.push_back(child->path);
    collectPaths(*child, out);
  }
}

}  // namespace

void requireColumns(const std::vector<std::string>& names, const parquet::FileSchema& schema,
                    std::string_view file) {
  std::vector<std::string> paths;
  collectPaths(schema.root(), paths);
  const auto exists = [&schema](const std::string& name) {
    try {
      return schema.find(name) != nullptr;
    } catch (const InvalidArgument&) {
      return true;  // the path of two fields: the projection says so
    }
  };
  requireEach(names, exists, paths, file);
}

void requireColumns(const std::vector<std::string>& names, const orc::OrcSchema& schema,
                    std::string_view file) {
  std::vector<std::string> paths;
  for (uint32_t id = 1; id < schema.columnCount(); ++id) paths.push_back(schema.column(id).path);
  const auto exists = [&schema](const std::string& name) { return schema.find(name) != nullptr; };
  requireEach(names, exists, paths, file);
}

}  // namespace quarry::cli
