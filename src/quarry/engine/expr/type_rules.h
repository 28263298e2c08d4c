#pragma once

#include <optional>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/parse/ast.h"

/// The implicit conversions of the expression language, shared by the binder
/// (which checks and types) and the evaluator (which converts operands the same
/// way). DuckDB's rules where both define one:
///
///   numeric widening   int32 < int64 < decimal < double; integers join decimals
///                      as decimal(10,0) / decimal(19,0) / decimal(20,0) (uint64).
///   uint64 + signed    decimal(20,0) as a common type (holds both exactly);
///                      decimal(38,0) as an arithmetic result (DuckDB uses HUGEINT).
///   decimal + - %      scale max(s1,s2), precision max(p1-s1,p2-s2)+scale (+1 for + -), <= 38.
///   decimal *          scale s1+s2, precision p1+p2 (18 when that passes 18 but both
///                      inputs are <= 18, as DuckDB), <= 38.
///   /                  integers: integer division truncating toward zero (the
///                      integer type); decimal or double: double.
///   temporal           date joins timestamp (the date's midnight); timestamps of
///                      different units join at the finer one; UTC-adjusted and
///                      local timestamps never join.
namespace quarry::engine {

/// Returns the type both `a` and `b` convert to exactly (CASE values, IN lists,
/// coalesce arguments), or nullopt when they have none. NULL joins anything.
std::optional<DataType> commonSuperType(const DataType& a, const DataType& b);

/// Returns whether `a` and `b` can be compared (=, <, IN ...).
bool comparable(const DataType& a, const DataType& b);

/// Returns the result type of an arithmetic `op` (+ - * / %) on `a` and `b`, or
/// nullopt when one is not numeric (NULL counts as the other's type).
std::optional<DataType> arithmeticResultType(BinaryOp op, const DataType& a, const DataType& b);

/// Returns the decimal type an integer kind joins decimals as (decimal itself unchanged).
DataType asDecimal(const DataType& type);

/// Whether `type` is int32, int64 or uint64.
bool isInteger(const DataType& type);

}  // namespace quarry::engine
