// Hive partitions: key=value path segments, their decoding, DuckDB's autocast
// (checked against DuckDB 1.5's read_parquet where DuckDB is right) and the
// detection rules.
#include "quarry/engine/source/hive_partitioning.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/common/values.h"

namespace quarry::engine {
namespace {

using Segments = std::vector<std::pair<std::string, std::optional<std::string>>>;

std::string errorOf(const std::vector<std::string>& uris, std::optional<bool> enabled,
                    const std::vector<HiveType>& types = {}) {
  try {
    readHivePartitions(uris, enabled, types);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no error)";
}

void expectMentions(const std::string& what, std::initializer_list<const char*> parts) {
  for (const char* part : parts)
    EXPECT_NE(what.find(part), std::string::npos) << part << " in: " << what;
}

TEST(HivePathSegments, DirectoriesOnlyInPathOrderFirstOfEachKey) {
  EXPECT_EQ(hivePathSegments("data/year=2024/month=06/part=1.parquet"),
            (Segments{{"year", "2024"}, {"month", "06"}}));
  EXPECT_EQ(hivePathSegments("/abs/a=1/a=2/plain/f.parquet"), (Segments{{"a", "1"}}));
  EXPECT_EQ(hivePathSegments("f.parquet"), Segments{});
  EXPECT_EQ(hivePathSegments("x/=5/k=/f.parquet"),
            (Segments{{"k", ""}}));  // empty key ignored, empty value kept
  EXPECT_EQ(hivePathSegments("x/k=a=b/f.parquet"), (Segments{{"k", "a=b"}}));
}

TEST(HivePathSegments, RemoteUrisSkipTheBucketHostAndQuery) {
  EXPECT_EQ(hivePathSegments("s3://bucket=x/year=2024/f.parquet"), (Segments{{"year", "2024"}}));
  EXPECT_EQ(hivePathSegments("https://h.example/d/k=v/f.parquet?sig=a/b=c"),
            (Segments{{"k", "v"}}));
  EXPECT_EQ(hivePathSegments("file:///d/k=v/f.parquet"), (Segments{{"k", "v"}}));
}

TEST(HivePathSegments, DefaultPartitionAndNullAreNull) {
  EXPECT_EQ(hivePathSegments("d/k=__HIVE_DEFAULT_PARTITION__/f.parquet"),
            (Segments{{"k", std::nullopt}}));
  EXPECT_EQ(hivePathSegments("d/k=NULL/f.parquet"), (Segments{{"k", std::nullopt}}));
  EXPECT_EQ(hivePathSegments("d/k=null/f.parquet"), (Segments{{"k", std::nullopt}}));
  EXPECT_EQ(hivePathSegments("d/k=nulls/f.parquet"), (Segments{{"k", "nulls"}}));
}

TEST(HivePathSegments, PercentEscapesDecodedPlusKept) {
  EXPECT_EQ(hivePathSegments("d/k=S%C3%A3o%20Paulo/f.parquet"), (Segments{{"k", "S\xC3\xA3o Paulo"}}));
  EXPECT_EQ(hivePathSegments("d/k=a%2Bb+c/f.parquet"), (Segments{{"k", "a+b+c"}}));
  EXPECT_EQ(hivePathSegments("d/k=%zz%4/f.parquet"), (Segments{{"k", "%zz%4"}}));  // not an escape: kept
  EXPECT_EQ(hivePathSegments("d/k=%41%3a/f.parquet"), (Segments{{"k", "A:"}}));
  EXPECT_EQ(hivePathSegments("d/k%3Dx=a%2Fb/f.parquet"),
            (Segments{{"k%3Dx", "a/b"}}));  // keys as written
}

TEST(AutocastHiveType, DateThenTimestampThenInt64ElseString) {
  auto type = [](std::vector<std::string> values) { return autocastHiveType(values).toString(); };
  EXPECT_EQ(type({"2024-01-05", "2024-1-5"}), DataType::date().toString());
  EXPECT_EQ(type({"2024-01-05", "2024-01-05 10:00:00"}),
            DataType::timestamp(TimeUnit::kMicros, false).toString());
  EXPECT_EQ(type({"2024-01-05T10:00", "2024-01-06 00:00:00.5Z"}),
            DataType::timestamp(TimeUnit::kMicros, false).toString());
  EXPECT_EQ(type({"2024", "-3", "0", "9223372036854775807"}), DataType::int64().toString());
  // Leading zeros would not read back as written: strings, as in DuckDB.
  EXPECT_EQ(type({"06", "12"}), DataType::string().toString());
  EXPECT_EQ(type({"00"}), DataType::string().toString());
  EXPECT_EQ(type({"9223372036854775808"}), DataType::string().toString());
  EXPECT_EQ(type({"+5"}), DataType::string().toString());
  EXPECT_EQ(type({"1.0"}), DataType::string().toString());
  EXPECT_EQ(type({"true"}), DataType::string().toString());
  EXPECT_EQ(type({"2024-02-30"}), DataType::string().toString());
  EXPECT_EQ(type({"2024-01-05 25:00:00"}), DataType::string().toString());
  EXPECT_EQ(type({"2024-01-05 10:00:00+02"}),
            DataType::string().toString());  // an offset: not a local time
  EXPECT_EQ(type({""}), DataType::string().toString());
  EXPECT_EQ(type({}), DataType::string().toString());  // nulls only
}

TEST(CastHiveValue, StorageForms) {
  EXPECT_EQ(castHiveValue("2024-01-05", DataType::date()),
            Scalar(Date::ofCivil(2024, 1, 5).daysSinceEpoch));
  EXPECT_EQ(
      castHiveValue("1970-01-02 00:00:01.1234567", DataType::timestamp(TimeUnit::kMicros, false)),
      Scalar(int64_t{86'401'123'456}));
  EXPECT_EQ(castHiveValue("1970-01-02", DataType::timestamp(TimeUnit::kMicros, false)),
            Scalar(int64_t{86'400'000'000}));
  EXPECT_EQ(castHiveValue("-12", DataType::int32()), Scalar(int32_t{-12}));
  EXPECT_EQ(castHiveValue("2147483648", DataType::int32()), std::nullopt);
  EXPECT_EQ(castHiveValue("06", DataType::string()), Scalar(std::string("06")));
  EXPECT_EQ(castHiveValue("2.5", DataType::float64()), Scalar(2.5));
  EXPECT_EQ(castHiveValue("true", DataType::boolean()), Scalar(uint8_t{1}));
  EXPECT_EQ(castHiveValue("x", DataType::int64()), std::nullopt);
  // A type hive_types gives reads leading zeros and a sign, as DuckDB's cast does.
  EXPECT_EQ(castHiveValue("06", DataType::int64()), Scalar(int64_t{6}));
  EXPECT_EQ(castHiveValue("+5", DataType::int32()), Scalar(int32_t{5}));
}

TEST(ReadHivePartitions, ColumnsSortedByNameValuesPerFile) {
  const std::vector<std::string> uris = {
      "d/year=2024/month=06/city=S%C3%A3o%20Paulo/a.parquet",
      "d/year=__HIVE_DEFAULT_PARTITION__/month=12/city=NYC/b.parquet"};
  const HivePartitions p = readHivePartitions(uris, std::nullopt, {});
  ASSERT_EQ(p.columns.size(), 3u);
  EXPECT_EQ(p.columns[0].name, "city");
  EXPECT_EQ(p.columns[1].name, "month");
  EXPECT_EQ(p.columns[2].name, "year");
  EXPECT_TRUE(p.columns[1].type == DataType::string());  // "06"
  EXPECT_TRUE(p.columns[2].type == DataType::int64());   // 2024 and a null
  ASSERT_EQ(p.values.size(), 2u);
  EXPECT_EQ(p.values[0][0], Scalar(std::string("S\xC3\xA3o Paulo")));
  EXPECT_EQ(p.values[0][1], Scalar(std::string("06")));
  EXPECT_EQ(p.values[0][2], Scalar(int64_t{2024}));
  EXPECT_EQ(p.values[1][2], Scalar());
}

TEST(ReadHivePartitions, AutoModeNeedsTheSameKeysOnEveryPath) {
  EXPECT_TRUE(readHivePartitions(std::vector<std::string>{"d/a=1/b=1/f.parquet", "d/a=2/f.parquet"},
                                 std::nullopt, {})
                  .columns.empty());
  EXPECT_TRUE(readHivePartitions(std::vector<std::string>{"d/f.parquet"}, std::nullopt, {})
                  .columns.empty());
  EXPECT_TRUE(
      readHivePartitions(std::vector<std::string>{"d/a=1/f.parquet"}, false, {}).columns.empty());
  expectMentions(errorOf({"d/a=1/b=1/f.parquet", "d/a=2/f.parquet"}, true),
                 {"d/a=1/b=1/f.parquet", "d/a=2/f.parquet", "\"b\"", "hive_partitioning\": false"});
}

TEST(ReadHivePartitions, HiveTypesGiveTheTypeAndNameBadValues) {
  const std::vector<std::string> uris = {"d/year=2024/f.parquet", "d/year=2023/g.parquet"};
  const HivePartitions p =
      readHivePartitions(uris, std::nullopt, std::vector<HiveType>{{"year", "integer", {}}});
  ASSERT_EQ(p.columns.size(), 1u);
  EXPECT_TRUE(p.columns[0].type == DataType::int32());
  EXPECT_EQ(p.values[1][0], Scalar(int32_t{2023}));
  expectMentions(errorOf({"d/year=2024/f.parquet", "d/year=x/g.parquet"}, std::nullopt,
                         {{"year", "integer", {}}}),
                 {"d/year=x/g.parquet", "\"x\"", "\"year\"", "int32"});
  expectMentions(errorOf(uris, std::nullopt, {{"yaer", "date", {}}}), {"\"yaer\"", "keys: year"});
}

}  // namespace
}  // namespace quarry::engine
