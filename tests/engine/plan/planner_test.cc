// The planner, the local optimizer and execution over an in-memory source
// (memory_source.h): plan shapes as EXPLAIN prints them, and results.

#include "quarry/engine/plan/planner.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "quarry/cli/block_text.h"
#include "quarry/common/error.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/plan/aggregate_arguments.h"
#include "tests/engine/plan/memory_source.h"

namespace quarry::engine {
namespace {

using testing::doubleBlock;
using testing::int64Block;
using testing::MemoryFormatReader;
using testing::stringBlock;

/// Two "files" of two pages each: id, g (a group), x (double with nulls), s.
class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = {{"id", DataType::int64()}, {"g", DataType::string()}, {"x", DataType::float64()},
               {"s", DataType::string()}};
    reader_.add("one", schema_,
                {page({1, 2, 3}, {"a", "b", "a"}, {1.5, std::nullopt, -0.0}, {"x1", "y2", "x3"}),
                 page({4, 5}, {"b", "b"}, {2.0, 3.0}, {"z4", std::nullopt})});
    reader_.add("two", schema_,
                {page({6}, {"a"}, {0.0}, {"x6"}), page({7, 8}, {"c", std::nullopt}, {10.0, 4.0}, {"y7", "y8"})});
  }

  static Page page(std::vector<std::optional<int64_t>> ids, std::vector<std::optional<std::string>> groups,
                   std::vector<std::optional<double>> xs, std::vector<std::optional<std::string>> ss) {
    const size_t n = ids.size();
    return Page({int64Block(ids), stringBlock(groups), doubleBlock(xs), stringBlock(ss)}, n);
  }

  PlanNodePtr plan(const std::string& text, bool optimized = true) {
    Query query = parseQuery(text);
    PlannerOptions options;
    options.threads = 2;
    options.exchange = exchange_;
    options.text = text;  // unnamed STATS columns are named by their text, as in the CLI
    ResolvedSource resolved = reader_.resolve(uris_);
    PlanNodePtr root = planQuery(query, resolved, options);
    PlanNode* source = root.get();
    while (!source->children.empty()) source = source->input().get();
    source->request.metrics = &metrics_;
    if (optimized) optimize(*root);
    return root;
  }

  /// Runs `text`; returns rows as "v1|v2|..." (sorted unless `ordered`).
  std::vector<std::string> run(const std::string& text, bool ordered = false) {
    metrics_.rowGroupsAnsweredFromStatistics = 0;
    metrics_.rowGroupsPrunedByStatistics = 0;
    PlanNodePtr root = plan(text);
    OperatorPtr op = buildOperators(*root);
    std::vector<std::string> rows;
    while (std::optional<Page> p = op->next()) {
      for (size_t r = 0; r < p->positionCount(); ++r) {
        std::string row;
        for (size_t c = 0; c < p->blockCount(); ++c) {
          if (c > 0) row += '|';
          cli::appendBlockText(p->block(c), r, row);
        }
        rows.push_back(row);
      }
    }
    if (!ordered) std::sort(rows.begin(), rows.end());
    return rows;
  }

  /// The QueryError planning `text` gives, as "message | hint".
  std::string errorOf(const std::string& text) {
    try {
      plan(text);
    } catch (const QueryError& e) {
      return e.message() + " | " + e.hint();
    }
    return "no error";
  }

  Schema schema_;
  MemoryFormatReader reader_;
  bool exchange_ = true;
  std::vector<std::string> uris_{"one", "two"};
  ScanMetrics metrics_;
};

TEST_F(PlannerTest, StatsSplitsIntoInitialBelowTheExchangeAndFinalAbove) {
  const std::string text = explain(*plan(R"(FROM "one", "two" | WHERE id > 1 | STATS c = COUNT(*), m = MAX(x) BY g)"));
  EXPECT_EQ(text,
            "ProjectExec[c, m, g]\n"
            "  AggregateExec[FINAL][[c = COUNT(*), m = MAX(m$value)] BY [g]]\n"
            "    ExchangeExec[threads=2]\n"
            "      AggregateExec[INITIAL][[c = COUNT(*), m = MAX(x)] BY [g]]\n"
            "        FilterExec[(id > 1)]\n"
            "          ExternalSourceExec[files=2, splits=4, columns=[id, g, x], filter=gt(id, 1)]\n")
      << text;
}

TEST_F(PlannerTest, GroupedStatsGivesAggregatesThenGroups) {
  EXPECT_EQ(
      run(R"(FROM "one", "two" | STATS c = COUNT(*), n = COUNT(x), m = MAX(x), s = SUM(id) BY g)"),
      (std::vector<std::string>{"1|1|10.0|7|c", "1|1|4.0|8|NULL", "3|2|3.0|11|b", "3|3|1.5|10|a"}));
}

// ES|QL: "expressionX - An expression that computes an aggregated value", e.g.
// `ROUND(AVG(MV_AVG(salary_change)), 10)`: an expression over aggregate calls (and the
// BY keys) is evaluated once per group after the aggregation, the INITIAL/FINAL split
// unchanged below it.
TEST_F(PlannerTest, StatsTakesExpressionsOverAggregatesAndByKeys) {
  const char* query =
      R"(FROM "one", "two" | STATS r = SUM(id) / COUNT(id), m = ROUND(AVG(x), 1), d = MAX(id) - MIN(id), )"
      R"(l = COUNT(*) + LENGTH(g) BY g)";
  EXPECT_EQ(run(query), (std::vector<std::string>{"3|0.5|5|4|a", "3|2.5|3|4|b", "7|10.0|0|2|c",
                                                  "8|4.0|0|NULL|NULL"}));
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("AggregateExec[FINAL]"), std::string::npos) << text;
  EXPECT_NE(text.find("EvalExec"), std::string::npos) << text;
  // Unnamed, an expression item is named as it prints.
  PlanNodePtr root = plan(R"(FROM "one" | STATS SUM(id) / COUNT(id), ROUND(AVG(x), 2))");
  ASSERT_EQ(root->schema.size(), 2u);
  EXPECT_EQ(root->schema[0].name, "sum(id) / count(id)");
  EXPECT_EQ(root->schema[1].name, "ROUND(AVG(x), 2)");
}

