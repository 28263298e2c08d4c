#pragma once

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/metadata.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/thrift_compact_writer.h"

/// A Parquet writer for tests only: small valid files whose metadata says what
/// the test wants it to say. Flat top-level columns (OPTIONAL or REQUIRED), one
/// uncompressed PLAIN data page per column chunk (or a dictionary page and
/// dictionary-encoded pages, see FixtureChunk::pages), split-block Bloom filters
/// of chosen values (hashed here with XXH64 directly, independently of
/// bloom_filter.cc), statistics written exactly as
/// given (bounds the wrong way round, NaN bounds, only the deprecated fields,
/// nan_count present or absent, bounds that lie about the values), any
/// ColumnOrder member id (an unknown one included), several row groups, pages
/// with a page index or with statistics in their headers only.
///
///   ParquetFixtureWriter w;
///   w.column(leafElement("x", PhysicalType::INT32));
///   w.rowGroup({{{le<int32_t>(1), std::nullopt}, boundsOf(le<int32_t>(1), le<int32_t>(1), 1)}});
///   std::vector<uint8_t> file = w.bytes();
namespace quarry::parquet::testing {

using quarry::testing::CompactWriter;

/// One data page of a chunk written with a page index, and what the page index
/// records of it (exactly as given: bounds may lie like chunk statistics).
struct FixturePage {
  size_t rows = 0;
  std::optional<std::string> min = std::nullopt;
  std::optional<std::string> max = std::nullopt;
  std::optional<int64_t> nullCount = std::nullopt;
  std::optional<int64_t> nanCount = std::nullopt;
  /// null_pages: the page holds only nulls (min and max are then written empty).
  bool nullPage = false;
  /// Statistics written, exactly as given, in the page's DataPageHeader.
  std::optional<Statistics> headerStatistics = std::nullopt;
};

/// One column chunk: a value per row (PLAIN's bytes of one value, a BOOLEAN as
/// one byte 0 or 1; nullopt for a null) and the metadata to record for it.
struct FixtureChunk {
  std::vector<Raw> values;
  std::optional<Statistics> statistics;
  std::optional<GeospatialStatistics> geospatial;

  enum class Pages {
    /// One PLAIN data page.
    kPlain,
    /// A dictionary page (the distinct values, in order of appearance) and one
    /// RLE_DICTIONARY data page.
    kDictionary,
    /// A dictionary page, an RLE_DICTIONARY data page for the first half of the
    /// rows and a PLAIN one for the rest (a writer whose dictionary overflowed).
    kDictionaryThenPlain,
  };
  Pages pages = Pages::kPlain;
  /// Whether ColumnMetaData carries encoding_stats for the pages written.
  bool encodingStats = true;
  /// The PLAIN values (without a BYTE_ARRAY length prefix) a Bloom filter of
  /// bloomBytes bytes holds, written after the row groups; nullopt: no filter.
  std::optional<std::vector<std::string>> bloom = std::nullopt;
  size_t bloomBytes = 64;
  /// Whether bloom_filter_length is recorded, and overrides for corrupt files.
  bool bloomLength = true;
  std::optional<int32_t> bloomLengthOverride = std::nullopt;
  std::optional<int32_t> bloomNumBytesOverride = std::nullopt;
  /// A PLAIN chunk split into these pages (their rows add up to the chunk's),
  /// with an OffsetIndex and, when columnIndex is set, a ColumnIndex written after
  /// the row groups; empty: one page and no page index.
  std::vector<FixturePage> pageIndex = {};
  bool columnIndex = true;
  /// false: the pages are written without any page index (no OffsetIndex, no
  /// ColumnIndex), as writers that keep statistics in page headers only do.
  bool offsetIndex = true;
};

/// Inserts XXH64(value) into a split-block bitset (parquet-format BloomFilter.md).
inline void sbbfInsert(std::vector<uint8_t>& bitset, const std::string& value) {
  static constexpr std::array<uint32_t, 8> kSalt = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU,
                                                    0xa2b7289dU, 0x705495c7U, 0x2df1424bU,
                                                    0x9efc4947U, 0x5c6bfb31U};
  const uint64_t hash = XXH64(value.data(), value.size(), 0);
  const uint64_t blocks = bitset.size() / 32;
  const uint64_t block = ((hash >> 32) * blocks) >> 32;
  for (size_t i = 0; i < 8; ++i) {
    const uint32_t bit = (static_cast<uint32_t>(hash) * kSalt[i]) >> 27;
    bitset[block * 32 + 4 * i + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
  }
}

/// Returns Statistics with min_value / max_value and null_count (each optional).
inline Statistics boundsOf(std::optional<std::string> min, std::optional<std::string> max,
                           std::optional<int64_t> nullCount,
                           std::optional<int64_t> nanCount = std::nullopt) {
  Statistics s;
  s.min_value = std::move(min);
  s.max_value = std::move(max);
  s.null_count = nullCount;
  s.nan_count = nanCount;
  return s;
}

class ParquetFixtureWriter {
 public:
  using T = parquet::ThriftType;

