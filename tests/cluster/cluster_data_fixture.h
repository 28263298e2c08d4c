#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/formats/parquet/parquet_fixture_writer.h"

/// Small Parquet files for the cluster's process tests, written without DuckDB:
/// one INT64 column `x` holding first, first + 1, ... and no statistics, so
/// that a SUM(x) must read the values (nothing is answered from a footer).
namespace quarry::testing {

inline void writeValuesFile(const std::filesystem::path& file, int64_t first, int count) {
  using namespace quarry::parquet;
  using namespace quarry::parquet::testing;
  ParquetFixtureWriter writer;
  writer.column(leafElement("x", PhysicalType::INT64));
  std::vector<Raw> values;
  for (int i = 0; i < count; ++i) values.push_back(le<int64_t>(first + i));
  writer.rowGroup({FixtureChunk{values, std::nullopt, std::nullopt}});
  const std::vector<uint8_t> bytes = writer.bytes();
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

}  // namespace quarry::testing
