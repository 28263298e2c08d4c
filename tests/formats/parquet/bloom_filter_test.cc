#include "quarry/formats/parquet/bloom_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/io/storage.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/membership_fixture.h"
#include "tests/support/build_paths.h"

// query-controls.txt, "Bloom filter and dictionary pruning": "A Bloom filter and a
// fully dictionary-encoded column chunk's dictionary answer membership, and sharpen
// eq and in on integer, floating-point and binary columns. lt, ltEq, gt, gtEq and
// notEq are left to statistics alone." This file covers the Bloom filter half.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

/// The probe values of `filter` bound to a one-column schema of `column`.
std::optional<std::vector<std::string>> probesOf(const SchemaElement& column, const FilterPredicate& filter) {
  InMemoryRowGroup t;
  t.column(column, {std::nullopt});
  const BoundPredicate bound = BoundPredicate::bind(filter, t.schema());
  return bloomProbeValues(bound.root());
}

// Expected hashes: ClickHouse's xxHash64 (XXH64, seed 0) of the same bytes, computed
// with the chDB pinned in tools/oracle:
//   SELECT xxHash64(unhex('05000000')), xxHash64(unhex('FBFFFFFF')), ...
// (xxHash64('') = 0xEF46DB3751D8E999 is also XXH64's published empty-input value.)
TEST(BloomFilterTest, HashesThePlainEncodingOfEachPhysicalType) {
  struct Case {
    SchemaElement column;
    FilterPredicate filter;
    std::string plainHex;
    uint64_t hash;
  };
  SchemaElement fixed16 = leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 16);
  Bytes sixteen;
  for (uint8_t i = 0; i < 16; ++i) sixteen.push_back(i);
  const std::vector<Case> cases = {
      {leafElement("x", PhysicalType::INT32), P::eq("x", 5), "05000000", 14111056568482183481ULL},
      {leafElement("x", PhysicalType::INT32), P::eq("x", -5), "FBFFFFFF", 601805646421926129ULL},
      {withLogical(leafElement("x", PhysicalType::INT32), logical(LogicalType::Kind::DATE)),
       P::eq("x", Date{5}), "05000000", 14111056568482183481ULL},
      {withLogical(leafElement("x", PhysicalType::INT32), decimalType(9, 2)),
       P::eq("x", decimal(5, 2)), "05000000", 14111056568482183481ULL},
      {leafElement("x", PhysicalType::INT64), P::eq("x", int64_t{5}), "0500000000000000",
       9925382920258869565ULL},
      {leafElement("x", PhysicalType::FLOAT), P::eq("x", 1.5f), "0000C03F", 5705359623260224013ULL},
      {leafElement("x", PhysicalType::DOUBLE), P::eq("x", 1.5), "000000000000F83F",
       5329932555030153977ULL},
      {leafElement("x", PhysicalType::BYTE_ARRAY), P::eq("x", std::string("hello")), "68656C6C6F",
       2794345569481354659ULL},
      {leafElement("x", PhysicalType::BYTE_ARRAY), P::eq("x", std::string()), "",
       17241709254077376921ULL},
      {fixed16, P::eq("x", sixteen), "000102030405060708090A0B0C0D0E0F", 4951407828574235127ULL},
      {leafElement("x", PhysicalType::INT96), P::eq("x", Bytes{0x00, 0xE1, 0xF5, 0x05, 0, 0, 0, 0, 0x88, 0x84, 0x25, 0x00}),
       "00E1F5050000000088842500", 4116290563313900556ULL},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.filter.toString());
    const auto probes = probesOf(c.column, c.filter);
    ASSERT_TRUE(probes.has_value());
    ASSERT_EQ(probes->size(), 1u);
    EXPECT_EQ(hex(probes->front()), c.plainHex);
    EXPECT_EQ(bloomHash(probes->front()), c.hash);
  }
}

