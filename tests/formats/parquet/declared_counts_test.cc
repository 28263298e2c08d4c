#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/memory_budget.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/schema.h"
#include "tests/formats/parquet/thrift_compact_writer.h"

// Counts a page declares are checked against what the chunk and the bytes
// allow before anything is allocated for them, and what a valid page may still
// ask for is charged against the query's memory limit first
// (common/memory_budget.h): a page of a few bytes that declares 2^31 - 1 values
// is an error within milliseconds, never gigabytes.
namespace quarry::parquet {
namespace {

using quarry::testing::CompactWriter;

constexpr int32_t kBig = 0x7fffffff;

SchemaElement element(std::string name, std::optional<PhysicalType> type,
                      FieldRepetitionType repetition, std::optional<int32_t> children = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  e.num_children = children;
  return e;
}

std::vector<uint8_t> varint(uint64_t v) {
  std::vector<uint8_t> out;
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<uint8_t>(v) | 0x80);
  out.push_back(static_cast<uint8_t>(v));
  return out;
}

/// One RLE run of the hybrid encoding with a 4-byte length prefix (v1 levels).
std::vector<uint8_t> prefixedRun(uint32_t count, uint8_t value) {
  std::vector<uint8_t> run = varint(uint64_t{count} << 1);
  run.push_back(value);
  std::vector<uint8_t> out = {static_cast<uint8_t>(run.size()), 0, 0, 0};
  out.insert(out.end(), run.begin(), run.end());
  return out;
}

/// A DATA_PAGE (v1) declaring `numValues` values, PLAIN, with body `body`.
std::vector<uint8_t> dataPage(int32_t numValues, const std::vector<uint8_t>& body) {
  CompactWriter w;
  w.structBody([&] {
    w.i32(1, 0);  // DATA_PAGE
    w.i32(2, static_cast<int64_t>(body.size()));
    w.i32(3, static_cast<int64_t>(body.size()));
    w.structField(5, [&] {
      w.i32(1, numValues);
      w.i32(2, 0);  // PLAIN
      w.i32(3, 3);  // RLE
      w.i32(4, 3);
    });
  });
  w.bytes.insert(w.bytes.end(), body.begin(), body.end());
  return w.bytes;
}

ColumnMetaData metaFor(PhysicalType type, int64_t numValues, size_t chunkBytes) {
  ColumnMetaData meta;
  meta.type = type;
  meta.num_values = numValues;
  meta.total_compressed_size = static_cast<int64_t>(chunkBytes);
  meta.total_uncompressed_size = static_cast<int64_t>(chunkBytes);
  meta.data_page_offset = 4;
  return meta;
}

/// Sets the process's memory limit for one test and restores it after.
class DeclaredCountsTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = memoryLimit(); }
  void TearDown() override { setMemoryLimit(saved_); }
  uint64_t saved_ = 0;
};

// Issue 26: "a valid file of 2^31-1 nulls is answered without materializing
// them". One RLE run of definition level 0 in a top-level column: the chunk is
// recorded as nulls only (ColumnChunkData::allNull), its levels never expanded, so
// it decodes at once under a 64 MB limit and charges nothing.
TEST_F(DeclaredCountsTest, PageOfBillionsOfNullsInATopLevelColumnIsNotExpanded) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("x", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  const std::vector<uint8_t> page = dataPage(kBig, prefixedRun(kBig, 0));
  setMemoryLimit(uint64_t{64} << 20);
  const uint64_t chargedBefore = memoryCharged();
  const auto start = std::chrono::steady_clock::now();
  const ColumnChunkData chunk =
      decodeColumnChunk(page, 4, metaFor(PhysicalType::INT32, kBig, page.size()), *schema.leaves()[0],
                        {}, "f.parquet: row group 0, column 'x'");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  EXPECT_TRUE(chunk.allNull);
  EXPECT_EQ(chunk.levelCount, kBig);
  EXPECT_EQ(chunk.valueCount, 0);
  EXPECT_TRUE(chunk.definitionLevels.empty());
  EXPECT_FALSE(chunk.hasValue(0));
  EXPECT_FALSE(chunk.hasValue(kBig - 1));
  EXPECT_EQ(memoryCharged(), chargedBefore);
}

