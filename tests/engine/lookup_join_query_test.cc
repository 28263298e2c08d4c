// LOOKUP JOIN through prepareQuery: the file read when the query is prepared,
// its schema checked against the query's keys, its size against the limit, and
// the same-named columns of the file overriding the query's. The lookup file is
// data/sample/zones.parquet (tools/make-sample.mjs): 11 rows of zone, borough,
// airport, one of them without a zone.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/engine/query_engine.h"
#include "tests/engine/exec/page_builder.h"
#include "tests/support/build_paths.h"

namespace quarry::engine {
namespace {

using testing::Row;

std::string sample(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/" + name;
}
std::string zones() {
  return sample("zones.parquet");
}

std::vector<Row> run(const std::string& text, const QueryOptions& options = {}) {
  const PreparedQuery prepared = prepareQuery(text, options);
  std::vector<Row> rows;
  executeQuery(prepared, [&](const Page& page) {
    for (Row& row : testing::rowsOf(page)) rows.push_back(std::move(row));
  });
  return rows;
}

std::string errorOf(const std::string& text, const QueryOptions& options = {}) {
  try {
    prepareQuery(text, options);
  } catch (const QueryError& e) {
    return e.what();
  }
  return "(no error)";
}

const Scalar kNull{};

// ES|QL's reference: "In case of name collisions, the newly created columns will
// override existing columns": the file's borough replaces the query's, also as
// null on a row without a match, and comes after the query's columns.
TEST(LookupJoinQuery, TheFilesColumnsOverrideSameNamedOnesAndComeLast) {
  const PreparedQuery prepared = prepareQuery(
      "ROW zone = \"Harlem\", borough = \"mine\", n = 1 | LOOKUP JOIN \"" + zones() + "\" ON zone",
      {});
  std::vector<std::string> names;
  for (const Field& field : prepared.plan->schema) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"zone", "n", "borough", "airport"}));
  EXPECT_EQ(run("ROW zone = \"Harlem\", borough = \"mine\", n = 1 | LOOKUP JOIN \"" + zones() +
                "\" ON zone"),
            (std::vector<Row>{{Scalar(std::string("Harlem")), Scalar(int32_t{1}),
                               Scalar(std::string("Manhattan")),
                               Scalar(uint8_t{0}) /* boolean false */}}));
  EXPECT_EQ(
      run("ROW zone = \"Tribeca\", borough = \"mine\" | LOOKUP JOIN \"" + zones() + "\" ON zone"),
      (std::vector<Row>{{Scalar(std::string("Tribeca")), kNull, kNull}}));
}

// A left join of every trip: the row count stays (zones has one row per zone),
// and the trips whose zone the file lacks (Tribeca) get a null borough.
TEST(LookupJoinQuery, EveryInputRowStaysAndUnmatchedOnesGetNulls) {
  const std::string from = "FROM \"" + sample("trips.parquet") +
                           "\" | RENAME pickup_zone AS zone | LOOKUP JOIN \"" + zones() +
                           "\" ON zone";
  const std::vector<Row> all = run(from + " | STATS n = COUNT(*)");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0][0], Scalar(int64_t{10000}));
  const std::vector<Row> unmatched =
      run(from + " | WHERE borough IS NULL | STATS n = COUNT(*), z = MIN(zone)");
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_EQ(unmatched[0][1], Scalar(std::string("Tribeca")));
}

// Issue 27: "the join key's types must agree (error naming both types otherwise)".
TEST(LookupJoinQuery, KeysOfDifferentTypesAreAnErrorNamingBothTypes) {
  const std::string error = errorOf("ROW zone = 1 | LOOKUP JOIN \"" + zones() + "\" ON zone");
  EXPECT_NE(error.find("int32"), std::string::npos) << error;
  EXPECT_NE(error.find("string"), std::string::npos) << error;
  EXPECT_NE(error.find("zone"), std::string::npos) << error;
}

TEST(LookupJoinQuery, AKeyTheFileLacksIsAnErrorListingItsColumns) {
  const std::string error = errorOf("ROW z = \"x\" | LOOKUP JOIN \"" + zones() + "\" ON z");
  EXPECT_NE(error.find("has no column z"), std::string::npos) << error;
}

TEST(LookupJoinQuery, AMissingFileIsAnErrorNamingIt) {
  const std::string error =
      errorOf("ROW zone = \"x\" | LOOKUP JOIN \"" + sample("no-such-zones.parquet") + "\" ON zone");
  EXPECT_NE(error.find("no-such-zones.parquet"), std::string::npos) << error;
}

// Issue 27: "when it exceeds a limit ... the error says so, naming the file, its
// size and the limit", before the file's data is read (the footer's row count).
TEST(LookupJoinQuery, AFileOverTheRowLimitIsAnErrorNamingItsRowsAndTheLimit) {
  QueryOptions options;
  options.lookupMaxRows = 5;
  const std::string error =
      errorOf("ROW zone = \"x\" | LOOKUP JOIN \"" + zones() + "\" ON zone", options);
  EXPECT_NE(error.find("zones.parquet holds 11 rows"), std::string::npos) << error;
  EXPECT_NE(error.find("limit of 5 rows"), std::string::npos) << error;
  EXPECT_NE(error.find("--lookup-max-rows"), std::string::npos) << error;
  options.lookupMaxRows = 11;
  EXPECT_EQ(
      run("ROW zone = \"SoHo\" | LOOKUP JOIN \"" + zones() + "\" ON zone | KEEP borough", options)
          .size(),
      1u);
}

// The join runs above the exchange (on a cluster's coordinator), and EXPLAIN shows it.
TEST(LookupJoinQuery, TheJoinRunsAboveTheExchangeAndExplainShowsIt) {
  const PreparedQuery prepared = prepareQuery(
      "FROM \"" + sample("trips.parquet") + "\" | RENAME pickup_zone AS zone | LOOKUP JOIN \"" +
          zones() + "\" ON zone | STATS n = COUNT(*) BY borough",
      {});
  const std::string plan = explain(*prepared.plan);
  const size_t join = plan.find("LookupJoinExec[");
  const size_t exchange = plan.find("ExchangeExec[");
  ASSERT_NE(join, std::string::npos) << plan;
  ASSERT_NE(exchange, std::string::npos) << plan;
  EXPECT_LT(join, exchange) << plan;
  EXPECT_NE(plan.find("ON [zone], rows=11, add=[borough]"), std::string::npos) << plan;
}

}  // namespace
}  // namespace quarry::engine