TEST(BloomFilterTest, EncodesUnsignedSignExtendedAndNegativeZeroLiteralsAsStored) {
  // 4_000_000_000 in a UINT_32 column is the int -294_967_296 (its bit pattern).
  EXPECT_EQ(hex(probesOf(withLogical(leafElement("x", PhysicalType::INT32), intType(32, false)),
                         P::eq("x", -294967296))->front()),
            "00286BEE");
  // A Decimal on FIXED_LEN_BYTE_ARRAY(4): the one encoding of -1.00 at scale 2.
  EXPECT_EQ(hex(probesOf(withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 4), decimalType(9, 2)),
                         P::eq("x", decimal(-100, 2)))->front()),
            "FFFFFF9C");
  EXPECT_EQ(hex(probesOf(leafElement("x", PhysicalType::FLOAT), P::eq("x", -0.0f))->front()), "00000080");
  EXPECT_EQ(hex(probesOf(leafElement("x", PhysicalType::DOUBLE), P::eq("x", -2.0))->front()),
            "00000000000000C0");
  const auto in = probesOf(leafElement("x", PhysicalType::INT64), P::in("x", int64_t{1}, int64_t{2}));
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->size(), 2u);
}

// "Some equality probes skip one or both": the Bloom filter column of the table.
TEST(BloomFilterTest, ProbesSkipTheFilterAsTheSpecTableSays) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const SchemaElement f = leafElement("x", PhysicalType::FLOAT);
  const SchemaElement half =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(LogicalType::Kind::FLOAT16));
  const SchemaElement decimalBytes = withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), decimalType(9, 2));
  const SchemaElement int96 = leafElement("x", PhysicalType::INT96);
  // `eq(NaN)`, or an `in` list holding `NaN`: not used.
  EXPECT_FALSE(probesOf(f, P::eq("x", nan)));
  EXPECT_FALSE(probesOf(f, P::in("x", 1.0f, nan)));
  EXPECT_FALSE(probesOf(leafElement("x", PhysicalType::DOUBLE), P::eq("x", std::nan(""))));
  // a `float` literal on a `FLOAT16` column: not used (its byte[] is).
  EXPECT_FALSE(probesOf(half, P::eq("x", 1.0f)));
  EXPECT_TRUE(probesOf(half, P::eq("x", Bytes{0x00, 0x3C})));
  // a `BigDecimal` on a `DECIMAL` over `BYTE_ARRAY`: not used (its byte[] is).
  EXPECT_FALSE(probesOf(decimalBytes, P::eq("x", decimal(100, 2))));
  EXPECT_TRUE(probesOf(decimalBytes, P::eq("x", Bytes{0x64})));
  // any comparison with an `Instant` on an `INT96` column: not used.
  EXPECT_FALSE(probesOf(int96, P::eq("x", Instant{0, 0})));
  // `eq` or `in` with the stored 12 bytes on an `INT96` column: used.
  EXPECT_TRUE(probesOf(int96, P::in("x", Bytes(12, 0), Bytes(12, 1))));
  // lt, ltEq, gt, gtEq and notEq are left to statistics alone; BOOLEAN is no integer.
  const SchemaElement i = leafElement("x", PhysicalType::INT32);
  EXPECT_FALSE(probesOf(i, P::notEq("x", 1)));
  EXPECT_FALSE(probesOf(i, P::lt("x", 1)));
  EXPECT_FALSE(probesOf(i, P::gtEq("x", 1)));
  EXPECT_FALSE(probesOf(leafElement("x", PhysicalType::BOOLEAN), P::eq("x", true)));
}

TEST(BloomFilterTest, FilterHoldsWhatTheTestWriterInserted) {
  // The fixture writer sets bits with its own code; BloomFilter must find them.
  std::vector<uint8_t> bitset(1024);
  for (int v = 0; v < 50; ++v) sbbfInsert(bitset, le<int32_t>(v));
  BloomFilter filter(bitset);
  int falsePositives = 0;
  for (int v = 0; v < 50; ++v) EXPECT_TRUE(filter.mightContain(bloomHash(le<int32_t>(v))));
  for (int v = 1000; v < 2000; ++v) falsePositives += filter.mightContain(bloomHash(le<int32_t>(v)));
  EXPECT_LT(falsePositives, 50);  // 50 values in 32 blocks: a few percent
  BloomFilter mine(std::vector<uint8_t>(1024));
  for (int v = 0; v < 50; ++v) mine.insert(bloomHash(le<int32_t>(v)));
  EXPECT_EQ(mine.bitset(), bitset);
  EXPECT_THROW(BloomFilter(std::vector<uint8_t>(33)), InvalidArgument);
}

