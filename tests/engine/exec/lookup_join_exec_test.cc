#include "quarry/engine/exec/lookup_join_exec.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "page_builder.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::i64;
using testing::kNull;
using testing::pageOfRows;
using testing::Row;
using testing::sourceOf;
using testing::str;

/// A lookup file of `rows` over `schema`, held as LookupFile holds it.
std::shared_ptr<const LookupFile> lookupOf(const Schema& schema, const std::vector<Row>& rows) {
  auto lookup = std::make_shared<LookupFile>();
  lookup->uri = "lookup.parquet";
  lookup->schema = schema;
  lookup->columns = pageOfRows(schema, rows).blocks();
  lookup->rows = rows.size();
  return lookup;
}

const Schema kInput{{"k", DataType::int64()}, {"v", DataType::string()}};
const Schema kFile{{"k", DataType::int64()}, {"name", DataType::string()}};

OperatorPtr inputOf(const std::vector<std::vector<Row>>& pages) {
  std::vector<Page> built;
  for (const std::vector<Row>& rows : pages) built.push_back(pageOfRows(kInput, rows));
  return sourceOf(kInput, std::move(built));
}

// ES|QL's reference: "LOOKUP JOIN has left-join behavior. If no rows match in the
// lookup index, the incoming row is retained and null values are added. If many
// rows in the lookup index match, LOOKUP JOIN adds one row per match." Rows keep
// the input's order, matches the file's.
TEST(LookupJoinExec, KeepsEveryRowAddsOneRowPerMatchAndNullsWithoutOne) {
  const auto lookup = lookupOf(
      kFile, {{i64(1), str("a")}, {i64(3), str("c")}, {i64(1), str("b")}, {i64(4), str("d")}});
  LookupJoinExec join(inputOf({{{i64(1), str("x")}, {i64(2), str("y")}}, {{i64(3), str("z")}}}),
                      lookup, {0}, {0}, {1});
  ASSERT_EQ(join.schema().size(), 3u);
  EXPECT_EQ(join.schema()[2].name, "name");
  EXPECT_EQ(drain(join), (std::vector<Row>{{i64(1), str("x"), str("a")},
                                           {i64(1), str("x"), str("b")},
                                           {i64(2), str("y"), kNull},
                                           {i64(3), str("z"), str("c")}}));
}

// SQL's and ES|QL's equality: null equals nothing, so a null key on either side
// never matches (the file's null-keyed row is never added).
TEST(LookupJoinExec, NullKeysNeverMatch) {
  const auto lookup = lookupOf(kFile, {{kNull, str("null key")}, {i64(5), str("five")}});
  LookupJoinExec join(inputOf({{{kNull, str("x")}, {i64(5), str("y")}, {kNull, str("z")}}}), lookup,
                      {0}, {0}, {1});
  EXPECT_EQ(drain(join), (std::vector<Row>{{kNull, str("x"), kNull},
                                           {i64(5), str("y"), str("five")},
                                           {kNull, str("z"), kNull}}));
}

// ES|QL's `ON a, b`: a row matches a file row whose every key equals its own.
TEST(LookupJoinExec, SeveralKeysMustAllBeEqual) {
  const Schema input{{"a", DataType::int64()}, {"b", DataType::string()}};
  const Schema file{
      {"b", DataType::string()}, {"a", DataType::int64()}, {"what", DataType::int64()}};
  const auto lookup = lookupOf(file, {{str("x"), i64(1), i64(10)},
                                      {str("y"), i64(1), i64(20)},
                                      {str("x"), i64(2), i64(30)},
                                      {str("x"), kNull, i64(40)}});
  std::vector<Page> pages;
  pages.push_back(pageOfRows(
      input, {{i64(1), str("x")}, {i64(2), str("y")}, {i64(2), str("x")}, {kNull, str("x")}}));
  LookupJoinExec join(sourceOf(input, std::move(pages)), lookup, {0, 1}, {1, 0}, {2});
  EXPECT_EQ(drain(join), (std::vector<Row>{{i64(1), str("x"), i64(10)},
                                           {i64(2), str("y"), kNull},
                                           {i64(2), str("x"), i64(30)},
                                           {kNull, str("x"), kNull}}));
}

// An empty file matches nothing; every row stays, with nulls.
TEST(LookupJoinExec, AnEmptyFileGivesNullsToEveryRow) {
  LookupJoinExec join(inputOf({{{i64(1), str("x")}}}), lookupOf(kFile, {}), {0}, {0}, {1});
  EXPECT_EQ(drain(join), (std::vector<Row>{{i64(1), str("x"), kNull}}));
}

// Output pages hold at most kMaxPageRows rows: one row matching 100,000 file rows
// becomes several pages, the rows in the file's order and none lost.
TEST(LookupJoinExec, ManyMatchesOfOneRowAreCutIntoPages) {
  std::vector<Row> rows;
  constexpr int64_t kMatches = 100'000;
  for (int64_t i = 0; i < kMatches; ++i) rows.push_back({i64(7), str(std::to_string(i))});
  const auto lookup = lookupOf(kFile, rows);
  LookupJoinExec join(inputOf({{{i64(7), str("x")}, {i64(8), str("y")}}}), lookup, {0}, {0}, {1});
  size_t pages = 0;
  std::vector<Row> out;
  while (std::optional<Page> page = join.next()) {
    ++pages;
    EXPECT_LE(page->positionCount(), kMaxPageRows);
    for (Row& row : testing::rowsOf(*page)) out.push_back(std::move(row));
  }
  EXPECT_GE(pages, 2u);
  ASSERT_EQ(out.size(), static_cast<size_t>(kMatches) + 1);
  for (int64_t i = 0; i < kMatches; ++i) ASSERT_EQ(out[i][2], str(std::to_string(i))) << i;
  EXPECT_EQ(out.back(), (Row{i64(8), str("y"), kNull}));
}

// Unmatched keys the table takes while probing are dropped once they outnumber
// the file's (the table is built again): answers stay the same across the rebuild.
TEST(LookupJoinExec, ManyUnmatchedKeysDoNotChangeTheAnswers) {
  const auto lookup = lookupOf(kFile, {{i64(-1), str("minus one")}});
  std::vector<std::vector<Row>> pages;
  for (int p = 0; p < 4; ++p) {
    std::vector<Row> rows;
    for (int64_t i = 0; i < 50'000; ++i) rows.push_back({i64(p * 50'000 + i), str("")});
    rows.push_back({i64(-1), str("hit")});
    pages.push_back(rows);
  }
  LookupJoinExec join(inputOf(pages), lookup, {0}, {0}, {1});
  size_t hits = 0, total = 0;
  for (const Row& row : drain(join)) {
    ++total;
    if (row[1] == str("hit")) {
      ++hits;
      EXPECT_EQ(row[2], str("minus one"));
    } else {
      EXPECT_EQ(row[2], kNull);
    }
  }
  EXPECT_EQ(hits, 4u);
  EXPECT_EQ(total, 4u * 50'001);
}

}  // namespace
}  // namespace quarry::engine
