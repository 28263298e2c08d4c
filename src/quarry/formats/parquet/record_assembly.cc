#include "quarry/formats/parquet/record_assembly.h"

#include <algorithm>

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
std::vector<NodeSlots> slotsAlongPath(const ColumnChunkData& column, MemoryCharge& memory) {
  const auto path = pathOf(column.leaf);
  const size_t depth = path.size();
  // At most, per level entry: a presence byte in every node, an offset in every
  // repeated one, and the leaf's value index. Charged before any slot is made.
  uint64_t perEntry = depth + sizeof(int64_t);
  for (const SchemaNode* node : path) {
    if (node->repetition == FieldRepetitionType::REPEATED) perEntry += sizeof(int64_t);
  }
  memory.add(static_cast<uint64_t>(column.levelCount) * perEntry, "the nested slots of a row group");
  std::vector<NodeSlots> out(depth);
  for (size_t j = 0; j < depth; ++j) out[j].node = path[j];

  const int64_t entries = column.levelCount;
  const bool hasDef = !column.definitionLevels.empty();
  const bool hasRep = !column.repetitionLevels.empty();
  const int16_t* def = column.definitionLevels.data();
  const int16_t* rep = column.repetitionLevels.data();

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

bool isFlat(const ColumnChunkData& column) {
  return column.leaf->maxRepetitionLevel == 0 && column.leaf->parent != nullptr &&
         column.leaf->parent->isRoot();
}

}  // namespace

AssembledRowGroup AssembledRowGroup::assemble(std::vector<ColumnChunkData> columns,
                                              int64_t numRows) {
  AssembledRowGroup group;
  group.numRows_ = numRows;
  group.columns_ = std::move(columns);
  for (size_t c = 0; c < group.columns_.size(); ++c) {
    const ColumnChunkData& column = group.columns_[c];
    group.record(column.leaf).column = static_cast<int64_t>(c);
    if (isFlat(column)) {
      // One slot per level entry, one entry per row; built when first used.
      if (column.levelCount != numRows) {
        throw CorruptFile("column '" + column.leaf->path + "' holds " +
                          std::to_string(column.levelCount) + " rows but its row group has " +
                          std::to_string(numRows));
      }
      NodeRecord& record = group.record(column.leaf);
      if (record.entry == nullptr) {
        record.entry = group.entries_.emplace_back(std::make_unique<Entry>()).get();
        record.entry->slots.node = column.leaf;
        record.entry->flat = &column;
      }
      continue;
    }
    MemoryCharge memory;
    auto path = slotsAlongPath(column, memory);
    if (rowsOf(path.front()) != numRows) {
      throw CorruptFile("column '" + column.leaf->path + "' holds " +
                        std::to_string(rowsOf(path.front())) +
                        " rows but its row group has " + std::to_string(numRows));
    }
    for (auto& slots : path) {
      NodeRecord& record = group.record(slots.node);
      if (record.entry == nullptr) {
        record.entry = group.entries_.emplace_back(std::make_unique<Entry>()).get();
        record.entry->slots = std::move(slots);
        // The first node made keeps the path's charge (its slots are released together).
        record.entry->memory = std::move(memory);
      } else if (record.entry->slots.present != slots.present ||
                 record.entry->slots.offsets != slots.offsets) {
        throw CorruptFile("columns under '" + slots.node->path +
                          "' disagree about its nesting (column '" + column.leaf->path + "')");
      }
    }
  }
  return group;
}

void AssembledRowGroup::buildPresent(Entry& e) const {
  const ColumnChunkData& column = *e.flat;
  const auto n = static_cast<size_t>(column.levelCount);
  e.memory.add(n, "the validity of a column");
  e.slots.present.resize(n);
  if (column.definitionLevels.empty()) {
    std::fill(e.slots.present.begin(), e.slots.present.end(), static_cast<uint8_t>(column.allNull ? 0 : 1));
    return;
  }
  const int16_t* def = column.definitionLevels.data();
  const int16_t maxDef = column.leaf->maxDefinitionLevel;
  uint8_t* present = e.slots.present.data();
  for (size_t i = 0; i < n; ++i) present[i] = def[i] == maxDef;
}

