// List blocks: per position a range of a child block of elements, with the
// list's own validity (block.h). A null list, an empty list and a list holding a
// null element stay apart through every way a block is built and gathered.

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "tests/engine/data/int_lists.h"

namespace quarry::engine {
namespace {

using testing::intLists;
using testing::Ints;
using testing::kIntList;

/// Position `i` of a list<int64> block back as rows are written above.
Ints rowAt(const Block& block, size_t i) {
  if (block.isNull(i)) return std::nullopt;
  std::vector<std::optional<int64_t>> out;
  const Block& elements = block.listElements();
  for (uint64_t e = block.listOffsets()[i]; e < block.listOffsets()[i + 1]; ++e) {
    out.push_back(elements.isNull(e) ? std::nullopt
                                     : std::optional<int64_t>(elements.values<int64_t>()[e]));
  }
  return out;
}

std::vector<Ints> rowsOf(const Block& block) {
  std::vector<Ints> out;
  for (size_t i = 0; i < block.size(); ++i) out.push_back(rowAt(block, i));
  return out;
}

// [[1, 2], null, [], [null], [3]]
const std::vector<Ints> kRows = {
    std::vector<std::optional<int64_t>>{1, 2}, std::nullopt, std::vector<std::optional<int64_t>>{},
    std::vector<std::optional<int64_t>>{std::nullopt}, std::vector<std::optional<int64_t>>{3}};

TEST(ListBlock, NullEmptyAndNullElementStayApart) {
  const Block block = intLists(kRows);
  ASSERT_EQ(block.size(), 5u);
  EXPECT_EQ(block.type(), kIntList);
  EXPECT_EQ(block.type().toString(), "list<int64>");
  EXPECT_TRUE(block.isNull(1));
  EXPECT_FALSE(block.isNull(2));  // an empty list is a value
  EXPECT_FALSE(block.isNull(3));
  EXPECT_EQ(rowsOf(block), kRows);
}

TEST(ListBlock, TakeGathersRowsWithTheirElements) {
  const Block block = intLists(kRows);
  const std::vector<uint32_t> positions = {4, 3, 1, 0, 0, 2};
  const Block taken = block.take(positions);
  EXPECT_EQ(rowsOf(taken),
            (std::vector<Ints>{kRows[4], kRows[3], kRows[1], kRows[0], kRows[0], kRows[2]}));
  EXPECT_EQ(taken.listOffsets().front(), 0u);
  EXPECT_EQ(taken.listElements().size(), 6u);  // 1 + 1 + 0 + 2 + 2 + 0
  const std::vector<uint32_t> noNulls = {0, 2};
  EXPECT_FALSE(block.take(noNulls).hasNulls());
}

TEST(ListBlock, SliceKeepsTheRangeOfRows) {
  const Block block = intLists(kRows);
  EXPECT_EQ(rowsOf(block.slice(1, 3)), (std::vector<Ints>{kRows[1], kRows[2], kRows[3]}));
  EXPECT_EQ(rowsOf(block.slice(4, 1)), (std::vector<Ints>{kRows[4]}));
  EXPECT_EQ(block.slice(2, 0).size(), 0u);
}

TEST(ListBlock, AppendFromAppendAllAndAppendNullBuildTheSameRows) {
  const Block block = intLists(kRows);
  Block one(kIntList);
  one.reserve(kRows.size());
  for (size_t i = 0; i < block.size(); ++i) one.appendFrom(block, i);
  EXPECT_EQ(rowsOf(one), kRows);

  Block all(kIntList);
  all.appendAll(block.slice(2, 3));
  all.appendNull();
  all.appendAll(block.slice(0, 2));
  EXPECT_EQ(rowsOf(all),
            (std::vector<Ints>{kRows[2], kRows[3], kRows[4], std::nullopt, kRows[0], kRows[1]}));

  const Block nulls = Block::nulls(kIntList, 3);
  EXPECT_EQ(rowsOf(nulls), (std::vector<Ints>{std::nullopt, std::nullopt, std::nullopt}));
}

TEST(ListBlock, StringElementsMayBeInTheDictionaryForm) {
  auto dictionary = std::make_shared<ByteDictionary>();
  dictionary->append("red");
  dictionary->append("blue");
  Block elements =
      Block::fromDictionary(DataType::string(), dictionary, {1, 0, 0, 1}, {1, 1, 0, 1});
  const DataType type = DataType::list(DataType::string());
  // ["blue", "red"], [null], [], ["blue"]
  const Block block = Block::fromList(type, {0, 2, 3, 3, 4}, std::move(elements));
  const std::vector<uint32_t> positions = {3, 0};
  const Block taken = block.take(positions);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_TRUE(taken.listElements().isDictionary());
  EXPECT_EQ(taken.listElements().bytes(0), "blue");
  EXPECT_EQ(taken.listElements().bytes(1), "blue");
  EXPECT_EQ(taken.listElements().bytes(2), "red");
  Block appended(type);
  appended.appendFrom(block, 1);
  EXPECT_TRUE(appended.listElements().isNull(0));
}

TEST(ListBlock, ListTypesCompareByTheirElements) {
  EXPECT_EQ(DataType::list(DataType::decimal(9, 2)).toString(), "list<decimal(9,2)>");
  EXPECT_EQ(DataType::list(DataType::decimal(9, 2)).elementType(), DataType::decimal(9, 2));
  EXPECT_FALSE(DataType::list(DataType::decimal(9, 2)) == DataType::list(DataType::decimal(9, 3)));
  EXPECT_FALSE(DataType::list(DataType::int64()) == DataType::int64());
  EXPECT_FALSE(DataType::list(DataType::int64()) == DataType::list(DataType::int32()));
  EXPECT_THROW(DataType::list(DataType::list(DataType::int64())), std::logic_error);
}

TEST(ListBlock, MisshapenListsAndScalarAccessAreRefused) {
  Block elements(DataType::int64());
  elements.append<int64_t>(1);
  EXPECT_THROW(Block::fromList(kIntList, {0, 2}, elements), std::logic_error);  // past the elements
  EXPECT_THROW(Block::fromList(kIntList, {1, 0}, elements), std::logic_error);  // descending
  EXPECT_THROW(Block::fromList(kIntList, {0, 1}, Block(DataType::int32())),
               std::logic_error);  // element type
  EXPECT_THROW(Block::fromList(kIntList, {0, 1}, elements, {1, 0}),
               std::logic_error);  // validity size
  const Block block = intLists(kRows);
  EXPECT_THROW(block.scalarAt(0), std::logic_error);
  EXPECT_EQ(block.scalarAt(1), Scalar{});  // a null list is a null Scalar
  EXPECT_THROW(Block(DataType::int64()).listElements(), std::logic_error);
}

}  // namespace
}  // namespace quarry::engine
