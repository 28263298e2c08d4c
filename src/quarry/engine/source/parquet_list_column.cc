#include "quarry/engine/source/parquet_list_column.h"

#include <stdexcept>

namespace quarry::engine {
namespace {

using parquet::FieldRepetitionType;
using parquet::SchemaNode;

bool isRepeated(const SchemaNode& node) {
  return node.repetition == FieldRepetitionType::REPEATED;
}

bool isListAnnotated(const SchemaNode& node) {
  return node.logicalType.kind == parquet::LogicalType::Kind::LIST;
}

bool isMapAnnotated(const SchemaNode& node) {
  return node.logicalType.kind == parquet::LogicalType::Kind::MAP ||
         node.convertedType == parquet::ConvertedType::MAP ||
         node.convertedType == parquet::ConvertedType::MAP_KEY_VALUE;
}

}  // namespace

const SchemaNode* parquetNestedColumn(const SchemaNode& leaf, std::string& what) {
  std::vector<const SchemaNode*> path;  // the leaf up to the root's child
  for (const SchemaNode* n = &leaf; n != nullptr && n->parent != nullptr; n = n->parent) path.push_back(n);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const SchemaNode& node = **it;
    if (isMapAnnotated(node)) {
      what = "a MAP";
    } else if (isListAnnotated(node)) {
      what = "a LIST of lists, structs or maps";
    } else if (isRepeated(node)) {
      what = node.isLeaf() ? "a repeated field" : "a repeated group";
    } else {
      continue;
    }
    return &node;
  }
  return nullptr;
}

const SchemaNode* parquetListNode(const SchemaNode& leaf) {
  if (!leaf.isLeaf() || leaf.maxRepetitionLevel != 1 || leaf.parent == nullptr) return nullptr;
  const SchemaNode& parent = *leaf.parent;
  if (isRepeated(leaf)) {
    // 2-level: the LIST group's repeated child is the element.
    if (isListAnnotated(parent)) return parent.listElement == &leaf ? &parent : nullptr;
    // A repeated primitive outside any annotation is a list of itself.
    if (isMapAnnotated(parent)) return nullptr;
    return &leaf;
  }
  // 3-level: LIST group > repeated group of one field > the element.
  if (!isRepeated(parent) || parent.parent == nullptr) return nullptr;
  const SchemaNode& list = *parent.parent;
  return isListAnnotated(list) && list.listElement == &leaf ? &list : nullptr;
}

const SchemaNode* parquetListElement(const SchemaNode& node) {
  const SchemaNode* leaf = node.isLeaf() ? &node : node.listElement;
  if (leaf == nullptr || !leaf->isLeaf()) return nullptr;
  return parquetListNode(*leaf) == &node ? leaf : nullptr;
}

ListRows listRows(const parquet::ColumnBatch& batch, int64_t offset, int64_t count,
                  const int64_t* selected) {
  // The nesting runs from the top-level field down to the leaf; the one
  // repeated node carries the offsets per row, the node above it (if any)
  // whether the row's list is there at all (its presence folds in its parents').
  const std::vector<const parquet::NodeSlots*> nesting = batch.nesting();
  size_t repeated = nesting.size();
  for (size_t j = 0; j < nesting.size(); ++j) {
    if (nesting[j] != nullptr && isRepeated(*nesting[j]->node)) repeated = j;
  }
  if (repeated == nesting.size()) {
    throw std::logic_error("listRows: column " + batch.leaf().path + " has no repeated node");
  }
  const std::vector<int64_t>& rowOffsets = nesting[repeated]->offsets;
  const std::vector<uint8_t>* present = repeated > 0 ? &nesting[repeated - 1]->present : nullptr;
  const size_t n = static_cast<size_t>(count);
  ListRows out;
  out.offsets.resize(n + 1);
  out.gathered = selected != nullptr;
  if (!out.gathered) out.firstSlot = rowOffsets[static_cast<size_t>(offset)];
  bool anyNull = false;
  if (present != nullptr) out.validity.assign(n, 1);
  uint64_t elements = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t row =
        static_cast<size_t>(selected != nullptr ? selected[k] : offset + static_cast<int64_t>(k));
    if (present != nullptr && (*present)[row] == 0) {
      out.validity[k] = 0;
      anyNull = true;
    }
    // A null list has no element slots: its range is empty.
    const int64_t begin = rowOffsets[row];
    const int64_t end = rowOffsets[row + 1];
    if (out.gathered) {
      for (int64_t e = begin; e < end; ++e) out.slots.push_back(e);
    }
    elements += static_cast<uint64_t>(end - begin);
    out.offsets[k + 1] = elements;
  }
  out.slotCount = static_cast<int64_t>(elements);
  if (!anyNull) out.validity.clear();
  return out;
}

}  // namespace quarry::engine
