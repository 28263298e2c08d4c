// ParquetFormatReader: the engine's view of a Parquet file (schema, statistics,
// splits) and the pages of a split's rows, as the FormatReader contract and the
// type table of parquet_format_reader.h state them.
#include "quarry/engine/source/parquet_format_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "quarry/common/error.h"
#include "quarry/engine/source/file_split_provider.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using testing::columns;
using testing::drain;
using testing::fixture;
using testing::wholeFile;

std::string parquetTesting(const std::string& name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

Int128 decimalAt(const Block& b, size_t i) { return b.values<Int128>()[i]; }

Page readAll(const std::string& uri, ReadRequest request) {
  ParquetFormatReader reader;
  return drain(reader.read(wholeFile(uri, "parquet"), request));
}

TEST(ParquetFormatReader, SchemaMapsEveryTypeOfTheTable) {
  ParquetFormatReader reader;
  const SourceMetadata m = reader.metadata(fixture("all_types.parquet"));
  const Schema expected = {
      {"id", DataType::int32()},
      {"b", DataType::boolean()},
      {"i8", DataType::int32()},
      {"i16", DataType::int32()},
      {"i32", DataType::int32()},
      {"i64", DataType::int64()},
      {"u8", DataType::int32()},   // INT(8, unsigned) -> int32
      {"u16", DataType::int32()},  // INT(16, unsigned) -> int32
      {"u32", DataType::int64()},  // INT(32, unsigned) -> int64
      {"u64", DataType::uint64()},
      {"f32", DataType::float64()},
      {"f64", DataType::float64()},
      {"d4", DataType::decimal(4, 1)},
      {"d18", DataType::decimal(18, 3)},
      {"d38", DataType::decimal(38, 10)},
      {"s", DataType::string()},
      {"bin", DataType::binary()},
      {"dt", DataType::date()},
      {"tm", DataType::time(TimeUnit::kMicros)},
      {"ts", DataType::timestamp(TimeUnit::kMicros, false)},
      {"tstz", DataType::timestamp(TimeUnit::kMicros, true)},
      {"tsms", DataType::timestamp(TimeUnit::kMillis, false)},
      {"tsns", DataType::timestamp(TimeUnit::kNanos, false)},
      {"u", DataType::uuid()},
      {"st.a", DataType::int32()},  // struct leaves by dotted name
      {"st.b", DataType::string()},
      {"l", DataType::list(DataType::int32())},  // a LIST: one column named by its node
  };
  EXPECT_EQ(m.schema, expected);
  ASSERT_NE(m.statistics, nullptr);
  EXPECT_EQ(m.statistics->rowCount, 3);
  EXPECT_EQ(m.fileSize, std::filesystem::file_size(fixture("all_types.parquet")));
  ASSERT_EQ(m.splits.size(), 1u);
  EXPECT_EQ(m.splits[0].format, "parquet");
}

TEST(ParquetFormatReader, ReadsEveryTypeOfTheTable) {
  ParquetFormatReader reader;
  const SourceMetadata m = reader.metadata(fixture("all_types.parquet"));
  ReadRequest request;
  for (const Field& f : m.schema) request.columns.push_back(f.name);
  const Page page = drain(reader.read(m.splits[0], request));
  ASSERT_EQ(page.positionCount(), 3u);
  auto col = [&](const std::string& name) -> const Block& {
    return page.block(static_cast<size_t>(fieldIndex(m.schema, name)));
  };
  for (size_t c = 0; c < page.blockCount(); ++c) {
    EXPECT_EQ(page.block(c).type(), m.schema[c].type) << m.schema[c].name;
    if (m.schema[c].name != "id") {
      EXPECT_TRUE(page.block(c).isNull(2)) << m.schema[c].name;
    }
  }
  EXPECT_EQ(col("b").values<uint8_t>()[0], 1);
  EXPECT_EQ(col("b").values<uint8_t>()[1], 0);
  EXPECT_EQ(col("i8").values<int32_t>()[0], -8);
  EXPECT_EQ(col("i16").values<int32_t>()[1], 32767);
  EXPECT_EQ(col("i32").values<int32_t>()[1], 2147483647);
  EXPECT_EQ(col("i64").values<int64_t>()[1], INT64_MIN);
  EXPECT_EQ(col("u8").values<int32_t>()[0], 200);
  EXPECT_EQ(col("u16").values<int32_t>()[0], 60000);
  EXPECT_EQ(col("u32").values<int64_t>()[0], 4000000000LL);
  EXPECT_EQ(col("u64").values<uint64_t>()[0], UINT64_MAX);
  EXPECT_EQ(col("f32").values<double>()[0], 1.5);
  EXPECT_TRUE(std::isnan(col("f32").values<double>()[1]));
  EXPECT_EQ(col("f64").values<double>()[0], -2.25);
  EXPECT_EQ(col("f64").values<double>()[1], -INFINITY);
  EXPECT_TRUE(decimalAt(col("d4"), 0) == 125);
  EXPECT_TRUE(decimalAt(col("d4"), 1) == -1);
  EXPECT_TRUE(decimalAt(col("d18"), 0) == Int128{-123456789012345});
  // 12345678901234567890.1234567891 at scale 10.
  const Int128 big = Int128{1234567890123456789LL} * 100000000000LL + Int128{1234567891};
  EXPECT_TRUE(decimalAt(col("d38"), 0) == big);
  EXPECT_TRUE(decimalAt(col("d38"), 1) == -1);
  EXPECT_EQ(col("s").bytes(0), "caf\xC3\xA9");
  EXPECT_EQ(col("s").bytes(1), "");
  EXPECT_FALSE(col("s").isNull(1));
  EXPECT_EQ(col("bin").bytes(0), std::string("\x00\xFF", 2));
  EXPECT_EQ(col("dt").values<int32_t>()[0], 19782);
  EXPECT_EQ(col("dt").values<int32_t>()[1], -1);
  EXPECT_EQ(col("tm").values<int64_t>()[0], 45296789012);
  EXPECT_EQ(col("ts").values<int64_t>()[0], 1704164645123456);
  EXPECT_EQ(col("ts").values<int64_t>()[1], -1);
  EXPECT_EQ(col("tstz").values<int64_t>()[0], 1704164645123456);
  EXPECT_EQ(col("tsms").values<int64_t>()[1], -2208988800000);
  EXPECT_EQ(col("tsns").values<int64_t>()[0], 1704164645123456789);
  EXPECT_EQ(col("u").bytes(0), std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
  EXPECT_EQ(col("st.a").values<int32_t>()[0], 7);
  EXPECT_TRUE(col("st.a").isNull(1));
  EXPECT_EQ(col("st.b").bytes(1), "y");
}

TEST(ParquetFormatReader, AlltypesPlainAsDuckDbReadsIt) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const Page page = readAll(parquetTesting("alltypes_plain.parquet"),
                            columns({"id", "bool_col", "tinyint_col", "bigint_col", "float_col",
                                     "double_col", "date_string_col", "timestamp_col"}));
  ASSERT_EQ(page.positionCount(), 8u);
  // DuckDB: SELECT id, ..., epoch_ns(timestamp_col) FROM 'alltypes_plain.parquet'
  const int32_t ids[] = {4, 5, 6, 7, 2, 3, 0, 1};
  const int64_t ts[] = {1235865600000000000, 1235865660000000000, 1238544000000000000,
                        1238544060000000000, 1233446400000000000, 1233446460000000000,
                        1230768000000000000, 1230768060000000000};
  EXPECT_EQ(page.block(7).type(), DataType::timestamp(TimeUnit::kNanos, true));  // INT96
  EXPECT_EQ(page.block(6).type(), DataType::binary());  // BYTE_ARRAY without annotation
  for (size_t r = 0; r < 8; ++r) {
    EXPECT_EQ(page.block(0).values<int32_t>()[r], ids[r]);
    EXPECT_EQ(page.block(1).values<uint8_t>()[r], r % 2 == 0 ? 1 : 0);
    EXPECT_EQ(page.block(2).values<int32_t>()[r], static_cast<int32_t>(r % 2));
    EXPECT_EQ(page.block(3).values<int64_t>()[r], r % 2 == 0 ? 0 : 10);
    EXPECT_EQ(page.block(4).values<double>()[r], r % 2 == 0 ? 0.0 : double{1.1f});
    EXPECT_EQ(page.block(5).values<double>()[r], r % 2 == 0 ? 0.0 : 10.1);
    EXPECT_EQ(page.block(7).values<int64_t>()[r], ts[r]);
  }
  EXPECT_EQ(page.block(6).bytes(0), "03/01/09");
}

TEST(ParquetFormatReader, DataIndexBloomEncodingStats) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  ParquetFormatReader reader;
  const std::string uri = parquetTesting("data_index_bloom_encoding_stats.parquet");
  const SourceMetadata m = reader.metadata(uri);
  EXPECT_EQ(m.schema, (Schema{{"String", DataType::string()}}));
  const Page page = drain(reader.read(m.splits[0], columns({"String"})));
  ASSERT_EQ(page.positionCount(), 14u);
  EXPECT_EQ(page.block(0).bytes(0), "Hello");
  EXPECT_EQ(page.block(0).bytes(1), "This is");
  std::string lo(page.block(0).bytes(0)), hi = lo;
  for (size_t r = 0; r < 14; ++r) {
    lo = std::min(lo, std::string(page.block(0).bytes(r)));
    hi = std::max(hi, std::string(page.block(0).bytes(r)));
  }
  EXPECT_EQ(lo, "Hello");  // DuckDB: min / max
  EXPECT_EQ(hi, "today");
}