// One aggregate call written in several items is computed once.
TEST_F(PlannerTest, AnAggregateCallWrittenTwiceIsComputedOnce) {
  const char* query =
      R"(FROM "one", "two" | STATS s = SUM(id), t = SUM(id) * 2, u = sum(id) + COUNT(*))";
  EXPECT_EQ(run(query), (std::vector<std::string>{"36|72|44"}));
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("AggregateExec[INITIAL][[s = SUM(id), count(*) = COUNT(*)]]"),
            std::string::npos)
      << text;
}

// ES|QL: "boolean_expressionX - The condition that must be met for a row to be included
// in the evaluation of expressionX. Has no effect on grouping_expressionX or other
// aggregation expressions."
TEST_F(PlannerTest, AFilteredAggregateSeesOnlyTheRowsItsConditionKeeps) {
  EXPECT_EQ(
      run(R"(FROM "one", "two" | STATS all = COUNT(*), big = COUNT(*) WHERE id > 3, )"
          R"(s = SUM(x) WHERE g == "a", n = COUNT(x) WHERE id > 100, a = AVG(id) WHERE id > 100)"),
      (std::vector<std::string>{"8|5|1.5|0|NULL"}));
  EXPECT_EQ(
      run(R"(FROM "one", "two" | STATS big = COUNT(*) WHERE id > 3, m = MAX(id) WHERE s LIKE "x*" BY g)"),
      (std::vector<std::string>{"1|6|a", "1|NULL|NULL", "1|NULL|c", "2|NULL|b"}));
  // The filter covers every aggregate of its item, and a null condition keeps no row.
  EXPECT_EQ(run(R"(FROM "one", "two" | STATS r = SUM(id) / COUNT(*) WHERE g == "b", )"
                R"(z = COUNT(*) WHERE x > 1 AND g IS NULL OR NULL)"),
            (std::vector<std::string>{"3|1"}));
  // The same call with and without a filter are two aggregates.
  EXPECT_EQ(run(R"(FROM "one", "two" | STATS a = MAX(id), b = MAX(id) WHERE id < 5)"),
            (std::vector<std::string>{"8|4"}));
}

TEST_F(PlannerTest, StatsExpressionsSayWhatIsWrong) {
  EXPECT_EQ(errorOf(R"(FROM "one" | STATS y = id + SUM(id))"),
            "`id` is neither inside an aggregate nor a BY key | aggregate it, e.g. MAX(id), or add "
            "it to BY");
  EXPECT_EQ(errorOf(R"(FROM "one" | STATS SUM(COUNT(id)))"),
            "aggregates do not nest: count(id) inside sum | aggregate once in STATS, then again in "
            "a second STATS");
  EXPECT_EQ(errorOf(R"(FROM "one" | STATS c = COUNT(*) WHERE id)"),
            "an aggregate's WHERE needs a boolean condition, got id of type int64 | compare it, "
            "e.g. WHERE x > 0");
  EXPECT_EQ(errorOf(R"(FROM "one" | STATS y = ROUND(x))"),
            "STATS computes aggregates; `round(x)` has none | aggregate it, e.g. MAX(round(x)), or "
            "move it to BY");
  EXPECT_EQ(errorOf(R"(FROM "one" | STATS y = coutn(x))"),
            "unknown aggregate `coutn` | did you mean count?");
}

// ES|QL: "The ROW source command produces a row with one or more columns with values
// that you specify. This can be useful for testing."
TEST_F(PlannerTest, RowIsASourceOfOneRowThatReadsNoFile) {
  EXPECT_EQ(run(R"(ROW a = 1, b = "x", c = 2 * 3, d = NULL, a = a + 1 | EVAL e = LENGTH(b) + c)"),
            (std::vector<std::string>{"x|6|NULL|2|7"}));
  EXPECT_EQ(run(R"(ROW a = 5 | STATS n = COUNT(*), s = SUM(a) + 1)"),
            (std::vector<std::string>{"1|6"}));
  EXPECT_EQ(run(R"(ROW a = 5 | WHERE a > 5)"), (std::vector<std::string>{}));
  const std::string text = explain(*plan(R"(ROW a = 5 | STATS n = COUNT(*))"));
  EXPECT_EQ(text.find("ExternalSourceExec"), std::string::npos) << text;
  EXPECT_EQ(text.find("ExchangeExec"), std::string::npos) << text;
  EXPECT_THROW(plan(R"(ROW a = id)"), QueryError);
}

