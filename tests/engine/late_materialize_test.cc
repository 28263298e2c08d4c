// Late materialization (optimizer/late_materialize.cc, exec/late_materialize_exec.h):
// a query ending in [WHERE] | SORT | LIMIT n over Parquet files scans the
// filter and key columns with each row's file and position, then fetches the
// other columns of the n winners only. The plan tests check where it is chosen
// and where not; the answer tests compare every row with the one-phase plan
// (QueryOptions::lateMaterialization off) over two files of several row groups,
// with ties, nulls, a list column and a filter that matches nothing.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/cli/block_text.h"
#include "quarry/engine/query_engine.h"
#include "quarry/engine/source/parquet_format_reader.h"
#include "tests/support/build_paths.h"

namespace quarry::engine {
namespace {

std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

/// late_a.parquet (ids 0..4999) and late_b.parquet (5000..8999), three and two
/// row groups: id, k (i % 5, null where i % 11 = 0), t, w1..w5.
std::string both() {
  return "FROM \"" + fixture("late_*.parquet") + "\"";
}

PreparedQuery prepare(const std::string& query, bool late, int threads = 1) {
  QueryOptions options;
  options.threads = threads;
  options.lateMaterialization = late;
  return prepareQuery(query, options);
}

bool hasNode(const PlanNode& node, PlanKind kind) {
  if (node.kind == kind) return true;
  for (const PlanNodePtr& child : node.children) {
    if (hasNode(*child, kind)) return true;
  }
  return false;
}

/// The answer as text: the column names, then one line per row.
std::vector<std::string> answer(const PreparedQuery& query, QueryProfile* profile = nullptr) {
  std::vector<std::string> lines;
  std::string header;
  for (const Field& field : query.plan->schema) header += field.name + "|";
  lines.push_back(header);
  const QueryProfile p = executeQuery(query, [&](const Page& page) {
    for (size_t k = 0; k < page.positionCount(); ++k) {
      std::string line;
      for (size_t c = 0; c < page.blockCount(); ++c) {
        cli::appendBlockText(page.block(c), k, line);
        line += "|";
      }
      lines.push_back(line);
    }
  });
  if (profile != nullptr) *profile = p;
  return lines;
}

/// Runs `query` in two phases (checking the plan has them) and in one, and
/// expects the same rows in the same order; returns how many.
size_t expectSameAnswer(const std::string& query, int threads = 1) {
  const PreparedQuery late = prepare(query, true, threads);
  EXPECT_TRUE(hasNode(*late.plan, PlanKind::kLateMaterialize)) << query << "\n"
                                                               << explain(*late.plan);
  const PreparedQuery single = prepare(query, false, threads);
  EXPECT_FALSE(hasNode(*single.plan, PlanKind::kLateMaterialize)) << query;
  const std::vector<std::string> expected = answer(single);
  EXPECT_EQ(answer(late), expected) << query;
  return expected.size() - 1;
}

TEST(LateMaterializePlan, SortLimitOverAFilteredWideScanReadsOnlyFilterAndKeysFirst) {
  const PreparedQuery query =
      prepare(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10", true, 2);
  const PlanNode& root = *query.plan;
  ASSERT_EQ(root.kind, PlanKind::kLateMaterialize) << explain(root);
  EXPECT_EQ(root.limit, 10);
  std::vector<std::string> names;
  for (const Field& field : root.schema) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "k", "t", "w1", "w2", "w3", "w4", "w5"}));
  EXPECT_EQ(root.request.columns.back(), kRowPositionColumn);
  // TopNExec ExchangeExec TopNExec FilterExec ExternalSourceExec, reading the three columns and the
  // row's identity.
  const PlanNode& topN = *root.input();
  ASSERT_EQ(topN.kind, PlanKind::kTopN);
  ASSERT_EQ(topN.input()->kind, PlanKind::kExchange);
  const PlanNode& source = chainBottom(root);
  ASSERT_EQ(source.kind, PlanKind::kExternalSource);
  EXPECT_EQ(source.request.columns,
            (std::vector<std::string>{"id", "k", "t", kFilePathColumn, kRowPositionColumn}));
  const std::string text = explainQuery(query);
  EXPECT_NE(text.find("LateMaterialize: applied"), std::string::npos) << text;
  EXPECT_NE(text.find("LateMaterializeExec[rows<=10, by=[_file.path, _row.position], fetch=[id, k, "
                      "t, w1, w2, w3, "
                      "w4, w5]]"),
            std::string::npos)
      << text;
}

