#include "quarry/formats/parquet/metadata.h"

#include <gtest/gtest.h>

namespace quarry::parquet {
namespace {

using K = LogicalType::Kind;

LogicalType logical(K kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

TEST(MetadataToString, UsesTheSpecsNames) {
  EXPECT_EQ(toString(PhysicalType::FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(toString(ConvertedType::INTERVAL), "INTERVAL");
  EXPECT_EQ(toString(FieldRepetitionType::REPEATED), "REPEATED");
  EXPECT_EQ(toString(Encoding::RLE_DICTIONARY), "RLE_DICTIONARY");
  EXPECT_EQ(toString(static_cast<Encoding>(1)), "UNKNOWN(1)");
  EXPECT_EQ(toString(static_cast<Encoding>(-4)), "UNKNOWN(-4)");
  EXPECT_EQ(toString(CompressionCodec::LZ4_RAW), "LZ4_RAW");
  EXPECT_EQ(toString(static_cast<CompressionCodec>(8)), "UNKNOWN(8)");
  EXPECT_EQ(toString(PageType::DATA_PAGE_V2), "DATA_PAGE_V2");
  EXPECT_EQ(toString(BoundaryOrder::DESCENDING), "DESCENDING");
  EXPECT_EQ(toString(EdgeInterpolationAlgorithm::KARNEY), "KARNEY");
  EXPECT_EQ(toString(TimeUnit::NANOS), "NANOS");
  EXPECT_EQ(toString(static_cast<TimeUnit>(0)), "UNKNOWN(0)");
  EXPECT_EQ(toString(ColumnOrder::INT96_TIMESTAMP_ORDER), "INT96_TIMESTAMP_ORDER");
  EXPECT_EQ(toString(ColumnOrder::UNKNOWN), "UNKNOWN");
}

TEST(MetadataToString, RendersLogicalTypesAsTheSpecWritesThem) {
  LogicalType t = logical(K::TIMESTAMP);
  t.unit = TimeUnit::MICROS, t.isAdjustedToUTC = true;
  EXPECT_EQ(toString(t), "TIMESTAMP(MICROS,true)");
  t.kind = K::TIME, t.unit = TimeUnit::MILLIS, t.isAdjustedToUTC = false;
  EXPECT_EQ(toString(t), "TIME(MILLIS,false)");
  LogicalType d = logical(K::DECIMAL);
  d.precision = 9, d.scale = 2;
  EXPECT_EQ(toString(d), "DECIMAL(9,2)");
  LogicalType i = logical(K::INTEGER);
  i.bitWidth = 8, i.isSigned = false;
  EXPECT_EQ(toString(i), "INTEGER(8,false)");
  LogicalType g = logical(K::GEOGRAPHY);
  EXPECT_EQ(toString(g), "GEOGRAPHY");
  g.crs = "OGC:CRS84", g.algorithm = EdgeInterpolationAlgorithm::SPHERICAL;
  EXPECT_EQ(toString(g), "GEOGRAPHY(crs=OGC:CRS84,algorithm=SPHERICAL)");
  LogicalType geometry = logical(K::GEOMETRY);
  geometry.crs = "srid:4326";
  EXPECT_EQ(toString(geometry), "GEOMETRY(crs=srid:4326)");
  EXPECT_EQ(toString(logical(K::STRING)), "STRING");
  EXPECT_EQ(toString(logical(K::VARIANT)), "VARIANT");
  EXPECT_EQ(toString(logical(K::UNKNOWN)), "UNKNOWN");
  EXPECT_EQ(toString(logical(K::NONE)), "NONE");
  EXPECT_EQ(toString(logical(K::FLOAT16)), "FLOAT16");
  LogicalType member = logical(K::UNKNOWN_MEMBER);
  member.unknownFieldId = 77;
  EXPECT_EQ(toString(member), "UNKNOWN_MEMBER(77)");
}

}  // namespace
}  // namespace quarry::parquet