// ES|QL: "The MV_EXPAND processing command expands multivalued columns into one row
// per value, duplicating other columns." A null value stays one row, with null.
TEST_F(PlannerTest, MvExpandGivesOneRowPerValue) {
  EXPECT_EQ(
      run(R"(ROW s = "a,b,c", n = 1 | EVAL p = SPLIT(s, ",") | MV_EXPAND p | KEEP n, p)", true),
      (std::vector<std::string>{"1|a", "1|b", "1|c"}));
  // The values of g (a, b, c and null) collected, then one row each.
  EXPECT_EQ(run(R"(FROM "one", "two" | STATS v = VALUES(g) | MV_EXPAND v)"),
            (std::vector<std::string>{"a", "b", "c"}));
  // s is null in one row: that row stays, with p null.
  EXPECT_EQ(
      run(R"(FROM "one", "two" | EVAL p = SPLIT(s, "y") | MV_EXPAND p | WHERE id >= 5 | KEEP id, p)"),
      (std::vector<std::string>{"5|NULL", "6|x6", "7|", "7|7", "8|", "8|8"}));
  // A single-valued column is one value per row already.
  EXPECT_EQ(run(R"(FROM "one", "two" | MV_EXPAND id | KEEP id)"),
            (std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_THROW(plan(R"(FROM "one" | MV_EXPAND nope)"), QueryError);
}

// MV_EXPAND maps rows to rows: it runs per split, below the exchange, and a STATS
// after it counts the expanded rows.
TEST_F(PlannerTest, MvExpandRunsOnTheDataNodes) {
  const char* query =
      R"(FROM "one", "two" | EVAL p = SPLIT(s, "y") | MV_EXPAND p | STATS n = COUNT(*))";
  EXPECT_EQ(run(query), (std::vector<std::string>{"11"}));
  const std::string text = explain(*plan(query));
  const size_t expand = text.find("MvExpandExec[p]");
  ASSERT_NE(expand, std::string::npos) << text;
  EXPECT_LT(text.find("ExchangeExec"), expand) << text;
}

// ES|QL: "DISSECT enables you to extract structured data out of a string"; "If a
// field name conflicts with an existing column, the existing column is dropped."
TEST_F(PlannerTest, DissectAppendsItsKeysAsStringColumns) {
  EXPECT_EQ(run(R"(ROW a = "2023-01-23T12:15:00.000Z - some text - 127.0.0.1" )"
                R"(| DISSECT a "%{date} - %{msg} - %{ip}" | KEEP date, msg, ip)"),
            (std::vector<std::string>{"2023-01-23T12:15:00.000Z|some text|127.0.0.1"}));
  // s is x1, y2, ...: the key after "x" exists where s starts with x; null elsewhere.
  EXPECT_EQ(run(R"(FROM "one", "two" | DISSECT s "x%{n}" | KEEP id, n | WHERE id < 5)"),
            (std::vector<std::string>{"1|1", "2|NULL", "3|3", "4|NULL"}));
  EXPECT_EQ(run(R"(ROW s = "a b c", t = 1 | DISSECT s "%{t} %{+t} %{u}" APPEND_SEPARATOR = "-")"),
            (std::vector<std::string>{"a b c|a-b|c"}));
  const std::string text =
      explain(*plan(R"(FROM "one", "two" | DISSECT s "x%{n}" | STATS c = COUNT(n))"));
  const size_t dissect = text.find("DissectExec[s \"x%{n}\" -> [n]]");
  ASSERT_NE(dissect, std::string::npos) << text;
  EXPECT_LT(text.find("ExchangeExec"), dissect) << text;
}

// ES|QL: "GROK enables you to extract structured data out of a string"; `:int` and
// `:float` convert a capture.
TEST_F(PlannerTest, GrokAppendsItsCapturesTyped) {
  EXPECT_EQ(
      run(R"(ROW a = "2023-01-23T12:15:00.000Z 127.0.0.1 some.email@foo.com 42" )"
          R"(| GROK a "%{TIMESTAMP_ISO8601:date} %{IP:ip} %{EMAILADDRESS:email} %{NUMBER:num:int}" )"
          R"(| EVAL next = num + 1 | KEEP date, ip, email, num, next)"),
      (std::vector<std::string>{"2023-01-23T12:15:00.000Z|127.0.0.1|some.email@foo.com|42|43"}));
  EXPECT_EQ(
      run(R"(FROM "one", "two" | GROK s "%{DATA:w}%{INT:n:int}" | WHERE n > 5 | KEEP id, w, n)"),
      (std::vector<std::string>{"6|x|6", "7|y|7", "8|y|8"}));
}

TEST_F(PlannerTest, DissectAndGrokSayWhatIsWrong) {
  EXPECT_EQ(
      errorOf(R"(FROM "one" | DISSECT id "%{a}")"),
      "DISSECT takes a string column; id is int64 | convert it first: EVAL s = TO_STRING(id)");
  EXPECT_EQ(
      errorOf(R"(FROM "one" | EVAL l = SPLIT(s, "x") | GROK l "%{WORD:w}")"),
      "GROK takes a string column; l is list<string> | take one value per row first: MV_EXPAND l");
  EXPECT_EQ(errorOf(R"(FROM "one" | GROK s "%{WROD:w}")"),
            "GROK pattern \"%{WROD:w}\": unknown pattern %{WROD}; did you mean %{WORD}? | ");
  EXPECT_EQ(
      errorOf(R"(FROM "one" | DISSECT s "%{*k} %{&k}")"),
      "DISSECT pattern \"%{*k} %{&k}\": the reference key %{*k} is not supported (ES|QL's DISSECT "
      "has none) | ");
}

// ES|QL: "The SAMPLE command samples a fraction of the table rows." It maps rows to
// rows, runs per split below the exchange, and no statistics answer a COUNT after it.
TEST_F(PlannerTest, SampleKeepsTheSameRowsForASeed) {
  const char* query = R"(FROM "one", "two" | SAMPLE 0.5 SEED 11 | KEEP id)";
  const std::vector<std::string> once = run(query);
  EXPECT_LT(once.size(), 8u);  // 8 rows kept by 1 seed in 256: not this one
  EXPECT_FALSE(once.empty());
  EXPECT_EQ(run(query), once);
  const std::string text =
      explain(*plan(R"(FROM "one", "two" | SAMPLE 0.25 SEED 3 | STATS n = COUNT(*))"));
  const size_t sample = text.find("SampleExec[0.25, seed=3]");
  ASSERT_NE(sample, std::string::npos) << text;
  EXPECT_LT(text.find("ExchangeExec"), sample) << text;
  EXPECT_EQ(text.find("LocalSourceExec"), std::string::npos) << text;
  // Every row of a SORT's input is sampled before the LIMIT, which stays above it.
  const std::string sorted = explain(*plan(R"(FROM "one" | SORT id | SAMPLE 0.5 | LIMIT 2)"));
  EXPECT_LT(sorted.find("LimitExec"), sorted.find("SampleExec")) << sorted;
}

// The statistical and collecting aggregates (ES|QL's MEDIAN, PERCENTILE, VALUES, TOP,
// WEIGHTED_AVG, ...) run as INITIAL below the exchange and FINAL above it, and give
// what one aggregation over all rows gives. Groups: a = ids 1, 3, 6; b = 2, 4, 5;
// c = 7; null = 8.
TEST_F(PlannerTest, NewAggregatesMergeAcrossTheExchange) {
  const std::string query =
      R"(FROM "one", "two" | STATS m = MEDIAN(id), p = PERCENTILE(id, 25), v = VALUES(s), )"
      R"(t = TOP(id, 2, "desc"), w = WEIGHTED_AVG(x, id), var = VARIANCE(id) BY g)";
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("AggregateExec[FINAL]"), std::string::npos) << text;
  EXPECT_NE(text.find("w = WEIGHTED_AVG(x, id)"), std::string::npos) << text;
  // The constant arguments show where the aggregate is computed, raw and merged.
  EXPECT_NE(text.find("p = PERCENTILE(id, 25)"), std::string::npos) << text;
  EXPECT_NE(text.find("p = PERCENTILE(p$values, 25)"), std::string::npos) << text;
  EXPECT_NE(text.find("t = TOP(id, 2, \"desc\")"), std::string::npos) << text;
  // PERCENTILE 25 of 1, 3, 6: r = 0.5, 1 * 0.5 + 3 * 0.5; VARIANCE of 2, 4, 5: 14/9;
  // WEIGHTED_AVG of b: (2 * 4 + 3 * 5) / (2 + 4 + 5), id 2's weight counting.
  EXPECT_EQ(run(query), (std::vector<std::string>{
                            "3.0|2.0|[x1, x3, x6]|[6, 3]|0.15|4.222222222222222|a",
                            "4.0|3.0|[y2, z4]|[5, 4]|2.090909090909091|1.5555555555555556|b",
                            "7.0|7.0|[y7]|[7]|10.0|0.0|c",
                            "8.0|8.0|[y8]|[8]|4.0|0.0|NULL",
                        }));
}

// The binder refuses an aggregate outside STATS by the same names STATS takes.
TEST_F(PlannerTest, TheBinderKnowsEveryAggregateStatsTakes) {
  std::vector<std::string> stats;
  for (const AggregateName& a : statsAggregates()) stats.emplace_back(a.name);
  const std::vector<std::string> binder(aggregateFunctionNames().begin(),
                                        aggregateFunctionNames().end());
  EXPECT_EQ(binder, stats);
}

// The arguments after the first are ES|QL's constants, checked at planning.
TEST_F(PlannerTest, NewAggregatesCheckTheirArguments) {
  const auto expectError = [&](const std::string& text, const std::string& message) {
    SCOPED_TRACE(text);
    try {
      plan(text);
      ADD_FAILURE() << "no error";
    } catch (const QueryError& e) {
      EXPECT_EQ(e.message(), message);
    }
  };
  expectError(R"(FROM "one" | STATS PERCENTILE(x, 101))",
              "PERCENTILE's percentile must be a number from 0 to 100, not `101`");
  expectError(R"(FROM "one" | STATS PERCENTILE(x, id))",
              "PERCENTILE's percentile must be a number from 0 to 100, not `id`");
  expectError(R"(FROM "one" | STATS PERCENTILE(x))", "aggregate `percentile` takes 2 arguments");
  expectError(R"(FROM "one" | STATS TOP(x, 0))", "TOP's limit must be an integer from 1, not `0`");
  expectError(R"(FROM "one" | STATS TOP(x, 2, "up"))",
              R"(TOP's order must be "asc" or "desc", not `"up"`)");
  expectError(R"(FROM "one" | STATS WEIGHTED_AVG(x, s))",
              "WEIGHTED_AVG cannot take a weight of type string");
  expectError(R"(FROM "one" | STATS MEDIAN(s))", "median cannot take a value of type string");
  // COUNT_DISTINCT(x, precision): ES|QL's threshold, checked; the count stays exact.
  expectError(R"(FROM "one" | STATS COUNT_DISTINCT(s, -1))",
              "COUNT_DISTINCT's precision must be a non-negative integer, not `-1`");
  expectError(R"(FROM "one" | STATS COUNT_DISTINCT(s, id))",
              "COUNT_DISTINCT's precision must be a non-negative integer, not `id`");
  expectError(R"(FROM "one" | STATS COUNT_DISTINCT(s, 1, 2))", "aggregate `count_distinct` takes 1 or 2 arguments");
  EXPECT_EQ(run(R"(FROM "one", "two" | STATS a = COUNT_DISTINCT(g, 0), b = COUNT_DISTINCT(g, 40000), c = COUNT_DISTINCT(g))"),
            (std::vector<std::string>{"3|3|3"}));
  try {
    plan(R"(FROM "one" | STATS mode(x))");
    ADD_FAILURE() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.hint(),
              "the aggregates are COUNT, COUNT_DISTINCT, MIN, MAX, SUM, AVG, MEDIAN, PERCENTILE, "
              "MEDIAN_ABSOLUTE_DEVIATION, STD_DEV, VARIANCE, WEIGHTED_AVG, VALUES, TOP");
  }
  // Ids 1 to 8: PERCENTILE 12.5 is r = 7 * 0.125, 1 * 0.125 + 2 * 0.875.
  EXPECT_EQ(run(R"(FROM "one" | STATS t = TOP(id, 2, "DESC"), p = PERCENTILE(id, 12.5))"),
            (std::vector<std::string>{"[8, 7]|1.875"}));
}

