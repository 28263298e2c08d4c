#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quarry/formats/parquet/schema.h"

/// Column projection (query-controls.txt, "Column projection forms" and "Index
/// order"): which columns a reader decodes, and the positions its by-index
/// accessors use.
namespace quarry::parquet {

class ColumnProjection {
 public:
  /// Selects every column (the default).
  static ColumnProjection all();
  /// Selects columns by top-level name, struct name or full dotted path. Names
  /// may repeat or overlap. Throws InvalidArgument when given no name.
  static ColumnProjection columns(std::vector<std::string> names);
  template <typename... Names>
  static ColumnProjection columns(const std::string& first, const Names&... rest) {
    return columns(std::vector<std::string>{first, rest...});
  }

  bool isAll() const { return all_; }
  const std::vector<std::string>& names() const { return names_; }

 private:
  bool all_ = true;
  std::vector<std::string> names_;
};

/// A node of the projected tree: a schema node and its projected children, in
/// the order the projection first reaches them.
struct ProjectedNode {
  const SchemaNode* node = nullptr;
  std::vector<std::unique_ptr<ProjectedNode>> children;

  /// Returns the projected child named `name`, or nullptr.
  const ProjectedNode* child(std::string_view name) const;
};

/// A projection resolved against one file's schema.
class ResolvedProjection {
 public:
  /// Resolves `projection`; throws InvalidArgument "Column not found: <name>" for
  /// a name that is neither a top-level field nor a full path, and for a name that
  /// is the path of two fields.
  static ResolvedProjection resolve(const ColumnProjection& projection, const FileSchema& schema);

  /// ColumnReaders positions: the leaves each name selects, name by name, in
  /// schema order within a name; a leaf selected by several names appears at each.
  const std::vector<const SchemaNode*>& columnOrder() const { return columnOrder_; }
  /// The distinct projected leaves in schema order: what a row group read decodes.
  const std::vector<const SchemaNode*>& leaves() const { return leaves_; }
  /// RowReader positions: the projected root, whose children are the row's fields.
  const ProjectedNode& root() const { return *root_; }

  /// Adds `leaves` to the decoded leaves only: a filter's columns outside the
  /// projection are read for the filter but are neither positions nor fields.
  void addDecodedLeaves(const std::vector<const SchemaNode*>& leaves);

 private:
  std::vector<const SchemaNode*> columnOrder_;
  std::vector<const SchemaNode*> leaves_;
  std::unique_ptr<ProjectedNode> root_;
};

}  // namespace quarry::parquet
