#include "quarry/common/name_hint.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace quarry {
namespace {

TEST(NameHint, EditDistanceCountsATranspositionAsOneEdit) {
  // Issue 26: "quarry qeury" and "--versoin" are one slip of the fingers each.
  EXPECT_EQ(editDistance("qeury", "query"), 1u);
  EXPECT_EQ(editDistance("--versoin", "--version"), 1u);
  EXPECT_EQ(editDistance("ab", "ba"), 1u);
  EXPECT_EQ(editDistance("abc", "ca"),
            3u);  // optimal string alignment: no edit of a transposed pair
}

TEST(NameHint, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
  EXPECT_EQ(editDistance("vendr", "vendor"), 1u);
  EXPECT_EQ(editDistance("rowgroup", "rowgroups"), 1u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("WHERE", "where"), 0u);  // ASCII letters case-insensitively
}

TEST(NameHint, ClosestNameTakesTheNearestWithinAThirdOfTheWord) {
  const std::array<std::string_view, 4> commands = {"inspect", "print", "query", "explain"};
  EXPECT_EQ(closestName("qeury", commands), "query");
  EXPECT_EQ(closestName("prnit", commands), "print");
  EXPECT_EQ(closestName("xyz", commands), "");  // nothing within 2 edits
  const std::vector<std::string> columns = {"vendor", "fare_amount", "tip_amount"};
  EXPECT_EQ(closestName("vendr", columns), "vendor");
  EXPECT_EQ(closestName("tip_amout", columns), "tip_amount");
  // A long word may be further off: "fareamount_x" is 3 edits from fare_amount, within 12 / 3.
  EXPECT_EQ(typoDistance("fareamount_x"), 4u);
  EXPECT_EQ(closestName("fareamount_x", columns), "fare_amount");
}

TEST(NameHint, ClosestNameKeepsTheFirstOfEquallyCloseCandidates) {
  const std::vector<std::string> names = {"ab", "ba"};
  EXPECT_EQ(closestName("aa", names), "ab");
}

TEST(NameHint, ClosestHintListsTheCandidatesWhenNoneIsClose) {
  const std::vector<std::string> names = {"id", "name"};
  EXPECT_EQ(closestHint("nme", names, "the columns are"), "did you mean name?");
  EXPECT_EQ(closestHint("something_else", names, "the columns are"), "the columns are: id, name");
  EXPECT_EQ(closestHint("x", std::vector<std::string>{}, "the columns are"), "");
}

}  // namespace
}  // namespace quarry
