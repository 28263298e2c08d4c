#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quarry/engine/data/block.h"

/// list<int64> blocks written as rows, for tests of list blocks and of the
/// operators that take them.
namespace quarry::engine::testing {

/// One row: nullopt a null list, an inner nullopt a null element.
using Ints = std::optional<std::vector<std::optional<int64_t>>>;

inline const DataType kIntList = DataType::list(DataType::int64());

/// The block of `rows`, built by appending each row's elements.
inline Block intLists(const std::vector<Ints>& rows) {
  std::vector<uint64_t> offsets{0};
  std::vector<uint8_t> validity;
  Block elements(DataType::int64());
  for (const Ints& row : rows) {
    validity.push_back(row.has_value());
    if (row) {
      for (const std::optional<int64_t>& e : *row) {
        if (e) {
          elements.append<int64_t>(*e);
        } else {
          elements.appendNull();
        }
      }
    }
    offsets.push_back(elements.size());
  }
  return Block::fromList(kIntList, std::move(offsets), std::move(elements), std::move(validity));
}

}  // namespace quarry::engine::testing
