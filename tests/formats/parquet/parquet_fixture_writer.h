#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/metadata.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/thrift_compact_writer.h"

/// A Parquet writer for tests only: small valid files whose metadata says what
/// the test wants it to say. Flat top-level columns (OPTIONAL or REQUIRED), one
/// uncompressed PLAIN data page per column chunk, statistics written exactly as
/// given (bounds the wrong way round, NaN bounds, only the deprecated fields,
/// nan_count present or absent, bounds that lie about the values), any
/// ColumnOrder member id (an unknown one included), several row groups.
///
///   ParquetFixtureWriter w;
///   w.column(leafElement("x", PhysicalType::INT32));
///   w.rowGroup({{{le<int32_t>(1), std::nullopt}, boundsOf(le<int32_t>(1), le<int32_t>(1), 1)}});
///   std::vector<uint8_t> file = w.bytes();
namespace quarry::parquet::testing {

using quarry::testing::CompactWriter;

/// One column chunk: a value per row (PLAIN's bytes of one value, a BOOLEAN as
/// one byte 0 or 1; nullopt for a null) and the metadata to record for it.
struct FixtureChunk {
  std::vector<Raw> values;
  std::optional<Statistics> statistics;
  std::optional<GeospatialStatistics> geospatial;
};

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
        const std::vector<uint8_t> page = pageOf(columns_.at(c), group[c].values);
        file.insert(file.end(), page.begin(), page.end());
        p.size = static_cast<int64_t>(page.size());
        chunks.push_back(p);
      }
      totalRows += group.empty() ? 0 : static_cast<int64_t>(group[0].values.size());
      placed.push_back(std::move(chunks));
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
  struct ChunkPlacement {
    int64_t offset = 0;
    int64_t size = 0;
  };

  static bool optional(const SchemaElement& e) {
    return e.repetition_type.value_or(FieldRepetitionType::REQUIRED) != FieldRepetitionType::REQUIRED;
  }

  /// One uncompressed PLAIN DATA_PAGE (v1) holding every value of the chunk.
  static std::vector<uint8_t> pageOf(const SchemaElement& e, const std::vector<Raw>& values) {
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
    if (e.type == PhysicalType::BOOLEAN) {
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
        h.i32(2, 0);  // PLAIN
        h.i32(3, 3);  // RLE
        h.i32(4, 3);
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

  static void statistics(CompactWriter& w, const Statistics& s) {
    w.structField(12, [&] {
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
            w.i32(1, static_cast<int64_t>(*e.type));
            w.list(2, T::I32, std::vector<int>{0, 3}, [&](int v) { w.zigzag(v); });  // PLAIN, RLE
            w.list(3, T::BINARY, std::vector<std::string>{e.name}, [&](const std::string& s) { w.binary(s); });
            w.i32(4, 0);  // UNCOMPRESSED
            w.i64(5, rows);
            w.i64(6, placed[c].size);
            w.i64(7, placed[c].size);
            w.i64(9, placed[c].offset);
            if (chunk.statistics) statistics(w, *chunk.statistics);
            w.list(13, T::STRUCT, std::vector<int>{1}, [&](int count) {
              w.structBody([&] {
                w.i32(1, 0);  // DATA_PAGE
                w.i32(2, 0);  // PLAIN
                w.i32(3, count);
              });
            });
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
          });
        });
      });
      w.i64(2, bytes);
      w.i64(3, rows);
    });
  }

  std::vector<SchemaElement> columns_;
  std::vector<std::vector<FixtureChunk>> rowGroups_;
  std::optional<std::vector<int16_t>> columnOrders_;
};

}  // namespace quarry::parquet::testing
