#include "quarry/formats/parquet/dictionary_pruning.h"

#include <gtest/gtest.h>

#include <limits>

#include "quarry/common/error.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/membership_fixture.h"

// query-controls.txt, "Bloom filter and dictionary pruning": "A Bloom filter and a
// fully dictionary-encoded column chunk's dictionary answer membership, and sharpen
// eq and in on integer, floating-point and binary columns." This file covers the
// dictionary half, and the order of the two.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Pages = FixtureChunk::Pages;

/// Reads a one-group file of x (a dictionary-encoded chunk of `values`) filtered by
/// `f`; expects the rows of a read without pruning and returns the pruned read.
Read dictionaryRead(const SchemaElement& x, std::vector<Raw> values, const FilterPredicate& f,
                    Pages pages = Pages::kDictionary) {
  return expectSameRows(fileOfChunks(x, {withDictionary(chunkOf(std::move(values)), pages)}), f);
}

int64_t dictionaryPruned(const SchemaElement& x, std::vector<Raw> values, const FilterPredicate& f) {
  return dictionaryRead(x, std::move(values), f).metrics.rowGroupsPrunedByDictionary;
}

bool applies(const SchemaElement& column, const FilterPredicate& filter) {
  InMemoryRowGroup t;
  t.column(column, {std::nullopt});
  return dictionaryProbeApplies(BoundPredicate::bind(filter, t.schema()).root());
}

TEST(DictionaryPruningTest, FullyDictionaryEncodedChunkPrunesAbsentLiterals) {
  const SchemaElement x = leafElement("x", PhysicalType::INT32);
  const auto file = fileOfChunks(x, {withDictionary(chunkOf({i32(1), i32(9), i32(1)})),
                                     withDictionary(chunkOf({i32(9), i32(5), i32(5)}))});
  const Read r = expectSameRows(file, P::eq("x", 5));
  EXPECT_EQ(r.ids, (Ids{4, 5}));
  EXPECT_EQ(r.metrics.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(r.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(r.metrics.rowGroupsPrunedByDictionary, 1);
  EXPECT_EQ(r.metrics.rowsDecoded, 3);
  // The pruned group cost its dictionary page only: less than a full read.
  const Read full = readIds(file, P::eq("x", 5), false);
  EXPECT_LT(r.metrics.bytesFetched, full.metrics.bytesFetched);
  const Read none = expectSameRows(file, P::in("x", 2, 3));
  EXPECT_EQ(none.metrics.rowGroupsPrunedByDictionary, 2);
  EXPECT_EQ(none.metrics.rowsDecoded, 0);
  // One request per dictionary page: dictionary_page_offset precedes data_page_offset.
  EXPECT_EQ(none.metrics.requestsFetched, 2u);
  EXPECT_LT(none.metrics.bytesFetched, full.metrics.bytesFetched);
  EXPECT_EQ(expectSameRows(file, P::in("x", 2, 9)).metrics.rowGroupsPrunedByDictionary, 0);
}

TEST(DictionaryPruningTest, ChunkWithPlainPagesAfterTheDictionaryIsNotPruned) {
  // A writer whose dictionary overflowed: the value 7 lives in the PLAIN page only.
  const SchemaElement x = leafElement("x", PhysicalType::INT32);
  const Read r = dictionaryRead(x, {i32(1), i32(2), i32(7), i32(8)}, P::eq("x", 7), Pages::kDictionaryThenPlain);
  EXPECT_EQ(r.ids, Ids{2});
  EXPECT_EQ(r.metrics.rowGroupsPrunedByDictionary, 0);
  FixtureChunk c = withDictionary(chunkOf({i32(1), i32(2)}));
  c.encodingStats = false;  // nothing proves every page dictionary-encoded
  EXPECT_EQ(expectSameRows(fileOfChunks(x, {c}), P::eq("x", 7)).metrics.rowGroupsPrunedByDictionary, 0);
  ColumnMetaData meta;
  EXPECT_FALSE(fullyDictionaryEncoded(meta));
  meta.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                       {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 3},
                                                       {PageType::DATA_PAGE_V2, Encoding::PLAIN_DICTIONARY, 1}};
  EXPECT_TRUE(fullyDictionaryEncoded(meta));
  meta.encoding_stats->push_back({PageType::DATA_PAGE_V2, Encoding::PLAIN, 1});
  EXPECT_FALSE(fullyDictionaryEncoded(meta));
  meta.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1}};
  EXPECT_FALSE(fullyDictionaryEncoded(meta));  // no data page at all
}