void AssembledRowGroup::buildValueIndex(Entry& e) const {
  const ColumnChunkData& column = *e.flat;
  const auto n = static_cast<size_t>(column.levelCount);
  e.memory.add(n * sizeof(int64_t), "the value indexes of a column");
  e.slots.valueIndex.resize(n);
  int64_t* index = e.slots.valueIndex.data();
  if (column.allNull) {
    std::fill(index, index + n, int64_t{-1});
    return;
  }
  if (column.definitionLevels.empty()) {
    for (size_t i = 0; i < n; ++i) index[i] = static_cast<int64_t>(i);
    return;
  }
  const int16_t* def = column.definitionLevels.data();
  const int16_t maxDef = column.leaf->maxDefinitionLevel;
  int64_t next = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool present = def[i] == maxDef;
    index[i] = present ? next : -1;
    next += present;
  }
}

const AssembledRowGroup::NodeRecord* AssembledRowGroup::find(const SchemaNode* node) const {
  const auto at = static_cast<size_t>(node->elementIndex);
  if (node->elementIndex >= 0 && at < byElement_.size() && byElement_[at].node == node) return &byElement_[at];
  if (overflow_.empty()) return nullptr;
  const auto it = overflow_.find(node);
  return it == overflow_.end() ? nullptr : &it->second;
}

AssembledRowGroup::NodeRecord& AssembledRowGroup::record(const SchemaNode* node) {
  if (node->elementIndex >= 0) {
    const auto at = static_cast<size_t>(node->elementIndex);
    if (at >= byElement_.size()) byElement_.resize(at + 1);
    NodeRecord& slot = byElement_[at];
    if (slot.node == nullptr) slot.node = node;
    if (slot.node == node) return slot;
  }
  NodeRecord& other = overflow_[node];
  other.node = node;
  return other;
}

const AssembledRowGroup::Entry* AssembledRowGroup::entry(const SchemaNode* node) const {
  const NodeRecord* found = find(node);
  return found == nullptr ? nullptr : found->entry;
}

const NodeSlots* AssembledRowGroup::slots(const SchemaNode* node) const {
  const Entry* found = entry(node);
  if (found == nullptr) return nullptr;
  if (found->flat != nullptr && !found->slotsBuilt.load(std::memory_order_acquire)) {
    auto& e = const_cast<Entry&>(*found);
    std::call_once(e.presentBuilt, [&] { buildPresent(e); });
    std::call_once(e.valueIndexBuilt, [&] { buildValueIndex(e); });
    e.slotsBuilt.store(true, std::memory_order_release);
  }
  return &found->slots;
}

std::span<const uint8_t> AssembledRowGroup::validity(const SchemaNode* leaf) const {
  const Entry* found = entry(leaf);
  if (found == nullptr) throw InvalidArgument("column '" + leaf->path + "' was not projected");
  if (found->flat == nullptr) return found->slots.present;
  if (found->flat->definitionLevels.empty() && !found->flat->allNull) {
    // Every row present: one run of ones serves every such column of the group.
    std::call_once(*allPresentBuilt_, [&] {
      allPresentMemory_.add(static_cast<uint64_t>(numRows_), "the validity of a column");
      allPresent_.assign(static_cast<size_t>(numRows_), 1);
    });
    return allPresent_;
  }
  auto& e = const_cast<Entry&>(*found);
  std::call_once(e.presentBuilt, [&] { buildPresent(e); });
  return e.slots.present;
}

std::span<const int64_t> AssembledRowGroup::valueIndex(const SchemaNode* leaf) const {
  const NodeSlots* s = slots(leaf);
  if (s == nullptr) throw InvalidArgument("column '" + leaf->path + "' was not projected");
  return s->valueIndex;
}

const ColumnChunkData* AssembledRowGroup::column(const SchemaNode* leaf) const {
  const NodeRecord* found = find(leaf);
  return found == nullptr || found->column < 0 ? nullptr : &columns_[static_cast<size_t>(found->column)];
}

std::vector<ColumnChunkData> AssembledRowGroup::releaseColumns() {
  byElement_.clear();
  overflow_.clear();
  entries_.clear();
  return std::move(columns_);
}

}  // namespace quarry::parquet
