// Reads a Parquet file row by row with the reader API (quarry/parquet.h): the
// trips over 50 miles, three columns of them, the first five.
//
//   read_rows data/sample/trips.parquet
#include <quarry/parquet.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: read_rows FILE.parquet\n");
    return 2;
  }
  using quarry::parquet::ColumnProjection;
  using quarry::parquet::FilterPredicate;
  try {
    auto file = quarry::parquet::ParquetFileReader::open(argv[1]);
    std::printf("%lld rows in %d row groups\n", static_cast<long long>(file->metadata().num_rows),
                file->numRowGroups());
    auto rows = file->buildRowReader()
                    .projection(ColumnProjection::columns("trip_id", "vendor", "fare_amount"))
                    .filter(FilterPredicate::gt("trip_distance", 20.0))
                    .head(5)
                    .build();
    while (rows->next()) {
      std::printf("%lld,%s,%s\n", static_cast<long long>(rows->getLong("trip_id")),
                  rows->getString("vendor").c_str(),
                  rows->field("fare_amount").getDecimal().toString().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "read_rows: %s\n", e.what());
    return 1;
  }
  return 0;
}
