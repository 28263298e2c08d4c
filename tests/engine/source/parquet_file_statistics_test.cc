// ParquetFileStatistics: SourceStatistics from a footer, exact or unknown.
// query-controls.txt, "When statistics are ignored": bounds are ignored when
// "the minimum sorts above the maximum", "one of them is NaN", "they come from
// the deprecated min / max fields", "the column is INT96", and for a file
// without (or with an unrecognised) ColumnOrder. ARCHITECTURE.md, "Statistics
// are bounds unless proven exact": a truncated byte-string bound is not a value.
#include "quarry/engine/source/parquet_file_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using namespace quarry::parquet;

SchemaElement leaf(const std::string& name, PhysicalType type,
                   FieldRepetitionType repetition = FieldRepetitionType::OPTIONAL) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = repetition;
  return e;
}

template <typename T>
std::string plain(T v) {
  std::string out(sizeof v, '\0');
  std::memcpy(out.data(), &v, sizeof v);
  return out;
}

Statistics stats(std::optional<int64_t> nulls, std::optional<std::string> min,
                 std::optional<std::string> max) {
  Statistics s;
  s.null_count = nulls;
  s.min_value = std::move(min);
  s.max_value = std::move(max);
  return s;
}

/// A file of columns i (INT64), d (DOUBLE), s (STRING), t (INT96), r (repeated INT32).
struct Fixture {
  FileMetaData metadata;
  FileSchema schema;
};

Fixture file(const std::vector<std::vector<Statistics>>& groups, const std::vector<int64_t>& rows) {
  FileMetaData m;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 5;
  m.schema = {root,
              leaf("i", PhysicalType::INT64),
              leaf("d", PhysicalType::DOUBLE),
              leaf("s", PhysicalType::BYTE_ARRAY),
              leaf("t", PhysicalType::INT96),
              leaf("r", PhysicalType::INT32, FieldRepetitionType::REPEATED)};
  LogicalType string;
  string.kind = LogicalType::Kind::STRING;
  m.schema[3].logicalType = string;
  m.column_orders = std::vector<ColumnOrder>(5, ColumnOrder::TYPE_ORDER);
  for (size_t g = 0; g < groups.size(); ++g) {
    RowGroup group;
    group.num_rows = rows[g];
    for (const Statistics& s : groups[g]) {
      ColumnChunk chunk;
      chunk.meta_data.emplace();
      chunk.meta_data->statistics = s;
      group.columns.push_back(chunk);
    }
    m.num_rows += rows[g];
    m.row_groups.push_back(group);
  }
  FileSchema schema = FileSchema::build(m.schema);
  return {std::move(m), std::move(schema)};
}

Statistics exactString(std::optional<int64_t> nulls, const std::string& min,
                       const std::string& max) {
  Statistics s = stats(nulls, min, max);
  s.is_min_value_exact = true;
  s.is_max_value_exact = true;
  return s;
}

Statistics noNaN(Statistics s) {
  s.nan_count = 0;
  return s;
}

TEST(ParquetFileStatisticsTest, MergesRowGroupsOfExactStatistics) {
  const Fixture f =
      file({{stats(1, plain<int64_t>(-5), plain<int64_t>(10)),
             noNaN(stats(0, plain(1.5), plain(2.5))), exactString(0, "apple", "pear"),
             stats(0, plain(int64_t{1}) + "1234", plain(int64_t{2}) + "1234"),
             stats(0, plain<int32_t>(1), plain<int32_t>(2))},
            {stats(0, plain<int64_t>(3), plain<int64_t>(40)),
             noNaN(stats(2, plain(-1.0), plain(0.5))), exactString(3, "banana", "zebra"),
             stats(0, std::nullopt, std::nullopt), stats(0, plain<int32_t>(1), plain<int32_t>(2))}},
           {10, 20});
  const SourceStatistics s = ParquetFileStatistics::extract(f.metadata, f.schema);
  EXPECT_EQ(s.rowCount, 30);
  EXPECT_EQ(s.columns.at("i"), (ColumnStatistics{1, int64_t{-5}, int64_t{40}}));
  EXPECT_EQ(s.columns.at("d"), (ColumnStatistics{2, -1.0, 2.5}));
  EXPECT_EQ(s.columns.at("s"), (ColumnStatistics{3, std::string("apple"), std::string("zebra")}));
  // "The column is INT96": its bounds are ignored (its null count is not).
  EXPECT_EQ(s.columns.at("t"), (ColumnStatistics{0, std::nullopt, std::nullopt}));
  // A leaf under a repeated field counts values, not rows: unknown.
  EXPECT_EQ(s.columns.at("r"), ColumnStatistics{});
  // One row group alone.
  const SourceStatistics second =
      ParquetFileStatistics::extractRowGroups(f.metadata, f.schema, 1, 5);
  EXPECT_EQ(second.rowCount, 20);
  EXPECT_EQ(second.columns.at("i"), (ColumnStatistics{0, int64_t{3}, int64_t{40}}));
}

