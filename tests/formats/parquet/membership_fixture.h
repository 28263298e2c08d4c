#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/formats/parquet/pruning_fixture.h"

/// Test support for Bloom filter and dictionary pruning: files of id INT32 and a
/// column x under test whose chunks carry Bloom filters or dictionary pages
/// (parquet_fixture_writer.h), read with metadata pruning on and off.
namespace quarry::parquet::testing {

/// A chunk of x without statistics (so they prune nothing) and PLAIN pages.
inline FixtureChunk chunkOf(std::vector<Raw> values) {
  FixtureChunk c;
  c.values = std::move(values);
  return c;
}

/// The same chunk with a Bloom filter holding exactly its non-null values.
inline FixtureChunk withBloom(FixtureChunk c) {
  std::vector<std::string> present;
  for (const auto& v : c.values) {
    if (v) present.push_back(*v);
  }
  c.bloom = std::move(present);
  return c;
}

/// The same chunk with a dictionary page and dictionary-encoded data pages.
inline FixtureChunk withDictionary(FixtureChunk c,
                                   FixtureChunk::Pages pages = FixtureChunk::Pages::kDictionary) {
  c.pages = pages;
  return c;
}

/// A file of id INT32 (0, 1, ... with exact statistics) and x, one row group per chunk.
inline std::vector<uint8_t> fileOfChunks(const SchemaElement& x, const std::vector<FixtureChunk>& chunks) {
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32))).column(x);
  int32_t next = 0;
  for (const auto& c : chunks) {
    std::vector<Raw> ids;
    for (size_t i = 0; i < c.values.size(); ++i) ids.push_back(le<int32_t>(next++));
    const int32_t first = next - static_cast<int32_t>(c.values.size());
    w.rowGroup({FixtureChunk{ids, boundsOf(le<int32_t>(first), le<int32_t>(next - 1), 0), std::nullopt}, c});
  }
  return w.bytes();
}

/// Reads ids with pruning on and off; expects the same rows, and returns the pruned read.
inline Read expectSameRows(const std::vector<uint8_t>& file, const FilterPredicate& filter) {
  SCOPED_TRACE(filter.toString());
  Read pruned = readIds(file, filter, true);
  const Read full = readIds(file, filter, false);
  EXPECT_EQ(pruned.ids, full.ids);
  EXPECT_EQ(full.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(full.metrics.rowGroupsPrunedByDictionary, 0);
  return pruned;
}

inline std::string f32(float v) { return le<float>(v); }
inline std::string f32Bits(uint32_t bits) { return le<uint32_t>(bits); }

}  // namespace quarry::parquet::testing
