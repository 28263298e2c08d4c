#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/schema.h"

/// Which Parquet leaves the engine reads as a list column, and the shape of a
/// batch's rows of one: a list of a primitive element, one repeated level, no
/// struct inside the list (lists of lists, of structs and maps are left out).
///
/// Three spellings are one engine column named by the list's node:
///   optional group tags (LIST) { repeated group list { optional T element } }  (3-level)
///   optional group tags (LIST) { repeated T element }                         (2-level, legacy)
///   repeated T tags                                                           (no annotation)
/// The list's node may sit in non-repeated structs ("s.tags").
///
/// Shape, worked example (3-level, rows [a, b], null, [], [null]): the repeated
/// node's offsets per row are 0 2 2 2 3, the list node's slots present 1 0 1 1,
/// the leaf's value indexes 0 1 -1: rows 1..3 give offsets [0, 0, 0, 1],
/// validity [0, 1, 1] and element slots [2, 3).
namespace quarry::engine {

/// The node naming the list column `leaf` is the element of (the LIST group, or
/// the repeated primitive itself), or nullptr when `leaf` is not such an element.
const parquet::SchemaNode* parquetListNode(const parquet::SchemaNode& leaf);

/// The element leaf of the list column named by `node`, or nullptr.
const parquet::SchemaNode* parquetListElement(const parquet::SchemaNode& node);

/// For a leaf the engine does not read: the outermost node on its path that is a
/// MAP, a LIST or a repeated field (the column a query would name), and what it
/// is ("a MAP", "a LIST of lists, structs or maps", "a repeated group"). nullptr
/// when the path has none.
const parquet::SchemaNode* parquetNestedColumn(const parquet::SchemaNode& leaf, std::string& what);

/// Some rows of a list column's batch: per row its range of element slots and
/// whether it is null, and which element slots the ranges cover.
struct ListRows {
  /// One more than rows, from 0: row k holds elements [offsets[k], offsets[k + 1]).
  std::vector<uint64_t> offsets;
  /// Per row 1 (a list) or 0 (null); empty when no row is null.
  std::vector<uint8_t> validity;
  /// The element slots, in row order: [firstSlot, firstSlot + slotCount) when
  /// `gathered` is false, else the slots `slots` lists.
  int64_t firstSlot = 0;
  int64_t slotCount = 0;
  bool gathered = false;
  std::vector<int64_t> slots;
};

/// The rows [offset, offset + count) of `batch` (a list column's element leaf),
/// or the rows selected[0 .. count) when `selected` is not null.
ListRows listRows(const parquet::ColumnBatch& batch, int64_t offset, int64_t count,
                  const int64_t* selected);

}  // namespace quarry::engine