// "the statistics pushdown must not try to answer them": statistics hold counts,
// minima and maxima, so the rule refuses every other aggregate and says why.
TEST_F(PlannerTest, StatisticsDoNotAnswerTheNewAggregates) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  for (const char* agg :
       {"MEDIAN(id)", "PERCENTILE(id, 50)", "MEDIAN_ABSOLUTE_DEVIATION(id)", "STD_DEV(id)",
        "VARIANCE(id)", "WEIGHTED_AVG(id, id)", "VALUES(id)", "TOP(id, 1, \"asc\")"}) {
    const std::string query = std::string(R"(FROM "one", "two" | STATS c = COUNT(*), a = )") + agg;
    SCOPED_TRACE(query);
    PlanNodePtr root = plan(query, false);
    std::string why;
    EXPECT_FALSE(pushAggregatesToExternalSource(*root, &why));
    EXPECT_NE(why.find("of int64 is not answered from statistics"), std::string::npos) << why;
    EXPECT_EQ(run(query).size(), 1u);
  }
}

// A BY key written as a quoted column names its column by the column, not by the
// quotes: after `STATS COUNT(*) BY g`, `STATS n = COUNT(*) BY \`COUNT(*)\`` gives
// a column `COUNT(*)` that a later command can name (found by issue 31's corpus).
TEST_F(PlannerTest, AQuotedByColumnKeepsTheColumnsName) {
  PlanNodePtr root = plan(R"(FROM "one" | STATS COUNT(*) BY g | STATS n = COUNT(*) BY `COUNT(*)`)");
  ASSERT_EQ(root->schema.size(), 2u);
  EXPECT_EQ(root->schema[1].name, "COUNT(*)");
  EXPECT_EQ(run(R"(FROM "one" | STATS COUNT(*) BY `g` | WHERE g == "a" | KEEP `COUNT(*)`, g)"),
            (std::vector<std::string>{"3|a"}));
}