// The same run one level down (a field of a required group) is not a top-level
// column: its levels are expanded for record assembly, and under a 64 MB limit
// that is a clear error naming the limit, the column and the flag, raised
// before the levels are allocated.
TEST_F(DeclaredCountsTest, PageOfBillionsOfNestedNullsMeetsTheMemoryLimitBeforeAllocating) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("s", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("x", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  const std::vector<uint8_t> page = dataPage(kBig, prefixedRun(kBig, 0));
  setMemoryLimit(uint64_t{64} << 20);
  const uint64_t chargedBefore = memoryCharged();
  const auto start = std::chrono::steady_clock::now();
  try {
    decodeColumnChunk(page, 4, metaFor(PhysicalType::INT32, kBig, page.size()), *schema.leaves()[0], {},
                      "f.parquet: row group 0, column 's.x'");
    FAIL() << "decoded 2^31 - 1 levels under a 64 MB limit";
  } catch (const MemoryLimitExceeded& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("f.parquet: row group 0, column 's.x'"), std::string::npos) << message;
    EXPECT_NE(message.find("memory limit of 64 MB"), std::string::npos) << message;
    EXPECT_NE(message.find("--memory-limit"), std::string::npos) << message;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  EXPECT_EQ(memoryCharged(), chargedBefore);  // nothing stays charged after the error
}

/// A v1 page of `values` (nullopt: null) of an optional INT32 column, its
/// definition levels one run each (a run per change of nullness), PLAIN values.
std::vector<uint8_t> optionalInt32Page(const std::vector<std::optional<int32_t>>& values) {
  std::vector<uint8_t> runs;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j].has_value() == values[i].has_value()) ++j;
    const std::vector<uint8_t> run = varint(uint64_t{j - i} << 1);
    runs.insert(runs.end(), run.begin(), run.end());
    runs.push_back(values[i].has_value() ? 1 : 0);
    i = j;
  }
  std::vector<uint8_t> body = {static_cast<uint8_t>(runs.size()), 0, 0, 0};
  body.insert(body.end(), runs.begin(), runs.end());
  for (const auto& v : values) {
    if (!v) continue;
    const auto u = static_cast<uint32_t>(*v);
    for (int b = 0; b < 4; ++b) body.push_back(static_cast<uint8_t>(u >> (8 * b)));
  }
  return dataPage(static_cast<int32_t>(values.size()), body);
}

// Pages of nulls only before, between and after pages with values: the chunk
// keeps its levels from the first page with a value on, and every row reads as
// it was written (the slots record assembly builds included).
TEST_F(DeclaredCountsTest, PagesOfNullsOnlyMixWithPagesOfValues) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("x", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  using Rows = std::vector<std::optional<int32_t>>;
  const std::vector<std::vector<Rows>> cases = {
      {{std::nullopt, std::nullopt}, {1, 2}, {std::nullopt}},
      {{1, 2}, {std::nullopt, std::nullopt}},
      {{std::nullopt}, {std::nullopt, std::nullopt}, {std::nullopt, 5}},
      {{std::nullopt}, {std::nullopt, std::nullopt}},
  };
  for (const auto& pages : cases) {
    std::vector<uint8_t> chunk;
    Rows expected;
    for (const Rows& rows : pages) {
      const std::vector<uint8_t> page = optionalInt32Page(rows);
      chunk.insert(chunk.end(), page.begin(), page.end());
      expected.insert(expected.end(), rows.begin(), rows.end());
    }
    const auto n = static_cast<int64_t>(expected.size());
    ColumnChunkData data = decodeColumnChunk(chunk, 4, metaFor(PhysicalType::INT32, n, chunk.size()),
                                             *schema.leaves()[0], {}, "f.parquet");
    const bool allNull = std::none_of(expected.begin(), expected.end(), [](auto& v) { return v.has_value(); });
    EXPECT_EQ(data.allNull, allNull);
    ASSERT_EQ(data.levelCount, n);
    std::vector<ColumnChunkData> columns;
    columns.push_back(std::move(data));
    const AssembledRowGroup group = AssembledRowGroup::assemble(std::move(columns), n);
    const ColumnChunkData& decoded = *group.column(schema.leaves()[0]);
    const auto validity = group.validity(schema.leaves()[0]);
    const auto index = group.valueIndex(schema.leaves()[0]);
    const auto values = decoded.values<int32_t>();
    for (int64_t r = 0; r < n; ++r) {
      const auto& want = expected[static_cast<size_t>(r)];
      SCOPED_TRACE("case of " + std::to_string(pages.size()) + " pages, row " + std::to_string(r));
      EXPECT_EQ(decoded.hasValue(r), want.has_value());
      EXPECT_EQ(validity[static_cast<size_t>(r)], want.has_value() ? 1 : 0);
      if (want) {
        ASSERT_GE(index[static_cast<size_t>(r)], 0);
        EXPECT_EQ(values[static_cast<size_t>(index[static_cast<size_t>(r)])], *want);
      } else {
        EXPECT_EQ(index[static_cast<size_t>(r)], -1);
      }
    }
  }
}

