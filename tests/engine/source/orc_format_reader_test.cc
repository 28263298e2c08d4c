// OrcFormatReader: the engine's view of an ORC file and the pages of a split's
// rows (stripes whose midpoint lies in the split), as orc_format_reader.h states.
#include "quarry/engine/source/orc_format_reader.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "quarry/engine/source/file_split_provider.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using testing::columns;
using testing::drain;
using testing::wholeFile;

std::string orcExample(const std::string& name) {
  return (quarry::testing::testdataDir() / "orc" / "examples" / name).string();
}

TEST(OrcFormatReader, Test1SchemaAndValues) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  const std::string uri = orcExample("TestOrcFile.test1.orc");
  const SourceMetadata m = reader.metadata(uri);
  // middle (a struct of a list), list and map hold no column the engine reads.
  const Schema expected = {
      {"boolean1", DataType::boolean()}, {"byte1", DataType::int32()},
      {"short1", DataType::int32()},     {"int1", DataType::int32()},
      {"long1", DataType::int64()},      {"float1", DataType::float64()},
      {"double1", DataType::float64()},  {"bytes1", DataType::binary()},
      {"string1", DataType::string()},
  };
  EXPECT_EQ(m.schema, expected);
  ASSERT_NE(m.statistics, nullptr);
  EXPECT_EQ(m.statistics->rowCount, 2);
  ReadRequest request;
  for (const Field& f : m.schema) request.columns.push_back(f.name);
  const Page page = drain(reader.read(m.splits.at(0), request));
  ASSERT_EQ(page.positionCount(), 2u);
  // expected/TestOrcFile.test1.jsn: the two rows.
  EXPECT_EQ(page.block(0).values<uint8_t>()[0], 0);
  EXPECT_EQ(page.block(0).values<uint8_t>()[1], 1);
  EXPECT_EQ(page.block(1).values<int32_t>()[1], 100);
  EXPECT_EQ(page.block(2).values<int32_t>()[0], 1024);
  EXPECT_EQ(page.block(3).values<int32_t>()[0], 65536);
  EXPECT_EQ(page.block(4).values<int64_t>()[0], INT64_MAX);
  EXPECT_EQ(page.block(5).values<double>()[1], 2.0);
  EXPECT_EQ(page.block(6).values<double>()[0], -15.0);
  EXPECT_EQ(page.block(7).bytes(0), std::string("\x00\x01\x02\x03\x04", 5));
  EXPECT_EQ(page.block(7).bytes(1), "");
  EXPECT_EQ(page.block(8).bytes(0), "hi");
  EXPECT_EQ(page.block(8).bytes(1), "bye");
}

TEST(OrcFormatReader, Decimals) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  const std::string uri = orcExample("decimal.orc");
  const SourceMetadata m = reader.metadata(uri);
  ASSERT_EQ(m.schema.size(), 1u);
  EXPECT_EQ(m.schema[0].type.kind, TypeKind::kDecimal);
  const int32_t scale = m.schema[0].type.scale;
  ReadRequest request = columns({"_col0"});
  request.limit = 3;
  const Page page = drain(reader.read(wholeFile(uri, "orc"), request));
  ASSERT_EQ(page.positionCount(), 3u);
  // expected/decimal.jsn: -1000.50000, -999.60000, -998.70000
  Int128 factor = 1;
  for (int32_t i = 0; i < scale; ++i) factor *= 10;
  const Int128 v0 = page.block(0).values<Int128>()[0];
  const Int128 v2 = page.block(0).values<Int128>()[2];
  EXPECT_TRUE(v0 * 10 == Int128{-10005} * factor);
  EXPECT_TRUE(v2 * 10 == Int128{-9987} * factor);
}

TEST(OrcFormatReader, TimestampsAreTheWritersWallClock) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  // A file whose root is a struct with a timestamp column: testUnionAndTimestamp.
  const std::string uri = orcExample("TestOrcFile.testUnionAndTimestamp.orc");
  const SourceMetadata m = reader.metadata(uri);
  const int t = fieldIndex(m.schema, "time");
  ASSERT_GE(t, 0);
  EXPECT_EQ(m.schema[static_cast<size_t>(t)].type, DataType::timestamp(TimeUnit::kNanos, false));
  ReadRequest request = columns({"time"});
  request.limit = 1;
  const Page page = drain(reader.read(wholeFile(uri, "orc"), request));
  ASSERT_EQ(page.positionCount(), 1u);
  // expected/TestOrcFile.testUnionAndTimestamp.jsn row 0: "2000-03-12 15:00:00" (wall clock).
  EXPECT_EQ(page.block(0).values<int64_t>()[0], int64_t{952873200} * 1'000'000'000);
}

