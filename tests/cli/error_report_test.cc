#include "quarry/cli/error_report.h"

#include <gtest/gtest.h>

namespace quarry::cli {
namespace {

TEST(ErrorReport, PrefixesTheFileWhenTheMessageDoesNotNameIt) {
  EXPECT_EQ(errorLine("a.parquet", "cannot open: No such file"),
            "quarry: a.parquet: cannot open: No such file");
}

TEST(ErrorReport, DoesNotRepeatAFileTheMessageStartsWith) {
  EXPECT_EQ(errorLine("a.parquet", "a.parquet: footer length 9 does not fit"),
            "quarry: a.parquet: footer length 9 does not fit");
  EXPECT_EQ(errorLine("file:///d/a.parquet", "/d/a.parquet: not a Parquet file"),
            "quarry: /d/a.parquet: not a Parquet file");
}

TEST(ErrorReport, MatchesTheFileOnlyAsAWholeName) {
  EXPECT_EQ(errorLine("a", "ab: bad"), "quarry: a: ab: bad");
  EXPECT_EQ(errorLine("a", "no column 'x' in ab; did you mean 'y'?"),
            "quarry: a: no column 'x' in ab; did you mean 'y'?");
  EXPECT_EQ(errorLine("a.parquet", "no column 'x' in da.parquet"),
            "quarry: a.parquet: no column 'x' in da.parquet");
}

TEST(ErrorReport, DoesNotRepeatAFileTheMessageNamesAsAWord) {
  // Issue 26: "print --columns vendr: no column 'vendr' in FILE; did you mean 'vendor'?"
  EXPECT_EQ(errorLine("d/t.parquet", "no column 'vendr' in d/t.parquet; did you mean 'vendor'?"),
            "quarry: no column 'vendr' in d/t.parquet; did you mean 'vendor'?");
}

TEST(ErrorReport, KeepsTheMessageOnOneLine) {
  EXPECT_EQ(errorLine("f", "first\nsecond\r\nthird"), "quarry: f: first second  third");
}

}  // namespace
}  // namespace quarry::cli
