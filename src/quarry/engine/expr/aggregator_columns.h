#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"

/// The columns every aggregate family reads and writes: the boolean `$seen`
/// flags and int64 `$count`s of the intermediate layouts (aggregator.h), and
/// the number of values a raw input column adds.
namespace quarry::engine {

/// Whether an intermediate flag column says true at `r` (null reads as false).
bool flagAt(const Block& block, size_t r);

/// A boolean block holding `flags`, none null.
Block booleanBlock(const std::vector<uint8_t>& flags);

/// An int64 block holding `values`, none null.
Block int64Block(const std::vector<int64_t>& values);

/// The number of non-null positions of `block`.
size_t valueCount(const Block& block);

/// Throws the InvalidArgument of a sum (SUM or AVG named `function`, the
/// aggregate `name`) that does not fit in `limit`.
[[noreturn]] void throwSumOverflow(const char* function, const std::string& name, const std::string& sum,
                                   const std::string& value, const std::string& limit);

}  // namespace quarry::engine
