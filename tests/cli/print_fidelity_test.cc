// Issue 26, item 10 ("Fidelity"): `quarry print` against DuckDB 1.5 where the two
// used to differ. "GEOMETRY and GEOGRAPHY columns print as WKB bytes where DuckDB
// 1.5 prints WKT", and "an out-of-range INT96 in int96_from_spark.parquet renders
// differently from DuckDB (find out which is right and say so in a test)".
// tests/differential/print_csv.mjs compares every parquet-testing file with
// DuckDB's COPY TO CSV byte for byte; these tests pin what it cannot say.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "quarry/cli/duckdb_text.h"
#include "quarry/formats/parquet/metadata.h"
#include "tests/cli/quarry_run.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using testing::runQuarry;

std::string dataFile(const std::string& name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

// --- GEOMETRY and GEOGRAPHY ------------------------------------------------

TEST(PrintGeometry, GeometryColumnsPrintTheWktDuckDbPrints) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--format", "csv", "--head", "5", "--columns",
                              "wkt,geometry", dataFile("geospatial/geospatial.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // DuckDB's COPY TO CSV of the same rows. The file's own `wkt` column writes a
  // MULTIPOINT's points in parentheses; DuckDB (and so quarry) does not.
  EXPECT_EQ(run.out,
            "wkt,geometry\n"
            "POINT (30 10),POINT (30 10)\n"
            "\"LINESTRING (30 10, 10 30, 40 40)\",\"LINESTRING (30 10, 10 30, 40 40)\"\n"
            "\"POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10))\",\"POLYGON ((30 10, 40 40, 20 40, "
            "10 20, 30 10))\"\n"
            "MULTIPOINT ((30 10)),MULTIPOINT (30 10)\n"
            "\"MULTILINESTRING ((30 10, 10 30, 40 40))\",\"MULTILINESTRING ((30 10, 10 30, 40 "
            "40))\"\n");
}

TEST(PrintGeometry, GeographyColumnsPrintAsGeometriesToo) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // geography-points.parquet's column is GEOGRAPHY(algorithm = SPHERICAL); DuckDB
  // reads it as GEOMETRY, and its coordinates keep every digit of the double.
  const auto run = runQuarry({"print", "--format", "csv", "--head", "2",
                              dataFile("geospatial/geography-points.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "id,geometry\n"
            "122,POINT (-35.94721410461716 -30.731931592053808)\n"
            "143,POINT (-43.610259155415406 -25.268053575627103)\n");
}

TEST(PrintGeometry, InvalidWkbIsACorruptFileNamingTheFileAndColumn) {
  // DuckDB's query fails on such a value ("Skipping beyond end of binary data");
  // quarry refuses the file rather than print bytes or a guess.
  using namespace quarry::parquet;
  using namespace quarry::parquet::testing;
  std::string truncatedLine("\x01\x02\x00\x00\x00\x03\x00\x00\x00", 9);  // 3 points, none there
  ParquetFixtureWriter w;
  w.column(withLogical(leafElement("g", PhysicalType::BYTE_ARRAY), logical(LogicalType::Kind::GEOMETRY)));
  w.rowGroup({FixtureChunk{{truncatedLine}, std::nullopt, std::nullopt}});
  quarry::testing::TempDir dir("quarry_wkb");
  ASSERT_TRUE(dir.valid());
  const auto path = dir.path() / "bad_wkb.parquet";
  quarry::testing::writeFileBytes(path, w.bytes());
  const auto run = runQuarry({"print", "--format", "csv", path.string()});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("bad_wkb.parquet"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("column g: the WKB geometry of 9 bytes is invalid at byte 9: 3 points "
                         "need at least 48 bytes, 0 remain"),
            std::string::npos)
      << run.err;
}

// --- INT96 -------------------------------------------------------------------

using Int128 = __int128;

constexpr int64_t kUnixEpochJulianDay = 2'440'588;
constexpr int64_t kMicrosPerDay = 86'400'000'000;

/// Reduces `v` modulo 2^64 into int64, as int64 arithmetic that overflows does.
int64_t wrapToInt64(Int128 v) {
  return static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v)));
}

