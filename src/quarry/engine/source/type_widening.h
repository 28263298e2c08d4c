#pragma once

#include <optional>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// Lossless widening between engine types: what schema resolution may do when
/// files disagree on a column's type, and what a reader does to produce the
/// resolved type. The whole table (either order):
///
///   a                        b                        common type
///   T                        T                        T
///   null                     T                        T
///   int32                    int64                    int64
///   int32                    double                   double
///   decimal(p1,s1)           decimal(p2,s2)           decimal(max(p1-s1,p2-s2)+max(s1,s2), max(s1,s2))
///                                                     when that precision is <= 38
///   time(u1)                 time(u2)                 time(finer unit)
///   timestamp(u1, z)         timestamp(u2, z)         timestamp(finer unit, z): same UTC flag only
///   list<a>                  list<b>                  list<common type of a and b>
///
/// Anything else has no common type (int64 -> double loses digits, uint64 and int64
/// do not nest, UTC and local timestamps are different things, string vs binary).
namespace quarry::engine {

/// The narrowest type both `a` and `b` widen to losslessly, or nullopt.
std::optional<DataType> commonType(const DataType& a, const DataType& b);

/// Whether values of `from` widen losslessly to `to` (commonType(from, to) == to).
bool widensTo(const DataType& from, const DataType& to);

/// Returns `block`'s values as `to`, which `block.type()` widens to. A timestamp or
/// time value that overflows int64 in the finer unit throws InvalidArgument naming it
/// (and `what`: the file and column).
Block widenBlock(Block block, const DataType& to, const std::string& what);

}  // namespace quarry::engine
