// Block: building, gathering and slicing values of every storage kind.

#include "quarry/engine/data/block.h"

#include <gtest/gtest.h>

#include <vector>

namespace quarry::engine {
namespace {

TEST(Block, NullsKeepAValidityOnlyOnceOneIsAppended) {
  Block block(DataType::int64());
  block.append<int64_t>(1);
  EXPECT_FALSE(block.hasNulls());
  block.appendNull();
  block.append<int64_t>(3);
  ASSERT_EQ(block.size(), 3u);
  EXPECT_TRUE(block.hasNulls());
  EXPECT_FALSE(block.isNull(0));
  EXPECT_TRUE(block.isNull(1));
  EXPECT_EQ(block.values<int64_t>()[2], 3);
  EXPECT_EQ(block.scalarAt(1), Scalar{});
}

TEST(Block, BytesRunsAppendManyValuesAtOnce) {
  const std::string data = "xxabcdefgh";
  const std::vector<int64_t> offsets = {2, 4, 4, 7};  // "ab", "", "cde"
  Block block(DataType::string());
  block.appendBytes("first");
  block.appendBytesRun(data.data(), offsets);
  block.appendNull();
  block.appendBytesRun(data.data(), std::vector<int64_t>{7, 10});  // "fgh", with a validity now
  ASSERT_EQ(block.size(), 6u);
  EXPECT_EQ(block.bytes(0), "first");
  EXPECT_EQ(block.bytes(1), "ab");
  EXPECT_EQ(block.bytes(2), "");
  EXPECT_EQ(block.bytes(3), "cde");
  EXPECT_TRUE(block.isNull(4));
  EXPECT_FALSE(block.isNull(5));
  EXPECT_EQ(block.bytes(5), "fgh");
}

TEST(Block, TakeAndSliceGatherPositionsWithTheirNulls) {
  Block block(DataType::string());
  block.appendBytes("a");
  block.appendNull();
  block.appendBytes("c");
  const std::vector<uint32_t> positions = {2, 0, 2};
  Block taken = block.take(positions);
  ASSERT_EQ(taken.size(), 3u);
  EXPECT_EQ(taken.bytes(0), "c");
  EXPECT_EQ(taken.bytes(1), "a");
  EXPECT_FALSE(taken.hasNulls());  // no null was taken: no validity kept
  Block sliced = block.slice(1, 2);
  EXPECT_TRUE(sliced.isNull(0));
  EXPECT_EQ(sliced.bytes(1), "c");
}

TEST(Block, PagesRefuseBlocksOfAnotherSize) {
  Block a(DataType::int32());
  a.append<int32_t>(1);
  Block b(DataType::int32());
  EXPECT_THROW(Page({a, b}, 1), std::logic_error);
}

}  // namespace
}  // namespace quarry::engine
