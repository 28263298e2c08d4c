// Statistics read from the ORC example files (file level and stripe level)
// agree with a scan of the same file: value counts, hasNull, and the minimum and
// maximum of integer, floating-point, string and date columns.
#include "quarry/formats/orc/orc_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "quarry/formats/orc/orc_file_reader.h"
#include "tests/support/testdata.h"

namespace quarry::orc {
namespace {

namespace fs = std::filesystem;

fs::path examplesDir() {
  return quarry::testing::testdataDir() / "orc" / "examples";
}

/// Files that are not meant to be read (no bytes).
const std::set<std::string> kUnreadable = {"zero.orc"};

/// What a scan saw in one column.
struct Scanned {
  uint64_t values = 0;
  bool sawNull = false;
  std::optional<int64_t> intMin, intMax;
  std::optional<double> doubleMin, doubleMax;
  std::optional<std::string> stringMin, stringMax;

  void add(const Scanned& other) {
    values += other.values;
    sawNull = sawNull || other.sawNull;
    merge(intMin, other.intMin, true);
    merge(intMax, other.intMax, false);
    merge(doubleMin, other.doubleMin, true);
    merge(doubleMax, other.doubleMax, false);
    merge(stringMin, other.stringMin, true);
    merge(stringMax, other.stringMax, false);
  }
  template <typename T>
  static void merge(std::optional<T>& into, const std::optional<T>& from, bool minimum) {
    if (!from) return;
    if (!into || (minimum ? *from < *into : *into < *from)) into = from;
  }
};

void scan(const ColumnVector& column, std::vector<Scanned>& out) {
  Scanned& s = out[column.type->columnId];
  s.values += column.valueCount;
  s.sawNull = s.sawNull || column.valueCount < column.size;
  const TypeKind kind = column.type->kind;
  for (uint64_t i = 0; i < column.valueCount; ++i) {
    switch (kind) {
      case TypeKind::kByte:
      case TypeKind::kShort:
      case TypeKind::kInt:
      case TypeKind::kLong:
      case TypeKind::kDate:
        Scanned::merge(s.intMin, std::optional<int64_t>(column.longs[i]), true);
        Scanned::merge(s.intMax, std::optional<int64_t>(column.longs[i]), false);
        break;
      case TypeKind::kFloat:
      case TypeKind::kDouble:
        if (!std::isnan(column.doubles[i])) {
          Scanned::merge(s.doubleMin, std::optional<double>(column.doubles[i]), true);
          Scanned::merge(s.doubleMax, std::optional<double>(column.doubles[i]), false);
        }
        break;
      case TypeKind::kString:
      case TypeKind::kVarchar:
      case TypeKind::kChar: {
        std::optional<std::string> v(
            column.bytes.substr(column.offsets[i], column.offsets[i + 1] - column.offsets[i]));
        Scanned::merge(s.stringMin, v, true);
        Scanned::merge(s.stringMax, v, false);
        break;
      }
      default:
        break;
    }
  }
  for (const auto& child : column.children) {
    if (child) scan(*child, out);
  }
}

/// Compares one level's statistics with the scan; returns how many checks ran.
int compare(const std::vector<OrcColumnStatistics>& stats, const std::vector<Scanned>& scanned,
            const OrcSchema& schema, const std::string& where) {
  int checks = 0;
  for (size_t c = 0; c < stats.size(); ++c) {
    const OrcColumnStatistics& st = stats[c];
    const Scanned& sc = scanned[c];
    const std::string at = where + " column " + std::to_string(c) + " (" +
                           schema.column(static_cast<uint32_t>(c)).toTypeString() + ")";
    if (st.valueCount) {
      EXPECT_EQ(*st.valueCount, sc.values) << at;
    }
    if (st.hasNull) {
      EXPECT_EQ(*st.hasNull, sc.sawNull) << at;
    }
    if (st.intMinimum && sc.intMin) {
      EXPECT_EQ(*st.intMinimum, *sc.intMin) << at;
    }
    if (st.intMaximum && sc.intMax) {
      EXPECT_EQ(*st.intMaximum, *sc.intMax) << at;
    }
    if (st.dateMinimum && sc.intMin) {
      EXPECT_EQ(st.dateMinimum->daysSinceEpoch, *sc.intMin) << at;
    }
    if (st.dateMaximum && sc.intMax) {
      EXPECT_EQ(st.dateMaximum->daysSinceEpoch, *sc.intMax) << at;
    }
    if (st.doubleMinimum && sc.doubleMin) {
      EXPECT_EQ(*st.doubleMinimum, *sc.doubleMin) << at;
    }
    if (st.doubleMaximum && sc.doubleMax) {
      EXPECT_EQ(*st.doubleMaximum, *sc.doubleMax) << at;
    }
    if (st.stringMinimum && sc.stringMin) {
      if (st.stringMinimumIsBound) {
        EXPECT_LE(*st.stringMinimum, *sc.stringMin) << at;
      } else {
        EXPECT_EQ(*st.stringMinimum, *sc.stringMin) << at;
      }
    }
    if (st.stringMaximum && sc.stringMax) {
      if (st.stringMaximumIsBound) {
        EXPECT_GE(*st.stringMaximum, *sc.stringMax) << at;
      } else {
        EXPECT_EQ(*st.stringMaximum, *sc.stringMax) << at;
      }
    }
    ++checks;
  }
  return checks;
}

TEST(OrcStatisticsTest, FileAndStripeStatisticsOfEveryExampleAgreeWithAScan) {
  if (!fs::is_directory(examplesDir())) {
    GTEST_SKIP() << "SKIPPED LOUDLY: ORC examples not found at " << examplesDir();
  }
  int checks = 0;
  for (const auto& entry : fs::directory_iterator(examplesDir())) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".orc" || kUnreadable.count(name) > 0) continue;
    SCOPED_TRACE(name);
    auto reader = OrcFileReader::open(entry.path().string());
    const OrcSchema& schema = reader->schema();
    std::vector<Scanned> whole(schema.columnCount());
    for (size_t s = 0; s < reader->stripeCount(); ++s) {
      std::vector<Scanned> stripe(schema.columnCount());
      scan(*reader->readStripe(s, reader->projectAll()), stripe);
      checks += compare(stripeStatistics(reader->tail(), schema, s), stripe, schema,
                        name + " stripe " + std::to_string(s));
      for (size_t c = 0; c < whole.size(); ++c) whole[c].add(stripe[c]);
    }
    checks += compare(fileStatistics(reader->tail(), schema), whole, schema, name);
  }
  EXPECT_GT(checks, 100);
}

