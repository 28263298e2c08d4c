// The mv_ functions (mv_functions.h) and aggregates over list columns
// (list_aggregator.h): ES|QL's multi-value rules, null elements skipped, null
// where a list holds no value; and the plan-time refusal of a list where one
// value per row is needed.

#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/common/error.h"
#include "quarry/engine/expr/aggregator.h"
#include "quarry/engine/expr/list_aggregator.h"

namespace quarry::engine {
namespace {

using testing::eval;
using testing::Table;
using V = std::vector<std::string>;

/// A list<int64> block of `rows` (nullopt: a null list; a null element: nullopt inside).
Block intLists(const std::vector<std::optional<std::vector<std::optional<int64_t>>>>& rows) {
  std::vector<uint64_t> offsets{0};
  std::vector<uint8_t> validity;
  Block elements(DataType::int64());
  for (const auto& row : rows) {
    validity.push_back(row.has_value());
    for (const auto& e : row.value_or(std::vector<std::optional<int64_t>>{})) {
      if (e) {
        elements.append<int64_t>(*e);
      } else {
        elements.appendNull();
      }
    }
    offsets.push_back(elements.size());
  }
  return Block::fromList(DataType::list(DataType::int64()), std::move(offsets), std::move(elements),
                         std::move(validity));
}

const auto n = std::nullopt;
using L = std::vector<std::optional<int64_t>>;

/// li: [3, null, 1], null, [], [null], [5], [-2, 7]; ls: string lists; i: scalars.
Table lists() {
  Table t;
  t.schema.push_back({"li", DataType::list(DataType::int64())});
  t.blocks.push_back(intLists({L{3, n, 1}, n, L{}, L{n}, L{5}, L{-2, 7}}));
  Block strings(DataType::string());
  for (const char* s : {"b", "a", "c"}) strings.appendBytes(s);
  t.schema.push_back({"ls", DataType::list(DataType::string())});
  t.blocks.push_back(
      Block::fromList(DataType::list(DataType::string()), {0, 2, 2, 2, 2, 3, 3}, strings));
  t.add("i", DataType::int32(),
        {int32_t{1}, int32_t{2}, int32_t{3}, int32_t{4}, int32_t{5}, int32_t{6}});
  return t;
}

TEST(MvFunctions, ReduceEachListSkippingNullElements) {
  EXPECT_EQ(eval("mv_count(li)", lists()), (V{"2", "NULL", "NULL", "NULL", "1", "2"}));
  EXPECT_EQ(eval("mv_min(li)", lists()), (V{"1", "NULL", "NULL", "NULL", "5", "-2"}));
  EXPECT_EQ(eval("mv_max(li)", lists()), (V{"3", "NULL", "NULL", "NULL", "5", "7"}));
  EXPECT_EQ(eval("mv_sum(li)", lists()), (V{"4", "NULL", "NULL", "NULL", "5", "5"}));
  EXPECT_EQ(eval("mv_avg(li)", lists()), (V{"2", "NULL", "NULL", "NULL", "5", "2.5"}));
  EXPECT_EQ(eval("mv_first(li)", lists()), (V{"3", "NULL", "NULL", "NULL", "5", "-2"}));
  EXPECT_EQ(eval("mv_last(li)", lists()), (V{"1", "NULL", "NULL", "NULL", "5", "7"}));
  EXPECT_EQ(eval("mv_min(ls)", lists()), (V{"a", "NULL", "NULL", "NULL", "c", "NULL"}));
  EXPECT_EQ(eval("mv_max(li) + i", lists()), (V{"4", "NULL", "NULL", "NULL", "10", "13"}));
  EXPECT_EQ(eval("mv_count(NULL)", lists())[0], "NULL");
}

// ES|QL: "a single-valued field is a multi-valued field of one value".
TEST(MvFunctions, AValueIsAListOfOne) {
  Table t = lists();
  t.add("x", DataType::int32(),
        {int32_t{4}, Scalar{}, int32_t{-1}, int32_t{0}, Scalar{}, int32_t{9}});
  EXPECT_EQ(eval("mv_count(x)", t), (V{"1", "NULL", "1", "1", "NULL", "1"}));
  EXPECT_EQ(eval("mv_min(x)", t), (V{"4", "NULL", "-1", "0", "NULL", "9"}));
  EXPECT_EQ(eval("mv_last(x)", t), (V{"4", "NULL", "-1", "0", "NULL", "9"}));
  EXPECT_EQ(eval("mv_sum(x)", t), (V{"4", "NULL", "-1", "0", "NULL", "9"}));
  EXPECT_EQ(eval("mv_avg(i)", t), (V{"1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(eval("mv_max(\"a\")", t)[0], "a");
  EXPECT_EQ(eval("mv_count(mv_max(li))", t), (V{"1", "NULL", "NULL", "NULL", "1", "1"}));
  EXPECT_EQ(testing::bindText("mv_min(x)", t.schema)->type, DataType::int32());
  EXPECT_EQ(testing::bindText("mv_sum(x)", t.schema)->type, DataType::int64());
  EXPECT_EQ(testing::bindText("mv_avg(x)", t.schema)->type, DataType::float64());
  EXPECT_THROW(testing::bindText("mv_sum(\"a\")", t.schema), QueryError);  // not a number
}

// ES|QL's MV_MEDIAN, MV_CONCAT, MV_DEDUPE, MV_SORT, MV_SLICE, MV_APPEND and MV_ZIP:
// null elements dropped, a null list or one left without values null.
TEST(MvFunctions, ShapeListsAsEsqlDoes) {
  const Table t = lists();
  // "If the row has an even number of values for a column, the result will be the
  // average of the middle two entries. If the column is not floating point, the
  // average rounds down."
  EXPECT_EQ(eval("mv_median(li)", t), (V{"2", "NULL", "NULL", "NULL", "5", "2"}));
  // -0.5, 3.5 and -3.5 round down.
  EXPECT_EQ(eval("mv_median(mv_append(mv_min(li) - 3, mv_min(li)))", t),
            (V{"-1", "NULL", "NULL", "NULL", "3", "-4"}));
  EXPECT_EQ(eval("mv_concat(ls, \"-\")", t), (V{"b-a", "NULL", "NULL", "NULL", "c", "NULL"}));
  EXPECT_EQ(eval("mv_dedupe(split(\"b,a,b,c,a\", \",\"))", t)[0], "[b, a, c]");
  EXPECT_EQ(eval("mv_sort(li)", t), (V{"[1, 3]", "NULL", "NULL", "NULL", "[5]", "[-2, 7]"}));
  EXPECT_EQ(eval("mv_sort(li, \"DESC\")", t), (V{"[3, 1]", "NULL", "NULL", "NULL", "[5]", "[7, -2]"}));
  // "start: Start position ... -1 designates the last value in the list. end: End
  // position (included)."
  EXPECT_EQ(eval("mv_slice(li, 0, 0)", t), (V{"[3]", "NULL", "NULL", "NULL", "[5]", "[-2]"}));
  EXPECT_EQ(eval("mv_slice(li, -1)", t), (V{"[1]", "NULL", "NULL", "NULL", "[5]", "[7]"}));
  EXPECT_EQ(eval("mv_slice(li, 1, 5)", t), (V{"[1]", "NULL", "NULL", "NULL", "NULL", "[7]"}));
  EXPECT_EQ(eval("mv_append(li, mv_sort(li, \"desc\"))", t),
            (V{"[3, 1, 3, 1]", "NULL", "NULL", "NULL", "[5, 5]", "[-2, 7, 7, -2]"}));
  EXPECT_EQ(eval("mv_append(i, i)", t)[0], "[1, 1]");
  EXPECT_EQ(eval("mv_zip(ls, split(\"x\", \",\"), \":\")", t),
            (V{"[b:x, a]", "[x]", "[x]", "[x]", "[c:x]", "[x]"}));
  EXPECT_EQ(eval("mv_zip(ls, ls)", t)[0], "[b,b, a,a]");
  EXPECT_EQ(testing::bindText("mv_median(li)", t.schema)->type, DataType::int64());
  EXPECT_EQ(testing::bindText("mv_sort(i)", t.schema)->type, DataType::list(DataType::int32()));
  for (const char* text : {"mv_median(ls)", "mv_concat(li, \",\")", "mv_slice(li, \"a\")",
                           "mv_append(li, ls)", "mv_sort(li, li)", "mv_zip(ls)"}) {
    EXPECT_THROW(testing::bindText(text, t.schema), QueryError) << text;
  }
  EXPECT_THROW(eval("mv_sort(li, \"up\")", t), InvalidArgument);
}

TEST(MvFunctions, ResultTypesFollowTheAggregates) {
  const Table t = lists();
  EXPECT_EQ(testing::bindText("mv_count(li)", t.schema)->type, DataType::int64());
  EXPECT_EQ(testing::bindText("mv_sum(li)", t.schema)->type, DataType::int64());
  EXPECT_EQ(testing::bindText("mv_avg(li)", t.schema)->type, DataType::float64());
  EXPECT_EQ(testing::bindText("mv_first(ls)", t.schema)->type, DataType::string());
}

// ES|QL: "a scalar function given a multi-valued field returns null with a
// warning" (its evaluators' "single-value function encountered multi-value"); a
// field of one value is that value. quarry's lists may hold null elements, which
// count as no value (as MV_COUNT counts).
TEST(MvFunctions, OperatorsAndSingleValueFunctionsTakeAListsOneValue) {
  const Table t = lists();  // li: [3, null, 1], null, [], [null], [5], [-2, 7]
  EXPECT_EQ(eval("li + 1", t), (V{"NULL", "NULL", "NULL", "NULL", "6", "NULL"}));
  EXPECT_EQ(eval("-li", t), (V{"NULL", "NULL", "NULL", "NULL", "-5", "NULL"}));
  EXPECT_EQ(eval("abs(li)", t), (V{"NULL", "NULL", "NULL", "NULL", "5", "NULL"}));
  EXPECT_EQ(eval("li == 5", t), (V{"NULL", "NULL", "NULL", "NULL", "true", "NULL"}));
  EXPECT_EQ(eval("li IN (5, 7)", t), (V{"NULL", "NULL", "NULL", "NULL", "true", "NULL"}));
  // ls: ["b", "a"], [], [], [], ["c"], []
  EXPECT_EQ(eval("ls LIKE \"c*\"", t), (V{"NULL", "NULL", "NULL", "NULL", "true", "NULL"}));
  EXPECT_EQ(testing::bindText("li + 1", t.schema)->type, DataType::int64());
  // The lists of several values warn, naming the expression they are operands of;
  // null and empty lists are null without a warning.
  Warnings warnings;
  const BoundExprPtr bound = testing::bindText("  li * 2", t.schema);
  EXPECT_EQ(testing::renderAll(evaluate(*bound, t.page(), warnings)),
            (V{"NULL", "NULL", "NULL", "NULL", "10", "NULL"}));
  ASSERT_EQ(warnings.entries().size(), 1u);
  const Warnings::Entry& e = warnings.entries()[0];
  EXPECT_EQ(e.expression, "li * 2");
  EXPECT_EQ(e.column, 6);  // the operator
  EXPECT_EQ(e.failures, 2u);
  EXPECT_EQ(e.messages, (V{"single-value function encountered multi-value"}));
}

TEST(MvFunctions, ListsAreRefusedWhereOneValuePerRowIsNeeded) {
  const Table t = lists();
  // CASE and COALESCE pass a multi-value through in ES|QL, the conversions
  // convert each value: quarry refuses the list there rather than answer
  // otherwise.
  for (const char* text :
       {"coalesce(li, li)", "to_string(li)", "li::long", "CASE WHEN i > 1 THEN li END"}) {
    try {
      testing::bindText(text, t.schema);
      ADD_FAILURE() << text << " was bound";
    } catch (const QueryError& e) {
      EXPECT_NE(e.message().find("takes one value per row"), std::string::npos)
          << text << ": " << e.what();
      EXPECT_NE(e.message().find("list<"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("MV_MIN"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(testing::bindText("mv_sum(ls)", t.schema), QueryError);  // not numbers
  EXPECT_THROW(testing::bindText("mv_min(li, li)", t.schema), QueryError);
  // A list itself: a column reference, IS NULL.
  EXPECT_EQ(eval("li IS NULL", t), (V{"false", "true", "false", "false", "false", "false"}));
  EXPECT_EQ(eval("li IS NOT NULL", t), (V{"true", "false", "true", "true", "true", "true"}));
}

/// Runs `f` over `lists` with rows in groups `groups` (0 or 1), through INITIAL
/// then FINAL; returns the two groups' results rendered.
V aggregateInTwoSteps(AggregateFunction f, const Block& lists,
                      const std::vector<uint32_t>& groups) {
  AggregateSpec spec;
  spec.function = f;
  spec.inputChannel = 0;
  spec.inputType = lists.type();
  spec.name = "a";
  std::vector<Block> intermediate;
  auto initial = makeAggregator(spec);
  initial->resize(2);
  initial->addInput(Page({lists}, lists.size()), groups);
  initial->writeIntermediate(intermediate);
  EXPECT_EQ(intermediate.size(), intermediateFields(spec).size());
  for (size_t c = 0; c < intermediate.size(); ++c)
    EXPECT_EQ(intermediate[c].type(), intermediateFields(spec)[c].type);
  auto final = makeAggregator(spec);
  final->resize(2);
  const std::vector<uint32_t> same = {0, 1};
  final->addIntermediate(Page(std::move(intermediate), 2), same);
  const Block out = final->writeFinal();
  EXPECT_EQ(out.type(), aggregateResultType(f, lists.type()));
  return testing::renderAll(out);
}

TEST(ListAggregates, AggregateEveryElementOfEveryRow) {
  // Group 0: [3, null, 1], [], [5]; group 1: null, [null], [-2, 7].
  const Block li = intLists({L{3, n, 1}, n, L{}, L{n}, L{5}, L{-2, 7}});
  const std::vector<uint32_t> groups = {0, 1, 0, 1, 0, 1};
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kCount, li, groups), (V{"3", "2"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kMin, li, groups), (V{"1", "-2"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kMax, li, groups), (V{"5", "7"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kSum, li, groups), (V{"9", "5"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kAvg, li, groups), (V{"3", "2.5"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kCountDistinct, li, groups), (V{"3", "2"}));
  // No element at all: COUNT 0, MIN null.
  const Block empty = intLists({n, L{}, L{n}});
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kCount, empty, {0, 0, 1}), (V{"0", "0"}));
  EXPECT_EQ(aggregateInTwoSteps(AggregateFunction::kMin, empty, {0, 0, 1}), (V{"NULL", "NULL"}));
}

TEST(ListAggregates, EachListAloneIsTheMvReduction) {
  const Block li = intLists({L{3, n, 1}, n, L{}, L{5}});
  EXPECT_EQ(testing::renderAll(aggregateEachList(AggregateFunction::kCount, li)),
            (V{"2", "NULL", "NULL", "1"}));
  EXPECT_EQ(testing::renderAll(aggregateEachList(AggregateFunction::kSum, li)),
            (V{"4", "NULL", "NULL", "5"}));
}

}  // namespace
}  // namespace quarry::engine