ColumnStatistics single(const std::string& column, Statistics s, int64_t rows = 10) {
  std::vector<Statistics> group(5, stats(0, std::nullopt, std::nullopt));
  const std::map<std::string, size_t> index = {{"i", 0}, {"d", 1}, {"s", 2}, {"t", 3}, {"r", 4}};
  group[index.at(column)] = std::move(s);
  const Fixture f = file({group}, {rows});
  return ParquetFileStatistics::extract(f.metadata, f.schema).columns.at(column);
}

TEST(ParquetFileStatisticsTest, IgnoredStatisticsGiveUnknownBounds) {
  // "The minimum sorts above the maximum."
  EXPECT_FALSE(single("i", stats(0, plain<int64_t>(9), plain<int64_t>(1))).min);
  // "One of them is NaN."
  EXPECT_FALSE(single("d", noNaN(stats(0, plain(std::nan("")), plain(1.0)))).min);
  // FLOAT / DOUBLE bounds need nan_count = 0 (issue 9): absent or positive is unknown.
  EXPECT_FALSE(single("d", stats(0, plain(1.0), plain(2.0))).min);
  Statistics nan = stats(0, plain(1.0), plain(2.0));
  nan.nan_count = 1;
  EXPECT_FALSE(single("d", nan).max);
  // "mind -0.0 vs +0.0": under TYPE_ORDER a zero bound may stand for either sign.
  EXPECT_FALSE(single("d", noNaN(stats(0, plain(0.0), plain(1.0)))).min);
  // "They come from the deprecated min / max fields."
  Statistics deprecated = stats(0, std::nullopt, std::nullopt);
  deprecated.min = plain<int64_t>(1);
  deprecated.max = plain<int64_t>(2);
  const ColumnStatistics d = single("i", deprecated);
  EXPECT_FALSE(d.min);
  EXPECT_FALSE(d.max);
  // A byte-string bound not marked exact may be truncated.
  EXPECT_FALSE(single("s", stats(0, std::string("a"), std::string("b"))).min);
  Statistics truncated = exactString(0, "a", "b");
  truncated.is_max_value_exact = false;
  const ColumnStatistics t = single("s", truncated);
  EXPECT_EQ(t.min, StatisticValue{std::string("a")});
  EXPECT_FALSE(t.max);
  // A bound of the wrong width.
  EXPECT_FALSE(single("i", stats(0, plain<int32_t>(1), plain<int64_t>(2))).min);
}

TEST(ParquetFileStatisticsTest, ARowGroupWithoutBoundsOrCountsMakesTheFileUnknown) {
  // "a row group with non-null values but no bounds makes that column's MIN/MAX
  // unanswerable; COUNT(col) needs null_count in every row group".
  const Fixture f = file({{stats(0, plain<int64_t>(1), plain<int64_t>(2)), {}, {}, {}, {}},
                          {stats(std::nullopt, std::nullopt, std::nullopt), {}, {}, {}, {}}},
                         {10, 10});
  EXPECT_EQ(ParquetFileStatistics::extract(f.metadata, f.schema).columns.at("i"),
            ColumnStatistics{});
  // An all-null row group needs no bounds: "an all-null column gives MIN/MAX null".
  const Fixture g = file({{stats(0, plain<int64_t>(1), plain<int64_t>(2)), {}, {}, {}, {}},
                          {stats(10, std::nullopt, std::nullopt), {}, {}, {}, {}}},
                         {10, 10});
  EXPECT_EQ(ParquetFileStatistics::extract(g.metadata, g.schema).columns.at("i"),
            (ColumnStatistics{10, int64_t{1}, int64_t{2}}));
}

TEST(ParquetFileStatisticsTest, WithoutColumnOrdersBoundsAreUnknown) {
  // parquet.thrift: without column_orders the meaning of min_value / max_value is undefined.
  Fixture f = file({{stats(0, plain<int64_t>(1), plain<int64_t>(2)), {}, {}, {}, {}}}, {10});
  f.metadata.column_orders.reset();
  EXPECT_EQ(ParquetFileStatistics::extract(f.metadata, f.schema).columns.at("i"),
            (ColumnStatistics{0, std::nullopt, std::nullopt}));
}

// --- parquet-testing files, checked against a scan ---

struct Scanned {
  int64_t rows = 0;
  std::map<std::string, int64_t> nulls;
  std::map<std::string, int64_t> min, max;
};

