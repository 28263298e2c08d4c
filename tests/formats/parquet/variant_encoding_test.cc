// The Variant binary encoding with hand-built bytes: every primitive type,
// short and long strings, objects and arrays with 1- to 4-byte offsets and ids,
// and corrupt bytes, each refused with CorruptFile.
#include "quarry/formats/parquet/variant_encoding.h"

#include <gtest/gtest.h>

#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/variant.h"
#include "quarry/formats/parquet/variant_builder.h"

namespace quarry::parquet {
namespace {

using P = VariantPrimitiveType;

/// Builds metadata of `names` with 1-byte offsets when they fit, else 4-byte ones.
Bytes metadataOf(const std::vector<std::string>& names, bool sorted = false) {
  size_t total = 0;
  for (const auto& n : names) total += n.size();
  const int offsetSize = total <= 0xFF && names.size() <= 0xFF ? 1 : 4;
  Bytes out{static_cast<uint8_t>(0x01 | (sorted ? 0x10 : 0) | (offsetSize - 1) << 6)};
  auto put = [&](uint64_t v) {
    for (int i = 0; i < offsetSize; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  put(names.size());
  size_t offset = 0;
  put(0);
  for (const auto& n : names) put(offset += n.size());
  for (const auto& n : names) out.insert(out.end(), n.begin(), n.end());
  return out;
}

const Bytes kEmptyMetadata{0x01, 0x00, 0x00};

VariantValue parse(const Bytes& metadata, const Bytes& value) {
  return VariantValue::parse(VariantMetadata::parse(metadata), value);
}

void expectCorrupt(const Bytes& metadata, const Bytes& value, const std::string& fragment) {
  try {
    Variant{metadata, value}.validate();
    ADD_FAILURE() << "accepted; expected an error containing '" << fragment << "'";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(VariantEncodingTest, ReadsTheSpecExampleObject) {
  // The worked example of variant_encoding.h: {"a": 42}.
  const Bytes metadata{0x11, 0x01, 0x00, 0x01, 'a'};
  const Bytes value{0x02, 0x01, 0x00, 0x00, 0x02, 0x0C, 0x2A};
  const VariantValue v = parse(metadata, value);
  ASSERT_EQ(v.basicType(), VariantBasicType::kObject);
  ASSERT_EQ(v.elementCount(), 1u);
  EXPECT_EQ(v.fieldName(0), "a");
  EXPECT_EQ(v.element(0).primitiveType(), P::kInt8);
  EXPECT_EQ(v.element(0).getLong(), 42);
}

TEST(VariantEncodingTest, EveryPrimitiveTypeRoundTrips) {
  struct Case {
    P type;
    int64_t integer;
  };
  for (const Case c : {Case{P::kInt8, -34}, Case{P::kInt16, -1234}, Case{P::kInt32, 123456},
                       Case{P::kInt64, -9876543210}, Case{P::kDate, -4438},
                       Case{P::kTimestampMicros, 1731000000123456},
                       Case{P::kTimestampNtzMicros, -1}, Case{P::kTimeNtzMicros, 45234123456},
                       Case{P::kTimestampNanos, 1731000000123456789},
                       Case{P::kTimestampNtzNanos, -1731000000123456789}}) {
    Bytes value;
    appendVariantInteger(value, c.type, c.integer);
    EXPECT_EQ(value.size(), 1u + variantPrimitiveDataSize(static_cast<uint8_t>(c.type)));
    const VariantValue v = parse(kEmptyMetadata, value);
    EXPECT_EQ(v.primitiveType(), c.type);
    EXPECT_EQ(v.getLong(), c.integer);
  }
  for (const P type : {P::kNull, P::kTrue, P::kFalse}) {
    Bytes value;
    appendVariantEmpty(value, type);
    EXPECT_EQ(value, Bytes{static_cast<uint8_t>(static_cast<uint8_t>(type) << 2)});
    EXPECT_EQ(parse(kEmptyMetadata, value).primitiveType(), type);
  }
  const Bytes dbl{0x1C, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0x2C, 0x40};  // 14.3
  EXPECT_EQ(parse(kEmptyMetadata, dbl).getDouble(), 14.3);
  const Bytes flt{0x38, 0x8F, 0xC2, 0x21, 0x41};  // 10.11f
  EXPECT_EQ(parse(kEmptyMetadata, flt).getFloat(), 10.11f);
  Bytes binary;
  appendVariantBinary(binary, Bytes{0x0A, 0x0B, 0x0C, 0x0D});
  EXPECT_EQ(binary, (Bytes{0x3C, 4, 0, 0, 0, 0x0A, 0x0B, 0x0C, 0x0D}));
  EXPECT_EQ(parse(kEmptyMetadata, binary).getString(), "\x0A\x0B\x0C\x0D");
  Bytes uuid{0x50};
  for (uint8_t i = 0; i < 16; ++i) uuid.push_back(i);
  EXPECT_EQ(parse(kEmptyMetadata, uuid).getUuid().toString(), "00010203-0405-0607-0809-0a0b0c0d0e0f");
}

TEST(VariantEncodingTest, DecimalsWidenToTheirTypeAndKeepTheirScale) {
  // 12345.6789 as decimal4: scale 4, unscaled 123456789 = 0x075BCD15.
  Bytes d4;
  appendVariantDecimal(d4, P::kDecimal4, Bytes{0x07, 0x5B, 0xCD, 0x15}, 4);
  EXPECT_EQ(d4, (Bytes{0x20, 0x04, 0x15, 0xCD, 0x5B, 0x07}));
  EXPECT_EQ(parse(kEmptyMetadata, d4).getDecimal().toString(), "12345.6789");
  // -1 in one byte widens to sixteen 0xFF; redundant sign bytes are dropped.
  Bytes d16;
  appendVariantDecimal(d16, P::kDecimal16, Bytes{0xFF}, 2);
  EXPECT_EQ(d16.size(), 18u);
  EXPECT_EQ(parse(kEmptyMetadata, d16).getDecimal().toString(), "-0.01");
  Bytes d8;
  appendVariantDecimal(d8, P::kDecimal8, Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x85}, 0);
  EXPECT_EQ(parse(kEmptyMetadata, d8).getDecimal().toString(), "-123");
  Bytes tooWide;
  EXPECT_THROW(appendVariantDecimal(tooWide, P::kDecimal4, Bytes{0x01, 0x00, 0x00, 0x00, 0x00}, 0),
               CorruptFile);
  expectCorrupt(kEmptyMetadata, Bytes{0x20, 39, 0, 0, 0, 0}, "scale 39");
}

TEST(VariantEncodingTest, RefusesATimeOutsideTheDay) {
  // time_ntz (type 17, header 17 << 2): microseconds since midnight, little-endian.
  const uint8_t header = 17 << 2;
  Bytes midnight = {header, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(parse(kEmptyMetadata, midnight).getLong(), 0);
  // 86,399,999,999 us = 0x141DD75FFF, the last microsecond of the day.
  Bytes last = {header, 0xFF, 0x5F, 0xD7, 0x1D, 0x14, 0, 0, 0};
  EXPECT_EQ(parse(kEmptyMetadata, last).getLong(), 86'399'999'999);
  Bytes nextDay = {header, 0x00, 0x60, 0xD7, 0x1D, 0x14, 0, 0, 0};
  expectCorrupt(kEmptyMetadata, nextDay, "outside the day");
  // A fuzzer's find: a value whose nanoseconds would overflow int64.
  Bytes negative = {header, 0x0F, 0, 0, 0, 0, 0, 0, 0x90};
  expectCorrupt(kEmptyMetadata, negative, "outside the day");
}

TEST(VariantEncodingTest, StringsBelow64BytesAreShort) {
  Bytes s63;
  appendVariantString(s63, std::string(63, 'x'));
  EXPECT_EQ(s63[0], (63 << 2) | 1);
  EXPECT_EQ(s63.size(), 64u);
  EXPECT_EQ(parse(kEmptyMetadata, s63).basicType(), VariantBasicType::kShortString);
  Bytes s64;
  appendVariantString(s64, std::string(64, 'y'));
  EXPECT_EQ(s64[0], 16 << 2);
  EXPECT_EQ(s64.size(), 69u);
  const VariantValue v = parse(kEmptyMetadata, s64);
  EXPECT_EQ(v.basicType(), VariantBasicType::kPrimitive);
  EXPECT_EQ(v.primitiveType(), P::kString);
  EXPECT_EQ(v.getString(), std::string(64, 'y'));
  Bytes empty;
  appendVariantString(empty, "");
  EXPECT_EQ(empty, Bytes{0x01});
}

/// Builds an array of `count` binary elements of `elementSize` bytes each.
Bytes arrayOf(size_t count, size_t elementSize) {
  std::vector<Bytes> elements(count);
  for (size_t i = 0; i < count; ++i) {
    appendVariantBinary(elements[i], Bytes(elementSize, static_cast<uint8_t>(i)));
  }
  Bytes out;
  appendVariantArray(out, std::vector<std::span<const uint8_t>>(elements.begin(), elements.end()));
  return out;
}

TEST(VariantEncodingTest, ArrayOffsetsUseTheFewestBytes) {
  struct Case {
    size_t count;
    size_t elementSize;
    int offsetSize;
    bool large;
  };
  // Each element is 5 bytes of header and size plus its data.
  for (const Case c : {Case{2, 10, 1, false}, Case{2, 200, 2, false}, Case{2, 40000, 3, false},
                       Case{1, 0x1000000, 4, false}, Case{256, 0, 2, true},
                       Case{300, 300, 3, true}}) {
    SCOPED_TRACE(std::to_string(c.count) + " x " + std::to_string(c.elementSize));
    const Bytes a = arrayOf(c.count, c.elementSize);
    EXPECT_EQ(a[0] & 3, 3);
    EXPECT_EQ(((a[0] >> 2) & 3) + 1, c.offsetSize);
    EXPECT_EQ((a[0] >> 4) & 1, c.large ? 1 : 0);
    const VariantValue v = parse(kEmptyMetadata, a);
    ASSERT_EQ(v.elementCount(), c.count);
    const VariantValue last = v.element(static_cast<uint32_t>(c.count - 1));
    EXPECT_EQ(last.getString().size(), c.elementSize);
    if (c.elementSize > 0) {
      EXPECT_EQ(static_cast<uint8_t>(last.getString()[0]), (c.count - 1) & 0xFF);
    }
  }
}

TEST(VariantEncodingTest, ObjectFieldIdsUseTheFewestBytesAndSortByName) {
  // 70,000 names: ids up to 69,999 need 3 bytes; name "k<i>" sorts as text.
  std::vector<std::string> names;
  for (int i = 0; i < 70000; ++i) names.push_back("k" + std::to_string(i));
  const Bytes metadata = metadataOf(names);
  const VariantMetadata m = VariantMetadata::parse(metadata);
  for (const uint32_t maxId : {9u, 300u, 69999u}) {
    SCOPED_TRACE(maxId);
    Bytes one;
    Bytes two;
    appendVariantInteger(one, P::kInt8, 1);
    appendVariantInteger(two, P::kInt8, 2);
    Bytes value;
    // Given out of order; written as "k0" < "k<maxId>".
    appendVariantObject(value, {{maxId, names[maxId], two}, {0, names[0], one}});
    EXPECT_EQ(((value[0] >> 4) & 3) + 1, maxId <= 0xFF ? 1 : maxId <= 0xFFFF ? 2 : 3);
    const VariantValue v = VariantValue::parse(m, value);
    ASSERT_EQ(v.elementCount(), 2u);
    EXPECT_EQ(v.fieldId(0), 0u);
    EXPECT_EQ(v.fieldId(1), maxId);
    EXPECT_EQ(v.element(0).getLong(), 1);
    EXPECT_EQ(v.element(1).getLong(), 2);
  }
  EXPECT_EQ(m.find("k69999"), 69999u);
  EXPECT_FALSE(m.find("nope").has_value());
}

TEST(VariantEncodingTest, ObjectsOfMoreThan255FieldsAreLarge) {
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back("f" + std::to_string(1000 + i));
  const Bytes metadata = metadataOf(names, true);
  std::vector<Bytes> values(names.size());
  std::vector<VariantObjectField> fields;
  for (uint32_t i = 0; i < names.size(); ++i) {
    appendVariantInteger(values[i], P::kInt16, i);
    fields.push_back({i, names[i], values[i]});
  }
  Bytes value;
  appendVariantObject(value, fields);
  EXPECT_EQ((value[0] >> 6) & 1, 1);
  const VariantValue v = VariantValue::parse(VariantMetadata::parse(metadata), value);
  ASSERT_EQ(v.elementCount(), 300u);
  EXPECT_EQ(v.fieldName(299), "f1299");
  EXPECT_EQ(v.element(299).getLong(), 299);
  EXPECT_EQ(VariantMetadata::parse(metadata).find("f1150"), 150u);
}

TEST(VariantEncodingTest, AcceptsWiderSizesThanNeeded) {
  // "It is valid for an implementation to use a larger value than necessary for
  // any of these fields (e.g. is_large may be true for an object with less than
  // 256 elements)." {"a": true} with is_large, 4-byte ids and 4-byte offsets.
  const Bytes metadata{0xC1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 'a'};
  const Bytes value{0x02 | 3 << 2 | 3 << 4 | 1 << 6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x04};
  const VariantValue v = parse(metadata, value);
  EXPECT_EQ(v.fieldName(0), "a");
  EXPECT_EQ(v.element(0).primitiveType(), P::kTrue);
}

TEST(VariantEncodingTest, ObjectValuesMayBeInAnyOrder) {
  // "The field values are not required to be in the same order as the field
  // IDs": {"a": 1, "b": 2} with b's value first.
  const Bytes metadata = metadataOf({"a", "b"}, true);
  const Bytes value{0x02, 2, 0, 1, 2, 0, 4, 0x0C, 2, 0x0C, 1};
  const VariantValue v = parse(metadata, value);
  EXPECT_EQ(v.element(0).getLong(), 1);
  EXPECT_EQ(v.element(1).getLong(), 2);
}

TEST(VariantEncodingTest, RefusesCorruptMetadata) {
  expectCorrupt({}, {0}, "empty");
  expectCorrupt({0x02, 0, 0}, {0}, "version 2 is not 1");
  expectCorrupt({0x01, 5, 0}, {0}, "needs");
  expectCorrupt({0x01, 1, 1, 1, 'a'}, {0}, "first offset");
  expectCorrupt({0x01, 1, 0, 2, 'a'}, {0}, "last offset");
  expectCorrupt({0x01, 2, 0, 2, 1, 'a'}, {0}, "below the one before");
  expectCorrupt({0x01, 1, 0, 1, 0xFF}, {0}, "not valid UTF-8");
  expectCorrupt(metadataOf({"b", "a"}, true), {0}, "the header says sorted");
  expectCorrupt(metadataOf({"a", "a"}, true), {0}, "the header says sorted");
  EXPECT_NO_THROW((Variant{metadataOf({"b", "a", "a"}), {0}}.validate()));
  // Bit 5 is reserved and ignored.
  EXPECT_NO_THROW((Variant{{0x21, 0, 0}, {0}}.validate()));
}

TEST(VariantEncodingTest, RefusesCorruptValues) {
  const Bytes ab = metadataOf({"a", "b"});
  expectCorrupt(kEmptyMetadata, {}, "found the end");
  expectCorrupt(kEmptyMetadata, {0x0C}, "needs 1 bytes, 0 remain");
  expectCorrupt(kEmptyMetadata, {21 << 2}, "unknown primitive type id 21");
  expectCorrupt(kEmptyMetadata, {0x40, 5, 0, 0, 0, 'a'}, "overruns");
  expectCorrupt(kEmptyMetadata, {0x40, 1, 0, 0, 0, 0xC0}, "not valid UTF-8");
  expectCorrupt(kEmptyMetadata, {(3 << 2) | 1, 'a'}, "short string of 3 bytes overruns");
  expectCorrupt(kEmptyMetadata, {0x05, 0xFF}, "short string is not valid UTF-8");
  expectCorrupt(kEmptyMetadata, {0x00, 0x00}, "1 bytes follow the end");
  expectCorrupt(ab, {0x02, 1, 2, 0, 1, 0}, "field id 2 is past the metadata's 2 names");
  expectCorrupt(ab, {0x02, 2, 1, 0, 0, 1, 2, 0, 0}, "field 'a' follows 'b'");
  expectCorrupt(metadataOf({"a", "a"}), {0x02, 2, 0, 1, 0, 1, 2, 0, 0}, "field 'a' follows 'a'");
  expectCorrupt(ab, {0x02, 1, 0, 0, 5, 0}, "values end at 5");
  expectCorrupt(ab, {0x02, 1, 0, 1, 1, 0}, "starts at 1, at or past its values' end 1");
  expectCorrupt(ab, {0x02, 200, 0}, "needs");
  expectCorrupt(kEmptyMetadata, {0x03, 1, 0, 1, 0x0C}, "needs 1 bytes, 0 remain");
  expectCorrupt(kEmptyMetadata, {0x03 | 1 << 4, 1, 0}, "element count is cut short");
  expectCorrupt(kEmptyMetadata, {0x03 | 1 << 4, 0xFF, 0xFF, 0xFF, 0xFF, 0}, "needs");
}

TEST(VariantEncodingTest, RefusesNestingDeeperThanTheLimit) {
  // [[[...[null]...]]]: each level is 03 01 00 <size>.
  Bytes value{0x00};
  for (int depth = 0; depth <= kMaxVariantDepth; ++depth) {
    Bytes outer{0x03, 1, 0, static_cast<uint8_t>(value.size())};
    if (value.size() > 0xFF) {
      outer = {0x03 | 1 << 2, 1, 0, 0, static_cast<uint8_t>(value.size()),
               static_cast<uint8_t>(value.size() >> 8)};
    }
    outer.insert(outer.end(), value.begin(), value.end());
    value = std::move(outer);
  }
  expectCorrupt(kEmptyMetadata, value, "deeper than 256");
}

TEST(VariantEncodingTest, EveryTruncationOfAValidValueIsRefused) {
  const Bytes metadata = metadataOf({"id", "names", "thing"}, true);
  // {"id": 1, "names": ["Apple", null, "a long string ..."], "thing": {}}
  Bytes id, names, thing, apple, null, longString;
  appendVariantInteger(id, P::kInt8, 1);
  appendVariantString(apple, "Apple");
  appendVariantEmpty(null, P::kNull);
  appendVariantString(longString, std::string(70, 'z'));
  appendVariantArray(names, {apple, null, longString});
  appendVariantObject(thing, {});
  Bytes value;
  appendVariantObject(value, {{2, "thing", thing}, {0, "id", id}, {1, "names", names}});
  ASSERT_NO_THROW((Variant{metadata, value}.validate()));
  for (size_t size = 0; size < value.size(); ++size) {
    EXPECT_THROW((Variant{metadata, Bytes(value.begin(), value.begin() + size)}.validate()),
                 CorruptFile)
        << size;
  }
  for (size_t size = 0; size < metadata.size(); ++size) {
    EXPECT_THROW((Variant{Bytes(metadata.begin(), metadata.begin() + size), value}.validate()),
                 CorruptFile)
        << size;
  }
}

TEST(VariantEncodingTest, BuilderRefusesDuplicateFieldNames) {
  Bytes one;
  appendVariantInteger(one, P::kInt8, 1);
  Bytes out;
  EXPECT_THROW(appendVariantObject(out, {{0, "a", one}, {1, "a", one}}), CorruptFile);
}

}  // namespace
}  // namespace quarry::parquet
