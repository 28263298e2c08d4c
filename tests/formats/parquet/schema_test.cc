#include "quarry/formats/parquet/schema.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;
using Rep = FieldRepetitionType;

SchemaElement group(std::string name, int32_t children, std::optional<Rep> rep = Rep::REQUIRED) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = rep;
  return e;
}

SchemaElement leaf(std::string name, PhysicalType type, Rep rep = Rep::OPTIONAL) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = rep;
  return e;
}

SchemaElement withConverted(SchemaElement e, ConvertedType c) {
  e.converted_type = c;
  return e;
}

SchemaElement withLogical(SchemaElement e, Kind kind) {
  LogicalType t;
  t.kind = kind;
  e.logicalType = t;
  return e;
}

TEST(FileSchemaTest, BuildsPathsLevelsAndLeafIndices) {
  // schema: id INT64 required, address optional { street, city }
  const auto schema = FileSchema::build({group("schema", 2, std::nullopt),
                                         leaf("id", PhysicalType::INT64, Rep::REQUIRED),
                                         group("address", 2, Rep::OPTIONAL),
                                         leaf("street", PhysicalType::BYTE_ARRAY),
                                         leaf("city", PhysicalType::BYTE_ARRAY)});
  ASSERT_EQ(schema.leafCount(), 3u);
  EXPECT_EQ(schema.leaf(0).path, "id");
  EXPECT_EQ(schema.leaf(0).maxDefinitionLevel, 0);
  EXPECT_EQ(schema.leaf(2).path, "address.city");
  EXPECT_EQ(schema.leaf(2).maxDefinitionLevel, 2);
  EXPECT_EQ(schema.leaf(2).leafIndex, 2);
  EXPECT_EQ(schema.leaf(2).elementIndex, 4);
  EXPECT_EQ(schema.find("address")->children.size(), 2u);
  EXPECT_EQ(schema.find("city"), nullptr);  // a nested field is not found by its own name
}

TEST(FileSchemaTest, NamesContainingDotsResolveByFullPath) {
  const auto schema = FileSchema::build({group("schema", 2, std::nullopt),
                                         leaf("sepal.length", PhysicalType::DOUBLE),
                                         group("acme.info", 1, Rep::OPTIONAL),
                                         leaf("x.y", PhysicalType::INT32)});
  ASSERT_NE(schema.find("sepal.length"), nullptr);
  EXPECT_TRUE(schema.find("sepal.length")->isLeaf());
  ASSERT_NE(schema.find("acme.info.x.y"), nullptr);
  EXPECT_EQ(schema.find("acme.info.x.y")->leafIndex, 1);
}

TEST(FileSchemaTest, AmbiguousPathThrows) {
  // A top-level "a.b" beside a struct a with a field b: both have the path a.b.
  const auto schema = FileSchema::build({group("schema", 2, std::nullopt),
                                         leaf("a.b", PhysicalType::INT32),
                                         group("a", 1, Rep::OPTIONAL),
                                         leaf("b", PhysicalType::INT32)});
  EXPECT_THROW(schema.find("a.b"), InvalidArgument);
}

TEST(FileSchemaTest, RepeatedFieldsRaiseRepetitionLevels) {
  const auto schema = FileSchema::build(
      {group("schema", 1, std::nullopt),
       withConverted(group("tags", 1, Rep::OPTIONAL), ConvertedType::LIST),
       group("list", 1, Rep::REPEATED), leaf("element", PhysicalType::BYTE_ARRAY)});
  const SchemaNode& element = schema.leaf(0);
  EXPECT_EQ(element.maxRepetitionLevel, 1);
  EXPECT_EQ(element.maxDefinitionLevel, 3);
  const SchemaNode* tags = schema.find("tags");
  EXPECT_EQ(tags->logicalType.kind, Kind::LIST);
  EXPECT_EQ(tags->listElement, &element);  // three-level list
}

