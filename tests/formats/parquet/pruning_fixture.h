#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/parquet/statistics_pruning.h"
#include "quarry/io/memory_storage.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"

/// Test support for pruning: files of two columns, id INT32 and a column x under
/// test, one row group per Group, read with metadata pruning on and off.
namespace quarry::parquet::testing {

using Ids = std::vector<int32_t>;

/// One row group of column x: its values and the statistics recorded for them.
struct Group {
  std::vector<Raw> x;
  std::optional<Statistics> stats;
  std::optional<GeospatialStatistics> geo = std::nullopt;
};

inline SchemaElement required(SchemaElement e) {
  e.repetition_type = FieldRepetitionType::REQUIRED;
  return e;
}

/// A file of columns id INT32 (0, 1, ... across row groups) and x, one row group per group.
inline std::vector<uint8_t> fileOf(const SchemaElement& x, const std::vector<Group>& groups,
                            std::optional<std::vector<int16_t>> orders = std::nullopt) {
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32))).column(x);
  int32_t next = 0;
  for (const auto& g : groups) {
    std::vector<Raw> ids;
    for (size_t i = 0; i < g.x.size(); ++i) ids.push_back(le<int32_t>(next++));
    const int32_t last = next - 1;
    w.rowGroup({FixtureChunk{ids, boundsOf(le<int32_t>(last - static_cast<int32_t>(g.x.size()) + 1), le<int32_t>(last), 0), std::nullopt},
                FixtureChunk{g.x, g.stats, g.geo}});
  }
  if (orders) w.columnOrders(*orders);
  return w.bytes();
}

inline std::unique_ptr<ParquetFileReader> openBytes(const std::vector<uint8_t>& bytes, bool pruning) {
  ReaderOptions options;
  options.metadataPruning = pruning;
  options.threads = 1;
  return ParquetFileReader::open(std::make_unique<io::MemoryObject>("fixture.parquet", bytes), options);
}

struct Read {
  Ids ids;
  ReaderMetrics metrics;
};

inline Read readIds(const std::vector<uint8_t>& bytes, const FilterPredicate& filter, bool pruning) {
  auto file = openBytes(bytes, pruning);
  auto rows = file->rowReader(ColumnProjection::columns("id"), filter);
  Read out;
  while (rows->next()) out.ids.push_back(rows->getInt("id"));
  out.metrics = rows->metrics();
  return out;
}

/// The decision per row group, one letter each: N, S or E.
inline std::string decisions(const std::vector<uint8_t>& bytes, const FilterPredicate& filter) {
  auto file = openBytes(bytes, true);
  const BoundPredicate bound = BoundPredicate::bind(filter, file->schema());
  std::string out;
  for (int g = 0; g < file->numRowGroups(); ++g) {
    switch (decideRowGroup(bound, file->metadata(), static_cast<size_t>(g))) {
      case PruningDecision::kNoRowMatches: out += 'N'; break;
      case PruningDecision::kSomeMayMatch: out += 'S'; break;
      case PruningDecision::kEveryRowMatches: out += 'E'; break;
    }
  }
  return out;
}

/// Checks the decisions and that pruning returns the rows a read without it does;
/// also that the metrics count the pruned and wholly matched row groups.
inline void expectPruning(const std::vector<uint8_t>& bytes, const FilterPredicate& filter, const std::string& expected) {
  SCOPED_TRACE(filter.toString());
  EXPECT_EQ(decisions(bytes, filter), expected);
  const Read pruned = readIds(bytes, filter, true);
  const Read full = readIds(bytes, filter, false);
  EXPECT_EQ(pruned.ids, full.ids);
  EXPECT_EQ(pruned.metrics.rowGroupsTotal, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByStatistics, std::count(expected.begin(), expected.end(), 'N'));
  EXPECT_EQ(pruned.metrics.rowGroupsMatchedByStatistics, std::count(expected.begin(), expected.end(), 'E'));
  EXPECT_EQ(full.metrics.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(full.metrics.rowGroupsMatchedByStatistics, 0);
  EXPECT_LE(pruned.metrics.bytesFetched, full.metrics.bytesFetched);
}

inline std::string i32(int32_t v) { return le<int32_t>(v); }
inline Decimal decimal(int64_t unscaled, int32_t scale) {
  Decimal d;
  d.scale = scale;
  for (int i = 7; i >= 0; --i) d.unscaledBigEndian.push_back(static_cast<uint8_t>(static_cast<uint64_t>(unscaled) >> (8 * i)));
  return d;
}
inline std::string f64(double v) { return le<double>(v); }

/// A chunk of `values` split into pages of `rows` rows each, with a ColumnIndex
/// of each page's true bounds (INT32) and null count.
inline FixtureChunk pagedInt32(const std::vector<Raw>& values, const std::vector<size_t>& rows) {
  FixtureChunk chunk;
  chunk.values = values;
  size_t at = 0;
  for (const size_t n : rows) {
    FixturePage page;
    page.rows = n;
    std::optional<int32_t> lo, hi;
    int64_t nulls = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (!values[i]) {
        ++nulls;
        continue;
      }
      int32_t v;
      std::memcpy(&v, values[i]->data(), 4);
      lo = lo ? std::min(*lo, v) : v;
      hi = hi ? std::max(*hi, v) : v;
    }
    page.nullCount = nulls;
    page.nullPage = !lo.has_value();
    if (lo) {
      page.min = i32(*lo);
      page.max = i32(*hi);
    }
    chunk.pageIndex.push_back(page);
    at += n;
  }
  return chunk;
}

inline std::vector<Raw> ids(int32_t n) {
  std::vector<Raw> out;
  for (int32_t i = 0; i < n; ++i) out.push_back(i32(i));
  return out;
}

/// Four row groups of ten rows: x is 0..39, with truthful statistics; the groups
/// have the same size in bytes (limits and byte-range tests count their I/O).
inline std::vector<uint8_t> fourGroups() {
  std::vector<Group> groups;
  for (int32_t g = 0; g < 4; ++g) {
    Group group;
    for (int32_t i = 0; i < 10; ++i) group.x.push_back(i32(g * 10 + i));
    group.stats = boundsOf(i32(g * 10), i32(g * 10 + 9), 0);
    groups.push_back(std::move(group));
  }
  return fileOf(leafElement("x", PhysicalType::INT32), groups);
}

}  // namespace quarry::parquet::testing
