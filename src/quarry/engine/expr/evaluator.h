#pragma once

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"

/// Evaluates bound expressions over pages, one node at a time over whole
/// blocks (vectorized): a column is its block, a literal a block of copies, and
/// an operator runs one loop over its operands' values (vector_kernels.h).
/// Errors a value causes at run time (integer or decimal overflow) throw
/// quarry::InvalidArgument naming the operation and the values.
namespace quarry::engine {

/// Returns the value of `expr` at every position of `page` (page.positionCount()
/// positions, of type expr.type).
Block evaluate(const BoundExpr& expr, const Page& page);

}  // namespace quarry::engine
