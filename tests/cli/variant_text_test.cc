#include "quarry/cli/variant_text.h"

#include <gtest/gtest.h>

#include "quarry/formats/parquet/variant_builder.h"

namespace quarry::cli {
namespace {

using parquet::VariantMetadata;
using parquet::VariantValue;
using P = parquet::VariantPrimitiveType;

// {"a": null, "b": "", "c": [1, "x y", "2024-11-07 12:33:54.123456+00"], "d": -0.0}
// as DuckDB prints it (CAST(v AS VARCHAR)): nested scalars quoted where a
// STRUCT's would be, a Variant null as NULL.
TEST(VariantTextTest, RendersObjectsAndArraysAsDuckDbDoes) {
  const Bytes metadata{0x11, 4, 0, 1, 2, 3, 4, 'a', 'b', 'c', 'd'};
  Bytes null, empty, one, text, timestamp, array, minusZero, object;
  parquet::appendVariantEmpty(null, P::kNull);
  parquet::appendVariantString(empty, "");
  parquet::appendVariantInteger(one, P::kInt8, 1);
  parquet::appendVariantString(text, "x y");
  parquet::appendVariantInteger(timestamp, P::kTimestampNanos, 1730982834123456789);
  parquet::appendVariantArray(array, {one, text, timestamp});
  parquet::appendVariantPrimitive(minusZero, P::kDouble,
                                  Bytes{0, 0, 0, 0, 0, 0, 0, 0x80});
  parquet::appendVariantObject(object, {{3, "d", minusZero}, {0, "a", null}, {1, "b", empty},
                                        {2, "c", array}});
  const VariantMetadata m = VariantMetadata::parse(metadata);
  const VariantValue v = VariantValue::parse(m, object);
  std::string out;
  appendVariantText(v, out);
  EXPECT_EQ(out, "{'a': NULL, 'b': '', 'c': [1, x y, '2024-11-07 12:33:54.123456+00'], 'd': -0.0}");
  std::string json;
  appendVariantJson(v, json);
  EXPECT_EQ(json, R"({"a":null,"b":"","c":[1,"x y","2024-11-07 12:33:54.123456+00"],"d":-0})");
}

TEST(VariantTextTest, TopLevelStringsPrintUnquoted) {
  const Bytes metadata{0x01, 0, 0};
  Bytes value;
  parquet::appendVariantString(value, "a:b");
  std::string out;
  appendVariantText(VariantValue::parse(VariantMetadata::parse(metadata), value), out);
  EXPECT_EQ(out, "a:b");
}

}  // namespace
}  // namespace quarry::cli