  /// ColumnOrder union member ids (parquet.thrift): 1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER,
  /// 3 INT96_TIMESTAMP_ORDER; any other id is one no release knows.
  static constexpr int16_t kTypeOrder = 1;
  static constexpr int16_t kIeee754TotalOrder = 2;

  /// Adds a top-level leaf column (name, physical type, repetition, annotations).
  ParquetFixtureWriter& column(SchemaElement leaf) {
    columns_.push_back(std::move(leaf));
    return *this;
  }
  /// Adds a row group: one chunk per column, all with the same number of rows.
  ParquetFixtureWriter& rowGroup(std::vector<FixtureChunk> chunks) {
    rowGroups_.push_back(std::move(chunks));
    return *this;
  }
  /// Sets the column orders, one member id per column (default: TYPE_ORDER for
  /// each); an empty list writes no column_orders field.
  ParquetFixtureWriter& columnOrders(std::vector<int16_t> members) {
    columnOrders_ = std::move(members);
    return *this;
  }

  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> file = {'P', 'A', 'R', '1'};
    std::vector<std::vector<ChunkPlacement>> placed;
    int64_t totalRows = 0;
    for (const auto& group : rowGroups_) {
      std::vector<ChunkPlacement> chunks;
      for (size_t c = 0; c < group.size(); ++c) {
        ChunkPlacement p;
        p.offset = static_cast<int64_t>(file.size());
        const std::vector<uint8_t> pages = pagesOf(columns_.at(c), group[c], p.dataPageOffset, p.pages);
        p.dataPageOffset += p.offset;
        for (auto& page : p.pages) page.offset += p.offset;
        file.insert(file.end(), pages.begin(), pages.end());
        p.size = static_cast<int64_t>(pages.size());
        chunks.push_back(p);
      }
      totalRows += group.empty() ? 0 : static_cast<int64_t>(group[0].values.size());
      placed.push_back(std::move(chunks));
    }
    // Bloom filters after every row group, as writers place them.
    for (size_t g = 0; g < rowGroups_.size(); ++g) {
      for (size_t c = 0; c < rowGroups_[g].size(); ++c) {
        const FixtureChunk& chunk = rowGroups_[g][c];
        if (!chunk.bloom) continue;
        std::vector<uint8_t> bitset(chunk.bloomBytes);
        for (const auto& v : *chunk.bloom) sbbfInsert(bitset, v);
        CompactWriter h;
        h.structBody([&] {
          h.i32(1, chunk.bloomNumBytesOverride.value_or(static_cast<int32_t>(bitset.size())));
          for (int16_t id = 2; id <= 4; ++id) h.structField(id, [&] { h.structField(1, [] {}); });
        });
        placed[g][c].bloomOffset = static_cast<int64_t>(file.size());
        placed[g][c].bloomLength = static_cast<int64_t>(h.bytes.size() + bitset.size());
        file.insert(file.end(), h.bytes.begin(), h.bytes.end());
        file.insert(file.end(), bitset.begin(), bitset.end());
      }
    }
    // Page indexes after them: every ColumnIndex, then every OffsetIndex.
    for (bool columnIndexes : {true, false}) {
      for (size_t g = 0; g < rowGroups_.size(); ++g) {
        for (size_t c = 0; c < rowGroups_[g].size(); ++c) {
          const FixtureChunk& chunk = rowGroups_[g][c];
          if (chunk.pageIndex.empty() || !chunk.offsetIndex ||
              (columnIndexes && !chunk.columnIndex)) {
            continue;
          }
          ChunkPlacement& p = placed[g][c];
          const std::vector<uint8_t> index = columnIndexes ? columnIndexOf(chunk) : offsetIndexOf(p);
          (columnIndexes ? p.columnIndex : p.offsetIndex) = {static_cast<int64_t>(file.size()),
                                                             static_cast<int64_t>(index.size())};
          file.insert(file.end(), index.begin(), index.end());
        }
      }
    }
    CompactWriter w;
    w.structBody([&] {
      w.i32(1, 1);
      std::vector<int> elementIndex(columns_.size() + 1);
      for (size_t i = 0; i < elementIndex.size(); ++i) elementIndex[i] = static_cast<int>(i);
      w.list(2, T::STRUCT, elementIndex, [&](int i) {
        if (i == 0) {
          w.structBody([&] {
            w.bin(4, "schema");
            w.i32(5, static_cast<int64_t>(columns_.size()));
          });
        } else {
          schemaElement(w, columns_[static_cast<size_t>(i - 1)]);
        }
      });
      w.i64(3, totalRows);
      std::vector<size_t> groups(rowGroups_.size());
      for (size_t g = 0; g < groups.size(); ++g) groups[g] = g;
      w.list(4, T::STRUCT, groups, [&](size_t g) { rowGroupOf(w, g, placed[g]); });
      w.bin(6, "quarry parquet_fixture_writer");
      std::vector<int16_t> orders = columnOrders_.value_or(std::vector<int16_t>(columns_.size(), kTypeOrder));
      if (!orders.empty()) {
        w.list(7, T::STRUCT, orders, [&](int16_t member) {
          w.structBody([&] { w.structField(member, [] {}); });
        });
      }
    });
    file.insert(file.end(), w.bytes.begin(), w.bytes.end());
    const auto length = static_cast<uint32_t>(w.bytes.size());
    for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(length >> (8 * i)));
    for (char c : std::string("PAR1")) file.push_back(static_cast<uint8_t>(c));
    return file;
  }

 private:
  struct PagePlacement {
    int64_t offset = 0;
    int64_t size = 0;
    int64_t firstRow = 0;
  };
  struct ChunkPlacement {
    int64_t offset = 0;
    int64_t size = 0;
    int64_t dataPageOffset = 0;
    int64_t bloomOffset = -1;
    int64_t bloomLength = 0;
    std::vector<PagePlacement> pages;
    /// (offset, length) of the chunk's ColumnIndex / OffsetIndex; offset -1: none.
    std::pair<int64_t, int64_t> columnIndex{-1, 0};
    std::pair<int64_t, int64_t> offsetIndex{-1, 0};
  };

  static std::vector<uint8_t> columnIndexOf(const FixtureChunk& chunk) {
    CompactWriter w;
    const auto& pages = chunk.pageIndex;
    w.structBody([&] {
      w.list(1, T::BOOLEAN_TRUE, pages, [&](const FixturePage& p) { w.byte(p.nullPage ? 1 : 2); });
      w.list(2, T::BINARY, pages, [&](const FixturePage& p) { w.binary(p.min.value_or("")); });
      w.list(3, T::BINARY, pages, [&](const FixturePage& p) { w.binary(p.max.value_or("")); });
      w.i32(4, 0);  // UNORDERED
      if (pages.front().nullCount) {
        w.list(5, T::I64, pages, [&](const FixturePage& p) { w.zigzag(p.nullCount.value_or(0)); });
      }
      if (pages.front().nanCount) {
        w.list(8, T::I64, pages, [&](const FixturePage& p) { w.zigzag(p.nanCount.value_or(0)); });
      }
    });
    return w.bytes;
  }

  static std::vector<uint8_t> offsetIndexOf(const ChunkPlacement& placed) {
    CompactWriter w;
    w.structBody([&] {
      w.list(1, T::STRUCT, placed.pages, [&](const PagePlacement& p) {
        w.structBody([&] {
          w.i64(1, p.offset);
          w.i32(2, p.size);
          w.i64(3, p.firstRow);
        });
      });
    });
    return w.bytes;
  }

  static bool optional(const SchemaElement& e) {
    return e.repetition_type.value_or(FieldRepetitionType::REQUIRED) != FieldRepetitionType::REQUIRED;
  }

  /// The chunk's pages; sets `dataPageOffset` to the first data page's offset in them.
  static std::vector<uint8_t> pagesOf(const SchemaElement& e, const FixtureChunk& chunk,
                                      int64_t& dataPageOffset, std::vector<PagePlacement>& placed) {
    using Pages = FixtureChunk::Pages;
    dataPageOffset = 0;
    if (chunk.pages == Pages::kPlain && !chunk.pageIndex.empty()) {
      std::vector<uint8_t> out;
      size_t row = 0;
      for (const FixturePage& page : chunk.pageIndex) {
        const std::vector<Raw> rows(chunk.values.begin() + static_cast<std::ptrdiff_t>(row),
                                    chunk.values.begin() + static_cast<std::ptrdiff_t>(row + page.rows));
        const auto bytes = pageOf(e, rows, 0, nullptr,
                                  page.headerStatistics ? &*page.headerStatistics : nullptr);
        placed.push_back({static_cast<int64_t>(out.size()), static_cast<int64_t>(bytes.size()),
                          static_cast<int64_t>(row)});
        out.insert(out.end(), bytes.begin(), bytes.end());
        row += page.rows;
      }
      return out;
    }
    if (chunk.pages == Pages::kPlain) return pageOf(e, chunk.values);
    const size_t split = chunk.pages == Pages::kDictionary ? chunk.values.size() : chunk.values.size() / 2;
    const std::vector<Raw> head(chunk.values.begin(), chunk.values.begin() + static_cast<std::ptrdiff_t>(split));
    const std::vector<Raw> tail(chunk.values.begin() + static_cast<std::ptrdiff_t>(split), chunk.values.end());
    // The dictionary: the distinct non-null values of the dictionary-encoded rows,
    // in order of appearance (the PLAIN rows after it may hold others).
    std::vector<Raw> entries;
    std::map<std::string, uint32_t> indexOf;
    for (const auto& v : head) {
      if (v && indexOf.emplace(*v, static_cast<uint32_t>(entries.size())).second) entries.push_back(v);
    }
    std::vector<uint8_t> out = dictionaryPageOf(e, entries);
    dataPageOffset = static_cast<int64_t>(out.size());
    uint32_t width = 1;
    while ((uint64_t{1} << width) < entries.size()) ++width;
    std::vector<uint8_t> indices = {static_cast<uint8_t>(width)};
    for (const auto& v : head) {
      if (!v) continue;
      indices.push_back(2);  // an RLE run of one
      const uint32_t index = indexOf.at(*v);
      for (uint32_t b = 0; b < (width + 7) / 8; ++b) indices.push_back(static_cast<uint8_t>(index >> (8 * b)));
    }
    const auto dataPage = pageOf(e, head, 8, &indices);  // RLE_DICTIONARY
    out.insert(out.end(), dataPage.begin(), dataPage.end());
    if (!tail.empty()) {
      const auto plain = pageOf(e, tail);
      out.insert(out.end(), plain.begin(), plain.end());
    }
    return out;
  }

  static std::vector<uint8_t> dictionaryPageOf(const SchemaElement& e, const std::vector<Raw>& entries) {
    std::vector<uint8_t> body;
    for (const auto& v : entries) {
      if (e.type == PhysicalType::BYTE_ARRAY) {
        const auto n = static_cast<uint32_t>(v->size());
        for (int i = 0; i < 4; ++i) body.push_back(static_cast<uint8_t>(n >> (8 * i)));
      }
      body.insert(body.end(), v->begin(), v->end());
    }
    CompactWriter h;
    h.structBody([&] {
      h.i32(1, 2);  // DICTIONARY_PAGE
      h.i32(2, static_cast<int64_t>(body.size()));
      h.i32(3, static_cast<int64_t>(body.size()));
      h.structField(7, [&] {
        h.i32(1, static_cast<int64_t>(entries.size()));
        h.i32(2, 0);  // PLAIN
      });
    });
    std::vector<uint8_t> page = h.bytes;
    page.insert(page.end(), body.begin(), body.end());
    return page;
  }

  /// One uncompressed DATA_PAGE (v1) holding `values`: PLAIN, or the values
  /// section `encoded` with `encoding`; `stats` in its header where given.
  static std::vector<uint8_t> pageOf(const SchemaElement& e, const std::vector<Raw>& values,
                                     int encoding = 0, const std::vector<uint8_t>* encoded = nullptr,
                                     const Statistics* stats = nullptr) {
    std::vector<uint8_t> body;
    if (optional(e)) {
      // Definition levels: RLE runs of bit width 1 behind a 4-byte length.
      std::vector<uint8_t> levels;
      for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j < values.size() && values[j].has_value() == values[i].has_value()) ++j;
        for (uint64_t run = (j - i) << 1; true; run >>= 7) {
          if (run < 0x80) {
            levels.push_back(static_cast<uint8_t>(run));
            break;
          }
          levels.push_back(static_cast<uint8_t>(run) | 0x80);
        }
        levels.push_back(values[i].has_value() ? 1 : 0);
        i = j;
      }
      const auto n = static_cast<uint32_t>(levels.size());
      for (int i = 0; i < 4; ++i) body.push_back(static_cast<uint8_t>(n >> (8 * i)));
      body.insert(body.end(), levels.begin(), levels.end());
    }
    if (encoded != nullptr) {
      body.insert(body.end(), encoded->begin(), encoded->end());
    } else if (e.type == PhysicalType::BOOLEAN) {
      std::vector<uint8_t> bits;
      size_t k = 0;
      for (const auto& v : values) {
        if (!v) continue;
        if (k % 8 == 0) bits.push_back(0);
        if (!v->empty() && (*v)[0] != 0) bits.back() |= static_cast<uint8_t>(1u << (k % 8));
        ++k;
      }
      body.insert(body.end(), bits.begin(), bits.end());
    } else {
      for (const auto& v : values) {
        if (!v) continue;
        if (e.type == PhysicalType::BYTE_ARRAY) {
          const auto n = static_cast<uint32_t>(v->size());
          for (int i = 0; i < 4; ++i) body.push_back(static_cast<uint8_t>(n >> (8 * i)));
        }
        body.insert(body.end(), v->begin(), v->end());
      }
    }
    CompactWriter h;
    h.structBody([&] {
      h.i32(1, 0);  // DATA_PAGE
      h.i32(2, static_cast<int64_t>(body.size()));
      h.i32(3, static_cast<int64_t>(body.size()));
      h.structField(5, [&] {
        h.i32(1, static_cast<int64_t>(values.size()));
        h.i32(2, encoding);
        h.i32(3, 3);  // RLE
        h.i32(4, 3);
        if (stats != nullptr) statistics(h, *stats, 5);
      });
    });
    std::vector<uint8_t> page = h.bytes;
    page.insert(page.end(), body.begin(), body.end());
    return page;
  }

  static void logicalType(CompactWriter& w, const LogicalType& t) {
    using K = LogicalType::Kind;
    w.structField(10, [&] {
      switch (t.kind) {
        case K::DECIMAL:
          w.structField(5, [&] {
            w.i32(1, t.scale);
            w.i32(2, t.precision);
          });
          break;
        case K::TIME:
        case K::TIMESTAMP:
          w.structField(static_cast<int16_t>(t.kind), [&] {
            w.boolean(1, t.isAdjustedToUTC);
            w.structField(2, [&] { w.structField(static_cast<int16_t>(t.unit), [] {}); });
          });
          break;
        case K::INTEGER:
          w.structField(10, [&] {
            w.i8(1, t.bitWidth);
            w.boolean(2, t.isSigned);
          });
          break;
        case K::UNKNOWN_MEMBER: w.structField(t.unknownFieldId, [] {}); break;
        default: w.structField(static_cast<int16_t>(t.kind), [] {}); break;
      }
    });
  }

  static void schemaElement(CompactWriter& w, const SchemaElement& e) {
    w.structBody([&] {
      w.i32(1, static_cast<int64_t>(*e.type));
      if (e.type_length) w.i32(2, *e.type_length);
      w.i32(3, static_cast<int64_t>(e.repetition_type.value_or(FieldRepetitionType::REQUIRED)));
      w.bin(4, e.name);
      if (e.converted_type) w.i32(6, static_cast<int64_t>(*e.converted_type));
      if (e.scale) w.i32(7, *e.scale);
      if (e.precision) w.i32(8, *e.precision);
      if (e.logicalType) logicalType(w, *e.logicalType);
    });
  }

  /// Writes `s` as struct field `field` (12 in ColumnMetaData, 5 in DataPageHeader).
  static void statistics(CompactWriter& w, const Statistics& s, int16_t field = 12) {
    w.structField(field, [&] {
      if (s.max) w.bin(1, *s.max);
      if (s.min) w.bin(2, *s.min);
      if (s.null_count) w.i64(3, *s.null_count);
      if (s.distinct_count) w.i64(4, *s.distinct_count);
      if (s.max_value) w.bin(5, *s.max_value);
      if (s.min_value) w.bin(6, *s.min_value);
      if (s.is_max_value_exact) w.boolean(7, *s.is_max_value_exact);
      if (s.is_min_value_exact) w.boolean(8, *s.is_min_value_exact);
      if (s.nan_count) w.i64(9, *s.nan_count);
    });
  }

  void rowGroupOf(CompactWriter& w, size_t g, const std::vector<ChunkPlacement>& placed) const {
    const auto& group = rowGroups_[g];
    const int64_t rows = group.empty() ? 0 : static_cast<int64_t>(group[0].values.size());
    int64_t bytes = 0;
    for (const auto& p : placed) bytes += p.size;
    w.structBody([&] {
      std::vector<size_t> chunks(group.size());
      for (size_t c = 0; c < chunks.size(); ++c) chunks[c] = c;
      w.list(1, T::STRUCT, chunks, [&](size_t c) {
        const SchemaElement& e = columns_.at(c);
        const FixtureChunk& chunk = group[c];
        w.structBody([&] {
          w.i64(2, placed[c].offset);
          w.structField(3, [&] {
            writeChunkMetaData(w, e, chunk, placed[c], rows);
          });
          if (placed[c].offsetIndex.first >= 0) {
            w.i64(4, placed[c].offsetIndex.first);
            w.i32(5, placed[c].offsetIndex.second);
          }
          if (placed[c].columnIndex.first >= 0) {
            w.i64(6, placed[c].columnIndex.first);
            w.i32(7, placed[c].columnIndex.second);
          }
        });
      });
      w.i64(2, bytes);
      w.i64(3, rows);
    });
  }

  static void writeChunkMetaData(CompactWriter& w, const SchemaElement& e, const FixtureChunk& chunk,
                                 const ChunkPlacement& placed, int64_t rows) {
    using Pages = FixtureChunk::Pages;
    w.i32(1, static_cast<int64_t>(*e.type));
    const std::vector<int> encodings =
        chunk.pages == Pages::kPlain ? std::vector<int>{0, 3} : std::vector<int>{0, 3, 8};
    w.list(2, T::I32, encodings, [&](int v) { w.zigzag(v); });  // PLAIN, RLE, RLE_DICTIONARY
    w.list(3, T::BINARY, std::vector<std::string>{e.name}, [&](const std::string& s) { w.binary(s); });
    w.i32(4, 0);  // UNCOMPRESSED
    w.i64(5, rows);
    w.i64(6, placed.size);
    w.i64(7, placed.size);
    w.i64(9, placed.dataPageOffset);
    if (chunk.pages != Pages::kPlain) w.i64(11, placed.offset);
    if (chunk.statistics) statistics(w, *chunk.statistics);
    // (page type, encoding, count)
    std::vector<std::array<int, 3>> stats;
    if (chunk.pages == Pages::kPlain) {
      stats.push_back({0, 0, static_cast<int>(std::max<size_t>(1, chunk.pageIndex.size()))});
    } else {
      stats.push_back({2, 0, 1});  // DICTIONARY_PAGE, PLAIN
      stats.push_back({0, 8, 1});  // DATA_PAGE, RLE_DICTIONARY
      if (chunk.pages == Pages::kDictionaryThenPlain) stats.push_back({0, 0, 1});
    }
    if (chunk.encodingStats) {
      w.list(13, T::STRUCT, stats, [&](const std::array<int, 3>& s) {
        w.structBody([&] {
          w.i32(1, s[0]);
          w.i32(2, s[1]);
          w.i32(3, s[2]);
        });
      });
    }
    if (placed.bloomOffset >= 0) {
      w.i64(14, placed.bloomOffset);
      if (chunk.bloomLength) {
        w.i32(15, chunk.bloomLengthOverride.value_or(static_cast<int32_t>(placed.bloomLength)));
      }
    }
    if (chunk.geospatial && chunk.geospatial->bbox) {
      const BoundingBox& b = *chunk.geospatial->bbox;
      w.structField(17, [&] {
        w.structField(1, [&] {
          w.dbl(1, b.xmin);
          w.dbl(2, b.xmax);
          w.dbl(3, b.ymin);
          w.dbl(4, b.ymax);
        });
      });
    }
  }

  std::vector<SchemaElement> columns_;
  std::vector<std::vector<FixtureChunk>> rowGroups_;
  std::optional<std::vector<int16_t>> columnOrders_;
};

}  // namespace quarry::parquet::testing