TEST(FileSchemaTest, LegacyTwoLevelListsFollowTheBackwardCompatibilityRules) {
  // Rule 1: a repeated primitive is the element.
  auto s1 = FileSchema::build({group("schema", 1, std::nullopt),
                               withConverted(group("a", 1, Rep::OPTIONAL), ConvertedType::LIST),
                               leaf("array", PhysicalType::INT32, Rep::REPEATED)});
  EXPECT_EQ(s1.find("a")->listElement, &s1.leaf(0));
  // Rule 2: a repeated group of several fields is the element.
  auto s2 = FileSchema::build({group("schema", 1, std::nullopt),
                               withConverted(group("a", 1, Rep::OPTIONAL), ConvertedType::LIST),
                               group("pair", 2, Rep::REPEATED), leaf("x", PhysicalType::INT32),
                               leaf("y", PhysicalType::INT32)});
  EXPECT_EQ(s2.find("a")->listElement, s2.find("a.pair"));
  // Rule 3: a one-field repeated group named "array" or "<list>_tuple" is the element.
  auto s3 = FileSchema::build({group("schema", 1, std::nullopt),
                               withConverted(group("a", 1, Rep::OPTIONAL), ConvertedType::LIST),
                               group("a_tuple", 1, Rep::REPEATED), leaf("x", PhysicalType::INT32)});
  EXPECT_EQ(s3.find("a")->listElement, s3.find("a.a_tuple"));
}

TEST(FileSchemaTest, MapFindsKeyAndValue) {
  auto s = FileSchema::build({group("schema", 1, std::nullopt),
                              withConverted(group("m", 1, Rep::OPTIONAL), ConvertedType::MAP),
                              withConverted(group("key_value", 2, Rep::REPEATED),
                                            ConvertedType::MAP_KEY_VALUE),
                              leaf("key", PhysicalType::BYTE_ARRAY, Rep::REQUIRED),
                              leaf("value", PhysicalType::INT32)});
  const SchemaNode* m = s.find("m");
  EXPECT_EQ(m->logicalType.kind, Kind::MAP);
  EXPECT_EQ(m->mapKey, &s.leaf(0));
  EXPECT_EQ(m->mapValue, &s.leaf(1));
}

TEST(FileSchemaTest, ConvertedTypesMapToLogicalTypes) {
  auto dec = leaf("d", PhysicalType::INT32);
  dec.converted_type = ConvertedType::DECIMAL;
  dec.precision = 9;
  dec.scale = 2;
  auto s = FileSchema::build(
      {group("schema", 4, std::nullopt), withConverted(leaf("u", PhysicalType::INT32),
                                                       ConvertedType::UINT_32),
       dec, withConverted(leaf("ts", PhysicalType::INT64), ConvertedType::TIMESTAMP_MILLIS),
       withConverted([] {
         auto e = leaf("iv", PhysicalType::FIXED_LEN_BYTE_ARRAY);
         e.type_length = 12;
         return e;
       }(), ConvertedType::INTERVAL)});
  EXPECT_EQ(s.leaf(0).logicalType.kind, Kind::INTEGER);
  EXPECT_EQ(s.leaf(0).logicalType.bitWidth, 32);
  EXPECT_FALSE(s.leaf(0).logicalType.isSigned);
  EXPECT_EQ(s.leaf(1).logicalType.kind, Kind::DECIMAL);
  EXPECT_EQ(s.leaf(1).logicalType.precision, 9);
  EXPECT_EQ(s.leaf(1).logicalType.scale, 2);
  EXPECT_EQ(s.leaf(2).logicalType.kind, Kind::TIMESTAMP);
  EXPECT_EQ(s.leaf(2).logicalType.unit, TimeUnit::MILLIS);
  EXPECT_TRUE(s.leaf(2).logicalType.isAdjustedToUTC);
  EXPECT_EQ(s.leaf(3).logicalType.kind, Kind::INTERVAL);
  EXPECT_EQ(s.leaf(3).typeLength, 12);
}

