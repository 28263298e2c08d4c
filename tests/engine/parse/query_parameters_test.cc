#include "quarry/engine/parse/query_parameters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {
namespace {

std::string whereOf(std::string_view text, const QueryParameters& parameters) {
  const Query query = parseQuery(text, parameters);
  return printExpr(query.commands.at(0).as<WhereCommand>().condition);
}

QueryError queryError(std::string_view text, const QueryParameters& parameters) {
  try {
    parseQuery(text, parameters);
  } catch (const QueryError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return QueryError("none", 0, 0);
}

TEST(QueryParameters, BindEachValueKindAsItsLiteral) {
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE vendor == ?vendor AND fare > ?fare)",
                    {{"vendor", std::string("VTS")}, {"fare", int64_t{10}}}),
            R"(vendor == "VTS" AND fare > 10)");
  // The printer writes a double in scientific notation, as the literal was lexed.
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE x == ?x)", {{"x", 0.5}}), "x == 5e-01");
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE x == ?x)", {{"x", true}}), "x == TRUE");
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE x IS NULL OR x == ?x)", {{"x", NullParameter{}}}),
            "x IS NULL OR x == NULL");
}

TEST(QueryParameters, StringValuesAreNeverReadAsQueryText) {
  // A quote and a pipe inside the value stay in the string literal.
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE name == ?name)", {{"name", std::string("a\" | LIMIT 1")}}),
            R"(name == "a\" | LIMIT 1")");
}

TEST(QueryParameters, NegativeNumbersBindInParenthesesSoSubtractionStays) {
  // `x - ?n` with n = -5 is x - (-5), not x -- 5.
  const Query query = parseQuery(R"(FROM "t" | EVAL y = x - ?n)", {{"n", int64_t{-5}}});
  EXPECT_EQ(printExpr(query.commands[0].as<EvalCommand>().assignments[0].value), "x - -5");
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE x > ?n)", {{"n", std::numeric_limits<int64_t>::min()}}),
            "x > -9223372036854775808");
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE x > ?n)", {{"n", -2.5}}), "x > -2.5e+00");
}

TEST(QueryParameters, AMissingValueIsAnErrorAtThePlaceholder) {
  const QueryError error = queryError(R"(FROM "t" | WHERE x == ?vendr)", {{"vendor", int64_t{1}}});
  EXPECT_EQ(error.message(), "no value for parameter ?vendr");
  EXPECT_EQ(error.line(), 1);
  EXPECT_EQ(error.column(), 23);
  EXPECT_EQ(error.hint(), "did you mean ?vendor?");
  // Without parameters at all (the CLI), a placeholder is the same error.
  EXPECT_EQ(queryError(R"(FROM "t" | WHERE x == ?x)", {}).message(), "no value for parameter ?x");
}

// ES|QL: "positional parameters ... `?` ... or `?1`, `?2`": the n-th `?` and `?n`
// bind the n-th positional value (named "n").
TEST(QueryParameters, PositionalPlaceholdersBindInOrder) {
  const QueryParameters values{{"1", std::string("VTS")}, {"2", int64_t{10}}};
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE vendor == ? AND fare > ?)", values),
            R"(vendor == "VTS" AND fare > 10)");
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE fare > ?2 AND vendor == ?1 AND ?2 < 20)", values),
            R"(fare > 10 AND vendor == "VTS" AND 10 < 20)");
  // Named and positional placeholders mix.
  EXPECT_EQ(whereOf(R"(FROM "t" | WHERE a == ?1 AND b == ?b)", {{"1", true}, {"b", int64_t{2}}}),
            "a == TRUE AND b == 2");
}

TEST(QueryParameters, APositionWithoutAValueOrBothFormsAreErrors) {
  QueryError error = queryError(R"(FROM "t" | WHERE x == ? AND y == ?)", {{"1", int64_t{1}}});
  EXPECT_EQ(error.message(), "no value for the 2nd positional parameter ?");
  EXPECT_EQ(error.column(), 34);
  EXPECT_EQ(queryError(R"(FROM "t" | WHERE x == ?3)", {}).message(),
            "no value for the 3rd positional parameter ?3");
  EXPECT_EQ(queryError(R"(FROM "t" | WHERE x == ?112)", {}).message(),
            "no value for the 112th positional parameter ?112");
  // A position past every integer type (found by the query parser's fuzzer: std::stoi threw).
  EXPECT_EQ(queryError(R"(FROM "t" | WHERE x == ?29985630028918952133)", {}).message(),
            "no value for the 29985630028918952133rd positional parameter ?29985630028918952133");
  error =
      queryError(R"(FROM "t" | WHERE x == ?1 AND y == ?)", {{"1", int64_t{1}}, {"2", int64_t{2}}});
  EXPECT_EQ(error.message(), "a query takes `?` or numbered parameters (?1, ?2), not both");
  EXPECT_EQ(error.column(), 35);
}

TEST(QueryParameters, RejectsANameGivenTwiceAndNonFiniteDoubles) {
  EXPECT_THROW(parseQuery(R"(FROM "t")", {{"a", int64_t{1}}, {"a", int64_t{2}}}), InvalidArgument);
  EXPECT_THROW(parseQuery(R"(FROM "t" | WHERE x > ?x)", {{"x", std::nan("")}}), InvalidArgument);
  EXPECT_THROW(parseQuery(R"(FROM "t" | WHERE x > ?x)", {{"x", HUGE_VAL}}), InvalidArgument);
}

}  // namespace
}  // namespace quarry::engine
