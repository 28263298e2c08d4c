#include "quarry/session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/value_text.h"
#include "quarry/version.h"
#include "tests/support/build_paths.h"

namespace quarry {
namespace {

std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

/// Every row of `result` as its values' text, columns joined by '|'.
std::vector<std::string> rowsOf(Result& result) {
  std::vector<std::string> rows;
  while (std::optional<Batch> batch = result.next()) {
    for (size_t row = 0; row < batch->rowCount(); ++row) {
      std::string line;
      for (size_t column = 0; column < batch->columnCount(); ++column) {
        if (column > 0) line += '|';
        line += batch->text(column, row);
      }
      rows.push_back(line);
    }
  }
  return rows;
}

TEST(Session, StreamsTheResultWithItsSchemaAndTheCliText) {
  Session session;
  Result result =
      session.execute("FROM \"" + fixture("all_types.parquet") +
                      "\" | KEEP id, i64, u64, d18, s, dt, ts, tstz, tsns, l | SORT id");
  std::vector<std::string> types;
  for (const Field& field : result.schema())
    types.push_back(field.name + " " + field.type.toString());
  EXPECT_EQ(types, (std::vector<std::string>{"id int32", "i64 int64", "u64 uint64",
                                             "d18 decimal(18,3)", "s string", "dt date",
                                             "ts timestamp(us, local)", "tstz timestamp(us, utc)",
                                             "tsns timestamp(ns, local)", "l list<int32>"}));
  EXPECT_EQ(
      rowsOf(result),
      (std::vector<std::string>{
          "0|-64|18446744073709551615|-123456789012.345|café|2024-02-29|2024-01-02 03:04:05.123456|"
          "2024-01-02 03:04:05.123456+00|2024-01-02 03:04:05.123456789|[1, 2, 3]",
          "1|-9223372036854775808|0|0.000||1969-12-31|1969-12-31 23:59:59.999999|1970-01-01 "
          "00:00:00+00|"
          "1970-01-01 00:00:00.000000001|[]",
          "2|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL"}));
  EXPECT_EQ(result.rowsReturned(), 3u);
}

TEST(Session, TypedGettersReadTheRawValues) {
  Result result =
      Session().execute("FROM \"" + fixture("all_types.parquet") +
                        "\" | KEEP id, b, i64, u64, f64, d18, s, dt, tstz | SORT id | LIMIT 1");
  const std::optional<Batch> batch = result.next();
  ASSERT_TRUE(batch.has_value());
  ASSERT_EQ(batch->rowCount(), 1u);
  EXPECT_EQ(batch->getInt64(0, 0), 0);
  EXPECT_TRUE(batch->getBoolean(1, 0));
  EXPECT_EQ(batch->getInt64(2, 0), -64);
  EXPECT_EQ(batch->getUInt64(3, 0), 18446744073709551615u);
  EXPECT_EQ(batch->getDouble(4, 0), -2.25);
  EXPECT_TRUE(batch->getDecimal(5, 0) == static_cast<__int128>(-123456789012345));
  EXPECT_EQ(decimalText(batch->getDecimal(5, 0), batch->schema()[5].type.scale),
            "-123456789012.345");
  EXPECT_EQ(batch->getString(6, 0), "café");
  EXPECT_EQ(dateText(static_cast<int32_t>(batch->getInt64(7, 0))), "2024-02-29");
  const DataType& tstz = batch->schema()[8].type;
  EXPECT_EQ(timestampText(batch->getInt64(8, 0), tstz.unit, tstz.utcAdjusted),
            "2024-01-02 03:04:05.123456+00");
  EXPECT_EQ(batch->json(6, 0), "\"café\"");
}

TEST(Session, AGetterOfAnotherKindOrANullValueThrowsNamingTheColumn) {
  Result result =
      Session().execute("FROM \"" + fixture("all_types.parquet") + "\" | KEEP id, s | SORT id");
  const std::optional<Batch> batch = result.next();
  ASSERT_TRUE(batch.has_value());
  try {
    batch->getDouble(1, 0);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "getDouble on column s of type string");
  }
  EXPECT_TRUE(batch->isNull(1, 2));
  EXPECT_THROW(batch->getString(1, 2), InvalidArgument);
  EXPECT_THROW(batch->text(2, 0), std::out_of_range);
  EXPECT_THROW(batch->text(0, 3), std::out_of_range);
}

TEST(Session, BindsParametersAsLiterals) {
  const Session session;
  const std::string query =
      "FROM \"" + fixture("all_types.parquet") + "\" | WHERE id == ?id OR s == ?s | KEEP id";
  Result result = session.execute(query, {{"id", 2}, {"s", "café"}});
  EXPECT_EQ(rowsOf(result), (std::vector<std::string>{"0", "2"}));
  // A value with query syntax inside stays one string.
  Result none = session.execute(query, {{"id", -1}, {"s", "x\" OR true OR s == \"y"}});
  EXPECT_TRUE(rowsOf(none).empty());
}

// ES|QL: a value TO_LONG cannot read is null, with a warning naming the
// expression; the result gives the warnings once its last batch is read.
TEST(Session, TheResultGivesTheWarningsOfTheRowsAnExpressionFailedOn) {
  Result result = Session().execute("ROW s = ?s | EVAL n = s::long", {{"s", "4x"}});
  EXPECT_TRUE(result.warnings().empty());
  EXPECT_EQ(rowsOf(result), (std::vector<std::string>{"4x|NULL"}));
  EXPECT_EQ(result.warnings(),
            (std::vector<std::string>{"Line 1:24: evaluation of [to_long(s)] failed, treating "
                                      "result as null. Only first 20 failures recorded.",
                                      "Line 1:24: Cannot parse number [4x]"}));
}

TEST(Session, AQueryErrorPointsAtItsPlaceAndRendersAsTheCliShowsIt) {
  const std::string query = "FROM \"" + fixture("all_types.parquet") + "\" | WHERE id == ?ids";
  try {
    Session().prepare(query, {{"id", 1}});
    ADD_FAILURE() << "no error";
  } catch (const QueryError& e) {
    EXPECT_EQ(e.message(), "no value for parameter ?ids");
    const std::string text = queryErrorText(e, query);
    EXPECT_NE(text.find("^"), std::string::npos) << text;
    EXPECT_NE(text.find("did you mean ?id?"), std::string::npos) << text;
  }
}

TEST(Session, ACancelledResultThrowsCancelledAndReturnsNoFurtherBatch) {
  Result result = Session().execute("FROM \"" + fixture("multi_row_groups.parquet") + "\"");
  ASSERT_TRUE(result.next().has_value());
  EXPECT_FALSE(result.cancelled());
  result.cancel();
  EXPECT_TRUE(result.cancelled());
  EXPECT_THROW(result.next(), Cancelled);
  EXPECT_THROW(result.next(), Cancelled);
}

TEST(Session, APreparedQueryRunsAgainAndItsBatchesOutliveTheResult) {
  const PreparedQuery prepared =
      Session().prepare("FROM \"" + fixture("all_types.parquet") + "\" | STATS n = COUNT(*)");
  EXPECT_EQ(prepared.schema().at(0).name, "n");
  EXPECT_NE(prepared.explain().find("Aggregate"), std::string::npos) << prepared.explain();
  std::optional<Batch> kept;
  for (int run = 0; run < 2; ++run) {
    Result result = prepared.execute();
    kept = result.next();
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->text(0, 0), "3") << "run " << run;
  }
  EXPECT_EQ(kept->text(0, 0), "3");
}

