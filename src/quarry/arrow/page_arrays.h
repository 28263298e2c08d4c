#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quarry/arrow/c_interface.h"
#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// Engine pages as Arrow C Data Interface arrays: what quarry/arrow.h's
/// exportArrowStream hands to consumers and what `quarry query --format arrow`
/// writes as an IPC stream. The type mapping is quarry/arrow.h's.
namespace quarry::arrow {

/// Which of `page`'s columns are string or binary blocks in the dictionary form
/// (Block::isDictionary): the columns a stream declares dictionary-encoded when
/// its first page has them so.
std::vector<bool> dictionaryColumns(const engine::Page& page);

/// Fills `out` with the schema of `schema` as a struct ("+s") of nullable
/// children; the consumer releases it. A column marked in `dictionaryColumns`
/// (string or binary) is dictionary-encoded: int32 indices ("i") whose
/// dictionary schema is the column type's format ("U" or "Z").
void exportSchema(const engine::Schema& schema, ArrowSchema* out,
                  const std::vector<bool>& dictionaryColumns = {});

/// Fills `out` with `page` as a struct array ("+s"), its values shared where the
/// layouts agree: `owner` (which holds the page's values) is kept alive until
/// the array and every child are released. The columns marked in
/// `dictionaryColumns` are dictionary arrays, as exportSchema declares them: a
/// block in the dictionary form gives its ids and its dictionary without copies,
/// a plain block is its own dictionary indexed 0, 1, 2, ... (the other columns
/// give a dictionary block's values in the plain form).
void exportPage(const engine::Page& page, std::shared_ptr<const void> owner, ArrowArray* out,
                const std::vector<bool>& dictionaryColumns = {});

}  // namespace quarry::arrow
