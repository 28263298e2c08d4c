#include "quarry/formats/parquet/record_assembly.h"

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

/// The nodes from the root's child down to `leaf`.
std::vector<const SchemaNode*> pathOf(const SchemaNode* leaf) {
  std::vector<const SchemaNode*> path;
  for (const SchemaNode* n = leaf; n != nullptr && !n->isRoot(); n = n->parent) path.push_back(n);
  return {path.rbegin(), path.rend()};
}

/// Builds the slots of every node on one leaf's path from that leaf's levels.
/// An entry with repetition level r starts a new slot in each node whose maximum
/// repetition level is at least r (the nodes at or below the repeated node that
/// repeats at r); a repeated node gets an element only where the definition level
/// reaches it, and a non-repeated node gets a slot wherever its parent does.
std::vector<NodeSlots> slotsAlongPath(const ColumnChunkData& column) {
  const auto path = pathOf(column.leaf);
  const size_t depth = path.size();
  std::vector<NodeSlots> out(depth);
  for (size_t j = 0; j < depth; ++j) out[j].node = path[j];

  const int64_t entries = column.levelCount;
  const bool hasDef = !column.definitionLevels.empty();
  const bool hasRep = !column.repetitionLevels.empty();
  const int16_t* def = column.definitionLevels.data();
  const int16_t* rep = column.repetitionLevels.data();
  NodeSlots& leafSlots = out[depth - 1];

  // Fast path: a flat column (no repetition anywhere on its path).
  if (!hasRep && depth == 1) {
    leafSlots.present.resize(static_cast<size_t>(entries));
    leafSlots.valueIndex.resize(static_cast<size_t>(entries));
    int64_t next = 0;
    const int16_t maxDef = column.leaf->maxDefinitionLevel;
    for (int64_t i = 0; i < entries; ++i) {
      const bool present = !hasDef || def[i] == maxDef;
      leafSlots.present[i] = present;
      leafSlots.valueIndex[i] = present ? next : -1;
      next += present;
    }
    return out;
  }

  int64_t nextValue = 0;
  for (int64_t i = 0; i < entries; ++i) {
    const int16_t d = hasDef ? def[i] : column.leaf->maxDefinitionLevel;
    const int16_t r = hasRep ? rep[i] : 0;
    bool parentNewSlot = r == 0;  // the root gets a new slot (a record) at r == 0
    for (size_t j = 0; j < depth; ++j) {
      const SchemaNode* node = path[j];
      NodeSlots& slots = out[j];
      bool newSlot;
      if (node->repetition == FieldRepetitionType::REPEATED) {
        if (parentNewSlot) slots.offsets.push_back(slots.slotCount());
        newSlot = node->maxRepetitionLevel >= r && d >= node->maxDefinitionLevel;
      } else {
        newSlot = parentNewSlot;
      }
      if (!newSlot) {
        // This node continues its current slot; a deeper repeated node may still
        // start a new element (an entry repeating at a deeper level).
        parentNewSlot = false;
        continue;
      }
      const bool present = d >= node->maxDefinitionLevel;
      slots.present.push_back(present);
      if (j == depth - 1) {
        const bool hasValue = d == column.leaf->maxDefinitionLevel;
        slots.valueIndex.push_back(hasValue ? nextValue : -1);
        nextValue += hasValue;
      }
      parentNewSlot = true;
    }
  }
  for (auto& slots : out) {
    if (slots.node->repetition == FieldRepetitionType::REPEATED) {
      slots.offsets.push_back(slots.slotCount());
    }
  }
  if (nextValue != column.valueCount) {
    throw CorruptFile("column '" + column.leaf->path + "': its levels place " +
                      std::to_string(nextValue) + " values but the pages hold " +
                      std::to_string(column.valueCount));
  }
  return out;
}

/// Returns how many rows the top node of a path spans: its slot count, or for a
/// repeated top-level field the number of its offset ranges.
int64_t rowsOf(const NodeSlots& top) {
  if (top.node->repetition == FieldRepetitionType::REPEATED) {
    return static_cast<int64_t>(top.offsets.size()) - 1;
  }
  return top.slotCount();
}

}  // namespace

AssembledRowGroup AssembledRowGroup::assemble(std::vector<ColumnChunkData> columns,
                                              int64_t numRows) {
  AssembledRowGroup group;
  group.numRows_ = numRows;
  group.columns_ = std::move(columns);
  for (size_t c = 0; c < group.columns_.size(); ++c) {
    const ColumnChunkData& column = group.columns_[c];
    group.columnIndex_[column.leaf] = c;
    auto path = slotsAlongPath(column);
    if (rowsOf(path.front()) != numRows) {
      throw CorruptFile("column '" + column.leaf->path + "' holds " +
                        std::to_string(rowsOf(path.front())) +
                        " rows but its row group has " + std::to_string(numRows));
    }
    for (auto& slots : path) {
      auto [it, inserted] = group.slots_.try_emplace(slots.node);
      if (inserted) {
        it->second = std::make_unique<NodeSlots>(std::move(slots));
      } else if (it->second->present != slots.present || it->second->offsets != slots.offsets) {
        throw CorruptFile("columns under '" + slots.node->path +
                          "' disagree about its nesting (column '" + column.leaf->path + "')");
      }
    }
  }
  return group;
}

const NodeSlots* AssembledRowGroup::slots(const SchemaNode* node) const {
  const auto it = slots_.find(node);
  return it == slots_.end() ? nullptr : it->second.get();
}

const ColumnChunkData* AssembledRowGroup::column(const SchemaNode* leaf) const {
  const auto it = columnIndex_.find(leaf);
  return it == columnIndex_.end() ? nullptr : &columns_[it->second];
}

}  // namespace quarry::parquet
