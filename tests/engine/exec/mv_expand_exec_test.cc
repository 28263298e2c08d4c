#include "quarry/engine/exec/mv_expand_exec.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

#include "page_builder.h"
#include "tests/engine/data/int_lists.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::Row;
using testing::sourceOf;

using testing::i64;
using testing::intLists;
using testing::Ints;
using testing::kIntList;
using testing::kNull;
using testing::str;

Page pageOf(const std::vector<Ints>& lists, const std::vector<std::string>& names) {
  Block strings(DataType::string());
  for (const std::string& name : names) strings.appendBytes(name);
  return Page({strings, intLists(lists)}, names.size());
}

const Schema kSchema{{"name", DataType::string()}, {"a", kIntList}};

const Ints kEmptyList = std::vector<std::optional<int64_t>>{};

// ES|QL: "The MV_EXPAND processing command expands multivalued columns into one row
// per value, duplicating other columns."
TEST(MvExpandExec, GivesOneRowPerValueWithTheOtherColumnsRepeated) {
  std::vector<Page> pages;
  pages.push_back(pageOf({Ints{{1, 2, 3}}, Ints{{7}}}, {"x", "y"}));
  MvExpandExec expand(sourceOf(kSchema, std::move(pages)), 1);
  EXPECT_EQ(expand.schema()[1].type, DataType::int64());
  EXPECT_EQ(drain(expand),
            (std::vector<Row>{
                {str("x"), i64(1)}, {str("x"), i64(2)}, {str("x"), i64(3)}, {str("y"), i64(7)}}));
}

// A null list and an empty list keep their row, with null (ES|QL keeps a row for a
// null value; DuckDB's UNNEST would drop both); a null element is a row of its own.
TEST(MvExpandExec, KeepsARowWithNullForANullOrEmptyList) {
  std::vector<Page> pages;
  pages.push_back(
      pageOf({std::nullopt, kEmptyList, Ints{{std::nullopt, 4}}, Ints{{5}}}, {"n", "e", "m", "o"}));
  MvExpandExec expand(sourceOf(kSchema, std::move(pages)), 1);
  EXPECT_EQ(drain(expand), (std::vector<Row>{{str("n"), kNull},
                                             {str("e"), kNull},
                                             {str("m"), kNull},
                                             {str("m"), i64(4)},
                                             {str("o"), i64(5)}}));
}

TEST(MvExpandExec, ExpandsEveryPageAndRefusesAColumnThatIsNoList) {
  std::vector<Page> pages;
  pages.push_back(pageOf({Ints{{1, 2}}}, {"p"}));
  pages.push_back(pageOf({kEmptyList, Ints{{3}}}, {"q", "r"}));
  MvExpandExec expand(sourceOf(kSchema, std::move(pages)), 1);
  EXPECT_EQ(drain(expand),
            (std::vector<Row>{
                {str("p"), i64(1)}, {str("p"), i64(2)}, {str("q"), kNull}, {str("r"), i64(3)}}));
  EXPECT_THROW(MvExpandExec(sourceOf(kSchema, {}), 0), std::invalid_argument);
}

}  // namespace
}  // namespace quarry::engine
