#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/parse/ast.h"

/// The evaluator's per-operator loops over whole blocks: one type dispatch per
/// block, then a plain loop over contiguous values (no per-value virtual call,
/// no Scalar). Operands may have different types; each kernel converts them by
/// type_rules.h first.
namespace quarry::engine {

/// Converts `in` exactly to `to` (a widening type_rules.h allows: int32 -> int64,
/// integer or decimal -> decimal / double, date -> timestamp, timestamp unit,
/// string <-> binary, NULL -> anything). Throws InvalidArgument naming the
/// value when it does not fit (a decimal's precision, a timestamp's range).
Block castBlock(const Block& in, const DataType& to);

/// Returns `in` when it already has type `to`, else castBlock(in, to) kept in `storage`.
const Block& castedView(const Block& in, const DataType& to, Block& storage);

/// Compares two blocks of equal size position by position: a boolean block,
/// null where either side is null. Numbers compare by exact value (int64 with
/// double too); NaN is greater than every double and equal to itself; -0.0 ==
/// 0.0; bytes compare unsigned; date/timestamp compare by instant.
Block compareBlocks(BinaryOp op, const Block& left, const Block& right);

/// Compares `column` with a constant `value` of type `valueType` (a literal)
/// without materializing the constant: the constant is converted once to the
/// column's type when that conversion is exact, then one loop runs over the
/// column. Returns nullopt when no exact conversion exists (compareBlocks then
/// does the general comparison). `op` reads column op value.
std::optional<Block> compareWithConstant(BinaryOp op, const Block& column, const Scalar& value,
                                         const DataType& valueType);

/// Returns the operator with its sides swapped: a < b is b > a.
BinaryOp flipComparison(BinaryOp op);

/// Applies + - * / % with `resultType` (arithmeticResultType). A position whose
/// integer or decimal result overflows, or whose divisor is zero, is null (the
/// evaluator reports it as a warning: describeArithmeticFailure).
Block arithmeticBlocks(BinaryOp op, const Block& left, const Block& right,
                       const DataType& resultType);

/// arithmeticBlocks with one side a constant `value` of `valueType` (a literal)
/// standing for every position of `column`: the constant is converted once, never
/// broadcast. Same results and errors as arithmeticBlocks over a broadcast
/// constant. Returns nullopt when that general path must run instead (a null
/// constant, an empty column, a constant that does not convert).
std::optional<Block> arithmeticWithConstant(BinaryOp op, const Block& column, const Scalar& value,
                                            const DataType& valueType, bool constantOnLeft,
                                            const DataType& resultType);

/// Negates a numeric block into `resultType` (a value whose negation overflows is null).
Block negateBlock(const Block& in, const DataType& resultType);

/// Returns the validity of positions valid in both (empty when neither has nulls).
std::vector<uint8_t> andValidity(const Block& a, const Block& b);

/// Zeroes values at null positions (a Block's invariant) and wraps them as a boolean block.
Block booleanBlock(std::vector<uint8_t> values, std::vector<uint8_t> validity);

}  // namespace quarry::engine

namespace quarry::engine {
/// Whether `kind` is int32, int64 or uint64.
bool isIntegerKind(TypeKind kind);
}  // namespace quarry::engine