std::string microsText(int64_t micros) {
  const int64_t seconds = micros / 1'000'000 - (micros % 1'000'000 < 0 ? 1 : 0);
  const int64_t fraction = micros - seconds * 1'000'000;
  return duckDbTimestamp(seconds, static_cast<int32_t>(fraction * 1000), 6);
}

TEST(PrintInt96, SparksWrappedInt96IsReadAsItsBytesSayAndDuckDbsRenderingIsAnOverflow) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // Row 6 (index 5) of int96_from_spark.parquet: 8 bytes of nanoseconds of the
  // day, then the Julian day, little endian; these 12 bytes are in the file.
  const uint8_t stored[12] = {0x00, 0x60, 0xb9, 0xc7, 0x6e, 0xe2, 0xff, 0xff,
                              0xa8, 0xab, 0xb0, 0xf9};
  const std::vector<uint8_t> file =
      quarry::testing::readFileBytes(dataFile("int96_from_spark.parquet"));
  ASSERT_NE(std::search(file.begin(), file.end(), stored, stored + 12), file.end());
  int64_t nanosOfDay = 0;
  int32_t julianDay = 0;
  std::memcpy(&nanosOfDay, stored, 8);
  std::memcpy(&julianDay, stored + 8, 4);
  ASSERT_EQ(nanosOfDay, -32'509'551'616'000);  // -9 h 01 min 49.551616 s
  ASSERT_EQ(julianDay, -105'862'232);

  // The INT96 value, by its definition (Julian day + nanoseconds of the day):
  // (-105862232 - 2440588) days * 86400e9 ns - 32509551616000 ns
  //   = -9357363680509551616000 ns since the epoch
  //   = day -108302821 (294555-12-13 BC, proleptic Gregorian) + 53890.448384 s
  //   = 294555-12-13 (BC) 14:58:10.448384 UTC.
  const Int128 nanos = (Int128{julianDay} - kUnixEpochJulianDay) * Int128{kMicrosPerDay} * 1000 +
                       nanosOfDay;
  EXPECT_TRUE(nanos == -(Int128{9'357'363'680'509'551} * 1'000'000 + 616'000));

  // What Spark meant: int96_from_spark.md lists 9089380393200000000 us
  // (290000-12-30 23:00:00 UTC). Spark's writer computed Julian microseconds,
  // 9089380393200000000 + 2440588 * 86400e6, past 2^63 - 1, so the int64 wrapped
  // to a negative day and nanosecond; its reader wraps back. Only the same
  // overflow recovers that value: the bytes alone say 294555 BC.
  const int64_t sparkMicros =
      wrapToInt64((Int128{julianDay} - kUnixEpochJulianDay) * kMicrosPerDay + nanosOfDay / 1000);
  EXPECT_EQ(sparkMicros, 9'089'380'393'200'000'000);
  EXPECT_EQ(microsText(sparkMicros), "290000-12-30 23:00:00");

  // DuckDB 1.5 prints 226414-01-07 (BC) 22:21:39.416064: it reads the Julian day
  // as unsigned (4189105064) and multiplies by 86400e6 in int64, which overflows:
  // (4189105064 - 2440588) * 86400e6 - 32509551616 us wraps to -7207070780300583936 us.
  // That is neither the bytes' value nor Spark's: DuckDB is wrong here.
  const int64_t duckDbMicros = wrapToInt64(
      (Int128{static_cast<uint32_t>(julianDay)} - kUnixEpochJulianDay) * kMicrosPerDay +
      nanosOfDay / 1000);
  EXPECT_EQ(duckDbMicros, -7'207'070'780'300'583'936);
  EXPECT_EQ(microsText(duckDbMicros), "226414-01-07 (BC) 22:21:39.416064");

  // quarry prints the value the INT96 holds, exactly (no int64 in between).
  const auto run =
      runQuarry({"print", "--format", "csv", dataFile("int96_from_spark.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "a\n"
            "2024-01-01 20:34:56.123456\n"
            "2024-01-01 01:00:00\n"
            "9999-12-31 03:00:00\n"
            "2024-12-30 23:00:00\n"
            "\n"
            "294555-12-13 (BC) 14:58:10.448384\n");
}

}  // namespace
}  // namespace quarry::cli