// A constant BY key divides no group (ClickBench's Q35, `BY one = 1, URL`): only
// the other keys are hashed, and the constant is added to each group after; the
// columns keep their order and names, and an expression over aggregates that names
// the key sees its value. Every key constant is still a grouping: no row, no group.
TEST_F(PlannerTest, AConstantByKeyIsAddedAfterTheGroupingNotHashed) {
  const char* query = R"(FROM "one", "two" | STATS c = COUNT(*), m = MAX(id) + one BY one = 1, g, 2)";
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("AggregateExec[FINAL][[c = COUNT(*), max(id) = MAX(max(id)$value)] BY [g]]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("EvalExec[one = 1, 2 = 2]"), std::string::npos) << text;
  PlanNodePtr root = plan(query);
  std::vector<std::string> names;
  for (const Field& field : root->schema) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"c", "m", "one", "g", "2"}));
  EXPECT_EQ(run(query), (std::vector<std::string>{"1|8|1|c|2", "1|9|1|NULL|2", "3|6|1|b|2",
                                                  "3|7|1|a|2"}));
  EXPECT_EQ(run(R"(FROM "one", "two" | WHERE id > 100 | STATS c = COUNT(*) BY one = 1)"),
            std::vector<std::string>{});
  EXPECT_NE(explain(*plan(R"(FROM "one" | STATS c = COUNT(*) BY one = 1)")).find("BY [$group0]"),
            std::string::npos);
}

TEST_F(PlannerTest, UngroupedStatsOverNoRowsGivesOneRow) {
  EXPECT_EQ(run(R"(FROM "one", "two" | WHERE id > 100 | STATS c = COUNT(*), m = MIN(id))"),
            (std::vector<std::string>{"0|NULL"}));
}

TEST_F(PlannerTest, SortWithLimitIsATopNOnBothSidesOfTheExchange) {
  const std::string text = explain(*plan(R"(FROM "one", "two" | SORT x DESC | LIMIT 2 | KEEP id)"));
  EXPECT_NE(text.find("TopNExec[[x DESC NULLS FIRST], limit=2]\n    ExchangeExec"), std::string::npos) << text;
  // DESC puts nulls first unless told otherwise (ES|QL).
  EXPECT_EQ(run(R"(FROM "one", "two" | SORT x DESC | LIMIT 2 | KEEP id)", true),
            (std::vector<std::string>{"2", "7"}));
  EXPECT_EQ(run(R"(FROM "one", "two" | SORT x ASC NULLS FIRST, id DESC | LIMIT 4 | KEEP id)", true),
            (std::vector<std::string>{"2", "6", "3", "1"}));
}

TEST_F(PlannerTest, LimitAfterRowWiseCommandsBelowASortIsTheSortsTopN) {
  // EVAL, KEEP, DROP and RENAME map each row to one row in order, so a LIMIT after them
  // commutes up to the SORT: `SORT | KEEP | LIMIT` is a top-N, not a sort of every row.
  const std::string query =
      R"(FROM "one", "two" | SORT x DESC | EVAL y = id * 10 | RENAME y AS z | DROP s | KEEP z, x | LIMIT 2)";
  const std::string text = explain(*plan(query));
  // The top-N on both sides of the exchange; no LimitExec, no TopN without a limit.
  const size_t first = text.find("TopNExec[[x DESC NULLS FIRST], limit=2]");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_NE(text.find("TopNExec[[x DESC NULLS FIRST], limit=2]", first + 1), std::string::npos) << text;
  EXPECT_EQ(text.find("LimitExec"), std::string::npos) << text;
  EXPECT_EQ(run(query, true), (std::vector<std::string>{"20|NULL", "70|10.0"}));
  // A WHERE between them changes which rows remain: the LIMIT stays after it.
  const std::string filtered = R"(FROM "one", "two" | SORT x DESC | KEEP id, x | WHERE id > 2 | LIMIT 2)";
  EXPECT_NE(explain(*plan(filtered)).find("LimitExec"), std::string::npos);
  EXPECT_EQ(run(filtered, true), (std::vector<std::string>{"7|10.0", "8|4.0"}));
}

TEST_F(PlannerTest, SumOfAnInt32PlusAConstantIsItsSumPlusTheConstantTimesItsCount) {
  // SUM(v + c), SUM(c + v) and SUM(v - c) of an int32 v are SUM(v) + c * COUNT(v): one SUM,
  // COUNT, MIN and MAX of v, shared, instead of an evaluation and a sum each; null for a
  // group without values; the error of the per-row evaluation when some v + c overflows.
  Block g(DataType::string());
  Block v(DataType::int32());
  for (const auto& [group, value] : std::vector<std::pair<std::string, std::optional<int32_t>>>{
           {"a", 1}, {"a", std::nullopt}, {"b", 2147483000}, {"c", std::nullopt}, {"a", -5}}) {
    g.appendBytes(group);
    value ? v.append<int32_t>(*value) : v.appendNull();
  }
  reader_.add("ints", {{"g", DataType::string()}, {"v", DataType::int32()}}, {Page({std::move(g), std::move(v)}, 5)});
  uris_ = {"ints"};
  const std::string query = R"(FROM "ints" | STATS s = SUM(v + 10), t = SUM(v - 3), u = SUM(7 + v), n = COUNT(*) BY g)";
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("$sum_offset"), std::string::npos) << text;
  EXPECT_EQ(text.find("(v + 10)"), std::string::npos) << text;
  EXPECT_NE(text.find("AggregateExec[INITIAL][[$SUM(1) = SUM(v), $COUNT(1) = COUNT(v), $MIN(1) = "
                      "MIN(v), $MAX(1) = MAX(v), n = COUNT(*)] BY [g]]"),
            std::string::npos)
      << text;
  EXPECT_EQ(run(query), (std::vector<std::string>{"16|-10|10|3|a", "2147483010|2147482997|2147483007|1|b",
                                                  "NULL|NULL|NULL|1|c"}));
  const auto errorOf = [&](const std::string& q) {
    try {
      run(q);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A column the user names as the shared aggregates are named is not taken for one.
  EXPECT_EQ(run(R"(FROM "ints" | STATS `$SUM(1)` = MAX(v), `$COUNT(1)` = MIN(v), s = SUM(v + 1))"),
            (std::vector<std::string>{"2147483000|-5|2147482999"}));
  // Per row, v + 1000 would be null where it overflows and left out of the sum,
  // which SUM(v) + 1000 * COUNT(v) cannot: an error that says how to avoid it.
  EXPECT_EQ(errorOf(R"(FROM "ints" | STATS s = SUM(v + 1000))"),
            "Overflow in addition of int32 (2147483000 + 1000) in [s]: a row's value "
            "overflows integer; convert the column first, e.g. SUM(TO_LONG(x) + 1000)");
  EXPECT_EQ(errorOf(R"(FROM "ints" | STATS s = SUM(v - 2147483647))"),
            "Overflow in subtraction of int32 (-5 - 2147483647) in [s]: a row's "
            "value overflows integer; convert the column first, e.g. SUM(TO_LONG(x) - 2147483647)");
}

TEST_F(PlannerTest, EvalShadowsAndKeepDropRenameShapeTheColumns) {
  EXPECT_EQ(run(R"(FROM "one" | WHERE id <= 2 | EVAL id = id * 10, y = id + 1 | DROP s | RENAME g AS group | KEEP group, y, id)"),
            (std::vector<std::string>{"a|11|10", "b|21|20"}));
}

// ES|QL's KEEP: "Wildcards (`*`) ... match any run of characters"; the matches come
// in the schema's order, each column once, and a backquoted name is only itself.
TEST_F(PlannerTest, KeepAndDropTakeWildcardPatterns) {
  PlanNodePtr root = plan(R"(FROM "one" | EVAL xs = x, id2 = id | KEEP *s, i*, g)");
  std::vector<std::string> names;
  for (const Field& f : root->schema) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"s", "xs", "id", "id2", "g"}));
  root = plan(R"(FROM "one" | EVAL xs = x | DROP x*, *d)");
  names.clear();
  for (const Field& f : root->schema) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"g", "s"}));
  // The two columns a pattern `COUNT(*)` would match: the backquoted name keeps one.
  root = plan(R"(FROM "one" | STATS COUNT(*), COUNT(x) | KEEP `COUNT(*)`)");
  ASSERT_EQ(root->schema.size(), 1u);
  EXPECT_EQ(root->schema[0].name, "COUNT(*)");
  root = plan(R"(FROM "one" | STATS COUNT(*), COUNT(x) | DROP `COUNT(*)`)");
  ASSERT_EQ(root->schema.size(), 1u);
  EXPECT_EQ(root->schema[0].name, "COUNT(x)");
  EXPECT_THROW(plan(R"(FROM "one" | KEEP z*)"), QueryError);  // no column matches
}