// The dictionary column of the spec's table.
TEST(DictionaryPruningTest, ProbesUseTheDictionaryAsTheSpecTableSays) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const SchemaElement f = leafElement("x", PhysicalType::FLOAT);
  const SchemaElement half =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(LogicalType::Kind::FLOAT16));
  const SchemaElement decimalBytes = withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), decimalType(9, 2));
  const SchemaElement int96 = leafElement("x", PhysicalType::INT96);
  EXPECT_TRUE(applies(f, P::eq("x", nan)));                       // `eq(NaN)`: used
  EXPECT_TRUE(applies(f, P::in("x", 1.0f, nan)));                  // `in` holding NaN: used
  EXPECT_TRUE(applies(half, P::eq("x", 1.0f)));                    // float on FLOAT16: used
  EXPECT_FALSE(applies(decimalBytes, P::eq("x", decimal(1, 2))));  // BigDecimal on BYTE_ARRAY: not used
  EXPECT_TRUE(applies(decimalBytes, P::eq("x", Bytes{0x01})));
  EXPECT_FALSE(applies(int96, P::eq("x", Instant{0, 0})));         // Instant on INT96: not used
  EXPECT_TRUE(applies(int96, P::eq("x", Bytes(12, 0))));           // the 12 bytes: used
  EXPECT_FALSE(applies(f, P::notEq("x", 1.0f)));                    // left to statistics
  EXPECT_FALSE(applies(f, P::ltEq("x", 1.0f)));
  EXPECT_FALSE(applies(leafElement("x", PhysicalType::BOOLEAN), P::eq("x", true)));
}