TEST(OrcFormatReader, SplitsCoverEveryRowExactlyOnce) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string uri = orcExample("TestOrcFile.testStripeLevelStats.orc");
  auto file = orc::OrcFileReader::open(uri);
  ASSERT_GT(file->stripeCount(), 1u);
  SplitOptions options;
  options.targetSplitBytes = 1;  // a split per stripe
  const auto splits = FileSplitProvider::orcSplits(uri, file->tail(), file->schema(), options);
  ASSERT_EQ(splits.size(), file->stripeCount());
  OrcFormatReader reader;
  ScanMetrics metrics;
  ReadRequest request = columns({"int1", "string1"});
  request.metrics = &metrics;
  int64_t rows = 0, sum = 0;
  for (const FileSplit& split : splits) {
    const Page page = drain(reader.read(split, request));
    rows += static_cast<int64_t>(page.positionCount());
    for (size_t r = 0; r < page.positionCount(); ++r) sum += page.block(0).values<int32_t>()[r];
  }
  const Page whole = drain(reader.read(wholeFile(uri, "orc"), request));
  int64_t wholeSum = 0;
  for (size_t r = 0; r < whole.positionCount(); ++r) wholeSum += whole.block(0).values<int32_t>()[r];
  EXPECT_EQ(rows, 11000);  // expected/TestOrcFile.testStripeLevelStats.jsn: 11000 rows
  EXPECT_EQ(static_cast<int64_t>(whole.positionCount()), 11000);
  EXPECT_EQ(sum, wholeSum);
  EXPECT_EQ(metrics.rowGroupsTotal, 2 * file->stripeCount());  // splits, then the whole file
  EXPECT_GT(metrics.bytesRead, 0u);
}

TEST(OrcFormatReader, FilterIsExactAndUnbindableFiltersReadEveryRow) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string uri = orcExample("TestOrcFile.testPredicatePushdown.orc");
  OrcFormatReader reader;
  const Page whole = drain(reader.read(wholeFile(uri, "orc"), columns({"int1", "string1"})));
  ASSERT_EQ(whole.positionCount(), 3500u);
  std::vector<int32_t> expected;
  for (size_t r = 0; r < whole.positionCount(); ++r) {
    const int32_t v = whole.block(0).values<int32_t>()[r];
    if (!whole.block(0).isNull(r) && v >= 30000 && v < 60000) expected.push_back(v);
  }
  ReadRequest request = columns({"int1"});
  request.filter = parquet::FilterPredicate::and_(parquet::FilterPredicate::gtEq("int1", int32_t{30000}),
                                                  parquet::FilterPredicate::lt("int1", int32_t{60000}));
  const Page filtered = drain(reader.read(wholeFile(uri, "orc"), request));
  ASSERT_EQ(filtered.positionCount(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) EXPECT_EQ(filtered.block(0).values<int32_t>()[r], expected[r]);
  request.filter = parquet::FilterPredicate::eq("no_such_column", int32_t{1});
  EXPECT_EQ(drain(reader.read(wholeFile(uri, "orc"), request)).positionCount(), 3500u);
}

// Lists, maps and unions are left out of the schema, and named with their types.
TEST(OrcFormatReader, ColumnsLeftOutAreNamedWithTheirTypes) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  const auto unread = [&](const char* name) {
    std::vector<std::string> out;
    for (const UnreadColumn& c : reader.metadata(orcExample(name)).unreadColumns) {
      out.push_back(c.name + ": " + c.what);
    }
    return out;
  };
  EXPECT_EQ(unread("TestOrcFile.test1.orc"),
            (std::vector<std::string>{"middle.list: array<struct<int1:int,string1:string>>",
                                      "list: array<struct<int1:int,string1:string>>",
                                      "map: map<string,struct<int1:int,string1:string>>"}));
  EXPECT_EQ(unread("TestOrcFile.testUnionAndTimestamp.orc"),
            std::vector<std::string>{"union: uniontype<int,string>"});
  EXPECT_EQ(unread("decimal.orc"), std::vector<std::string>{});
}

TEST(OrcFormatReader, EveryExampleReadsItsRowCount) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  for (const char* name : {"TestOrcFile.test1.orc", "TestOrcFile.testSeek.orc", "decimal.orc",
                           "nulls-at-end-snappy.orc", "orc_index_int_string.orc",
                           "over1k_bloom.orc", "TestOrcFile.emptyFile.orc", "orc-file-11-format.orc",
                           "TestOrcFile.testDate1900.orc"}) {
    SCOPED_TRACE(name);
    const SourceMetadata m = reader.metadata(orcExample(name));
    ReadRequest request;
    for (const Field& f : m.schema) request.columns.push_back(f.name);
    int64_t rows = 0;
    for (const FileSplit& split : m.splits) rows += static_cast<int64_t>(drain(reader.read(split, request)).positionCount());
    EXPECT_EQ(rows, m.statistics->rowCount);
  }
}

}  // namespace
}  // namespace quarry::engine