TEST_F(PlannerTest, PrunedColumnsAreNotRead) {
  run(R"(FROM "one" | STATS c = COUNT(*))");
  for (const ReadRequest& request : reader_.reads()) {
    EXPECT_EQ(request.columns, (std::vector<std::string>{"id"}));  // the narrowest column counts rows
  }
}

TEST_F(PlannerTest, LimitWithoutFilterIsPushedToTheSource) {
  const std::string text = explain(*plan(R"(FROM "one", "two" | LIMIT 3)"));
  EXPECT_NE(text.find("limit=3]"), std::string::npos) << text;
  EXPECT_EQ(run(R"(FROM "one", "two" | LIMIT 3 | STATS c = COUNT(*))"), (std::vector<std::string>{"3"}));
}

TEST_F(PlannerTest, UnknownColumnsAreQueryErrorsWithAHint) {
  try {
    plan(R"(FROM "one" | KEEP idd)");
    FAIL() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.message(), "unknown column idd");
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.column(), 19);
    EXPECT_EQ(e.hint(), "did you mean id?");
  }
  EXPECT_THROW(plan(R"(FROM "one" | STATS x)"), QueryError);
  EXPECT_THROW(plan(R"(FROM "one" | STATS mode(x))"), QueryError);
  EXPECT_THROW(plan(R"(FROM "one" | STATS SUM(*))"), QueryError);
}

TEST_F(PlannerTest, ANameOfAColumnTheEngineDoesNotReadSaysWhatItIs) {
  ResolvedSource source = reader_.resolve({"one", "two"});
  source.files[1].metadata.unreadColumns = {{"m", "a MAP"}, {"s.l", "a LIST of lists, structs or maps"}};
  const auto planned = [&](const std::string& text) {
    PlannerOptions options;
    ResolvedSource copy = source;
    return planQuery(parseQuery(text), copy, options);
  };
  const auto expectError = [&](const std::string& text, const std::string& message, int column) {
    SCOPED_TRACE(text);
    try {
      planned(text);
      ADD_FAILURE() << "no error";
    } catch (const QueryError& e) {
      EXPECT_EQ(e.message(), message);
      EXPECT_EQ(e.line(), 1);
      EXPECT_EQ(e.column(), column);
      EXPECT_NE(e.hint().find("in two;"), std::string::npos) << e.hint();
    }
  };
  expectError(R"(FROM "one", "two" | KEEP m)", "column m is a MAP, which quarry does not read yet", 26);
  expectError(R"(FROM "one", "two" | WHERE m.key_value.key == "k")",
              "column m is a MAP, which quarry does not read yet", 27);
  expectError(R"(FROM "one", "two" | STATS c = COUNT(s.l.list.element))",
              "column s.l is a LIST of lists, structs or maps, which quarry does not read yet", 37);
  // Other unknown names keep their message and hint; a name the query defines wins.
  try {
    planned(R"(FROM "one", "two" | KEEP mm)");
    ADD_FAILURE() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.message(), "unknown column mm");
  }
  EXPECT_NO_THROW(planned(R"(FROM "one", "two" | EVAL m = id | KEEP m)"));
}

// ---- PushAggregatesToExternalSource (aggregate-pushdown-plan.txt) ----------------

constexpr const char* kPushable = R"(FROM "one", "two" | STATS c = COUNT(*), n = COUNT(x), lo = MIN(id), hi = MAX(s))";

TEST_F(PlannerTest, EverySplitWithStatisticsIsAnsweredAtPlanningInInitialMode) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  const PlanNodePtr root = plan(kPushable);
  const std::string text = explain(*root);
  // "All splits have statistics -> precompute from stats, no scanning"; the
  // coordinator's FINAL is never touched.
  EXPECT_NE(text.find("AggregateExec[FINAL]"), std::string::npos) << text;
  EXPECT_NE(text.find("LocalSourceExec[statistics of 4 splits]"), std::string::npos) << text;
  EXPECT_EQ(text.find("ExternalSourceExec"), std::string::npos) << text;
  // "INITIAL mode: [count, seen=true, min_salary, seen=true, max_age, seen=true]"
  const PlanNode* local = root.get();
  while (local->kind != PlanKind::kLocalSource) local = local->input().get();
  std::optional<Page> page = local->supplier();
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->blockCount(), 8u);
  ASSERT_EQ(page->positionCount(), 1u);
  std::vector<std::string> cells;
  for (const Block& block : page->blocks()) {
    std::string cell;
    cli::appendBlockText(block, 0, cell);
    cells.push_back(cell);
  }
  EXPECT_EQ(cells, (std::vector<std::string>{"8", "true", "7", "true", "1", "true", "z4", "true"}));
  EXPECT_EQ(local->schema[0].name, "c$count");
  EXPECT_EQ(local->schema[1].name, "c$seen");
  reader_.reads();  // no data was read
  EXPECT_TRUE(reader_.reads().empty());
  EXPECT_EQ(run(kPushable), (std::vector<std::string>{"8|7|1|z4"}));
  EXPECT_TRUE(reader_.reads().empty());
}