/// Reads the Bloom filter of x's chunk in row group 0 of `file`.
std::optional<BloomFilter> filterOf(const std::vector<uint8_t>& file) {
  auto reader = openBytes(file, true);
  const auto& meta = *reader->metadata().row_groups[0].columns[1].meta_data;
  return readBloomFilter(reader->storage(), 0, meta, *reader->schema().find("x"));
}

TEST(BloomFilterTest, ReadsTheFilterWithOneRequestWhenTheLengthIsRecorded) {
  FixtureChunk chunk = withBloom(chunkOf({i32(3), i32(7)}));
  chunk.bloomBytes = 256;
  for (bool length : {true, false}) {
    chunk.bloomLength = length;
    const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32), {chunk});
    auto reader = openBytes(file, true);
    const auto& meta = *reader->metadata().row_groups[0].columns[1].meta_data;
    EXPECT_EQ(meta.bloom_filter_length.has_value(), length);
    const uint64_t requests = reader->storage().requestCount();
    const auto filter = readBloomFilter(reader->storage(), 0, meta, *reader->schema().find("x"));
    ASSERT_TRUE(filter.has_value());
    // Without a length: the header (a 64-byte guess), then the rest of the bitset.
    EXPECT_EQ(reader->storage().requestCount() - requests, length ? 1u : 2u);
    EXPECT_EQ(filter->bitset().size(), 256u);
    EXPECT_TRUE(filter->mightContain(bloomHash(i32(3))));
    EXPECT_TRUE(filter->mightContain(bloomHash(i32(7))));
  }
}

TEST(BloomFilterTest, AProbeReadsTheHeaderAndTheBlocksOfItsValuesOnly) {
  // A 64 KiB filter of 2,048 blocks: a lookup reads its header and one block.
  FixtureChunk chunk = withBloom(chunkOf({i32(3), i32(7)}));
  chunk.bloomBytes = 64 * 1024;
  const auto probe = [&](const FixtureChunk& c, std::vector<int32_t> values, uint64_t& bytes,
                         uint64_t& requests) {
    const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32), {c});
    auto reader = openBytes(file, true);
    const auto& meta = *reader->metadata().row_groups[0].columns[1].meta_data;
    std::vector<uint64_t> hashes;
    for (const int32_t v : values) hashes.push_back(bloomHash(i32(v)));
    const uint64_t b = reader->storage().bytesRead();
    const uint64_t r = reader->storage().requestCount();
    const auto present = bloomFilterMayContain(reader->storage(), 0, meta, *reader->schema().find("x"), hashes);
    bytes = reader->storage().bytesRead() - b;
    requests = reader->storage().requestCount() - r;
    return present;
  };
  uint64_t bytes = 0;
  uint64_t requests = 0;
  for (bool length : {true, false}) {
    SCOPED_TRACE(length ? "length recorded" : "no length");
    chunk.bloomLength = length;
    EXPECT_EQ(probe(chunk, {3}, bytes, requests), std::optional<bool>(true));
    EXPECT_EQ(probe(chunk, {7, 3}, bytes, requests), std::optional<bool>(true));
    EXPECT_EQ(probe(chunk, {5}, bytes, requests), std::optional<bool>(false));
    // With the length, the header is its remainder modulo 32 and goes in the
    // same batch as the block; without, a 64-byte guess at the header comes first.
    EXPECT_EQ(requests, 2u);
    if (length) EXPECT_LT(bytes, 64u);
    else EXPECT_EQ(bytes, 64u + 32u);
    EXPECT_EQ(probe(chunk, {5, 6, 8, 9}, bytes, requests), std::optional<bool>(false));
    EXPECT_LE(bytes, 64u + 4 * 32u);
  }
  // A recorded length the header does not bear out (one byte or one block
  // longer than the filter): the whole filter is read, with the same answers.
  chunk.bloomLength = true;
  for (const int32_t extra : {1, 32}) {
    SCOPED_TRACE(extra);
    FixtureChunk longer = chunk;
    const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32), {chunk});
    auto reader = openBytes(file, true);
    longer.bloomLengthOverride = *reader->metadata().row_groups[0].columns[1].meta_data->bloom_filter_length + extra;
    EXPECT_EQ(probe(longer, {3}, bytes, requests), std::optional<bool>(true));
    EXPECT_EQ(probe(longer, {5}, bytes, requests), std::optional<bool>(false));
    EXPECT_GT(bytes, 64u * 1024);
  }
  // A filter hardly larger than the blocks a lookup needs is read whole.
  FixtureChunk small = withBloom(chunkOf({i32(3), i32(7)}));
  small.bloomBytes = 64;
  EXPECT_EQ(probe(small, {5}, bytes, requests), std::optional<bool>(false));
  EXPECT_EQ(requests, 1u);
  EXPECT_GE(bytes, 64u);
}

