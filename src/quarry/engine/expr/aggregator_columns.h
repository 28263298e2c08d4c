#pragma once

#include <cstdint>
#include <optional>
#include <span>
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
Block booleanBlock(std::span<const uint8_t> flags);

/// An int64 block holding `values`, none null.
Block int64Block(std::span<const int64_t> values);

/// A double block of `groups` positions, position g `valueAt(g)` (a
/// std::optional<double>: nullopt is null).
template <typename F>
Block doubleBlock(size_t groups, F&& valueAt) {
  Block out(DataType::float64());
  out.reserve(groups);
  for (size_t g = 0; g < groups; ++g) {
    if (const std::optional<double> v = valueAt(g)) {
      out.append<double>(*v);
    } else {
      out.appendNull();
    }
  }
  return out;
}

/// The number of non-null positions of `block`.
size_t valueCount(const Block& block);

/// `block` (a number, or the null kind) as doubles: itself when it holds
/// doubles, else converted into `scratch` as TO_DOUBLE converts (decimals to the
/// nearest double); nulls stay null.
const Block& doublesOf(const Block& block, Block& scratch);

/// Throws the CorruptFile of an intermediate value set of `function` (the
/// aggregate `name`) that is `problem` at byte `offset` of its `size` bytes.
[[noreturn]] void throwCorruptValueSet(const char* function, const std::string& name,
                                       const std::string& problem, size_t offset, size_t size);

/// Throws the InvalidArgument of a sum (SUM or AVG named `function`, the
/// aggregate `name`) that does not fit in `limit`.
[[noreturn]] void throwSumOverflow(const char* function, const std::string& name,
                                   const std::string& sum, const std::string& value,
                                   const std::string& limit);

}  // namespace quarry::engine
