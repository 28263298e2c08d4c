#include "quarry/formats/parquet/thrift_compact_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/thrift_compact_writer.h"

namespace quarry::parquet {
namespace {

using T = ThriftType;

using quarry::testing::CompactWriter;

std::span<const uint8_t> span(const std::vector<uint8_t>& v) {
  return {v.data(), v.size()};
}

TEST(ThriftCompactReader, ReadsZigzagVarintsAtTheirEdges) {
  CompactWriter w;
  const std::vector<int64_t> i64s = {0,
                                     1,
                                     -1,
                                     63,
                                     -64,
                                     64,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min()};
  const std::vector<int32_t> i32s = {0, -1, 1, std::numeric_limits<int32_t>::max(),
                                     std::numeric_limits<int32_t>::min()};
  const std::vector<int16_t> i16s = {0, -1, std::numeric_limits<int16_t>::max(),
                                     std::numeric_limits<int16_t>::min()};
  for (auto v : i64s) w.zigzag(v);
  for (auto v : i32s) w.zigzag(v);
  for (auto v : i16s) w.zigzag(v);
  ThriftCompactReader r(span(w.bytes));
  for (auto v : i64s) EXPECT_EQ(r.readI64(), v);
  for (auto v : i32s) EXPECT_EQ(r.readI32(), v);
  for (auto v : i16s) EXPECT_EQ(r.readI16(), v);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactReader, EncodesMinusThreeAsFive) {
  const std::vector<uint8_t> bytes = {0x05, 0x06};
  ThriftCompactReader r(span(bytes));
  EXPECT_EQ(r.readI32(), -3);
  EXPECT_EQ(r.readI32(), 3);
}

TEST(ThriftCompactReader, RejectsVarintsLongerThanTenBytes) {
  std::vector<uint8_t> bytes(10, 0x80);
  bytes.push_back(0x01);
  ThriftCompactReader r(span(bytes));
  EXPECT_THROW(r.readI64(), CorruptFile);
}

TEST(ThriftCompactReader, RejectsVarintsOverflowingSixtyFourBits) {
  std::vector<uint8_t> bytes(9, 0xff);
  bytes.push_back(0x02);  // the 10th byte may only carry bit 63
  ThriftCompactReader r(span(bytes));
  EXPECT_THROW(r.readI64(), CorruptFile);
  std::vector<uint8_t> max(9, 0xff);
  max.push_back(0x01);
  ThriftCompactReader ok(span(max));
  EXPECT_EQ(ok.readI64(), std::numeric_limits<int64_t>::min());
}

TEST(ThriftCompactReader, RejectsI32AndI16OutOfRange) {
  CompactWriter w;
  w.zigzag(int64_t{1} << 32);
  ThriftCompactReader r(span(w.bytes));
  EXPECT_THROW(r.readI32(), CorruptFile);
  CompactWriter w16;
  w16.zigzag(40000);
  ThriftCompactReader r16(span(w16.bytes));
  EXPECT_THROW(r16.readI16(), CorruptFile);
}

TEST(ThriftCompactReader, RejectsTruncatedVarint) {
  const std::vector<uint8_t> bytes = {0x80, 0x80};
  ThriftCompactReader r(span(bytes));
  EXPECT_THROW(r.readI64(), CorruptFile);
}

TEST(ThriftCompactReader, ReadsShortAndLongFormFieldHeaders) {
  CompactWriter w;
  w.structBegin();
  w.i32(1, 7);       // short: delta 1
  w.i32(16, 8);      // short: delta 15
  w.i32(40, 9);      // long: delta 24
  w.i32(3, 10);      // long: going back
  w.i32(-5, 11);     // long: negative id
  w.i32(32767, 12);  // long: largest id
  w.structEnd();
  ThriftCompactReader r(span(w.bytes));
  r.readStructBegin();
  const std::vector<std::pair<int16_t, int32_t>> expected = {{1, 7},  {16, 8},  {40, 9},
                                                             {3, 10}, {-5, 11}, {32767, 12}};
  for (auto [id, value] : expected) {
    ThriftFieldHeader f = r.readFieldHeader();
    EXPECT_EQ(f.id, id);
    EXPECT_EQ(f.type, T::I32);
    EXPECT_EQ(r.readI32(), value);
  }
  EXPECT_TRUE(r.readFieldHeader().isStop());
  r.readStructEnd();
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactReader, ReadsTheSpecExampleBytes) {
  const std::vector<uint8_t> bytes = {0x15, 0x05, 0x31, 0x00};
  ThriftCompactReader r(span(bytes));
  r.readStructBegin();
  ThriftFieldHeader f = r.readFieldHeader();
  EXPECT_EQ(f.id, 1);
  EXPECT_EQ(r.readI32(), -3);
  f = r.readFieldHeader();
  EXPECT_EQ(f.id, 4);
  EXPECT_TRUE(isBool(f.type));
  EXPECT_TRUE(f.boolValue());
  EXPECT_TRUE(r.readFieldHeader().isStop());
  r.readStructEnd();
}

TEST(ThriftCompactReader, CarriesBoolFieldValuesInTheHeader) {
  CompactWriter w;
  w.structBegin();
  w.boolean(1, true);
  w.boolean(2, false);
  w.structEnd();
  ASSERT_EQ(w.bytes.size(), 3u);  // no value bytes
  ThriftCompactReader r(span(w.bytes));
  r.readStructBegin();
  ThriftFieldHeader a = r.readFieldHeader();
  r.skip(a.type);  // nothing to skip
  ThriftFieldHeader b = r.readFieldHeader();
  EXPECT_TRUE(a.boolValue());
  EXPECT_FALSE(b.boolValue());
  EXPECT_TRUE(isBool(b.type));
  EXPECT_TRUE(r.readFieldHeader().isStop());
  r.readStructEnd();
}

TEST(ThriftCompactReader, ReadsFieldIdsOfNestedStructsIndependently) {
  CompactWriter w;
  w.structBegin();
  w.i32(5, 1);
  w.field(6, T::STRUCT);
  w.structBegin();
  w.i32(1, 2);
  w.structEnd();
  w.i32(7, 3);
  w.structEnd();
  ThriftCompactReader r(span(w.bytes));
  r.readStructBegin();
  EXPECT_EQ(r.readFieldHeader().id, 5);
  r.readI32();
  EXPECT_EQ(r.readFieldHeader().id, 6);
  r.readStructBegin();
  EXPECT_EQ(r.readFieldHeader().id, 1);
  r.readI32();
  EXPECT_TRUE(r.readFieldHeader().isStop());
  r.readStructEnd();
  EXPECT_EQ(r.readFieldHeader().id, 7);  // delta from 6, not from 1
  EXPECT_EQ(r.readI32(), 3);
}

TEST(ThriftCompactReader, ReadsDoublesLittleEndian) {
  const std::vector<uint8_t> bytes = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
  ThriftCompactReader r(span(bytes));
  EXPECT_EQ(r.readDouble(), 1.5);
  EXPECT_TRUE(std::isnan(r.readDouble()));
  EXPECT_THROW(r.readDouble(), CorruptFile);
}

TEST(ThriftCompactReader, ReadsBinaries) {
  CompactWriter w;
  w.binary("");
  w.binary("parquet");
  w.binary(std::string(300, 'x'));
  ThriftCompactReader r(span(w.bytes));
  EXPECT_EQ(r.readBinary(), "");
  EXPECT_EQ(r.readString(), "parquet");
  EXPECT_EQ(r.readBinaryView(), std::string(300, 'x'));
}

TEST(ThriftCompactReader, RejectsBinaryLongerThanTheInputBeforeAllocating) {
  CompactWriter w;
  w.varint(uint64_t{1} << 62);  // would be an impossible allocation
  w.byte('a');
  ThriftCompactReader r(span(w.bytes));
  try {
    r.readBinary();
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("thrift: binary length exceeds remaining bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("at offset 9, 1 bytes remain"), std::string::npos) << m;
  }
}

TEST(ThriftCompactReader, ReadsShortAndLongListHeaders) {
  CompactWriter w;
  w.listHeader(T::I32, 3);
  for (int i = 0; i < 3; ++i) w.zigzag(i);
  w.listHeader(T::BINARY, 20);
  for (int i = 0; i < 20; ++i) w.binary("s");
  ThriftCompactReader r(span(w.bytes));
  ThriftListHeader a = r.readListHeader();
  EXPECT_EQ(a.elementType, T::I32);
  EXPECT_EQ(a.size, 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.readI32(), i);
  ThriftListHeader b = r.readListHeader();
  EXPECT_EQ(b.elementType, T::BINARY);
  EXPECT_EQ(b.size, 20u);
}

TEST(ThriftCompactReader, RejectsListSizesLargerThanTheRemainingBytes) {
  for (T element : {T::I32, T::STRUCT, T::BOOLEAN_TRUE, T::BINARY}) {
    CompactWriter w;
    w.listHeader(element, 1000000000);
    w.byte(0);
    ThriftCompactReader r(span(w.bytes));
    EXPECT_THROW(r.readListHeader(), CorruptFile);
  }
  CompactWriter w;
  w.listHeader(T::I32, 4);  // short form, 3 bytes follow
  w.byte(0);
  w.byte(0);
  w.byte(0);
  ThriftCompactReader r(span(w.bytes));
  EXPECT_THROW(r.readListHeader(), CorruptFile);
}

TEST(ThriftCompactReader, RejectsListSizesAboveInt32) {
  CompactWriter w;
  w.listHeader(T::BYTE, 0);
  w.bytes[0] = 0xf3;
  w.varint(uint64_t{1} << 31);
  ThriftCompactReader r(span(w.bytes));
  EXPECT_THROW(r.readListHeader(), CorruptFile);
}

TEST(ThriftCompactReader, RejectsInvalidTypes) {
  const std::vector<uint8_t> field = {0x1e};  // delta 1, type 14
  ThriftCompactReader a(span(field));
  a.readStructBegin();
  EXPECT_THROW(a.readFieldHeader(), CorruptFile);
  const std::vector<uint8_t> list = {0x10, 0x00};  // one element of type 0
  ThriftCompactReader b(span(list));
  EXPECT_THROW(b.readListHeader(), CorruptFile);
  const std::vector<uint8_t> boolByte = {0x07};
  ThriftCompactReader c(span(boolByte));
  EXPECT_THROW(c.readBool(), CorruptFile);
}

TEST(ThriftCompactReader, ReadsListBoolsAsOneByteEach) {
  const std::vector<uint8_t> bytes = {0x31, 0x01, 0x00, 0x02};
  ThriftCompactReader r(span(bytes));
  ThriftListHeader h = r.readListHeader();
  ASSERT_EQ(h.size, 3u);
  EXPECT_TRUE(r.readBool());
  EXPECT_FALSE(r.readBool());
  EXPECT_FALSE(r.readBool());
}

TEST(ThriftCompactReader, ReadsMapHeaders) {
  CompactWriter w;
  w.varint(0);  // empty map: no type byte
  w.varint(2);
  w.byte(0x85);  // binary -> i32
  ThriftCompactReader r(span(w.bytes));
  EXPECT_EQ(r.readMapHeader().size, 0u);
  EXPECT_THROW(r.readMapHeader(), CorruptFile);  // 2 entries need 4 bytes
}

/// Writes a struct holding a field of every type, nested, then STOP.
void writeEveryType(CompactWriter& w) {
  w.structBegin();
  w.boolean(1, true);
  w.boolean(2, false);
  w.field(3, T::BYTE);
  w.byte(0xff);
  w.field(4, T::I16);
  w.zigzag(-300);
  w.i32(5, -70000);
  w.i64(6, std::numeric_limits<int64_t>::min());
  w.field(7, T::DOUBLE);
  w.doubleValue(2.5);
  w.bin(8, "binary");
  w.field(9, T::LIST);  // list<bool>
  w.listHeader(T::BOOLEAN_TRUE, 3);
  w.byte(1);
  w.byte(2);
  w.byte(0);
  w.field(10, T::SET);  // set<i64>
  w.listHeader(T::I64, 2);
  w.zigzag(1);
  w.zigzag(-1);
  w.field(11, T::MAP);  // map<binary, struct>
  w.varint(2);
  w.byte(0x8c);
  for (int i = 0; i < 2; ++i) {
    w.binary("k");
    w.structBegin();
    w.i32(1, i);
    w.structEnd();
  }
  w.field(12, T::MAP);  // empty map
  w.varint(0);
  w.field(13, T::STRUCT);
  w.structBegin();
  w.field(1, T::LIST);  // list<list<double>>
  w.listHeader(T::LIST, 2);
  w.listHeader(T::DOUBLE, 2);
  w.doubleValue(1);
  w.doubleValue(2);
  w.listHeader(T::DOUBLE, 0);
  w.field(2, T::LIST);  // list<struct> with a long-form size
  w.listHeader(T::STRUCT, 16);
  for (int i = 0; i < 16; ++i) {
    w.structBegin();
    w.bin(100, "far");
    w.structEnd();
  }
  w.structEnd();
  w.field(14, T::UUID);
  for (int i = 0; i < 16; ++i) w.byte(static_cast<uint8_t>(i));
  w.field(15, T::LIST);  // list<uuid>
  w.listHeader(T::UUID, 1);
  for (int i = 0; i < 16; ++i) w.byte(0);
  w.field(16, T::LIST);  // list<byte>
  w.listHeader(T::BYTE, 2);
  w.byte(1);
  w.byte(2);
  w.structEnd();
}

TEST(ThriftCompactReader, SkipsNestedStructsWithFieldsOfEveryType) {
  CompactWriter w;
  w.structBegin();
  w.field(1, T::STRUCT);
  writeEveryType(w);
  w.i32(2, 42);
  w.structEnd();
  ThriftCompactReader r(span(w.bytes));
  r.readStructBegin();
  ThriftFieldHeader f = r.readFieldHeader();
  ASSERT_EQ(f.type, T::STRUCT);
  r.skip(f.type);
  f = r.readFieldHeader();
  EXPECT_EQ(f.id, 2);
  EXPECT_EQ(r.readI32(), 42);
  EXPECT_TRUE(r.readFieldHeader().isStop());
  r.readStructEnd();
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.depth(), 0);
}

TEST(ThriftCompactReader, RejectsEveryTruncationOfANestedStruct) {
  CompactWriter w;
  writeEveryType(w);
  for (size_t n = 0; n < w.bytes.size(); ++n) {
    ThriftCompactReader r(std::span<const uint8_t>(w.bytes.data(), n));
    EXPECT_THROW(r.skip(T::STRUCT), CorruptFile) << "prefix of " << n << " bytes";
  }
}

TEST(ThriftCompactReader, RejectsStructsNestedBeyondTheDepthLimit) {
  auto nested = [](int levels) {
    CompactWriter w;
    for (int i = 0; i < levels; ++i) {
      w.structBegin();
      w.field(1, T::STRUCT);
    }
    w.structBegin();
    w.structEnd();
    for (int i = 0; i < levels; ++i) w.structEnd();
    return w.bytes;
  };
  auto ok = nested(ThriftCompactReader::kMaxDepth - 1);
  ThriftCompactReader a(span(ok));
  a.skip(T::STRUCT);
  EXPECT_EQ(a.remaining(), 0u);
  auto deep = nested(ThriftCompactReader::kMaxDepth);
  ThriftCompactReader b(span(deep));
  try {
    b.skip(T::STRUCT);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("nesting deeper than 64"), std::string::npos) << e.what();
  }
}

TEST(ThriftCompactReader, RejectsListsNestedBeyondTheDepthLimit) {
  CompactWriter w;
  for (int i = 0; i < 100000; ++i) w.listHeader(T::LIST, 1);
  w.listHeader(T::I32, 0);
  ThriftCompactReader r(span(w.bytes));
  EXPECT_THROW(r.skip(T::LIST), CorruptFile);
}

TEST(ThriftCompactReader, RejectsSkippingAStop) {
  const std::vector<uint8_t> bytes = {0};
  ThriftCompactReader r(span(bytes));
  EXPECT_THROW(r.skip(T::STOP), CorruptFile);
}

TEST(ThriftCompactReader, SkipsListElementsAfterTheHeader) {
  CompactWriter w;
  w.listHeader(T::BINARY, 2);
  w.binary("ab");
  w.binary("cd");
  w.byte(7);
  ThriftCompactReader r(span(w.bytes));
  r.skipListElements(r.readListHeader());
  EXPECT_EQ(r.readByte(), 7);
}

TEST(ThriftCompactReader, RejectsFixedWidthListElementsPastTheEnd) {
  CompactWriter w;
  w.listHeader(T::DOUBLE, 3);  // needs 24 bytes
  for (int i = 0; i < 8; ++i) w.byte(0);
  ThriftCompactReader r(span(w.bytes));
  EXPECT_THROW(r.skip(T::LIST), CorruptFile);
}

TEST(ThriftCompactReader, NamesOffsetAndRemainingBytesInErrors) {
  const std::vector<uint8_t> bytes = {0x15};  // field 1, i32, value missing
  ThriftCompactReader r(span(bytes));
  r.readStructBegin();
  r.readFieldHeader();
  try {
    r.readI32();
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_STREQ(e.what(), "thrift: varint truncated at offset 1, 0 bytes remain");
  }
}

}  // namespace
}  // namespace quarry::parquet