TEST(BloomFilterTest, CorruptHeaderOrLengthIsCorruptFileNamingTheColumn) {
  const auto expectCorrupt = [](FixtureChunk chunk, const std::string& what) {
    SCOPED_TRACE(what);
    const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32), {chunk});
    try {
      filterOf(file);
      ADD_FAILURE() << "no error";
    } catch (const CorruptFile& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("fixture.parquet"), std::string::npos) << m;
      EXPECT_NE(m.find("row group 0"), std::string::npos) << m;
      EXPECT_NE(m.find("column 'x'"), std::string::npos) << m;
      EXPECT_NE(m.find(what), std::string::npos) << m;
    }
    // A reader with the filter fails the same way, naming the column.
    EXPECT_THROW(readIds(file, P::eq("x", 5), true), CorruptFile);
  };
  FixtureChunk c = withBloom(chunkOf({i32(3)}));
  c.bloomNumBytesOverride = 33;  // not a multiple of 32
  expectCorrupt(c, "numBytes is 33");
  c.bloomNumBytesOverride = 1 << 20;  // past the recorded length
  expectCorrupt(c, "numBytes is 1048576");
  c.bloomLength = false;  // past the end of the file
  expectCorrupt(c, "numBytes is 1048576");
  c = withBloom(chunkOf({i32(3)}));
  c.bloomLengthOverride = 1 << 20;
  expectCorrupt(c, "bloom_filter_length runs past the end of the file");
  c.bloomLengthOverride = 3;  // cuts the header short
  expectCorrupt(c, "header at offset");
}

// --- Reading with Bloom filters ---

TEST(BloomFilterTest, PointLookupSkipsRowGroupsTheFilterExcludes) {
  // Every group spans the same range, so statistics prune nothing.
  const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32),
                                 {withBloom(chunkOf({i32(1), i32(9), i32(4)})),
                                  withBloom(chunkOf({i32(9), i32(5), i32(1)})),
                                  withBloom(chunkOf({i32(1), i32(6), i32(9)}))});
  const Read pruned = expectSameRows(file, P::eq("x", 5));
  EXPECT_EQ(pruned.ids, Ids{4});
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByBloomFilter, 2);
  EXPECT_EQ(pruned.metrics.rowsDecoded, 3);
  EXPECT_EQ(pruned.metrics.pagesSkipped, 4);
  const Read none = expectSameRows(file, P::in("x", 2, 3, 7));
  EXPECT_EQ(none.metrics.rowGroupsPrunedByBloomFilter, 3);
  EXPECT_EQ(none.metrics.rowsDecoded, 0);
  // Only the three filters were read: each is its header and 64 bytes.
  EXPECT_EQ(none.metrics.requestsFetched, 3u);
  EXPECT_LT(none.metrics.bytesFetched, 3u * 100);
  const Read all = expectSameRows(file, P::in("x", 1, 2));
  EXPECT_EQ(all.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(all.ids, (Ids{0, 5, 6}));
}

