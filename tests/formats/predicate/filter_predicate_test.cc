#include "quarry/formats/predicate/filter_predicate.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

using P = FilterPredicate;

TEST(FilterPredicateTest, FactoriesKeepTheLiteralsDistinctCxxType) {
  EXPECT_EQ(literalType(P::eq("d", 20454).literals()[0]), LiteralType::kInt32);
  EXPECT_EQ(literalType(P::eq("d", int64_t{20454}).literals()[0]), LiteralType::kInt64);
  EXPECT_EQ(literalType(P::eq("f", 1.5f).literals()[0]), LiteralType::kFloat);
  EXPECT_EQ(literalType(P::eq("f", 1.5).literals()[0]), LiteralType::kDouble);
  EXPECT_EQ(literalType(P::eq("s", "text").literals()[0]), LiteralType::kString);
  EXPECT_EQ(literalType(P::eq("b", true).literals()[0]), LiteralType::kBool);
  EXPECT_EQ(literalType(P::eq("d", Date{1}).literals()[0]), LiteralType::kDate);
  EXPECT_EQ(literalType(P::lt("ts", Instant{1, 2}).literals()[0]), LiteralType::kInstant);
}

TEST(FilterPredicateTest, EveryOperatorBuilds) {
  EXPECT_EQ(P::notEq("a", 1).op(), P::Op::kNotEq);
  EXPECT_EQ(P::lt("a", 1).op(), P::Op::kLt);
  EXPECT_EQ(P::ltEq("a", 1).op(), P::Op::kLtEq);
  EXPECT_EQ(P::gt("a", 1).op(), P::Op::kGt);
  EXPECT_EQ(P::gtEq("a", 1).op(), P::Op::kGtEq);
  EXPECT_EQ(P::isNull("a").op(), P::Op::kIsNull);
  EXPECT_EQ(P::isNotNull("address").op(), P::Op::kIsNotNull);
  EXPECT_EQ(P::intersects("g", 0, 0, 1, 1).box(), (std::array<double, 4>{0, 0, 1, 1}));
  EXPECT_EQ(P::not_(P::eq("a", 1)).op(), P::Op::kNot);
}

TEST(FilterPredicateTest, AndOrTakeVarargsAndThrowWhenGivenNone) {
  const auto three = P::and_(P::eq("a", 1), P::eq("b", 2), P::eq("c", 3));
  EXPECT_EQ(three.children().size(), 3u);
  EXPECT_EQ(P::or_(P::eq("a", 1), P::eq("b", 2), P::eq("c", 3)).children().size(), 3u);
  EXPECT_THROW(P::and_(std::vector<P>{}), InvalidArgument);
  EXPECT_THROW(P::or_(std::vector<P>{}), InvalidArgument);
  EXPECT_EQ(three.toString(), "and(eq(a, 1), eq(b, 2), eq(c, 3))");
}

TEST(FilterPredicateTest, InTakesEveryLiteralTypeButBoolAndRejectsAnEmptySet) {
  EXPECT_EQ(P::in("a", 1, 2, 3).literals().size(), 3u);
  EXPECT_EQ(P::in("a", std::vector<int64_t>{1, 2}).literals().size(), 2u);
  EXPECT_EQ(P::in("s", "x", "y").literals().size(), 2u);
  EXPECT_THROW(P::in("a", std::vector<int32_t>{}), InvalidArgument);
  EXPECT_THROW(P::inLiterals("a", {}), InvalidArgument);
  // in has no bool overload; the untyped form refuses bool at build.
  EXPECT_THROW(P::inLiterals("b", {PredicateLiteral(true)}), InvalidArgument);
  // Every value is one literal type.
  EXPECT_THROW(P::inLiterals("a", {PredicateLiteral(1), PredicateLiteral(int64_t{1})}), InvalidArgument);
}

TEST(FilterPredicateTest, BinaryMembersExampleBuilds) {
  // FilterPredicate.eq("code", new byte[] { 0x00, (byte) 0xC8 }) and the in form.
  const auto filter = P::eq("code", Bytes{0x00, 0xC8});
  const auto members = P::in("code", Bytes{0x00, 0xC8}, Bytes{0x00, 0xC9});
  EXPECT_EQ(std::get<Bytes>(filter.literals()[0]), (Bytes{0x00, 0xC8}));
  EXPECT_EQ(members.literals().size(), 2u);
}

TEST(FilterPredicateTest, FactoriesCopyTheByteArray) {
  Bytes code{0x00, 0xC8};
  const auto filter = P::eq("code", code);
  code[1] = 0xFF;
  EXPECT_EQ(std::get<Bytes>(filter.literals()[0]), (Bytes{0x00, 0xC8}));
}

TEST(FilterPredicateTest, IllFormedUtf8ThrowsWhenBuilt) {
  // An unpaired surrogate (U+D800 as UTF-8 bytes) has no well-formed encoding.
  EXPECT_THROW(P::eq("s", std::string("a\xED\xA0\x80")), InvalidArgument);
  EXPECT_THROW(P::lt("s", std::string("\xC0\x80")), InvalidArgument);   // overlong
  EXPECT_THROW(P::in("s", std::string("ok"), std::string("\xFF")), InvalidArgument);
  EXPECT_NO_THROW(P::eq("s", std::string("caf\xC3\xA9 \xF0\x9F\x98\x80")));
}

TEST(FilterPredicateTest, EmptyColumnNameStandsInForNullAndThrows) {
  EXPECT_THROW(P::eq("", 1), InvalidArgument);
  EXPECT_THROW(P::isNull(""), InvalidArgument);
  EXPECT_THROW(P::in("", 1, 2), InvalidArgument);
  EXPECT_THROW(P::intersects("", 0, 0, 1, 1), InvalidArgument);
  try {
    P::gt("", 1);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("column name"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quarry::parquet
