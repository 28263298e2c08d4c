#include "quarry/cli/value_renderer.h"

#include <gtest/gtest.h>

namespace quarry::cli {
namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using parquet::SchemaNode;
using Kind = LogicalType::Kind;
using Scalar = ValueRenderer::Scalar;

SchemaNode leaf(PhysicalType type, Kind kind = Kind::NONE, int32_t length = 0) {
  SchemaNode node;
  node.physicalType = type;
  node.logicalType.kind = kind;
  node.typeLength = length;
  return node;
}

SchemaNode integer(PhysicalType type, int8_t bitWidth, bool isSigned) {
  SchemaNode node = leaf(type, Kind::INTEGER);
  node.logicalType.bitWidth = bitWidth;
  node.logicalType.isSigned = isSigned;
  return node;
}

TEST(ValueRenderer, ColumnsRenderAsTheTypeDuckDbGivesThem) {
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BOOLEAN)), Scalar::kBoolean);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT32)), Scalar::kInt32);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT64)), Scalar::kInt64);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT96)), Scalar::kInt96);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT32, Kind::DATE)), Scalar::kDate);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT32, Kind::TIME)), Scalar::kTime);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT64, Kind::TIMESTAMP)),
            Scalar::kTimestamp);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::DECIMAL)),
            Scalar::kDecimal);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::INT32, Kind::UNKNOWN)), Scalar::kNull);
}

TEST(ValueRenderer, IntegerAnnotationsPickWidthAndSignedness) {
  EXPECT_EQ(ValueRenderer::scalarOf(integer(PhysicalType::INT32, 8, true)), Scalar::kInt8);
  EXPECT_EQ(ValueRenderer::scalarOf(integer(PhysicalType::INT32, 16, false)), Scalar::kUInt16);
  EXPECT_EQ(ValueRenderer::scalarOf(integer(PhysicalType::INT32, 32, false)), Scalar::kUInt32);
  EXPECT_EQ(ValueRenderer::scalarOf(integer(PhysicalType::INT64, 64, false)), Scalar::kUInt64);
  EXPECT_EQ(ValueRenderer::scalarOf(integer(PhysicalType::INT64, 64, true)), Scalar::kInt64);
}

TEST(ValueRenderer, OnlyTextAnnotationsMakeByteArraysStrings) {
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::STRING)), Scalar::kString);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::ENUM)), Scalar::kString);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::JSON)), Scalar::kString);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY)), Scalar::kBlob);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::BSON)), Scalar::kBlob);
  SchemaNode dropped = leaf(PhysicalType::BYTE_ARRAY, Kind::STRING);
  dropped.annotationDropped = true;
  EXPECT_EQ(ValueRenderer::scalarOf(dropped), Scalar::kBlob);
}

// Issue 26, item 10: "GEOMETRY and GEOGRAPHY columns print as WKB bytes where
// DuckDB 1.5 prints WKT": DuckDB reads both annotations as its GEOMETRY type.
TEST(ValueRenderer, GeometryAndGeographyByteArraysAreGeometries) {
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::GEOMETRY)),
            Scalar::kGeometry);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::BYTE_ARRAY, Kind::GEOGRAPHY)),
            Scalar::kGeometry);
  SchemaNode dropped = leaf(PhysicalType::BYTE_ARRAY, Kind::GEOMETRY);
  dropped.annotationDropped = true;
  EXPECT_EQ(ValueRenderer::scalarOf(dropped), Scalar::kBlob);
}

TEST(ValueRenderer, FixedLengthAnnotationsNeedTheirLength) {
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::FIXED_LEN_BYTE_ARRAY, Kind::UUID, 16)),
            Scalar::kUuid);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::FIXED_LEN_BYTE_ARRAY, Kind::FLOAT16, 2)),
            Scalar::kFloat);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::FIXED_LEN_BYTE_ARRAY, Kind::INTERVAL, 12)),
            Scalar::kInterval);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::FIXED_LEN_BYTE_ARRAY, Kind::UUID, 15)),
            Scalar::kBlob);
  EXPECT_EQ(ValueRenderer::scalarOf(leaf(PhysicalType::FIXED_LEN_BYTE_ARRAY, Kind::NONE, 5)),
            Scalar::kBlob);
}

}  // namespace
}  // namespace quarry::cli
