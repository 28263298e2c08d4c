#include "quarry/formats/parquet/column_projection.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

ProjectedNode& childFor(ProjectedNode& parent, const SchemaNode* node) {
  for (auto& c : parent.children) {
    if (c->node == node) return *c;
  }
  parent.children.push_back(std::make_unique<ProjectedNode>());
  parent.children.back()->node = node;
  return *parent.children.back();
}

/// Adds `node`'s whole subtree below `projected`, keeping children already there
/// at their positions and appending the others in schema order.
void addSubtree(ProjectedNode& projected, const SchemaNode& node) {
  for (const auto& child : node.children) addSubtree(childFor(projected, child.get()), *child);
}

void collectLeaves(const SchemaNode& node, std::vector<const SchemaNode*>& out) {
  if (node.isLeaf()) {
    out.push_back(&node);
    return;
  }
  for (const auto& child : node.children) collectLeaves(*child, out);
}

}  // namespace

ColumnProjection ColumnProjection::all() { return ColumnProjection(); }

ColumnProjection ColumnProjection::columns(std::vector<std::string> names) {
  if (names.empty()) throw InvalidArgument("ColumnProjection.columns needs at least one name");
  ColumnProjection p;
  p.all_ = false;
  p.names_ = std::move(names);
  return p;
}

const ProjectedNode* ProjectedNode::child(std::string_view name) const {
  for (const auto& c : children) {
    if (c->node->name == name) return c.get();
  }
  return nullptr;
}

ResolvedProjection ResolvedProjection::resolve(const ColumnProjection& projection,
                                               const FileSchema& schema) {
  ResolvedProjection out;
  out.root_ = std::make_unique<ProjectedNode>();
  out.root_->node = &schema.root();
  std::vector<const SchemaNode*> selected;
  if (projection.isAll()) {
    selected.push_back(&schema.root());
  } else {
    for (const auto& name : projection.names()) {
      const SchemaNode* node = nullptr;
      try {
        node = schema.find(name);
      } catch (const InvalidArgument&) {
        throw InvalidArgument("Column '" + name +
                              "' is ambiguous: it is the path of more than one field; "
                              "select the columns by index instead");
      }
      if (node == nullptr) throw InvalidArgument("Column not found: " + name);
      selected.push_back(node);
    }
  }
  for (const SchemaNode* node : selected) {
    // Ancestors take their position at the first name that reaches them.
    std::vector<const SchemaNode*> path;
    for (const SchemaNode* n = node; !n->isRoot(); n = n->parent) path.push_back(n);
    ProjectedNode* at = out.root_.get();
    for (auto it = path.rbegin(); it != path.rend(); ++it) at = &childFor(*at, *it);
    addSubtree(*at, *node);
    collectLeaves(*node, out.columnOrder_);
  }
  std::unordered_set<const SchemaNode*> seen(out.columnOrder_.begin(), out.columnOrder_.end());
  for (const SchemaNode* leaf : schema.leaves()) {
    if (seen.count(leaf)) out.leaves_.push_back(leaf);
  }
  return out;
}

void ResolvedProjection::addDecodedLeaves(const std::vector<const SchemaNode*>& leaves) {
  for (const SchemaNode* leaf : leaves) {
    if (std::find(leaves_.begin(), leaves_.end(), leaf) == leaves_.end()) leaves_.push_back(leaf);
  }
  std::sort(leaves_.begin(), leaves_.end(),
            [](const SchemaNode* a, const SchemaNode* b) { return a->leafIndex < b->leafIndex; });
}

}  // namespace quarry::parquet
