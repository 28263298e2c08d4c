// Runs a query with a parameter and streams its result batch by batch
// (quarry/quarry.h), printing each row as CSV in the CLI's value text.
//
//   stream_query data/sample/trips.parquet 10
#include <quarry/quarry.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: stream_query FILE.parquet MIN_MILES\n");
    return 2;
  }
  const std::string query =
      "FROM \"" + std::string(argv[1]) +
      "\" | WHERE trip_distance > ?min_miles"
      " | STATS trips = COUNT(*), fares = SUM(fare_amount), last = MAX(pickup_at) BY vendor"
      " | SORT vendor";
  try {
    quarry::SessionOptions options;
    options.threads = 2;
    const quarry::Session session(options);
    quarry::Result result = session.execute(query, {{"min_miles", std::atof(argv[2])}});
    std::string line;
    for (const quarry::Field& field : result.schema()) {
      line += line.empty() ? "" : ",";
      line += field.name + ":" + field.type.toString();
    }
    std::printf("%s\n", line.c_str());
    while (std::optional<quarry::Batch> batch = result.next()) {
      for (size_t row = 0; row < batch->rowCount(); ++row) {
        line.clear();
        for (size_t column = 0; column < batch->columnCount(); ++column) {
          if (column > 0) line += ',';
          line += batch->text(column, row);
        }
        std::printf("%s\n", line.c_str());
      }
    }
    std::printf("%llu rows, quarry %s\n", static_cast<unsigned long long>(result.rowsReturned()),
                quarry::versionString());
  } catch (const quarry::QueryError& e) {
    std::fprintf(stderr, "stream_query: %s", quarry::queryErrorText(e, query).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stream_query: %s\n", e.what());
    return 1;
  }
  return 0;
}