TEST(FileSchemaTest, LogicalTypeWinsOverConvertedType) {
  auto e = withConverted(leaf("t", PhysicalType::INT64), ConvertedType::TIMESTAMP_MICROS);
  LogicalType t;
  t.kind = Kind::TIMESTAMP;
  t.unit = TimeUnit::NANOS;
  t.isAdjustedToUTC = false;
  e.logicalType = t;
  auto s = FileSchema::build({group("schema", 1, std::nullopt), e});
  EXPECT_EQ(s.leaf(0).logicalType.unit, TimeUnit::NANOS);
  EXPECT_FALSE(s.leaf(0).logicalType.isAdjustedToUTC);
  EXPECT_FALSE(s.leaf(0).annotationDropped);
}

TEST(FileSchemaTest, AnnotationThePhysicalTypeCannotCarryIsDropped) {
  // STRING on INT32, UUID on FIXED_LEN_BYTE_ARRAY(8), DECIMAL(12) on INT32.
  auto uuid = withLogical(leaf("u", PhysicalType::FIXED_LEN_BYTE_ARRAY), Kind::UUID);
  uuid.type_length = 8;
  auto dec = leaf("d", PhysicalType::INT32);
  LogicalType dt;
  dt.kind = Kind::DECIMAL;
  dt.precision = 12;
  dt.scale = 2;
  dec.logicalType = dt;
  auto s = FileSchema::build({group("schema", 3, std::nullopt),
                              withLogical(leaf("s", PhysicalType::INT32), Kind::STRING), uuid,
                              dec});
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(s.leaf(i).annotationDropped) << s.leaf(i).path;
    EXPECT_EQ(s.leaf(i).logicalType.kind, Kind::NONE) << s.leaf(i).path;
  }
}

TEST(FileSchemaTest, UnknownLogicalTypeMemberIsDropped) {
  auto e = withLogical(leaf("x", PhysicalType::BYTE_ARRAY), Kind::UNKNOWN_MEMBER);
  auto s = FileSchema::build({group("schema", 1, std::nullopt), e});
  EXPECT_TRUE(s.leaf(0).annotationDropped);
  EXPECT_EQ(s.leaf(0).logicalType.kind, Kind::NONE);
}

TEST(FileSchemaTest, ChildCountPastTheListIsCorrupt) {
  EXPECT_THROW(FileSchema::build({group("schema", 3, std::nullopt),
                                  leaf("a", PhysicalType::INT32)}),
               CorruptFile);
}

TEST(FileSchemaTest, TrailingElementsAreCorrupt) {
  EXPECT_THROW(FileSchema::build({group("schema", 1, std::nullopt), leaf("a", PhysicalType::INT32),
                                  leaf("b", PhysicalType::INT32)}),
               CorruptFile);
}

TEST(FileSchemaTest, MissingRepetitionIsCorrupt) {
  auto e = leaf("a", PhysicalType::INT32);
  e.repetition_type.reset();
  EXPECT_THROW(FileSchema::build({group("schema", 1, std::nullopt), e}), CorruptFile);
}

TEST(FileSchemaTest, EmptyListIsCorrupt) { EXPECT_THROW(FileSchema::build({}), CorruptFile); }

TEST(FileSchemaTest, DeepNestingIsRefusedWithoutExhaustingTheStack) {
  std::vector<SchemaElement> elements = {group("schema", 1, std::nullopt)};
  for (int i = 0; i < 100000; ++i) elements.push_back(group("g" + std::to_string(i), 1));
  elements.push_back(leaf("x", PhysicalType::INT32));
  EXPECT_THROW(FileSchema::build(elements), CorruptFile);
}

TEST(FileSchemaTest, UnknownPhysicalTypeIsCorrupt) {
  auto e = leaf("a", static_cast<PhysicalType>(42));
  EXPECT_THROW(FileSchema::build({group("schema", 1, std::nullopt), e}), CorruptFile);
}

}  // namespace
}  // namespace quarry::parquet

namespace quarry::parquet {
namespace {

TEST(FileSchemaTest, SiblingsPastTheListAfterANestedGroupAreCorrupt) {
  // Found by footer mutation: the root's count fits the list, but the first
  // child's subtree consumes the elements its second child would need.
  EXPECT_THROW(FileSchema::build({group("schema", 2, std::nullopt), group("g", 1),
                                  leaf("a", PhysicalType::INT32)}),
               CorruptFile);
}

}  // namespace
}  // namespace quarry::parquet
