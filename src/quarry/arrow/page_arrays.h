#pragma once

#include <memory>
#include <string>

#include "quarry/arrow/c_interface.h"
#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// Engine pages as Arrow C Data Interface arrays: what quarry/arrow.h's
/// exportArrowStream hands to consumers and what `quarry query --format arrow`
/// writes as an IPC stream. The type mapping is quarry/arrow.h's.
namespace quarry::arrow {

/// Fills `out` with the schema of `schema` as a struct ("+s") of nullable
/// children; the consumer releases it.
void exportSchema(const engine::Schema& schema, ArrowSchema* out);

/// Fills `out` with `page` as a struct array ("+s"), its values shared where the
/// layouts agree: `owner` (which holds the page's values) is kept alive until
/// the array and every child are released.
void exportPage(const engine::Page& page, std::shared_ptr<const void> owner, ArrowArray* out);

}  // namespace quarry::arrow