// The same page in a chunk of 10 values: the page's count is refused against
// the chunk's before its levels are decoded.
TEST_F(DeclaredCountsTest, PageCountAboveTheChunksIsCorruptFile) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("x", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  const std::vector<uint8_t> page = dataPage(kBig, prefixedRun(kBig, 0));
  try {
    decodeColumnChunk(page, 4, metaFor(PhysicalType::INT32, 10, page.size()), *schema.leaves()[0], {},
                      "f.parquet: row group 0, column 'x'");
    FAIL() << "no CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("declares 2147483647 values, but only 10"), std::string::npos)
        << e.what();
  }
}

// PLAIN values take at least a bit (BOOLEAN), four bytes (a BYTE_ARRAY's length)
// or their width: a count the values section cannot hold is CorruptFile naming
// both, before room is made for the values.
TEST_F(DeclaredCountsTest, PlainCountBeyondThePageBytesIsCorruptFile) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("b", PhysicalType::BOOLEAN, FieldRepetitionType::REQUIRED)});
  const std::vector<uint8_t> page = dataPage(kBig, {0xff, 0xff, 0xff, 0xff});
  setMemoryLimit(uint64_t{1} << 40);  // the check, not the budget, must refuse it
  try {
    decodeColumnChunk(page, 4, metaFor(PhysicalType::BOOLEAN, kBig, page.size()), *schema.leaves()[0], {},
                      "f.parquet: row group 0, column 'b'");
    FAIL() << "no CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("declares 2147483647 values, its 4 bytes hold at most 32"),
              std::string::npos)
        << e.what();
  }
}

// A list of 2^30 elements in one row (repetition levels 0, then 1 ...): the
// levels are charged before they are expanded.
TEST_F(DeclaredCountsTest, ListOfBillionsOfElementsMeetsTheMemoryLimit) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("l", std::nullopt, FieldRepetitionType::OPTIONAL, 1),
       element("list", std::nullopt, FieldRepetitionType::REPEATED, 1),
       element("element", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  const uint32_t n = uint32_t{1} << 30;
  std::vector<uint8_t> rep = varint(2);  // one 0
  rep.push_back(0);
  const auto rest = varint(uint64_t{n - 1} << 1);
  rep.insert(rep.end(), rest.begin(), rest.end());
  rep.push_back(1);
  std::vector<uint8_t> body = {static_cast<uint8_t>(rep.size()), 0, 0, 0};
  body.insert(body.end(), rep.begin(), rep.end());
  const auto def = prefixedRun(n, 2);
  body.insert(body.end(), def.begin(), def.end());
  const std::vector<uint8_t> page = dataPage(static_cast<int32_t>(n), body);
  setMemoryLimit(uint64_t{64} << 20);
  EXPECT_THROW(decodeColumnChunk(page, 4, metaFor(PhysicalType::INT32, n, page.size()), *schema.leaves()[0],
                                 {}, "f.parquet: row group 0, column 'l.list.element'"),
               MemoryLimitExceeded);
}

// Record assembly charges the slots it derives from the levels: a chunk within
// the limit whose assembled slots are not is refused before they are built.
TEST_F(DeclaredCountsTest, AssemblyChargesItsSlots) {
  const FileSchema schema = FileSchema::build(
      {element("schema", std::nullopt, FieldRepetitionType::REQUIRED, 1),
       element("l", std::nullopt, FieldRepetitionType::OPTIONAL, 1),
       element("list", std::nullopt, FieldRepetitionType::REPEATED, 1),
       element("element", PhysicalType::INT32, FieldRepetitionType::OPTIONAL)});
  const SchemaNode& leaf = *schema.leaves()[0];
  ColumnChunkData chunk;
  chunk.leaf = &leaf;
  const size_t n = size_t{1} << 20;
  chunk.levelCount = static_cast<int64_t>(n);
  chunk.repetitionLevels.assign(n, 1);
  chunk.repetitionLevels[0] = 0;
  chunk.definitionLevels.assign(n, 2);
  setMemoryLimit(uint64_t{8} << 20);  // the levels: 4 MB; the slots: 27 bytes an entry
  std::vector<ColumnChunkData> columns;
  columns.push_back(std::move(chunk));
  EXPECT_THROW(AssembledRowGroup::assemble(std::move(columns), 1), MemoryLimitExceeded);
  setMemoryLimit(uint64_t{1} << 30);
  std::vector<ColumnChunkData> again(1);
  again[0].leaf = &leaf;
  again[0].levelCount = static_cast<int64_t>(n);
  again[0].repetitionLevels.assign(n, 1);
  again[0].repetitionLevels[0] = 0;
  again[0].definitionLevels.assign(n, 2);
  const auto group = AssembledRowGroup::assemble(std::move(again), 1);
  EXPECT_EQ(group.slots(&leaf)->slotCount(), static_cast<int64_t>(n));
}

}  // namespace
}  // namespace quarry::parquet