TEST(ParquetFormatReader, DecimalsOfEveryPhysicalType) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // DuckDB: every file holds 1.00 .. 24.00 in order.
  const std::pair<const char*, DataType> files[] = {
      {"int32_decimal.parquet", DataType::decimal(4, 2)},
      {"int64_decimal.parquet", DataType::decimal(10, 2)},
      {"fixed_length_decimal.parquet", DataType::decimal(25, 2)},
      {"fixed_length_decimal_legacy.parquet", DataType::decimal(13, 2)},
      {"byte_array_decimal.parquet", DataType::decimal(4, 2)},
  };
  for (const auto& [name, type] : files) {
    SCOPED_TRACE(name);
    const Page page = readAll(parquetTesting(name), columns({"value"}));
    ASSERT_EQ(page.positionCount(), 24u);
    EXPECT_EQ(page.block(0).type(), type);
    for (size_t r = 0; r < 24; ++r) {
      EXPECT_TRUE(decimalAt(page.block(0), r) == static_cast<Int128>((r + 1) * 100)) << r;
    }
  }
}

TEST(ParquetFormatReader, Int96OutsideTheNanosecondRangeIsAClearError) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // int96_from_spark.parquet holds 9999-12-31, past timestamp(ns)'s year 2262.
  try {
    readAll(parquetTesting("int96_from_spark.parquet"), columns({"a"}));
    FAIL() << "expected an error";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("int96_from_spark.parquet"), std::string::npos) << what;
    EXPECT_NE(what.find("column a"), std::string::npos) << what;
    EXPECT_NE(what.find("outside the range of timestamp(ns)"), std::string::npos) << what;
  }
}

