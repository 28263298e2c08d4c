// DISSECT's patterns, each case from Elastic's dissect reference (the key
// modifiers table and its examples) or ES|QL's DISSECT page.

#include "quarry/engine/expr/dissect_pattern.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using Values = std::optional<std::vector<std::string>>;

std::vector<std::string> names(const DissectPattern& pattern) {
  std::vector<std::string> out;
  for (const Field& field : pattern.fields()) out.push_back(field.name);
  return out;
}

// ES|QL: "DISSECT enables you to extract structured data out of a string."
TEST(DissectPattern, SplitsAtEachDelimiterInTurn) {
  const DissectPattern pattern("%{date} - %{msg} - %{ip}", "");
  EXPECT_EQ(names(pattern), (std::vector<std::string>{"date", "msg", "ip"}));
  EXPECT_EQ(pattern.match("2023-01-23T12:15:00.000Z - some text - 127.0.0.1"),
            (Values{{"2023-01-23T12:15:00.000Z", "some text", "127.0.0.1"}}));
  // The last key takes the rest of the value, delimiters included.
  EXPECT_EQ(pattern.match("a - b - c - d"), (Values{{"a", "b", "c - d"}}));
}

// "Matches are all or nothing": a delimiter not found, or a leading text that does
// not start the value, is no match.
TEST(DissectPattern, AMissingDelimiterIsNoMatch) {
  const DissectPattern pattern("[%{ts}] %{level}", "");
  EXPECT_EQ(pattern.match("[2024] WARN"), (Values{{"2024", "WARN"}}));
  EXPECT_EQ(pattern.match("2024 WARN"), std::nullopt);
  EXPECT_EQ(pattern.match("[2024 WARN"), std::nullopt);
  EXPECT_EQ(pattern.match("["), std::nullopt);
  EXPECT_EQ(pattern.match(""), std::nullopt);
}

// "Skip right padding: skips any repeated characters to the right"
// (`%{ts->} %{level}` on "1998-08-10T17:15:42,466          WARN").
TEST(DissectPattern, RightPaddingSkipsRepeatedDelimiters) {
  const DissectPattern pattern("%{ts->} %{level}", "");
  EXPECT_EQ(pattern.match("1998-08-10T17:15:42,466          WARN"),
            (Values{{"1998-08-10T17:15:42,466", "WARN"}}));
  const DissectPattern empty("[%{ts}]%{->}[%{level}]", "");
  EXPECT_EQ(names(empty), (std::vector<std::string>{"ts", "level"}));
  EXPECT_EQ(empty.match("[1998-08-10T17:15:42,466]            [WARN]"),
            (Values{{"1998-08-10T17:15:42,466", "WARN"}}));
  // Without ->, each repeat of the delimiter gives the next key an empty value.
  const DissectPattern plain("%{a},%{b},%{c},%{d}", "");
  EXPECT_EQ(plain.match("foo,,,"), (Values{{"foo", "", "", ""}}));
}

// "Append: appends two or more fields together", in order `/n` when given, joined
// by the append separator.
TEST(DissectPattern, AppendJoinsValuesWithTheSeparator) {
  const DissectPattern spaced("%{+name} %{+name} %{+name} %{+name}", " ");
  EXPECT_EQ(spaced.match("john jacob jingleheimer schmidt"),
            (Values{{"john jacob jingleheimer schmidt"}}));
  const DissectPattern ordered("%{+name/2} %{+name/4} %{+name/3} %{+name/1}", ",");
  EXPECT_EQ(ordered.match("john jacob jingleheimer schmidt"),
            (Values{{"schmidt,john,jingleheimer,jacob"}}));
  // A plain key of an appended name is its first part; the default separator is "".
  const DissectPattern first("%{a} %{+a} %{+a}", "");
  EXPECT_EQ(first.match("foo bar baz"), (Values{{"foobarbaz"}}));
}

// "Named skip key: %{?ident}": matched, not in the result, as an empty key `%{}`.
TEST(DissectPattern, SkippedKeysAreMatchedAndDropped) {
  const DissectPattern pattern("%{clientip} %{?ident} %{?auth} [%{@timestamp}]", "");
  EXPECT_EQ(names(pattern), (std::vector<std::string>{"clientip", "@timestamp"}));
  EXPECT_EQ(pattern.match("1.2.3.4 - - [30/Apr/1998:22:00:52 +0000]"),
            (Values{{"1.2.3.4", "30/Apr/1998:22:00:52 +0000"}}));
  const DissectPattern empty("%{a} %{} %{c}", "");
  EXPECT_EQ(empty.match("foo bar baz"), (Values{{"foo", "baz"}}));
}

// Delimiters are bytes of UTF-8: a multi-byte delimiter and values split whole.
TEST(DissectPattern, MatchesUtf8Text) {
  const DissectPattern pattern("%{a}→%{b}", "");
  EXPECT_EQ(pattern.match("été→🙂x"), (Values{{"été", "🙂x"}}));
}

// ES|QL: "DISSECT does not support reference keys."
TEST(DissectPattern, RefusesReferenceKeysAndPatternsWithoutKeys) {
  EXPECT_THROW(DissectPattern("%{*p1}:%{&p1}", ""), InvalidArgument);
  EXPECT_THROW(DissectPattern("no keys", ""), InvalidArgument);
  EXPECT_THROW(DissectPattern("%{a", ""), InvalidArgument);
  EXPECT_THROW(DissectPattern("%{?a} %{}", ""), InvalidArgument);
  EXPECT_THROW(DissectPattern("%{+a/x}", ""), InvalidArgument);
}

TEST(DissectPattern, ExtractsABlockWithNullsForNullsAndMisses) {
  const DissectPattern pattern("%{a}-%{b}", "");
  Block input(DataType::string());
  input.appendBytes("x-y");
  input.appendNull();
  input.appendBytes("nodash");
  std::vector<Block> out{Block(DataType::string()), Block(DataType::string())};
  pattern.extract(input, out);
  ASSERT_EQ(out[0].size(), 3u);
  EXPECT_EQ(out[0].bytes(0), "x");
  EXPECT_EQ(out[1].bytes(0), "y");
  EXPECT_TRUE(out[0].isNull(1) && out[1].isNull(1));
  EXPECT_TRUE(out[0].isNull(2) && out[1].isNull(2));
}

}  // namespace
}  // namespace quarry::engine