// Each row of the table, read: the dictionary compares with row filtering's keys.
TEST(DictionaryPruningTest, ReadingFollowsTheSpecTableWithRowFilteringKeys) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const SchemaElement f = leafElement("x", PhysicalType::FLOAT);
  // `eq(NaN)`: every NaN encoding equals it, as in filtering.
  EXPECT_EQ(dictionaryPruned(f, {f32(1.0f), f32(2.0f)}, P::eq("x", nan)), 1);
  const Read nanRow = dictionaryRead(f, {f32(1.0f), f32Bits(0x7fc00001)}, P::eq("x", nan));
  EXPECT_EQ(nanRow.ids, Ids{1});
  EXPECT_EQ(nanRow.metrics.rowGroupsPrunedByDictionary, 0);
  EXPECT_EQ(dictionaryPruned(f, {f32(1.0f)}, P::in("x", 2.0f, nan)), 1);
  EXPECT_EQ(dictionaryPruned(f, {f32Bits(0xffc00000)}, P::in("x", 2.0f, nan)), 0);
  // -0.0 sorts below +0.0: different values.
  EXPECT_EQ(dictionaryPruned(f, {f32(-0.0f)}, P::eq("x", 0.0f)), 1);
  EXPECT_EQ(dictionaryPruned(f, {f32(-0.0f)}, P::eq("x", -0.0f)), 0);
  // a `float` on `FLOAT16`: widened, as filtering compares it.
  const SchemaElement half =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(LogicalType::Kind::FLOAT16));
  EXPECT_EQ(dictionaryPruned(half, {bytes({0x00, 0x3C})}, P::eq("x", 2.0f)), 1);
  EXPECT_EQ(dictionaryRead(half, {bytes({0x00, 0x3C})}, P::eq("x", 1.0f)).ids, Ids{0});
  EXPECT_EQ(dictionaryPruned(half, {bytes({0x01, 0x7E})}, P::eq("x", nan)), 0);  // a half NaN
  // a `BigDecimal` on `DECIMAL` over `BYTE_ARRAY`: not used; its stored bytes are.
  const SchemaElement dec = withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), decimalType(9, 2));
  EXPECT_EQ(dictionaryPruned(dec, {bytes({0x01, 0x00})}, P::eq("x", decimal(100, 2))), 0);
  EXPECT_EQ(dictionaryPruned(dec, {bytes({0x01, 0x00})}, P::eq("x", Bytes{0x00, 0x01, 0x00})), 1);
  // a Decimal on FIXED_LEN_BYTE_ARRAY: compared as the number.
  const SchemaElement fixedDec =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), decimalType(4, 2));
  EXPECT_EQ(dictionaryPruned(fixedDec, {bytes({0xFF, 0x9C})}, P::eq("x", decimal(-100, 2))), 0);
  EXPECT_EQ(dictionaryPruned(fixedDec, {bytes({0xFF, 0x9C})}, P::eq("x", decimal(100, 2))), 1);
  // any comparison with an `Instant` on `INT96`: not used.
  const SchemaElement i96 = leafElement("x", PhysicalType::INT96);
  EXPECT_EQ(dictionaryPruned(i96, {int96(0, 2'440'588)}, P::eq("x", Instant{86'400, 0})), 0);
  // the stored 12 bytes: used; another encoding of the same instant is another literal.
  const std::string sameInstant = int96(86'400'000'000'000LL, 2'440'588);
  EXPECT_EQ(dictionaryPruned(i96, {int96(0, 2'440'589)}, P::eq("x", Bytes(sameInstant.begin(), sameInstant.end()))), 1);
  // Unsigned integers: the literal is the bit pattern.
  const SchemaElement u32 = withLogical(leafElement("x", PhysicalType::INT32), intType(32, false));
  EXPECT_EQ(dictionaryRead(u32, {le<uint32_t>(4'000'000'000U)}, P::eq("x", -294967296)).ids, Ids{0});
  EXPECT_EQ(dictionaryPruned(u32, {le<uint32_t>(4'000'000'000U)}, P::eq("x", 5)), 1);
  // Strings and nulls.
  SchemaElement s = leafElement("x", PhysicalType::BYTE_ARRAY);
  s.repetition_type = FieldRepetitionType::OPTIONAL;
  EXPECT_EQ(dictionaryPruned(s, {std::string("ab"), std::nullopt}, P::eq("x", std::string("a"))), 1);
  // A chunk of nulls only has an empty dictionary: no row equals anything.
  EXPECT_EQ(dictionaryPruned(s, {std::nullopt, std::nullopt}, P::eq("x", std::string("a"))), 1);
}

TEST(DictionaryPruningTest, BloomFilterIsAskedFirstAndTheDictionaryOnlyWhenItKeepsTheGroup) {
  const SchemaElement x = leafElement("x", PhysicalType::INT32);
  const FixtureChunk both = withBloom(withDictionary(chunkOf({i32(1), i32(9)})));
  const auto file = fileOfChunks(x, {both});
  const Read byBloom = expectSameRows(file, P::eq("x", 5));
  EXPECT_EQ(byBloom.metrics.rowGroupsPrunedByBloomFilter, 1);
  EXPECT_EQ(byBloom.metrics.rowGroupsPrunedByDictionary, 0);
  EXPECT_EQ(byBloom.metrics.requestsFetched, 1u);  // the filter; no dictionary page
  // A filter that keeps the group (here one that also holds 5, as a false
  // positive would) leaves it to the dictionary.
  FixtureChunk falsePositive = both;
  falsePositive.bloom->push_back(i32(5));
  const Read byDictionary = expectSameRows(fileOfChunks(x, {falsePositive}), P::eq("x", 5));
  EXPECT_EQ(byDictionary.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(byDictionary.metrics.rowGroupsPrunedByDictionary, 1);
  EXPECT_EQ(byDictionary.metrics.requestsFetched, 2u);  // the filter, then the dictionary page
  // Bloom on one leaf and the dictionary on another combine: in(x, 5) or eq(x, 7)
  // with a filter answering "maybe 5" and a dictionary without 7 or 5.
  const Read combined = expectSameRows(fileOfChunks(x, {falsePositive}), P::or_(P::eq("x", 5), P::eq("x", 7)));
  EXPECT_EQ(combined.metrics.rowGroupsPrunedByDictionary, 1);
}

TEST(DictionaryPruningTest, DictionaryPagesAreReadOnlyWhereTheyCanPrune) {
  const SchemaElement x = leafElement("x", PhysicalType::INT32);
  FixtureChunk c = withDictionary(chunkOf({i32(1), i32(9)}));
  c.statistics = boundsOf(i32(1), i32(9), 0);
  const auto file = fileOfChunks(x, {c});
  // Statistics prune: nothing read at all.
  const Read stats = expectSameRows(file, P::eq("x", 50));
  EXPECT_EQ(stats.metrics.rowGroupsPrunedByStatistics, 1);
  EXPECT_EQ(stats.metrics.bytesFetched, 0u);
  // or with a leaf the dictionary cannot decide: the page is not worth reading.
  const Read orGt = expectSameRows(file, P::or_(P::eq("x", 5), P::gt("id", 0)));
  EXPECT_EQ(orGt.metrics.rowGroupsPrunedByDictionary, 0);
  EXPECT_EQ(orGt.metrics.requestsFetched,
            readIds(file, P::or_(P::eq("x", 5), P::gt("id", 0)), false).metrics.requestsFetched);
  // not(eq) of an absent value: every non-null row matches; no page is read for it.
  EXPECT_EQ(expectSameRows(file, P::not_(P::eq("x", 5))).metrics.requestsFetched,
            readIds(file, P::not_(P::eq("x", 5)), false).metrics.requestsFetched);
}

TEST(DictionaryPruningTest, CorruptDictionaryPageIsCorruptFileNamingTheColumn) {
  const SchemaElement x = leafElement("x", PhysicalType::INT32);
  auto file = fileOfChunks(x, {withDictionary(chunkOf({i32(1), i32(9)}))});
  auto reader = openBytes(file, true);
  const ColumnMetaData meta = *reader->metadata().row_groups[0].columns[1].meta_data;
  const auto dictionary = readChunkDictionary(reader->storage(), 0, meta, *reader->schema().find("x"), true);
  ASSERT_TRUE(dictionary.has_value());
  EXPECT_EQ(dictionary->count, 2u);
  EXPECT_FALSE(dictionaryExcludes(BoundPredicate::bind(P::eq("x", 9), reader->schema()).root(), *dictionary));
  // Overwrite the dictionary page header's first byte: no longer a page header.
  file[static_cast<size_t>(*meta.dictionary_page_offset)] = 0xFF;
  try {
    readIds(file, P::eq("x", 5), true);
    ADD_FAILURE() << "no error";
  } catch (const CorruptFile& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("fixture.parquet: row group 0, column 'x', dictionary page at offset"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace quarry::parquet