TEST(ParquetFormatReader, FilesWithListsAndMapsAreReadWithoutThem) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  ParquetFormatReader reader;
  for (const char* name : {"list_columns.parquet", "nested_maps.snappy.parquet",
                           "nested_lists.snappy.parquet", "repeated_no_annotation.parquet",
                           "nested_structs.rust.parquet", "null_list.parquet"}) {
    SCOPED_TRACE(name);
    const SourceMetadata m = reader.metadata(parquetTesting(name));
    ReadRequest request;
    for (const Field& f : m.schema) request.columns.push_back(f.name);
    int64_t rows = 0;
    for (const FileSplit& split : m.splits) rows += drain(reader.read(split, request)).positionCount();
    EXPECT_EQ(rows, m.statistics->rowCount);
  }
}

// What the schema leaves out is named, so that a query naming it is told why.
TEST(ParquetFormatReader, ColumnsLeftOutAreNamedWithWhatTheyAre) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  ParquetFormatReader reader;
  const auto unread = [&](const char* name) {
    std::vector<std::string> out;
    for (const UnreadColumn& c : reader.metadata(parquetTesting(name)).unreadColumns) {
      out.push_back(c.name + ": " + c.what);
    }
    return out;
  };
  EXPECT_EQ(unread("nested_maps.snappy.parquet"), std::vector<std::string>{"a: a MAP"});
  EXPECT_EQ(unread("nested_lists.snappy.parquet"),
            std::vector<std::string>{"a: a LIST of lists, structs or maps"});
  EXPECT_EQ(unread("repeated_no_annotation.parquet"),
            std::vector<std::string>{"phoneNumbers.phone: a repeated group"});
  // Lists of a primitive and struct leaves are read: nothing left out.
  EXPECT_EQ(unread("list_columns.parquet"), std::vector<std::string>{});
  EXPECT_EQ(unread("alltypes_plain.parquet"), std::vector<std::string>{});
}

