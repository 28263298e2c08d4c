#pragma once

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/warnings.h"

/// Evaluates bound expressions over pages, one node at a time over whole
/// blocks (vectorized): a column is its block, a literal a block of copies, and
/// an operator runs one loop over its operands' values (vector_kernels.h).
/// Errors a value causes at run time (integer or decimal overflow) throw
/// quarry::InvalidArgument naming the operation and the values.
namespace quarry::engine {

/// Returns the value of `expr` at every position of `page` (page.positionCount()
/// positions, of type expr.type).
Block evaluate(const BoundExpr& expr, const Page& page);

/// As evaluate, and counts into `warnings` the rows where a node marked with a
/// WarningSite gave null although none of its operands was null (to_integer of
/// "abc", a division by zero), describing the first ones (warnings.h). A block
/// without nulls costs nothing more.
Block evaluate(const BoundExpr& expr, const Page& page, Warnings& warnings);

}  // namespace quarry::engine