/// Scans the top-level INT32 / INT64 (plain or signed INTEGER) columns of `path`.
Scanned scanIntegers(const std::filesystem::path& path, std::vector<std::string>& columns) {
  auto reader = ParquetFileReader::open(path.string());
  columns.clear();
  std::map<std::string, bool> is64;
  for (const SchemaNode* l : reader->schema().leaves()) {
    const auto kind = l->logicalType.kind;
    const bool plainInt = kind == LogicalType::Kind::NONE ||
                          (kind == LogicalType::Kind::INTEGER && l->logicalType.isSigned);
    if (l->parent != &reader->schema().root() || !plainInt) continue;
    if (l->physicalType == PhysicalType::INT32 || l->physicalType == PhysicalType::INT64) {
      columns.push_back(l->path);
      is64[l->path] = l->physicalType == PhysicalType::INT64;
    }
  }
  Scanned out;
  auto rows = reader->buildRowReader().build();
  while (rows->next()) {
    ++out.rows;
    for (const std::string& c : columns) {
      if (rows->isNull(c)) {
        ++out.nulls[c];
        continue;
      }
      const int64_t v = is64[c] ? rows->getLong(c) : rows->getInt(c);
      if (!out.min.count(c) || v < out.min[c]) out.min[c] = v;
      if (!out.max.count(c) || v > out.max[c]) out.max[c] = v;
    }
  }
  return out;
}

TEST(ParquetFileStatisticsTest, AgreesWithAScanOfParquetTestingFiles) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  int knownBounds = 0;
  int knownCounts = 0;
  for (const char* name :
       {"alltypes_plain.parquet", "alltypes_tiny_pages.parquet",
        "alltypes_tiny_pages_plain.parquet", "int32_with_null_pages.parquet",
        "data_index_bloom_encoding_stats.parquet", "delta_binary_packed.parquet",
        "nulls.snappy.parquet", "int32_decimal.parquet", "datapage_v2.snappy.parquet"}) {
    const auto path = quarry::testing::parquetTestingDir() / "data" / name;
    SCOPED_TRACE(name);
    auto reader = ParquetFileReader::open(path.string());
    const SourceStatistics s = ParquetFileStatistics::extract(reader->metadata(), reader->schema());
    std::vector<std::string> columns;
    Scanned scan = scanIntegers(path, columns);
    EXPECT_EQ(s.rowCount, reader->metadata().num_rows);
    EXPECT_EQ(s.rowCount, scan.rows);
    for (const std::string& c : columns) {
      SCOPED_TRACE(c);
      const ColumnStatistics& col = s.columns.at(c);
      if (col.nullCount) {
        ++knownCounts;
        EXPECT_EQ(*col.nullCount, scan.nulls[c]);
      }
      if (col.min) {
        ++knownBounds;
        ASSERT_TRUE(scan.min.count(c));
        EXPECT_EQ(std::get<int64_t>(*col.min), scan.min[c]);
      }
      if (col.max) {
        EXPECT_EQ(std::get<int64_t>(*col.max), scan.max[c]);
      }
      if (col.nullCount && *col.nullCount == scan.rows) {
        EXPECT_FALSE(scan.min.count(c));
      }
    }
  }
  // The comparison is not vacuous.
  EXPECT_GT(knownCounts, 5);
  EXPECT_GT(knownBounds, 5);
}

TEST(ParquetFileStatisticsTest, FilesWithIgnoredStatistics) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  auto extract = [&](const char* name) {
    auto reader = ParquetFileReader::open((dir / name).string());
    return ParquetFileStatistics::extract(reader->metadata(), reader->schema());
  };
  // INT96 timestamps.
  for (const auto& [name, c] : extract("int96_from_spark.parquet").columns) {
    EXPECT_FALSE(c.min) << name;
    EXPECT_FALSE(c.max) << name;
  }
  // NaN in the bounds.
  for (const auto& [name, c] : extract("nan_in_stats.parquet").columns) {
    EXPECT_FALSE(c.min) << name;
    EXPECT_FALSE(c.max) << name;
  }
  // Truncated binary bounds: the file's README lists each column's
  // is_{min,max}_value_exact; only exact bounds are values.
  const SourceStatistics t = extract("binary_truncated_min_max.parquet");
  auto bounds = [&](const char* column) {
    const ColumnStatistics& c = t.columns.at(column);
    return std::pair<bool, bool>(c.min.has_value(), c.max.has_value());
  };
  using B = std::pair<bool, bool>;
  EXPECT_EQ(bounds("utf8_full_truncation"), B(false, false));
  EXPECT_EQ(bounds("binary_full_truncation"), B(false, false));
  EXPECT_EQ(bounds("utf8_partial_truncation"), B(false, true));
  EXPECT_EQ(bounds("binary_partial_truncation"), B(false, true));
  EXPECT_EQ(bounds("utf8_no_truncation"), B(true, true));
  EXPECT_EQ(bounds("binary_no_truncation"), B(true, true));
  EXPECT_EQ(t.columns.at("utf8_no_truncation").min, StatisticValue{std::string("Al")});
  EXPECT_EQ(t.columns.at("utf8_no_truncation").max, StatisticValue{std::string("Ke")});
  EXPECT_EQ(t.columns.at("binary_partial_truncation").max,
            StatisticValue{std::string("\xff\xff\x01\x02")});
}

}  // namespace
}  // namespace quarry::engine
