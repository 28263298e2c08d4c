#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

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
class AssembledRowGroup {
 public:
  /// Assembles the nodes on the path of every leaf in `columns` (one decoded chunk
  /// per projected leaf). Throws CorruptFile when a column's levels do not describe
  /// `numRows` records, or disagree with another column about a shared group.
  static AssembledRowGroup assemble(std::vector<ColumnChunkData> columns, int64_t numRows);

  int64_t numRows() const { return numRows_; }
  /// Returns the slots of `node`, or nullptr when it was not projected.
  const NodeSlots* slots(const SchemaNode* node) const;
  /// Returns the decoded chunk of leaf `node`, or nullptr when it was not projected.
  const ColumnChunkData* column(const SchemaNode* leaf) const;

 private:
  int64_t numRows_ = 0;
  std::vector<ColumnChunkData> columns_;
  std::unordered_map<const SchemaNode*, std::unique_ptr<NodeSlots>> slots_;
  std::unordered_map<const SchemaNode*, size_t> columnIndex_;
};

}  // namespace quarry::parquet