// Splits: "A reader takes the row groups / stripes whose midpoint falls in" the
// split's byte range: every row exactly once over all splits.
TEST(ParquetFormatReader, SplitsCoverEveryRowExactlyOnce) {
  const std::string uri = fixture("multi_row_groups.parquet");
  auto file = parquet::ParquetFileReader::open(uri);
  // DuckDB rounds ROW_GROUP_SIZE up to its 2,048-row vectors: 4 x 2,048 + 1,808.
  ASSERT_EQ(file->numRowGroups(), 5);
  SplitOptions options;
  options.targetSplitBytes = 20'000;  // a few row groups per split
  const auto splits = FileSplitProvider::parquetSplits(uri, file->metadata(), file->schema(), options);
  ASSERT_GT(splits.size(), 2u);
  ParquetFormatReader reader;
  reader.metadata(uri);  // the footer is read once, here: the splits' reads count data only
  ScanMetrics metrics;
  ReadRequest request = columns({"id"});
  request.metrics = &metrics;
  std::vector<int64_t> ids;
  for (const FileSplit& split : splits) {
    const Page page = drain(reader.read(split, request));
    for (size_t r = 0; r < page.positionCount(); ++r) ids.push_back(page.block(0).values<int64_t>()[r]);
  }
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), 10000u);
  for (int64_t i = 0; i < 10000; ++i) ASSERT_EQ(ids[static_cast<size_t>(i)], i);
  EXPECT_EQ(metrics.rowGroupsTotal, 5u);  // each row group counted by the split that reads it
  EXPECT_EQ(metrics.rowsDecoded, 10000u);
  EXPECT_GT(metrics.bytesRead, 0u);
  EXPECT_GT(metrics.requests, 0u);
  // Pages too are counted once over the splits: as many as one read of the whole file.
  ScanMetrics whole;
  request.metrics = &whole;
  drain(reader.read(testing::wholeFile(uri, "parquet"), request));
  // (DuckDB writes no encoding_stats, so both page counts are 0 here: pages are
  // counted from encoding_stats or a page index.)
  EXPECT_EQ(metrics.pagesTotal, whole.pagesTotal);
  EXPECT_EQ(metrics.pagesSkipped, whole.pagesSkipped);
  EXPECT_EQ(metrics.rowGroupsTotal, whole.rowGroupsTotal);
  EXPECT_EQ(metrics.bytesRead, whole.bytesRead);
}

TEST(ParquetFormatReader, FilterIsExactAndCountsPruning) {
  ParquetFormatReader reader;
  ScanMetrics metrics;
  ReadRequest request = columns({"id", "v"});
  // id < 1500 keeps row group 0 only (rows 0..2047; statistics prune the other four).
  request.filter = parquet::FilterPredicate::and_(parquet::FilterPredicate::lt("id", int64_t{1500}),
                                                  parquet::FilterPredicate::eq("v", int32_t{5}));
  request.metrics = &metrics;
  const Page page = drain(reader.read(wholeFile(fixture("multi_row_groups.parquet"), "parquet"), request));
  // DuckDB: SELECT id FROM t WHERE id < 1500 AND v = 5 -> 5, 105, ..., 1405 (none is % 7).
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 1500; ++i) {
    if (i % 7 != 0 && i % 100 == 5) expected.push_back(i);
  }
  ASSERT_EQ(page.positionCount(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ(page.block(0).values<int64_t>()[r], expected[r]);
    EXPECT_EQ(page.block(1).values<int32_t>()[r], 5);
  }
  EXPECT_EQ(metrics.rowGroupsTotal, 5u);
  EXPECT_EQ(metrics.rowGroupsPrunedByStatistics, 4u);
  EXPECT_EQ(metrics.rowsDecoded, 2048u);
}

// ExternalSourceExec contract: "every row when it cannot" bind the filter.
TEST(ParquetFormatReader, UnbindableFilterReadsEveryRow) {
  ReadRequest request = columns({"id"});
  request.filter = parquet::FilterPredicate::eq("not_in_file", int32_t{5});
  EXPECT_EQ(readAll(fixture("multi_row_groups.parquet"), request).positionCount(), 10000u);
  request.filter = parquet::FilterPredicate::eq("s", int32_t{5});  // a literal the column does not take
  EXPECT_EQ(readAll(fixture("multi_row_groups.parquet"), request).positionCount(), 10000u);
}

TEST(ParquetFormatReader, LimitStopsEarly) {
  ParquetFormatReader reader;
  ScanMetrics metrics;
  ReadRequest request = columns({"id"});
  request.limit = 2500;
  request.metrics = &metrics;
  const Page page = drain(reader.read(wholeFile(fixture("multi_row_groups.parquet"), "parquet"), request));
  ASSERT_EQ(page.positionCount(), 2500u);
  EXPECT_EQ(page.block(0).values<int64_t>()[2499], 2499);
  EXPECT_EQ(metrics.rowsDecoded, 4096u);  // no row group past the one holding row 2500
}

