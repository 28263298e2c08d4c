#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "quarry/common/memory_budget.h"
#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/schema.h"

/// Record assembly: turning the repetition and definition levels of a row
/// group's leaf columns back into nested rows.
///
/// Every projected node gets "slots", one per place the node occurs:
///  - a top-level non-repeated field has one slot per row;
///  - a non-repeated field below a node has one slot per slot of that node;
///  - a repeated node has one slot per element, and `offsets` tells, for each
///    slot of its parent, which of its slots belong to it.
/// A slot is present or null; a leaf's present slot points at its value.
///
/// Worked example, `optional group tags (LIST) { repeated group list { optional
/// binary element } }` (element: max definition 3, max repetition 1), rows
/// [a, b], null, [], [null]:
///
///   levels (r, d):  (0,3) (1,3) | (0,0) | (0,1) | (0,2)
///   tags    slots:  present, null, present, present        (one per row)
///   list    offsets: 0 2 2 2 3   slots: 3 elements
///   element slots:  a, b, null   valueIndex 0 1 -1
namespace quarry::parquet {

struct NodeSlots {
  const SchemaNode* node = nullptr;
  /// Per slot: 1 when present, 0 when null.
  std::vector<uint8_t> present;
  /// Repeated nodes only: parent slot p owns this node's slots [offsets[p], offsets[p+1]).
  std::vector<int64_t> offsets;
  /// Leaves only: per slot, the index of its value in the chunk's dense values, or -1.
  std::vector<int64_t> valueIndex;

  int64_t slotCount() const { return static_cast<int64_t>(present.size()); }
};

/// The assembled shape of a row group's projected columns.
///
/// A flat leaf (a top-level column, not repeated) has nothing to assemble: its
/// slots are its level entries. Its `present` and `valueIndex` are built only
/// when first asked for (slots(), validity(), valueIndex()), and validity() of a
/// flat leaf without nulls is a shared run of ones, so a column scan that reads
/// values only never pays for them. Lazy building is thread-safe.
class AssembledRowGroup {
 public:
  /// Assembles the nodes on the path of every leaf in `columns` (one decoded chunk
  /// per projected leaf). Throws CorruptFile when a column's levels do not describe
  /// `numRows` records, or disagree with another column about a shared group.
  static AssembledRowGroup assemble(std::vector<ColumnChunkData> columns, int64_t numRows);

  AssembledRowGroup() = default;
  AssembledRowGroup(AssembledRowGroup&&) noexcept = default;
  AssembledRowGroup& operator=(AssembledRowGroup&&) noexcept = default;

  int64_t numRows() const { return numRows_; }
  /// Returns the slots of `node`, or nullptr when it was not projected.
  const NodeSlots* slots(const SchemaNode* node) const;
  /// Returns the decoded chunk of leaf `node`, or nullptr when it was not projected.
  const ColumnChunkData* column(const SchemaNode* leaf) const;
  /// Returns slots(leaf)->present, without building valueIndex for a flat leaf.
  /// Throws InvalidArgument when `leaf` was not projected.
  std::span<const uint8_t> validity(const SchemaNode* leaf) const;
  /// Returns slots(leaf)->valueIndex. Throws InvalidArgument when `leaf` was not projected.
  std::span<const int64_t> valueIndex(const SchemaNode* leaf) const;

  /// Takes the decoded chunks out of the group (left without columns), so that a
  /// reader can decode its next row group into their memory.
  std::vector<ColumnChunkData> releaseColumns();

 private:
  /// A node's slots, or for a flat leaf the means to build them when first used.
  struct Entry {
    NodeSlots slots;
    const ColumnChunkData* flat = nullptr;
    std::once_flag presentBuilt;
    std::once_flag valueIndexBuilt;
    /// Set once both are built: what slots() checks first, on every value a row reader reads.
    std::atomic<bool> slotsBuilt{false};
    /// What `slots` are charged against the query's memory limit.
    MemoryCharge memory;
  };
  /// What the group holds of one node: its entry, and for a leaf the index of its column.
  struct NodeRecord {
    const SchemaNode* node = nullptr;
    Entry* entry = nullptr;
    int64_t column = -1;
  };
  /// The record of `node`, or nullptr. Found by the node's elementIndex (its place in the file's
  /// schema): a row reader asks on every value it reads, and an index costs less than a hash.
  const NodeRecord* find(const SchemaNode* node) const;
  /// The record of `node`, made empty when it has none (while assembling).
  NodeRecord& record(const SchemaNode* node);
  const Entry* entry(const SchemaNode* node) const;
  void buildPresent(Entry& e) const;
  void buildValueIndex(Entry& e) const;

  int64_t numRows_ = 0;
  std::vector<ColumnChunkData> columns_;
  std::vector<std::unique_ptr<Entry>> entries_;
  /// Records by elementIndex; a node whose place another holds (schemas built by hand, where
  /// every elementIndex may be 0) goes to overflow_.
  std::vector<NodeRecord> byElement_;
  std::unordered_map<const SchemaNode*, NodeRecord> overflow_;
  /// numRows_ ones: the validity of every flat leaf without nulls.
  std::unique_ptr<std::once_flag> allPresentBuilt_ = std::make_unique<std::once_flag>();
  mutable std::vector<uint8_t> allPresent_;
  mutable MemoryCharge allPresentMemory_;
};

}  // namespace quarry::parquet