TEST(Session, RefusesFewerThanOneThread) {
  SessionOptions options;
  options.threads = 0;
  EXPECT_THROW(Session{options}, InvalidArgument);
  options.threads = 1;
  options.lookupMaxRows = 0;
  EXPECT_THROW(Session{options}, InvalidArgument);
}

// A LOOKUP JOIN's file is read whole: SessionOptions::lookupMaxRows bounds its
// rows as the CLI's --lookup-max-rows does (data/sample/zones.parquet has 11).
TEST(Session, LookupMaxRowsBoundsALookupJoinsFile) {
  const std::string query = "ROW zone = \"SoHo\" | LOOKUP JOIN \"" +
                            std::string(QUARRY_SOURCE_DIR) +
                            "/data/sample/zones.parquet\" ON zone | KEEP borough";
  SessionOptions options;
  options.lookupMaxRows = 10;
  try {
    Session(options).execute(query);
    ADD_FAILURE() << "a file of 11 rows was read with a limit of 10";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("holds 11 rows, more than the limit of 10"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("SessionOptions::lookupMaxRows"), std::string::npos);
  }
  options.lookupMaxRows = 11;
  Result result = Session(options).execute(query);
  EXPECT_EQ(rowsOf(result), (std::vector<std::string>{"Manhattan"}));
}

TEST(ValueText, FormatsAsTheCliPrints) {
  EXPECT_EQ(decimalText(12345, 2), "123.45");
  EXPECT_EQ(decimalText(-5, 3), "-0.005");
  EXPECT_EQ(dateText(-1), "1969-12-31");
  EXPECT_EQ(timeText(45296789, TimeUnit::kMillis), "12:34:56.789");
  EXPECT_EQ(timestampText(1500, TimeUnit::kMillis, true), "1970-01-01 00:00:01.5+00");
  EXPECT_EQ(timestampText(-1, TimeUnit::kMicros, false), "1969-12-31 23:59:59.999999");
}

TEST(Version, TheLibraryIsTheVersionOfItsHeaders) {
  EXPECT_STREQ(versionString(), QUARRY_VERSION_STRING);
  EXPECT_EQ(QUARRY_VERSION,
            QUARRY_VERSION_OF(QUARRY_VERSION_MAJOR, QUARRY_VERSION_MINOR, QUARRY_VERSION_PATCH));
}

}  // namespace
}  // namespace quarry