TEST(OrcStatisticsTest, StatisticsWithZeroCountsFromWritersWithoutIndexAreDropped) {
  const fs::path file = examplesDir() / "TestOrcFile.testWithoutIndex.orc";
  if (!fs::exists(file)) GTEST_SKIP() << "SKIPPED LOUDLY: " << file << " not found";
  auto reader = OrcFileReader::open(file.string());
  ASSERT_GT(reader->rowCount(), 0u);
  EXPECT_TRUE(fileStatistics(reader->tail(), reader->schema()).empty());
  EXPECT_TRUE(stripeStatistics(reader->tail(), reader->schema(), 0).empty());
}

TEST(OrcStatisticsTest, RowIndexStatisticsCountTheRowsOfEachRowGroup) {
  const fs::path file = examplesDir() / "TestOrcFile.testPredicatePushdown.orc";
  if (!fs::exists(file)) GTEST_SKIP() << "SKIPPED LOUDLY: " << file << " not found";
  auto reader = OrcFileReader::open(file.string());
  const StripeFooter footer = reader->readStripeFooter(0);
  std::vector<bool> intColumn(reader->schema().columnCount(), false);
  intColumn[1] = true;
  const StripeStreams streams =
      readStripeStreams(reader->file(), reader->tail(), footer, intColumn, true);
  const auto groups = rowIndexStatistics(streams.require(1, proto::Stream::ROW_INDEX, "test"),
                                         reader->schema().column(1), "test");
  const uint64_t stride = reader->tail().footer.rowindexstride();
  ASSERT_GT(stride, 0u);
  ASSERT_EQ(groups.size(), (footer.rowCount + stride - 1) / stride);
  uint64_t total = 0;
  for (const auto& g : groups) {
    total += g.valueCount.value_or(0);
    EXPECT_TRUE(g.intMinimum && g.intMaximum && *g.intMinimum <= *g.intMaximum);
  }
  EXPECT_EQ(total, footer.rowCount);
}

TEST(OrcStatisticsTest, LongStringsKeepTruncatedBoundsFlaggedAsBounds) {
  proto::ColumnStatistics stats;
  stats.set_numberofvalues(2);
  stats.mutable_stringstatistics()->set_lowerbound("abc");
  stats.mutable_stringstatistics()->set_upperbound("abd");
  OrcType type;
  type.kind = TypeKind::kString;
  const auto decoded = decodeColumnStatistics(stats, type);
  EXPECT_EQ(decoded.stringMinimum, "abc");
  EXPECT_TRUE(decoded.stringMinimumIsBound);
  EXPECT_EQ(decoded.stringMaximum, "abd");
  EXPECT_TRUE(decoded.stringMaximumIsBound);
}

TEST(OrcStatisticsTest, TimestampBoundsAddTheStoredSubMillisecondNanos) {
  proto::ColumnStatistics stats;
  auto* ts = stats.mutable_timestampstatistics();
  ts->set_minimumutc(-1500);   // 1969-12-31 23:59:58.500
  ts->set_minimumnanos(1235);  // + 1234 ns
  ts->set_maximumutc(1000);
  OrcType type;
  type.kind = TypeKind::kTimestamp;
  const auto decoded = decodeColumnStatistics(stats, type);
  ASSERT_TRUE(decoded.timestampMinimum && decoded.timestampMaximum);
  EXPECT_EQ(decoded.timestampMinimum->epochSeconds, -2);
  EXPECT_EQ(decoded.timestampMinimum->nanos, 500'001'234);
  EXPECT_EQ(decoded.timestampMaximum->epochSeconds, 1);
  EXPECT_TRUE(decoded.timestampIsUtc);
}

TEST(OrcStatisticsTest, StatisticsOfAnotherKindThanTheColumnAreIgnored) {
  proto::ColumnStatistics stats;
  stats.mutable_stringstatistics()->set_minimum("x");
  OrcType type;
  type.kind = TypeKind::kInt;
  const auto decoded = decodeColumnStatistics(stats, type);
  EXPECT_FALSE(decoded.stringMinimum);
  EXPECT_FALSE(decoded.intMinimum);
}

}  // namespace
}  // namespace quarry::orc