TEST(BloomFilterTest, StatisticsPruneFirstAndNoFilterIsReadThen) {
  FixtureChunk a = withBloom(chunkOf({i32(1), i32(2)}));
  a.statistics = boundsOf(i32(1), i32(2), 0);
  FixtureChunk b = withBloom(chunkOf({i32(8), i32(20)}));
  b.statistics = boundsOf(i32(8), i32(20), 0);
  const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32), {a, b});
  const Read none = expectSameRows(file, P::eq("x", 5));
  EXPECT_EQ(none.metrics.rowGroupsPrunedByStatistics, 2);
  EXPECT_EQ(none.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(none.metrics.bytesFetched, 0u);
  const Read one = expectSameRows(file, P::eq("x", 12));
  EXPECT_EQ(one.metrics.rowGroupsPrunedByStatistics, 1);
  EXPECT_EQ(one.metrics.rowGroupsPrunedByBloomFilter, 1);
}

TEST(BloomFilterTest, ExcludedLeavesCombineUnderAndOrNot) {
  const auto file = fileOfChunks(leafElement("x", PhysicalType::INT32),
                                 {withBloom(chunkOf({i32(1), i32(9)})), withBloom(chunkOf({i32(9), i32(1)}))});
  // and: one excluded leaf makes the group false.
  EXPECT_EQ(expectSameRows(file, P::and_(P::eq("x", 5), P::gtEq("id", 0))).metrics.rowGroupsPrunedByBloomFilter, 2);
  // or: every branch must be excluded; id's statistics keep group 0 for eq(id, 0).
  EXPECT_EQ(expectSameRows(file, P::or_(P::eq("x", 5), P::eq("x", 6))).metrics.rowGroupsPrunedByBloomFilter, 2);
  const Read mixed = expectSameRows(file, P::or_(P::eq("x", 5), P::eq("id", 0)));
  EXPECT_EQ(mixed.ids, Ids{0});
  EXPECT_EQ(mixed.metrics.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(mixed.metrics.rowGroupsPrunedByBloomFilter, 1);
  // not: an absent value makes not(eq) true for every non-null row; nothing to prune
  // and no filter worth reading.
  const Read negated = expectSameRows(file, P::not_(P::eq("x", 5)));
  EXPECT_EQ(negated.ids, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(negated.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(expectSameRows(file, P::not_(P::not_(P::eq("x", 5)))).metrics.rowGroupsPrunedByBloomFilter, 2);
  // notEq is left to statistics.
  EXPECT_EQ(expectSameRows(file, P::notEq("x", 9)).metrics.rowGroupsPrunedByBloomFilter, 0);
}

TEST(BloomFilterTest, NullRowsDoNotKeepAGroupThatHoldsNoLiteral) {
  SchemaElement x = leafElement("x", PhysicalType::BYTE_ARRAY);
  x.repetition_type = FieldRepetitionType::OPTIONAL;
  const auto file = fileOfChunks(x, {withBloom(chunkOf({std::string("a"), std::nullopt})),
                                     withBloom(chunkOf({std::nullopt, std::string("b")}))});
  const Read r = expectSameRows(file, P::eq("x", std::string("b")));
  EXPECT_EQ(r.ids, Ids{3});
  EXPECT_EQ(r.metrics.rowGroupsPrunedByBloomFilter, 1);
  // isNull(x) or eq: the null rows match, so the group is read.
  EXPECT_EQ(expectSameRows(file, P::or_(P::isNull("x"), P::eq("x", std::string("c")))).ids, (Ids{1, 2}));
}

// Each row of the spec's table, on files whose Bloom filters hold exactly the
// stored values and whose statistics are absent: a probe that uses the filter
// prunes the group that lacks the literal, one that does not reads it.
TEST(BloomFilterTest, ReadingFollowsTheSpecTable) {
  const auto bloomPruned = [](const SchemaElement& x, std::vector<Raw> values, const FilterPredicate& f) {
    return expectSameRows(fileOfChunks(x, {withBloom(chunkOf(std::move(values)))}), f)
        .metrics.rowGroupsPrunedByBloomFilter;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // `eq(NaN)`, or an `in` list holding `NaN`: a NaN stored under another encoding
  // than the literal's still matches, so the filter cannot answer.
  const SchemaElement f = leafElement("x", PhysicalType::FLOAT);
  EXPECT_EQ(bloomPruned(f, {f32(1.0f), f32Bits(0x7fc00001)}, P::eq("x", nan)), 0);
  EXPECT_EQ(readIds(fileOfChunks(f, {withBloom(chunkOf({f32(1.0f), f32Bits(0x7fc00001)}))}), P::eq("x", nan), true).ids,
            Ids{1});
  EXPECT_EQ(bloomPruned(f, {f32(1.0f)}, P::in("x", 2.0f, nan)), 0);
  EXPECT_EQ(bloomPruned(f, {f32(1.0f)}, P::in("x", 2.0f, 3.0f)), 1);
  // -0.0 and +0.0 are different values, as the filter's hashes are.
  EXPECT_EQ(bloomPruned(f, {f32(-0.0f)}, P::eq("x", 0.0f)), 1);
  EXPECT_EQ(bloomPruned(f, {f32(-0.0f)}, P::eq("x", -0.0f)), 0);
  // a `float` literal on a `FLOAT16` column: not used; its 2 stored bytes: used.
  const SchemaElement half =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(LogicalType::Kind::FLOAT16));
  EXPECT_EQ(bloomPruned(half, {bytes({0x00, 0x3C})}, P::eq("x", 2.0f)), 0);
  EXPECT_EQ(bloomPruned(half, {bytes({0x00, 0x3C})}, P::eq("x", Bytes{0x00, 0x40})), 1);
  // a `BigDecimal` on a `DECIMAL` over `BYTE_ARRAY`: not used; stored bytes: used.
  const SchemaElement dec = withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), decimalType(9, 2));
  EXPECT_EQ(bloomPruned(dec, {bytes({0x01, 0x00})}, P::eq("x", decimal(100, 2))), 0);
  EXPECT_EQ(bloomPruned(dec, {bytes({0x01, 0x00})}, P::eq("x", Bytes{0x64})), 1);
  // ... on FIXED_LEN_BYTE_ARRAY the number has one encoding: used.
  const SchemaElement fixedDec =
      withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), decimalType(4, 2));
  EXPECT_EQ(bloomPruned(fixedDec, {bytes({0x01, 0x00})}, P::eq("x", decimal(100, 2))), 1);
  EXPECT_EQ(bloomPruned(fixedDec, {bytes({0x01, 0x00})}, P::eq("x", decimal(256, 2))), 0);
  // any comparison with an `Instant` on an `INT96` column: not used.
  const SchemaElement i96 = leafElement("x", PhysicalType::INT96);
  EXPECT_EQ(bloomPruned(i96, {int96(0, 2'440'588)}, P::eq("x", Instant{86'400, 0})), 0);
  // `eq` or `in` with the stored 12 bytes on an `INT96` column: used.
  const std::string day2 = int96(0, 2'440'589);
  EXPECT_EQ(bloomPruned(i96, {int96(0, 2'440'588)}, P::eq("x", Bytes(day2.begin(), day2.end()))), 1);
}

// --- A file chDB writes (tools/oracle): the I/O acceptance criterion ---

/// A StorageObject that records the ranges read.
class RecordingObject : public io::StorageObject {
 public:
  explicit RecordingObject(std::unique_ptr<io::StorageObject> inner) : inner_(std::move(inner)) {}
  const std::string& uri() const override { return inner_->uri(); }
  uint64_t size() const override { return inner_->size(); }
  void readAt(uint64_t offset, std::span<uint8_t> out) override {
    reads_.emplace_back(offset, out.size());
    inner_->readAt(offset, out);
  }
  uint64_t requestCount() const override { return inner_->requestCount(); }
  uint64_t bytesRead() const override { return inner_->bytesRead(); }
  const std::vector<std::pair<uint64_t, uint64_t>>& reads() const { return reads_; }

 private:
  std::unique_ptr<io::StorageObject> inner_;
  std::vector<std::pair<uint64_t, uint64_t>> reads_;
};

/// A directory of this process's generated files, removed at exit.
struct GeneratedDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("quarry_bloom_" + std::to_string(::getpid()));
  ~GeneratedDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

/// Writes the chDB file of bloom_chdb_file.mjs into a temporary directory, or
/// returns "" when node or chDB is missing.
std::string chdbFile(const std::string& mode) {
  static GeneratedDir generated;
  const auto& dir = generated.path;
  std::filesystem::create_directories(dir);
  const std::string out = (dir / (mode + ".parquet")).string();
  if (std::filesystem::exists(out)) return out;
  const std::string script =
      std::string(QUARRY_SOURCE_DIR) + "/tests/formats/parquet/bloom_chdb_file.mjs";
  const std::string command = "node '" + script + "' '" + out + "' " + mode + " 2>&1";
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 77) {
    return "";
  }
  EXPECT_EQ(WEXITSTATUS(status), 0) << command;
  return out;
}

int64_t hOf(int64_t row) { return (row * 2654435761LL) % 1000003; }

struct ChdbRead {
  std::vector<int64_t> ids;
  ReaderMetrics metrics;
  std::vector<std::pair<uint64_t, uint64_t>> reads;
};

ChdbRead readChdb(const std::string& path, const FilterPredicate& filter, bool pruning) {
  auto recording = std::make_unique<RecordingObject>(io::openObject(path));
  RecordingObject* recorder = recording.get();
  ReaderOptions options;
  options.metadataPruning = pruning;
  options.threads = 1;
  auto file = ParquetFileReader::open(std::move(recording), options);
  const size_t footerReads = recorder->reads().size();
  auto rows = file->rowReader(ColumnProjection::columns("id"), filter);
  ChdbRead out;
  while (rows->next()) out.ids.push_back(rows->getLong("id"));
  out.metrics = rows->metrics();
  out.reads.assign(recorder->reads().begin() + static_cast<std::ptrdiff_t>(footerReads), recorder->reads().end());
  return out;
}

// "A point lookup on an unsorted column with Bloom filters reads no data page of a
// row group the filter excludes."
TEST(BloomFilterChdbTest, PointLookupReadsNoDataPageOfAnExcludedRowGroup) {
  const std::string path = chdbFile("bloom");
  if (path.empty()) GTEST_SKIP() << "node or the chDB of tools/oracle is missing (make oracle)";
  auto file = ParquetFileReader::open(path);
  ASSERT_EQ(file->numRowGroups(), 3);
  const int64_t row = 12'345;  // in row group 1
  const int64_t h = hOf(row);
  for (const FilterPredicate& filter :
       {P::eq("i32", static_cast<int32_t>(h)), P::eq("i64", h * 1000 - 7),
        P::eq("f64", static_cast<double>(h) / 8), P::eq("s", "s" + std::to_string(h))}) {
    SCOPED_TRACE(filter.toString());
    const ChdbRead pruned = readChdb(path, filter, true);
    const ChdbRead full = readChdb(path, filter, false);
    EXPECT_EQ(pruned.ids, std::vector<int64_t>{row});
    EXPECT_EQ(full.ids, pruned.ids);
    EXPECT_EQ(pruned.metrics.rowGroupsPrunedByStatistics, 0);
    EXPECT_EQ(pruned.metrics.rowGroupsPrunedByBloomFilter, 2);
    EXPECT_EQ(pruned.metrics.rowsDecoded, 10'000);
    // Exactly: for each row group, the page index of id and the column (one
    // read spanning them; consulted before the filter, it keeps every page of an
    // unsorted column) and, of the column's filter, its header and the one
    // 32-byte block the value falls in (ClickHouse records the filters' lengths;
    // a header of length % 32 bytes precedes the blocks); then row group 1's
    // chunks of id and the column.
    const auto& groups = file->metadata().row_groups;
    const auto column = static_cast<size_t>(file->schema().find(filter.column())->leafIndex);
    uint64_t expected = columnChunkRange(*groups[1].columns[0].meta_data).length +
                        columnChunkRange(*groups[1].columns[column].meta_data).length;
    for (const RowGroup& g : groups) {
      expected += static_cast<uint64_t>(*g.columns[column].meta_data->bloom_filter_length) % 32 + 32;
      const ColumnChunk& id = g.columns[0];
      const ColumnChunk& key = g.columns[column];
      const int64_t indexStart =
          std::min({*id.offset_index_offset, *key.offset_index_offset, *key.column_index_offset});
      const int64_t indexEnd = std::max({*id.offset_index_offset + *id.offset_index_length,
                                         *key.offset_index_offset + *key.offset_index_length,
                                         *key.column_index_offset + *key.column_index_length});
      expected += static_cast<uint64_t>(indexEnd - indexStart);
    }
    EXPECT_EQ(pruned.metrics.bytesFetched, expected);
    EXPECT_LT(pruned.metrics.bytesFetched, full.metrics.bytesFetched);
    // No read touches a column chunk of row groups 0 and 2.
    for (int g : {0, 2}) {
      for (const ColumnChunk& chunk : file->metadata().row_groups[static_cast<size_t>(g)].columns) {
        const ChunkRange range = columnChunkRange(*chunk.meta_data);
        for (const auto& [offset, length] : pruned.reads) {
          EXPECT_TRUE(offset + length <= range.offset || offset >= range.offset + range.length)
              << "read [" << offset << ", +" << length << ") overlaps row group " << g;
        }
      }
    }
  }
}

TEST(BloomFilterChdbTest, LookupsOfStoredValuesAreNeverExcluded) {
  const std::string path = chdbFile("bloom");
  if (path.empty()) GTEST_SKIP() << "node or the chDB of tools/oracle is missing (make oracle)";
  int64_t prunedGroups = 0;
  for (int64_t row = 7; row < 30'000; row += 1'499) {
    const int64_t h = hOf(row);
    const auto filter = P::or_(P::eq("s", "s" + std::to_string(h)), P::eq("i32", static_cast<int32_t>(h + 1)));
    const ChdbRead pruned = readChdb(path, filter, true);
    const ChdbRead full = readChdb(path, filter, false);
    EXPECT_EQ(pruned.ids, full.ids) << row;
    EXPECT_FALSE(pruned.ids.empty());
    prunedGroups += pruned.metrics.rowGroupsPrunedByBloomFilter;
  }
  // 21 lookups, two row groups each without the value (Bloom filters err rarely).
  EXPECT_GE(prunedGroups, 38);
  // A value in no row group.
  // Values in no row group, within every group's bounds.
  const auto absent = P::in("i32", 500'000, 500'001);
  ASSERT_TRUE(readChdb(path, absent, false).ids.empty());
  const ChdbRead none = readChdb(path, absent, true);
  EXPECT_EQ(none.metrics.rowGroupsPrunedByBloomFilter, 3);
  EXPECT_EQ(none.metrics.rowsDecoded, 0);
  // Per row group, its page index (consulted first: it keeps every page), then
  // one batch of its filter's header and the two blocks the values fall in (a
  // local file serves a batch's ranges one request each).
  EXPECT_EQ(none.metrics.requestsFetched, 12u);
}

// ClickHouse records no encoding_stats, so nothing proves a chunk's pages all
// dictionary-encoded: its dictionaries are never used, and rows are the same.
TEST(BloomFilterChdbTest, DictionariesWithoutEncodingStatsAreNotUsed) {
  const std::string path = chdbFile("dictionary");
  if (path.empty()) GTEST_SKIP() << "node or the chDB of tools/oracle is missing (make oracle)";
  const auto filter = P::in("i32", 500'000, static_cast<int32_t>(hOf(12'345)));
  const ChdbRead pruned = readChdb(path, filter, true);
  EXPECT_EQ(pruned.ids, std::vector<int64_t>{12'345});
  EXPECT_EQ(pruned.ids, readChdb(path, filter, false).ids);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByDictionary, 0);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(pruned.metrics.rowsDecoded, 30'000);
}

}  // namespace
}  // namespace quarry::parquet