TEST(ParquetFormatReader, AbsentColumnsMetadataColumnsAndWidening) {
  const std::string uri = fixture("multi_row_groups.parquet");
  ReadRequest request = columns({"v", "missing", "_file.path", "_file.size", "v"});
  request.outputSchema = {{"v", DataType::int64()},
                          {"missing", DataType::string()},
                          {"_file.path", DataType::string()},
                          {"_file.size", DataType::int64()},
                          {"v", DataType::float64()}};
  request.limit = 8;
  const Page page = readAll(uri, request);
  ASSERT_EQ(page.positionCount(), 8u);
  for (size_t c = 0; c < 5; ++c) EXPECT_EQ(page.block(c).type(), request.outputSchema[c].type);
  EXPECT_TRUE(page.block(0).isNull(0));  // id 0: 0 % 7 == 0
  EXPECT_EQ(page.block(0).values<int64_t>()[3], 3);
  EXPECT_EQ(page.block(4).values<double>()[3], 3.0);
  EXPECT_TRUE(page.block(4).isNull(7));
  for (size_t r = 0; r < 8; ++r) {
    EXPECT_TRUE(page.block(1).isNull(r));
    EXPECT_EQ(page.block(2).bytes(r), uri);
    EXPECT_EQ(page.block(3).values<int64_t>()[r], static_cast<int64_t>(std::filesystem::file_size(uri)));
  }
}

TEST(ParquetFormatReader, NoColumnsCountsRows) {
  ReadRequest request;
  EXPECT_EQ(readAll(fixture("multi_row_groups.parquet"), request).positionCount(), 10000u);
  request.filter = parquet::FilterPredicate::lt("id", int64_t{10});
  EXPECT_EQ(readAll(fixture("multi_row_groups.parquet"), request).positionCount(), 10u);
}

// Rows are counted from a decoded column: with a filter, one of its own columns,
// which is decoded anyway, not the file's first (id here), which would be read
// for nothing.
TEST(ParquetFormatReader, NoColumnsWithAFilterReadsOnlyTheFilterColumns) {
  ParquetFormatReader reader;
  const FileSplit split = wholeFile(fixture("multi_row_groups.parquet"), "parquet");
  reader.metadata(split.uri);  // the footer, cached: neither read below pays for it
  ScanMetrics counted, projected;
  ReadRequest count;
  count.filter = parquet::FilterPredicate::eq("v", int32_t{5});
  count.metrics = &counted;
  ReadRequest keep = columns({"v"});
  keep.filter = count.filter;
  keep.metrics = &projected;
  const Page rows = drain(reader.read(split, count));
  EXPECT_EQ(rows.positionCount(), drain(reader.read(split, keep)).positionCount());
  EXPECT_GT(rows.positionCount(), 0u);
  EXPECT_EQ(counted.bytesRead.load(), projected.bytesRead.load());
  EXPECT_EQ(counted.rowsDecoded.load(), projected.rowsDecoded.load());
}

TEST(ParquetFormatReader, PagesHoldAtMost64KRows) {
  const std::string uri = fixture("big_row_group.parquet");
  ParquetFormatReader reader;
  std::vector<size_t> sizes;
  const Page page = drain(reader.read(wholeFile(uri, "parquet"), columns({"id"})), &sizes);
  ASSERT_EQ(page.positionCount(), 70000u);
  EXPECT_EQ(sizes, (std::vector<size_t>{65536, 4464}));
  for (size_t r = 0; r < 70000; r += 997) EXPECT_EQ(page.block(0).values<int32_t>()[r], static_cast<int32_t>(r % 10));
}

TEST(ParquetFormatReader, ReadAfterMetadataReusesTheFooter) {
  ParquetFormatReader reader;
  const std::string uri = fixture("multi_row_groups.parquet");
  const SourceMetadata m = reader.metadata(uri);
  const auto before = reader.footerCache().stats();
  ScanMetrics metrics;
  ReadRequest request = columns({"id"});
  request.limit = 1;
  request.metrics = &metrics;
  drain(reader.read(m.splits[0], request));
  const auto after = reader.footerCache().stats();
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.misses, before.misses);
}

TEST(ParquetFormatReader, CorruptFileIsCorruptFile) {
  const auto path = std::filesystem::temp_directory_path() / "quarry_engine_source_corrupt.parquet";
  {
    std::ofstream out(path, std::ios::binary);
    out << "PAR1 this is not a parquet file PAR1";
  }
  ParquetFormatReader reader;
  EXPECT_THROW(reader.metadata(path.string()), CorruptFile);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace quarry::engine