TEST_F(PlannerTest, SingleModeGivesTheFinalValues) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  exchange_ = false;
  const std::string text = explain(*plan(kPushable));
  EXPECT_EQ(text, "ProjectExec[c, n, lo, hi]\n  LocalSourceExec[statistics of 4 splits]\n") << text;
  EXPECT_EQ(run(kPushable), (std::vector<std::string>{"8|7|1|z4"}));
  EXPECT_TRUE(reader_.reads().empty());
}

TEST_F(PlannerTest, SplitsWithoutStatisticsReadFootersWhenThePlanRuns) {
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  const std::string text = explain(*plan(kPushable));
  EXPECT_NE(text.find("LocalSourceExec[FileStatsSupplier per row group over 4 splits, else a scan, mixed]"),
            std::string::npos)
      << text;
  const int before = reader_.metadataCalls;
  EXPECT_EQ(run(kPushable), (std::vector<std::string>{"8|7|1|z4"}));
  EXPECT_EQ(reader_.metadataCalls - before, 2 + 4);  // resolution's two, then one per split
  EXPECT_TRUE(reader_.reads().empty());
}

TEST_F(PlannerTest, UnitsThatCannotAnswerAreScannedWhole) {
  // The plan's all-or-nothing rule, held per unit: a unit lacking a statistic
  // an aggregate needs is scanned wholly.
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  reader_.uncountable = {"x"};  // COUNT(x) needs null counts
  EXPECT_EQ(run(kPushable), (std::vector<std::string>{"8|7|1|z4"}));
  EXPECT_EQ(reader_.reads().size(), 4u);
  EXPECT_EQ(metrics_.rowGroupsAnsweredFromStatistics, 0u);
  // With statistics in the splits, each one unit, the rule does not fire and says why.
  reader_.withStatistics = true;
  PlanNodePtr root = plan(kPushable, false);
  std::string why;
  EXPECT_FALSE(pushAggregatesToExternalSource(*root, &why));
  EXPECT_EQ(why, "a statistic an aggregate needs is unknown in every split");
}

// Issue 9: "mixed mode per row group — answer the row groups whose statistics
// are exact, scan only the others, merge both".
TEST_F(PlannerTest, AUnitWithoutStatisticsAmongOthersIsScannedAndMerged) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  reader_.withoutStatistics = {"two:1"};
  for (const bool exchange : {true, false}) {
    exchange_ = exchange;
    const std::string text = explain(*plan(kPushable));
    EXPECT_NE(text.find("LocalSourceExec[statistics of 3 splits, FileStatsSupplier per row group "
                        "over 1 splits, "
                        "else a scan, mixed]"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("ExternalSourceExec"), std::string::npos) << text;
    const size_t readsBefore = reader_.reads().size();
    EXPECT_EQ(run(kPushable), (std::vector<std::string>{"8|7|1|z4"})) << exchange;
    const std::vector<ReadRequest> reads = reader_.reads();
    ASSERT_EQ(reads.size() - readsBefore, 1u);  // only the unit without statistics
    EXPECT_EQ(metrics_.rowGroupsAnsweredFromStatistics, 3u);
  }
}

TEST_F(PlannerTest, AMultiUnitSplitIsDecidedUnitByUnitWhenThePlanRuns) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  reader_.withoutStatistics = {"one:0"};
  PlanNodePtr root = plan(kPushable, false);
  // One split covering both units of "one" whose merged statistics cannot
  // answer (its first unit has none): only that unit is scanned.
  PlanNode* source = root.get();
  while (!source->children.empty()) source = source->input().get();
  ASSERT_EQ(source->splits.size(), 4u);
  SplitTask whole = source->splits[0];
  whole.split.length = 2;
  whole.split.units = 2;
  whole.split.statistics.reset();
  source->splits.erase(source->splits.begin(), source->splits.begin() + 2);
  source->splits.insert(source->splits.begin(), whole);
  optimize(*root);
  const std::string text = explain(*root);
  EXPECT_NE(text.find("LocalSourceExec[statistics of 2 splits, FileStatsSupplier per row group over 1 splits"),
            std::string::npos)
      << text;
  OperatorPtr op = buildOperators(*root);
  std::optional<Page> page = op->next();
  ASSERT_TRUE(page.has_value());
  std::string row;
  for (size_t c = 0; c < page->blockCount(); ++c) {
    if (c > 0) row += '|';
    cli::appendBlockText(page->block(c), 0, row);
  }
  EXPECT_EQ(row, "8|7|1|z4");
  const std::vector<ReadRequest> reads = reader_.reads();
  EXPECT_EQ(reads.size(), 1u);
  EXPECT_EQ(metrics_.rowGroupsAnsweredFromStatistics, 3u);
}

// Issue 9: "WHERE-filtered COUNT/MIN/MAX answered from statistics where each row
// group ... is proven all-match or none-match, scanning only the undecided ones".
TEST_F(PlannerTest, FilteredUnitsProvenNoneMatchAreSkippedAndAllMatchAnswered) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  // ids: one = [1, 2, 3], [4, 5]; two = [6], [7, 8]. id > 5: none, none, all, all.
  const char* query = R"(FROM "one", "two" | WHERE id > 5 | STATS c = COUNT(*), n = COUNT(x), lo = MIN(id), hi = MAX(s))";
  const std::string text = explain(*plan(query));
  EXPECT_NE(text.find("LocalSourceExec[statistics of 2 splits, 2 splits skipped by statistics, "
                      "filter=gt(id, 5)]"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("FilterExec"), std::string::npos) << text;
  EXPECT_EQ(run(query), (std::vector<std::string>{"3|3|6|y8"}));
  EXPECT_TRUE(reader_.reads().empty());
  EXPECT_EQ(metrics_.rowGroupsAnsweredFromStatistics, 2u);
  EXPECT_EQ(metrics_.rowGroupsPrunedByStatistics, 2u);
  // Nothing matches: the empty answer.
  EXPECT_EQ(run(R"(FROM "one", "two" | WHERE id > 50 | STATS c = COUNT(*), lo = MIN(id))"),
            (std::vector<std::string>{"0|NULL"}));
  EXPECT_TRUE(reader_.reads().empty());
}

