// HugePageVector and the mappings under it: what the hash tables of GROUP BY and COUNT_DISTINCT
// live in (huge_page_vector.h).

#include "quarry/common/huge_page_vector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace quarry {
namespace {

// "`bytes` of zeroed memory in a mapping of its own, aligned to 2 MiB".
TEST(HugePages, AMappingIsAlignedZeroedAndWholeToItsEnd) {
  constexpr size_t kHugePage = size_t{2} << 20;
  for (size_t bytes : {kHugePageAdviceBytes, kHugePageAdviceBytes + 1, size_t{13} << 20}) {
    auto* data = static_cast<unsigned char*>(allocateHugePages(bytes));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHugePage, 0u) << bytes;
    EXPECT_EQ(data[0], 0);
    EXPECT_EQ(data[bytes / 2], 0);
    EXPECT_EQ(data[bytes - 1], 0);
    data[0] = 1;
    data[bytes - 1] = 2;  // the last byte is writable
    EXPECT_EQ(data[bytes - 1], 2);
    freeHugePages(data, bytes);
  }
}

// Small vectors take std::allocator's memory, large ones a mapping; both keep their values
// through growth, from one to the other.
TEST(HugePages, AVectorKeepsItsValuesAsItGrowsIntoAMapping) {
  HugePageVector<uint64_t> values;
  for (uint64_t i = 0; i < (kHugePageAdviceBytes / sizeof(uint64_t)) * 3; ++i) values.push_back(i * 7);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values.data()) % (size_t{2} << 20), 0u);
  uint64_t expected = 0;
  for (uint64_t i = 0; i < values.size(); ++i) expected += i * 7;
  EXPECT_EQ(std::accumulate(values.begin(), values.end(), uint64_t{0}), expected);
  HugePageVector<uint64_t> moved = std::move(values);
  EXPECT_EQ(moved[12345], 12345u * 7);
  moved.assign(4, 9);
  moved.shrink_to_fit();  // back below the threshold: the mapping unmapped, std::allocator's memory
  EXPECT_EQ(moved.back(), 9u);
  EXPECT_LT(moved.capacity(), kHugePageAdviceBytes / sizeof(uint64_t));
}

}  // namespace
}  // namespace quarry