TEST(LateMaterializePlan, KeepAboveTheSortFetchesOnlyTheKeptColumns) {
  const PreparedQuery query =
      prepare(both() + " | SORT k | LIMIT 5 | KEEP id, w1, w2, w3, w4, w5", true);
  ASSERT_EQ(query.plan->kind, PlanKind::kProject) << explain(*query.plan);
  const PlanNode& late = *query.plan->input();
  ASSERT_EQ(late.kind, PlanKind::kLateMaterialize) << explain(*query.plan);
  EXPECT_EQ(late.request.columns, (std::vector<std::string>{"id", "k", "w1", "w2", "w3", "w4", "w5",
                                                            kRowPositionColumn}));
  EXPECT_EQ(chainBottom(late).request.columns,
            (std::vector<std::string>{"k", kFilePathColumn, kRowPositionColumn}));
}

TEST(LateMaterializePlan, IsNotChosenWhereItMustNotBe) {
  const std::vector<std::string> queries = {
      // Not a SORT + LIMIT at the end, or something between it and the scan.
      both() + " | SORT k, id",
      both() + " | WHERE k > 1 | LIMIT 10",
      both() + " | STATS c = COUNT(*) BY k | SORT k | LIMIT 3",
      both() + " | EVAL x = id + 1 | SORT x | LIMIT 3",
      both() + " | SORT id % 1000, id | LIMIT 40",  // an EVAL of the key
      both() + " | SORT k | LIMIT 10 | SORT id | LIMIT 5",
      // A limit over 10,000 rows.
      both() + " | SORT k | LIMIT 10001",
      // The output needs few more columns than the filter and the keys read.
      both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10 | KEEP id, k, t, w1",
      both() + " | SORT k | LIMIT 10 | KEEP k, w1",
  };
  for (const std::string& query : queries) {
    const PreparedQuery prepared = prepare(query, true);
    EXPECT_FALSE(hasNode(*prepared.plan, PlanKind::kLateMaterialize)) << query << "\n"
                                                                      << explain(*prepared.plan);
  }
  // Off (a cluster's coordinator, whose scans run on data nodes): the one-phase plan.
  const PreparedQuery off =
      prepare(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10", false);
  EXPECT_FALSE(hasNode(*off.plan, PlanKind::kLateMaterialize));
  EXPECT_EQ(explainQuery(off).find("LateMaterialize"), std::string::npos);
}

TEST(LateMaterializePlan, OrcAndRemoteSourcesKeepTheOnePhasePlan) {
  const PreparedQuery query =
      prepare(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10", true);
  ASSERT_TRUE(hasNode(*query.plan, PlanKind::kLateMaterialize));
  // The rule refuses a split of another format, whatever the columns.
  PlanNodePtr plan =
      prepare(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10", false).plan->clone();
  for (SplitTask& task : chainBottom(*plan).splits) task.split.format = "orc";
  std::string why;
  EXPECT_FALSE(lateMaterialize(*plan, &why));
  EXPECT_NE(why.find("not Parquet"), std::string::npos) << why;
  // So does a remote file.
  plan =
      prepare(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10", false).plan->clone();
  chainBottom(*plan).splits[0].split.uri = "https://example.com/late_a.parquet";
  EXPECT_FALSE(lateMaterialize(*plan, &why));
  EXPECT_NE(why.find("not local"), std::string::npos) << why;
}

TEST(LateMaterializeAnswer, EqualsTheOnePhasePlanAcrossFilesAndRowGroups) {
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE t LIKE \"*google*\" | SORT k, id | LIMIT 10"), 10u);
  EXPECT_EQ(expectSameAnswer(
                both() + " | WHERE t LIKE \"*google*\" | SORT k DESC, id DESC | LIMIT 10", 2),
            10u);
  // Winners spread over both files and every row group.
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE id % 997 == 0 | SORT w1 DESC | LIMIT 100"), 10u);
  // The same with two threads reading the row groups (unique keys: no tie for the threads to
  // order).
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE id % 997 == 0 | SORT w1 DESC | LIMIT 100", 2), 10u);
  EXPECT_EQ(expectSameAnswer(both() + " | SORT w2 DESC NULLS FIRST, id | LIMIT 3000", 2), 3000u);
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE w5 | SORT w3 DESC, id | LIMIT 40"), 40u);
  // A pushed filter (row-group pruning in the first phase).
  EXPECT_EQ(
      expectSameAnswer(both() + " | WHERE id >= 4000 AND id < 6000 | SORT w2 DESC, id | LIMIT 50"),
      50u);
}

TEST(LateMaterializeAnswer, TiesAndNullsComeInTheOnePhaseOrder) {
  // k has five values and nulls: a limit inside a tie keeps the rows the one-phase plan keeps.
  EXPECT_EQ(expectSameAnswer(both() + " | SORT k | LIMIT 25"), 25u);
  EXPECT_EQ(expectSameAnswer(both() + " | SORT k DESC NULLS FIRST | LIMIT 30"), 30u);
  EXPECT_EQ(
      expectSameAnswer(both() + " | WHERE t LIKE \"*google*\" | SORT k NULLS FIRST | LIMIT 1000"),
      1000u);
  // Nulls in a fetched column and in the key.
  EXPECT_EQ(expectSameAnswer(both() + " | SORT w2 NULLS FIRST, id | LIMIT 20"), 20u);
  // Every row, in the winners' order.
  EXPECT_EQ(expectSameAnswer(both() + " | SORT k, id DESC | LIMIT 10000"), 9000u);
}

TEST(LateMaterializeAnswer, KeepAboveAndAFilterThatMatchesNothing) {
  EXPECT_EQ(expectSameAnswer(both() + " | SORT k, id | LIMIT 12 | KEEP id, w1, w2, w3, w4, w5"),
            12u);
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE t == \"nothing\" | SORT k | LIMIT 5"), 0u);
  EXPECT_EQ(expectSameAnswer(both() + " | WHERE id > 100000 | SORT k | LIMIT 5"), 0u);
  EXPECT_EQ(
      expectSameAnswer(both() + " | WHERE t LIKE \"*google*\" AND k IS NULL | SORT id | LIMIT 1"),
      1u);
}