TEST_F(PlannerTest, FilteredUndecidedUnitsAreScannedWithTheFilter) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  // id >= 3: [1, 2, 3] undecided, the rest every row.
  const char* query = R"(FROM "one", "two" | WHERE id >= 3 | STATS c = COUNT(*), n = COUNT(x), lo = MIN(id), hi = MAX(s))";
  for (const bool exchange : {true, false}) {
    exchange_ = exchange;
    const std::string text = explain(*plan(query));
    // The undecided unit's pages may decide it when the plan runs (this reader has none).
    EXPECT_NE(text.find("LocalSourceExec[statistics of 3 splits, FileStatsSupplier per row group "
                        "and page over 1 "
                        "splits, else a scan, mixed, filter=gtEq(id, 3)]"),
              std::string::npos)
        << text;
    const size_t readsBefore = reader_.reads().size();
    // ids 3..8; x non-null for 3, 4, 5, 6, 7, 8; s max over x3, z4, null, x6, y7, y8.
    EXPECT_EQ(run(query), (std::vector<std::string>{"6|6|3|z4"})) << exchange;
    const std::vector<ReadRequest> reads = reader_.reads();
    ASSERT_EQ(reads.size() - readsBefore, 1u);
    ASSERT_TRUE(reads.back().filter.has_value());
    EXPECT_EQ(reads.back().filter->toString(), "gtEq(id, 3)");
    EXPECT_EQ(metrics_.rowGroupsAnsweredFromStatistics, 3u);
  }
}

TEST_F(PlannerTest, AWhereThatIsNotExactlyTheSourcePredicateKeepsTheScan) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  // The translation drops the null item: not(in(id, 1, 2)) is true for id 3,
  // where the query's NOT (id IN (1, 2, NULL)) is null. Answering [4, 5] and
  // the "two" units as every-row would count rows the query rejects.
  const char* query = R"(FROM "one", "two" | WHERE NOT (id IN (1, 2, NULL)) | STATS c = COUNT(*))";
  PlanNodePtr root = plan(query, false);
  pruneColumns(*root);
  pushFiltersToSource(*root);
  std::string why;
  EXPECT_FALSE(pushAggregatesToExternalSource(*root, &why));
  EXPECT_EQ(why, "the WHERE is not wholly a source predicate (rows are rechecked)");
  EXPECT_EQ(run(query), (std::vector<std::string>{"0"}));
  // A conjunct left to the recheck.
  root = plan(R"(FROM "one" | WHERE id > 1 AND id + 1 > 3 | STATS c = COUNT(*))", false);
  pruneColumns(*root);
  pushFiltersToSource(*root);
  EXPECT_FALSE(pushAggregatesToExternalSource(*root, &why));
  EXPECT_EQ(why, "the WHERE is not wholly a source predicate (rows are rechecked)");
}

TEST_F(PlannerTest, FiltersGroupsAndOtherAggregatesKeepTheScan) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  for (const char* query : {R"(FROM "one" | WHERE id + 1 > 2 | STATS c = COUNT(*))",
                            R"(FROM "one" | STATS c = COUNT(*) BY g)", R"(FROM "one" | STATS s = SUM(id))"}) {
    EXPECT_NE(explain(*plan(query)).find("ExternalSourceExec"), std::string::npos) << query;
  }
  PlanNodePtr root = plan(R"(FROM "one" | STATS c = COUNT(*) BY g)", false);
  std::string why;
  EXPECT_FALSE(pushAggregatesToExternalSource(*root, &why));
  EXPECT_EQ(why, "the aggregate is grouped by g, not a partition column");
}

TEST_F(PlannerTest, AllNullColumnsGiveNullMinAndMax) {
  reader_.withStatistics = true;
  reader_.pushdown = AggregatePushdownSupport::kFromStatistics;
  reader_.add("nulls", schema_, {page({1, 2}, {"a", "a"}, {std::nullopt, std::nullopt}, {"p", "q"})});
  Query query = parseQuery(R"(FROM "nulls" | STATS lo = MIN(x), n = COUNT(x), c = COUNT(*))");
  ResolvedSource source = reader_.resolve({"nulls"});
  PlanNodePtr root = planQuery(query, source, PlannerOptions{});
  optimize(*root);
  OperatorPtr op = buildOperators(*root);
  std::optional<Page> p = op->next();
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(p->block(0).isNull(0));
  EXPECT_EQ(p->block(1).values<int64_t>()[0], 0);
  EXPECT_EQ(p->block(2).values<int64_t>()[0], 2);
  EXPECT_TRUE(reader_.reads().empty());
}

TEST(FilterTranslation, ConjunctsItCannotExpressAreLeftToTheRecheck) {
  const Schema schema = {{"a", DataType::int64()}, {"d", DataType::float64()}, {"s", DataType::string()}};
  auto translate = [&](const std::string& text) {
    std::optional<parquet::FilterPredicate> p = toFilterPredicate(*bindExpression(parseExpression(text), schema), schema);
    return p ? p->toString() : std::string("-");
  };
  EXPECT_EQ(translate("a > 5 AND s LIKE 'x*'"), "gt(a, 5)");
  EXPECT_EQ(translate("a > 5 OR s LIKE 'x*'"), "-");  // an OR must be whole
  EXPECT_EQ(translate("NOT (a > 5 AND s LIKE 'x*')"), "-");  // under NOT, exact only
  EXPECT_EQ(translate("10 < a"), "gt(a, 10)");
  EXPECT_EQ(translate("a IN (1, 2, NULL)"), "in(a, 1, 2)");
  EXPECT_EQ(translate("s IS NULL OR d >= 1.5"), "or(isNull(s), gtEq(d, 1.5))");
  // The predicate orders -0.0 below +0.0; the engine holds them equal.
  EXPECT_EQ(translate("d = 0.0"), "-");
}

}  // namespace
}  // namespace quarry::engine
