// OrcFileStatistics: SourceStatistics from an ORC tail, checked against a scan
// of the ORC example files (row counts, null counts, integer / string / date
// bounds), and the bounds ORC cannot prove exact left unknown.
#include "quarry/engine/source/orc_file_statistics.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "quarry/formats/orc/orc_file_reader.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using namespace quarry::orc;
namespace fs = std::filesystem;

fs::path examplesDir() {
  return quarry::testing::testdataDir() / "orc" / "examples";
}

struct Scanned {
  int64_t nulls = 0;
  std::optional<StatisticValue> min, max;
  void add(const StatisticValue& v) {
    if (!min || *compareStatisticValues(v, *min) < 0) min = v;
    if (!max || *compareStatisticValues(v, *max) > 0) max = v;
  }
};

/// Scans the top-level columns (children of the root struct) of one stripe's vector.
void scan(const ColumnVector& root, std::map<uint32_t, Scanned>& out) {
  for (const auto& child : root.children) {
    if (!child) continue;
    const OrcType& type = *child->type;
    Scanned& s = out[type.columnId];
    s.nulls += static_cast<int64_t>(child->size - child->valueCount);
    for (uint64_t i = 0; i < child->valueCount; ++i) {
      switch (type.kind) {
        case TypeKind::kByte:
        case TypeKind::kShort:
        case TypeKind::kInt:
        case TypeKind::kLong:
          s.add(int64_t{child->longs[i]});
          break;
        case TypeKind::kDate:
          s.add(Date{static_cast<int32_t>(child->longs[i])});
          break;
        case TypeKind::kBoolean:
          s.add(child->longs[i] != 0);
          break;
        case TypeKind::kString:
        case TypeKind::kVarchar:
          s.add(child->bytes.substr(child->offsets[i], child->offsets[i + 1] - child->offsets[i]));
          break;
        default:
          break;
      }
    }
  }
}

TEST(OrcFileStatisticsTest, AgreesWithAScanOfTheExampleFiles) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  if (!fs::is_directory(examplesDir())) GTEST_SKIP() << "SKIPPED LOUDLY: no " << examplesDir();
  int knownBounds = 0;
  int knownCounts = 0;
  for (const char* name :
       {"TestOrcFile.test1.orc", "TestOrcFile.testStripeLevelStats.orc", "orc_index_int_string.orc",
        "TestOrcFile.testDate1900.orc", "nulls-at-end-snappy.orc", "orc_split_elim.orc",
        "demo-12-zlib.orc", "TestOrcFile.emptyFile.orc"}) {
    SCOPED_TRACE(name);
    auto reader = OrcFileReader::open((examplesDir() / name).string());
    const SourceStatistics file = OrcFileStatistics::extract(reader->tail(), reader->schema());
    EXPECT_EQ(file.rowCount, static_cast<int64_t>(reader->rowCount()));
    std::map<uint32_t, Scanned> scanned;
    int64_t rows = 0;
    for (size_t s = 0; s < reader->stripeCount(); ++s) {
      auto root = reader->readStripe(s, reader->projectAll());
      rows += static_cast<int64_t>(root->size);
      scan(*root, scanned);
    }
    EXPECT_EQ(file.rowCount, rows);
    // The stripes merged give the same answers as the file's statistics where both know.
    const SourceStatistics stripes =
        OrcFileStatistics::extractStripes(reader->tail(), reader->schema(), 0, SIZE_MAX);
    EXPECT_EQ(stripes.rowCount, rows);
    for (const auto& [id, sc] : scanned) {
      const std::string& path = reader->schema().column(id).path;
      SCOPED_TRACE(path);
      for (const SourceStatistics* s : {&file, &stripes}) {
        const ColumnStatistics* c = s->find(path);
        if (c == nullptr) continue;  // a compound column
        if (c->nullCount) {
          ++knownCounts;
          EXPECT_EQ(*c->nullCount, sc.nulls);
        }
        if (c->min) {
          ++knownBounds;
          ASSERT_TRUE(sc.min);
          EXPECT_EQ(toString(*c->min), toString(*sc.min));
        }
        if (c->max) {
          ASSERT_TRUE(sc.max);
          EXPECT_EQ(toString(*c->max), toString(*sc.max));
        }
      }
    }
  }
  EXPECT_GT(knownCounts, 10);
  EXPECT_GT(knownBounds, 10);
}

TEST(OrcFileStatisticsTest, BoundsOrcCannotProveExactAreUnknown) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  if (!fs::is_directory(examplesDir())) GTEST_SKIP() << "SKIPPED LOUDLY: no " << examplesDir();
  auto reader = OrcFileReader::open((examplesDir() / "TestOrcFile.test1.orc").string());
  const SourceStatistics s = OrcFileStatistics::extract(reader->tail(), reader->schema());
  int checked = 0;
  for (uint32_t id = 1; id < reader->schema().columnCount(); ++id) {
    const OrcType& type = reader->schema().column(id);
    const ColumnStatistics* c = s.find(type.path);
    if (c == nullptr) continue;
    // Float / double: ORC records no NaN count. Binary, timestamp, decimal: no exact value.
    if (type.kind == TypeKind::kFloat || type.kind == TypeKind::kDouble ||
        type.kind == TypeKind::kBinary || type.kind == TypeKind::kTimestamp ||
        type.kind == TypeKind::kDecimal) {
      ++checked;
      EXPECT_FALSE(c->min) << type.path;
      EXPECT_FALSE(c->max) << type.path;
    }
    // Under a list or map, counts are of elements: unknown.
    for (const OrcType* p = type.parent; p != nullptr; p = p->parent) {
      if (p->kind == TypeKind::kList || p->kind == TypeKind::kMap) {
        EXPECT_EQ(*c, ColumnStatistics{}) << type.path;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 3);
}

TEST(OrcFileStatisticsTest, TruncatedStringBoundsAreUnknown) {
  // ORC-203: strings past the writer's limit keep a lowerBound / upperBound, not a value.
  const OrcSchema schema = [] {
    proto::Footer footer;
    auto* root = footer.add_types();
    root->set_kind(proto::Type::STRUCT);
    root->add_subtypes(1);
    root->add_fieldnames("s");
    footer.add_types()->set_kind(proto::Type::STRING);
    return OrcSchema::build(footer, "mem");
  }();
  std::vector<OrcColumnStatistics> columns(2);
  columns[1].valueCount = 3;
  columns[1].hasNull = false;
  columns[1].stringMinimum = "abc";
  columns[1].stringMaximum = "abd";
  columns[1].stringMaximumIsBound = true;
  const SourceStatistics s = OrcFileStatistics::fromColumns(columns, schema, 3);
  EXPECT_EQ(s.columns.at("s"), (ColumnStatistics{0, std::string("abc"), std::nullopt}));
  // A boolean's bounds come from its true count.
}

}  // namespace
}  // namespace quarry::engine