TEST(LateMaterializeAnswer, TheSecondPhaseReadsOnlyTheWinnersPages) {
  const std::string query = "FROM \"" + fixture("late_a.parquet") + "\" | SORT id | LIMIT 3";
  QueryProfile profile;
  const PreparedQuery late = prepare(query, true);
  ASSERT_TRUE(hasNode(*late.plan, PlanKind::kLateMaterialize));
  const std::vector<std::string> rows = answer(late, &profile);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1].substr(0, 2), "0|");
  // The first phase decodes each row once (5,000); the second only the first row group's rows it
  // reads.
  EXPECT_LT(profile.rowsDecoded, 5000u + 2048u + 1u);
  EXPECT_GT(profile.rowsDecoded, 5000u);
}

TEST(RowPositions, TheParquetReaderGivesEachRowsIndexInTheFile) {
  ParquetFormatReader reader;
  FileSplit split;
  split.uri = fixture("late_b.parquet");
  split.format = "parquet";
  split.length = UINT64_MAX / 2;
  ReadRequest request;
  request.columns = {"id", kRowPositionColumn};
  request.filter = parquet::FilterPredicate::gt("id", int64_t{7000});
  LocalSupplier pages = reader.read(split, request);
  size_t rows = 0;
  while (std::optional<Page> page = pages()) {
    for (size_t k = 0; k < page->positionCount(); ++k) {
      const int64_t id = page->block(0).values<int64_t>()[k];
      EXPECT_EQ(page->block(1).values<int64_t>()[k], id - 5000);
      ++rows;
    }
  }
  EXPECT_EQ(rows, 1999u);
  // A unit narrowed to some rows gives their positions in the file, not in the unit.
  const std::vector<FileSplit> units = reader.units(split);
  ASSERT_GE(units.size(), 2u);
  FileSplit second = units[1];
  second.rows = {RowSpan{3, 5}, RowSpan{100, 101}};
  request.filter.reset();
  pages = reader.read(second, request);
  std::vector<int64_t> positions;
  while (std::optional<Page> page = pages()) {
    for (size_t k = 0; k < page->positionCount(); ++k)
      positions.push_back(page->block(1).values<int64_t>()[k]);
  }
  const int64_t first = units[0].statistics->rowCount;
  EXPECT_EQ(positions, (std::vector<int64_t>{first + 3, first + 4, first + 100}));
}

}  // namespace
}  // namespace quarry::engine
