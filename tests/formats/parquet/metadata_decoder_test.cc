#include "quarry/formats/parquet/metadata_decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/thrift_compact_writer.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::CompactWriter;
using T = ThriftType;
using K = LogicalType::Kind;

// ---- encoders, one per struct, writing exactly the fields a value holds ----

void enc(CompactWriter& w, const Statistics& s) {
  w.structBody([&] {
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

void enc(CompactWriter& w, const SizeStatistics& s) {
  w.structBody([&] {
    if (s.unencoded_byte_array_data_bytes) w.i64(1, *s.unencoded_byte_array_data_bytes);
    w.i64List(2, s.repetition_level_histogram);
    w.i64List(3, s.definition_level_histogram);
  });
}

void enc(CompactWriter& w, const GeospatialStatistics& g) {
  w.structBody([&] {
    if (const auto& b = g.bbox) {
      w.structField(1, [&] {
        w.dbl(1, b->xmin), w.dbl(2, b->xmax), w.dbl(3, b->ymin), w.dbl(4, b->ymax);
        if (b->zmin) w.dbl(5, *b->zmin);
        if (b->zmax) w.dbl(6, *b->zmax);
        if (b->mmin) w.dbl(7, *b->mmin);
        if (b->mmax) w.dbl(8, *b->mmax);
      });
    }
    w.list(2, T::I32, g.geospatial_types, [&](int32_t t) { w.zigzag(t); });
  });
}

void emptyMember(CompactWriter& w, int16_t id) {
  w.structField(id, [] {});
}

void enc(CompactWriter& w, const LogicalType& t) {
  w.structBody([&] {
    auto id = static_cast<int16_t>(t.kind == K::UNKNOWN_MEMBER ? t.unknownFieldId
                                                               : static_cast<int>(t.kind));
    w.structField(id, [&] {
      switch (t.kind) {
        case K::DECIMAL:
          w.i32(1, t.scale), w.i32(2, t.precision);
          break;
        case K::TIME:
        case K::TIMESTAMP:
          w.boolean(1, t.isAdjustedToUTC);
          w.structField(2, [&] { emptyMember(w, static_cast<int16_t>(t.unit)); });
          break;
        case K::INTEGER:
          w.i8(1, t.bitWidth), w.boolean(2, t.isSigned);
          break;
        case K::VARIANT:
          if (t.specificationVersion) w.i8(1, *t.specificationVersion);
          break;
        case K::GEOMETRY:
        case K::GEOGRAPHY:
          if (t.crs) w.bin(1, *t.crs);
          if (t.algorithm) w.i32(2, static_cast<int32_t>(*t.algorithm));
          break;
        default:
          break;
      }
    });
  });
}

void enc(CompactWriter& w, const SchemaElement& e) {
  w.structBody([&] {
    if (e.type) w.i32(1, static_cast<int32_t>(*e.type));
    if (e.type_length) w.i32(2, *e.type_length);
    if (e.repetition_type) w.i32(3, static_cast<int32_t>(*e.repetition_type));
    w.bin(4, e.name);
    if (e.num_children) w.i32(5, *e.num_children);
    if (e.converted_type) w.i32(6, static_cast<int32_t>(*e.converted_type));
    if (e.scale) w.i32(7, *e.scale);
    if (e.precision) w.i32(8, *e.precision);
    if (e.field_id) w.i32(9, *e.field_id);
    if (e.logicalType) w.field(10, T::STRUCT), enc(w, *e.logicalType);
  });
}

void kvList(CompactWriter& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.list(id, T::STRUCT, kvs, [&](const KeyValue& kv) {
    w.structBody([&] {
      w.bin(1, kv.key);
      if (kv.value) w.bin(2, *kv.value);
    });
  });
}

void enc(CompactWriter& w, const ColumnMetaData& m) {
  w.structBody([&] {
    w.i32(1, static_cast<int32_t>(m.type));
    w.list(2, T::I32, m.encodings, [&](Encoding e) { w.zigzag(static_cast<int32_t>(e)); });
    w.list(3, T::BINARY, *m.path_in_schema, [&](const std::string& s) { w.binary(s); });
    w.i32(4, static_cast<int32_t>(m.codec));
    w.i64(5, m.num_values), w.i64(6, m.total_uncompressed_size);
    w.i64(7, m.total_compressed_size);
    if (!m.key_value_metadata.empty()) kvList(w, 8, m.key_value_metadata);
    w.i64(9, m.data_page_offset);
    if (m.index_page_offset) w.i64(10, *m.index_page_offset);
    if (m.dictionary_page_offset) w.i64(11, *m.dictionary_page_offset);
    if (m.statistics) w.field(12, T::STRUCT), enc(w, *m.statistics);
    if (m.encoding_stats) {
      w.list(13, T::STRUCT, *m.encoding_stats, [&](const PageEncodingStats& s) {
        w.structBody([&] {
          w.i32(1, static_cast<int32_t>(s.page_type));
          w.i32(2, static_cast<int32_t>(s.encoding)), w.i32(3, s.count);
        });
      });
    }
    if (m.bloom_filter_offset) w.i64(14, *m.bloom_filter_offset);
    if (m.bloom_filter_length) w.i32(15, *m.bloom_filter_length);
    if (m.size_statistics) w.field(16, T::STRUCT), enc(w, *m.size_statistics);
    if (m.geospatial_statistics) w.field(17, T::STRUCT), enc(w, *m.geospatial_statistics);
  });
}

void enc(CompactWriter& w, const ColumnChunk& c) {
  w.structBody([&] {
    if (c.file_path) w.bin(1, *c.file_path);
    w.i64(2, c.file_offset);
    if (c.meta_data) w.field(3, T::STRUCT), enc(w, *c.meta_data);
    if (c.offset_index_offset) w.i64(4, *c.offset_index_offset);
    if (c.offset_index_length) w.i32(5, *c.offset_index_length);
    if (c.column_index_offset) w.i64(6, *c.column_index_offset);
    if (c.column_index_length) w.i32(7, *c.column_index_length);
    if (c.has_crypto_metadata) w.structField(8, [&] { emptyMember(w, 1); });
    if (c.has_encrypted_column_metadata) w.bin(9, "ciphertext");
  });
}

void enc(CompactWriter& w, const FileMetaData& m) {
  w.structBody([&] {
    w.i32(1, m.version);
    w.list(2, T::STRUCT, m.schema, [&](const SchemaElement& e) { enc(w, e); });
    w.i64(3, m.num_rows);
    w.list(4, T::STRUCT, m.row_groups, [&](const RowGroup& g) {
      w.structBody([&] {
        w.list(1, T::STRUCT, g.columns, [&](const ColumnChunk& c) { enc(w, c); });
        w.i64(2, g.total_byte_size), w.i64(3, g.num_rows);
        if (!g.sorting_columns.empty()) {
          w.list(4, T::STRUCT, g.sorting_columns, [&](const SortingColumn& s) {
            w.structBody([&] {
              w.i32(1, s.column_idx), w.boolean(2, s.descending), w.boolean(3, s.nulls_first);
            });
          });
        }
        if (g.file_offset) w.i64(5, *g.file_offset);
        if (g.total_compressed_size) w.i64(6, *g.total_compressed_size);
        if (g.ordinal) w.field(7, T::I16), w.zigzag(*g.ordinal);
      });
    });
    if (!m.key_value_metadata.empty()) kvList(w, 5, m.key_value_metadata);
    if (m.created_by) w.bin(6, *m.created_by);
    if (m.column_orders) {
      w.list(7, T::STRUCT, *m.column_orders, [&](ColumnOrder o) {
        w.structBody([&] { emptyMember(w, static_cast<int16_t>(o)); });
      });
    }
    if (m.has_encryption_algorithm)
      w.structField(8, [&] { w.structField(1, [&] { w.bin(1, "aad"); }); });
    if (m.footer_signing_key_metadata) w.bin(9, *m.footer_signing_key_metadata);
  });
}

std::vector<uint8_t> encode(const FileMetaData& m, bool withUnknownFields = false) {
  CompactWriter w;
  w.withUnknownFields = withUnknownFields;
  enc(w, m);
  return w.bytes;
}

std::span<const uint8_t> span(const std::vector<uint8_t>& v) {
  return {v.data(), v.size()};
}

LogicalType logical(K kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

/// Builds a footer with `columns` leaves under the root and `rowGroups` row
/// groups; column 0 of each row group carries every optional field.
FileMetaData sampleFileMetaData(int columns = 4, int rowGroups = 2) {
  FileMetaData m;
  m.version = 2;
  m.created_by = "parquet-cpp-arrow version 15.0.0";
  SchemaElement root;
  root.name = "schema", root.num_children = columns;
  m.schema.push_back(root);
  std::vector<LogicalType> types = {
      logical(K::STRING),  logical(K::DECIMAL),   logical(K::TIMESTAMP),
      logical(K::INTEGER), logical(K::GEOGRAPHY), logical(K::VARIANT),
      logical(K::UNKNOWN), logical(K::UUID),      logical(K::TIME)};
  types[1].precision = 9, types[1].scale = 2;
  types[2].unit = TimeUnit::MICROS, types[2].isAdjustedToUTC = true;
  types[3].bitWidth = 8, types[3].isSigned = false;
  types[4].crs = "OGC:CRS84", types[4].algorithm = EdgeInterpolationAlgorithm::KARNEY;
  types[5].specificationVersion = 1;
  types[8].unit = TimeUnit::NANOS;
  for (int i = 0; i < columns; ++i) {
    SchemaElement e;
    e.type = PhysicalType::BYTE_ARRAY, e.repetition_type = FieldRepetitionType::OPTIONAL;
    e.name = "c" + std::to_string(i);
    if (i % 3 == 0) e.logicalType = types[i / 3 % types.size()];
    if (i == 1)
      e.type_length = 16, e.converted_type = ConvertedType::DECIMAL, e.scale = 2, e.precision = 9;
    if (i == 2) e.field_id = -7;
    m.schema.push_back(e);
  }
  for (int g = 0; g < rowGroups; ++g) {
    RowGroup rg;
    rg.total_byte_size = 1000 + g, rg.num_rows = 100;
    m.num_rows += rg.num_rows;
    for (int i = 0; i < columns; ++i) {
      ColumnChunk c;
      c.file_offset = 4 + i;
      ColumnMetaData& cm = c.meta_data.emplace();
      cm.type = PhysicalType::BYTE_ARRAY;
      cm.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
      cm.path_in_schema = std::make_shared<const std::vector<std::string>>(1, "c" + std::to_string(i));
      cm.codec = CompressionCodec::ZSTD;
      cm.num_values = 100, cm.total_uncompressed_size = 2000, cm.total_compressed_size = 1000;
      cm.data_page_offset = 4 + 1000 * i;
      cm.dictionary_page_offset = 4 + 1000 * i - 50;
      Statistics& st = cm.statistics.emplace();
      st.null_count = 3, st.max_value = "zzz" + std::to_string(i), st.min_value = "aaa";
      st.is_max_value_exact = true;
      cm.encoding_stats = {{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                           {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 2}};
      if (i == 0) {
        cm.key_value_metadata = {{"k", "v"}, {"only-key", std::nullopt}};
        cm.index_page_offset = 77;
        cm.statistics->max = "old-max", cm.statistics->min = "old-min";
        cm.statistics->distinct_count = 5, cm.statistics->nan_count = 0;
        cm.statistics->is_min_value_exact = false;
        cm.bloom_filter_offset = 9000, cm.bloom_filter_length = 512;
        cm.size_statistics = SizeStatistics{123, {1, 2}, {3, 4, 5}};
        BoundingBox box;
        box.xmin = -1, box.xmax = 1, box.ymin = -2, box.ymax = 2, box.zmin = 0.5;
        cm.geospatial_statistics = GeospatialStatistics{box, {1, 3}};
        cm.encodings.push_back(static_cast<Encoding>(42));  // a future encoding
        c.file_path = "other.parquet";
        c.offset_index_offset = 5000, c.offset_index_length = 20;
        c.column_index_offset = 6000, c.column_index_length = 30;
      }
      rg.columns.push_back(std::move(c));
    }
    if (g == 0) rg.sorting_columns = {{0, true, false}, {2, false, true}};
    rg.file_offset = 4, rg.total_compressed_size = 1000 * columns;
    rg.ordinal = static_cast<int16_t>(g);
    m.row_groups.push_back(std::move(rg));
  }
  m.key_value_metadata = {{"ARROW:schema", std::string("\0\1\2", 3)}};
  m.column_orders = std::vector<ColumnOrder>(columns, ColumnOrder::TYPE_ORDER);
  m.footer_signing_key_metadata = "key";
  return m;
}

template <class E = CorruptFile>
std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

TEST(MetadataDecoder, RoundTripsEveryFieldOfAFileMetaData) {
  const auto bytes = encode(sampleFileMetaData());
  const FileMetaData m = decodeFileMetaData(span(bytes));
  EXPECT_EQ(encode(m), bytes);  // every field came back as written
  // Spot checks against the spec's field ids, which the encoder could share a mistake on.
  EXPECT_EQ(m.version, 2);
  EXPECT_EQ(m.num_rows, 200);
  ASSERT_EQ(m.schema.size(), 5u);
  EXPECT_EQ(m.schema[0].num_children, 4);
  EXPECT_EQ(toString(*m.schema[1].logicalType), "STRING");
  EXPECT_EQ(m.schema[3].field_id, -7);
  EXPECT_EQ(toString(*m.schema[4].logicalType), "DECIMAL(9,2)");
  const ColumnMetaData& cm = *m.row_groups[0].columns[0].meta_data;
  EXPECT_EQ(*cm.path_in_schema, std::vector<std::string>{"c0"});
  EXPECT_EQ(cm.codec, CompressionCodec::ZSTD);
  EXPECT_EQ(static_cast<int>(cm.encodings.back()), 42);
  EXPECT_EQ(cm.statistics->min, "old-min");
  EXPECT_EQ(cm.statistics->max_value, "zzz0");
  EXPECT_EQ(cm.statistics->is_min_value_exact, false);
  EXPECT_EQ(cm.geospatial_statistics->bbox->zmin, 0.5);
  EXPECT_FALSE(cm.geospatial_statistics->bbox->zmax.has_value());
  EXPECT_EQ(m.row_groups[1].ordinal, 1);
  EXPECT_TRUE(m.row_groups[0].sorting_columns[0].descending);
  EXPECT_EQ(m.key_value_metadata[0].value, std::string("\0\1\2", 3));
}

// A column's path_in_schema is decoded once per footer: the chunks of the same
// column in later row groups share it when their parts are equal, and a chunk
// whose path differs (as a writer may make it) keeps its own.
TEST(MetadataDecoder, ChunksOfAColumnShareOnePathAcrossRowGroups) {
  FileMetaData written = sampleFileMetaData(4, 3);
  written.row_groups[2].columns[1].meta_data->path_in_schema =
      std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"c1", "x"});
  const auto bytes = encode(written);
  const FileMetaData m = decodeFileMetaData(span(bytes));
  EXPECT_EQ(encode(m), bytes);
  auto path = [&](int group, int column) { return m.row_groups[group].columns[column].meta_data->path_in_schema; };
  for (int column : {0, 2, 3}) {
    EXPECT_EQ(path(0, column).get(), path(1, column).get()) << column;
    EXPECT_EQ(path(0, column).get(), path(2, column).get()) << column;
  }
  EXPECT_EQ(path(0, 1).get(), path(1, 1).get());
  EXPECT_NE(path(1, 1).get(), path(2, 1).get());
  EXPECT_EQ(*path(1, 1), std::vector<std::string>{"c1"});
  EXPECT_EQ(*path(2, 1), (std::vector<std::string>{"c1", "x"}));
}

TEST(MetadataDecoder, SkipsUnknownFieldsOfEveryTypeInEveryStruct) {
  const FileMetaData sample = sampleFileMetaData();
  const auto withUnknown = encode(sample, true);
  const FileMetaData m = decodeFileMetaData(span(withUnknown));
  EXPECT_EQ(encode(m), encode(sample));
}

TEST(MetadataDecoder, RejectsEveryTruncationWithCorruptFile) {
  const auto bytes = encode(sampleFileMetaData(2, 2), true);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THROW(decodeFileMetaData(std::span<const uint8_t>(bytes.data(), n)), CorruptFile)
        << "prefix of " << n << " bytes";
  }
}

TEST(MetadataDecoder, KeepsAnUnknownLogicalTypeMemberAndReadsOn) {
  FileMetaData m = sampleFileMetaData(1, 1);
  m.schema[1].logicalType = logical(K::UNKNOWN_MEMBER);
  m.schema[1].logicalType->unknownFieldId = 50;
  const FileMetaData d = decodeFileMetaData(span(encode(m, true)));  // the member has content
  ASSERT_TRUE(d.schema[1].logicalType);
  EXPECT_EQ(d.schema[1].logicalType->kind, K::UNKNOWN_MEMBER);
  EXPECT_EQ(d.schema[1].logicalType->unknownFieldId, 50);
  EXPECT_EQ(toString(*d.schema[1].logicalType), "UNKNOWN_MEMBER(50)");
  EXPECT_EQ(d.num_rows, 100);
}

TEST(MetadataDecoder, KeepsTheFirstLogicalTypeMemberAndTreatsAnEmptyUnionAsAbsent) {
  CompactWriter w;
  w.structBody([&] {
    w.bin(4, "x");
    w.structField(10, [&] {
      w.structField(1, [] {});                              // STRING
      w.structField(5, [&] { w.i32(1, 1), w.i32(2, 5); });  // a second member: ignored
    });
  });
  CompactWriter empty;
  empty.structBody([&] { empty.bin(4, "y"), empty.structField(10, [] {}); });
  auto decodeElement = [](const std::vector<uint8_t>& element) {
    CompactWriter w;
    w.structBody([&] {
      w.i32(1, 1), w.field(2, T::LIST), w.listHeader(T::STRUCT, 1);
      w.bytes.insert(w.bytes.end(), element.begin(), element.end());
      w.i64(3, 0), w.field(4, T::LIST), w.listHeader(T::STRUCT, 0);
    });
    return decodeFileMetaData(span(w.bytes)).schema.at(0);
  };
  EXPECT_EQ(decodeElement(w.bytes).logicalType->kind, K::STRING);
  EXPECT_FALSE(decodeElement(empty.bytes).logicalType.has_value());
  CompactWriter scalar;  // a future member need not be a struct
  scalar.structBody(
      [&] { scalar.bin(4, "z"), scalar.structField(10, [&] { scalar.i32(60, 1); }); });
  EXPECT_EQ(toString(*decodeElement(scalar.bytes).logicalType), "UNKNOWN_MEMBER(60)");
}

TEST(MetadataDecoder, MapsUnknownColumnOrderMembersToUnknown) {
  FileMetaData m = sampleFileMetaData(1, 1);
  m.column_orders = {ColumnOrder::TYPE_ORDER, static_cast<ColumnOrder>(7),
                     ColumnOrder::IEEE_754_TOTAL_ORDER};
  const FileMetaData d = decodeFileMetaData(span(encode(m)));
  EXPECT_EQ(*d.column_orders,
            (std::vector<ColumnOrder>{ColumnOrder::TYPE_ORDER, ColumnOrder::UNKNOWN,
                                      ColumnOrder::IEEE_754_TOTAL_ORDER}));
}

TEST(MetadataDecoder, SkipsDetailOfUnwantedColumnsWithoutDecodingIt) {
  FileMetaData m = sampleFileMetaData(3, 2);
  for (auto& g : m.row_groups) g.columns[1].meta_data->size_statistics = SizeStatistics{1, {}, {}};
  auto bytes = encode(m);
  FileMetaDataOptions options;
  options.wantColumn = {true, false};  // column 2 is past the end: wanted
  const FileMetaData d = decodeFileMetaData(span(bytes), options);
  for (const RowGroup& g : d.row_groups) {
    EXPECT_TRUE(g.columns[0].meta_data->statistics);
    EXPECT_TRUE(g.columns[0].meta_data->encoding_stats);
    const ColumnMetaData& skipped = *g.columns[1].meta_data;
    EXPECT_FALSE(skipped.statistics || skipped.size_statistics || skipped.geospatial_statistics ||
                 skipped.encoding_stats);
    EXPECT_EQ(*skipped.path_in_schema, std::vector<std::string>{"c1"});
    EXPECT_EQ(skipped.data_page_offset, 1004);
    EXPECT_TRUE(g.columns[2].meta_data->statistics);
  }
  EXPECT_EQ(d.row_groups[0].columns[0].meta_data->key_value_metadata.size(), 2u);
}

TEST(MetadataDecoder, SkipsUnwantedStatisticsEvenWhenMalformed) {
  FileMetaData m = sampleFileMetaData(2, 1);
  m.row_groups[0].columns[1].meta_data->geospatial_statistics =
      GeospatialStatistics{BoundingBox{}, {}};
  auto bytes = encode(m);
  // Drop BoundingBox.xmin..ymax of column 1: find its 4 double fields and cut them.
  CompactWriter box;
  box.structBody([&] { box.dbl(1, 0), box.dbl(2, 0), box.dbl(3, 0), box.dbl(4, 0); });
  auto at = std::search(bytes.begin(), bytes.end(), box.bytes.begin(), box.bytes.end() - 1);
  ASSERT_NE(at, bytes.end());
  bytes.erase(at, at + static_cast<long>(box.bytes.size()) - 1);
  EXPECT_NE(messageOf([&] { decodeFileMetaData(span(bytes)); }).find("BoundingBox.xmin missing"),
            std::string::npos);
  FileMetaDataOptions options;
  options.wantColumn = {true, false};
  EXPECT_FALSE(decodeFileMetaData(span(bytes), options)
                   .row_groups[0]
                   .columns[1]
                   .meta_data->geospatial_statistics);
  FileMetaDataOptions noStatistics;
  noStatistics.statistics = false;
  const FileMetaData d = decodeFileMetaData(span(bytes), noStatistics);
  EXPECT_FALSE(d.row_groups[0].columns[0].meta_data->statistics);
  EXPECT_FALSE(d.row_groups[0].columns[0].meta_data->size_statistics);
  EXPECT_TRUE(d.row_groups[0].columns[0].meta_data->encoding_stats);
}

TEST(MetadataDecoder, SkipsKeyValueMetadataWhenNotWanted) {
  FileMetaDataOptions options;
  options.keyValueMetadata = false;
  const FileMetaData d = decodeFileMetaData(span(encode(sampleFileMetaData())), options);
  EXPECT_TRUE(d.key_value_metadata.empty());
  EXPECT_TRUE(d.row_groups[0].columns[0].meta_data->key_value_metadata.empty());
  EXPECT_TRUE(d.row_groups[0].columns[0].meta_data->statistics);
}

TEST(MetadataDecoder, NamesTheMissingRequiredField) {
  auto fileWithout = [](int16_t missing) {
    CompactWriter w;
    w.structBody([&] {
      if (missing != 1) w.i32(1, 1);
      if (missing != 2) w.field(2, T::LIST), w.listHeader(T::STRUCT, 0);
      if (missing != 3) w.i64(3, 5);
      if (missing != 4) w.field(4, T::LIST), w.listHeader(T::STRUCT, 0);
    });
    return w.bytes;
  };
  EXPECT_NO_THROW(decodeFileMetaData(span(fileWithout(0))));
  const char* names[] = {"", "version", "schema", "num_rows", "row_groups"};
  for (int16_t id = 1; id <= 4; ++id) {
    std::string message = messageOf([&] { decodeFileMetaData(span(fileWithout(id))); });
    EXPECT_NE(message.find("FileMetaData." + std::string(names[id]) + " missing"),
              std::string::npos)
        << message;
  }
  auto fileWithSchemaElement = [](const std::function<void(CompactWriter&)>& fields) {
    CompactWriter w;
    w.structBody([&] {
      w.i32(1, 1), w.field(2, T::LIST), w.listHeader(T::STRUCT, 1);
      w.structBody([&] { fields(w); });
      w.i64(3, 0), w.field(4, T::LIST), w.listHeader(T::STRUCT, 0);
    });
    return w.bytes;
  };
  auto noName = fileWithSchemaElement([](CompactWriter& w) { w.i32(5, 0); });
  EXPECT_NE(messageOf([&] { decodeFileMetaData(span(noName)); }).find("SchemaElement.name missing"),
            std::string::npos);
  auto badDecimal = fileWithSchemaElement([](CompactWriter& w) {
    w.bin(4, "d");
    w.structField(10, [&] { w.structField(5, [&] { w.i32(1, 2); }); });
  });
  EXPECT_NE(messageOf([&] {
              decodeFileMetaData(span(badDecimal));
            }).find("DecimalType.precision missing at offset"),
            std::string::npos);
}

TEST(MetadataDecoder, SkipsFieldsOfTheWrongWireType) {
  CompactWriter w;
  w.structBody([&] {
    w.i32(1, 1), w.field(2, T::LIST), w.listHeader(T::STRUCT, 0);
    w.bin(3, "not an i64");  // required num_rows with the wrong type
    w.field(4, T::LIST), w.listHeader(T::STRUCT, 0);
    w.i32(6, 7);  // created_by as an i32
  });
  EXPECT_NE(
      messageOf([&] { decodeFileMetaData(span(w.bytes)); }).find("FileMetaData.num_rows missing"),
      std::string::npos);
  CompactWriter ok;
  ok.structBody([&] {
    ok.i32(1, 1), ok.field(2, T::LIST), ok.listHeader(T::STRUCT, 0), ok.i64(3, 0);
    ok.field(4, T::LIST), ok.listHeader(T::I32, 1), ok.zigzag(1);  // list<i32> where structs belong
    ok.field(4, T::LIST), ok.listHeader(T::STRUCT, 0);
    ok.i32(6, 7);
  });
  const FileMetaData d = decodeFileMetaData(span(ok.bytes));
  EXPECT_FALSE(d.created_by.has_value());
  EXPECT_TRUE(d.row_groups.empty());
}

TEST(MetadataDecoder, RejectsHugeListSizesWithoutAllocating) {
  for (int16_t id : {2, 4, 5, 7}) {
    CompactWriter w;
    w.structBody([&] { w.i32(1, 1), w.field(id, T::LIST), w.listHeader(T::STRUCT, 0x7fffffff); });
    EXPECT_THROW(decodeFileMetaData(span(w.bytes)), CorruptFile);  // not bad_alloc
  }
  CompactWriter negative;
  negative.structBody(
      [&] { negative.field(2, T::LIST), negative.byte(0xfc), negative.varint(0xffffffff); });
  EXPECT_THROW(decodeFileMetaData(span(negative.bytes)), CorruptFile);
}

TEST(MetadataDecoder, RejectsDeeplyNestedUnknownFields) {
  CompactWriter w;
  w.structBody([&] {
    std::function<void(int)> nest = [&](int depth) {
      if (depth > 0) w.structField(1, [&] { nest(depth - 1); });
    };
    w.structField(100, [&] { nest(200); });
  });
  EXPECT_NE(messageOf([&] { decodeFileMetaData(span(w.bytes)); }).find("nesting deeper than"),
            std::string::npos);
}

TEST(MetadataDecoder, FlagsEncryptionAndToleratesMissingFileOffset) {
  FileMetaData m = sampleFileMetaData(2, 1);
  m.has_encryption_algorithm = true;
  m.row_groups[0].columns[0].has_crypto_metadata = true;
  m.row_groups[0].columns[1].has_encrypted_column_metadata = true;
  m.row_groups[0].columns[1].meta_data.reset();
  const FileMetaData d = decodeFileMetaData(span(encode(m)));
  EXPECT_TRUE(d.has_encryption_algorithm);
  EXPECT_TRUE(d.row_groups[0].columns[0].has_crypto_metadata);
  EXPECT_TRUE(d.row_groups[0].columns[1].has_encrypted_column_metadata);
  EXPECT_FALSE(d.row_groups[0].columns[1].meta_data);

  CompactWriter w;  // a column chunk with meta_data only, as some old writers emit
  w.structBody([&] {
    w.i32(1, 1), w.field(2, T::LIST), w.listHeader(T::STRUCT, 0), w.i64(3, 1);
    w.field(4, T::LIST), w.listHeader(T::STRUCT, 1);
    w.structBody([&] {
      w.field(1, T::LIST), w.listHeader(T::STRUCT, 1);
      w.structBody([&] { w.field(3, T::STRUCT), enc(w, *m.row_groups[0].columns[0].meta_data); });
      w.i64(2, 10), w.i64(3, 1);
    });
  });
  const FileMetaData old = decodeFileMetaData(span(w.bytes));
  EXPECT_EQ(old.row_groups[0].columns[0].file_offset, 0);
  EXPECT_TRUE(old.row_groups[0].columns[0].meta_data);
}
/// Returns the footer bytes of a whole file, or nothing for an encrypted footer.
std::optional<std::span<const uint8_t>> footerOf(const std::vector<uint8_t>& file) {
  if (file.size() < 12 || std::memcmp(file.data() + file.size() - 4, "PAR1", 4) != 0) return {};
  const uint8_t* tail = file.data() + file.size() - 8;
  uint32_t length = tail[0] | tail[1] << 8 | tail[2] << 16 | static_cast<uint32_t>(tail[3]) << 24;
  if (length > file.size() - 12) return {};
  return std::span<const uint8_t>(tail - length, length);
}

TEST(MetadataRealFiles, DecodesTheFootersOfParquetTesting) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  size_t decoded = 0;
  for (const auto& path :
       quarry::testing::filesUnder(quarry::testing::parquetTestingDir() / "data", "")) {
    const auto file = quarry::testing::readFileBytes(path);
    const auto footer = footerOf(file);
    if (!footer) continue;  // not Parquet, or an encrypted footer ("PARE")
    SCOPED_TRACE(path.string());
    FileMetaData m;
    ASSERT_NO_THROW(m = decodeFileMetaData(*footer));
    ++decoded;
    ASSERT_FALSE(m.schema.empty());
    EXPECT_TRUE(m.schema[0].num_children.has_value());
    int64_t rows = 0;
    size_t leaves = 0;
    for (const auto& e : m.schema) leaves += !e.num_children.has_value();
    for (const RowGroup& g : m.row_groups) {
      rows += g.num_rows;
      EXPECT_EQ(g.columns.size(), leaves);
    }
    // parquet-rs 0.3.0 left FileMetaData.num_rows at 0 (repeated_no_annotation.parquet);
    // the decoder reports what the file says.
    bool oldParquetRs = m.created_by && m.created_by->starts_with("parquet-rs version 0.3.0");
    EXPECT_TRUE(m.num_rows > 0 || m.num_rows == rows || oldParquetRs) << m.num_rows;
  }
  EXPECT_GT(decoded, 60u);
}

TEST(MetadataRealFiles, DecodesOrRejectsBadDataWithoutCrashing) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  for (const auto& path :
       quarry::testing::filesUnder(quarry::testing::parquetTestingDir() / "bad_data", ".parquet")) {
    const auto file = quarry::testing::readFileBytes(path);
    if (auto footer = footerOf(file)) {
      try {
        decodeFileMetaData(*footer);
      } catch (const CorruptFile&) {
      }
    }
  }
}

TEST(MetadataDecoder, DecodesAWideFooterQuickly) {
  // 1,000 columns x 100 row groups = 100,000 column chunks with statistics.
  const auto bytes = encode(sampleFileMetaData(1000, 100));
  auto start = std::chrono::steady_clock::now();
  const FileMetaData m = decodeFileMetaData(span(bytes));
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  FileMetaDataOptions few;
  few.wantColumn.assign(1000, false);
  few.wantColumn[7] = true;
  start = std::chrono::steady_clock::now();
  const FileMetaData projected = decodeFileMetaData(span(bytes), few);
  double projectedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(m.row_groups.size(), 100u);
  EXPECT_EQ(projected.row_groups[99].columns[999].meta_data->num_values, 100);
  std::cout << "[ timing ] " << bytes.size() / 1024 << " KiB footer, 100k column chunks: " << ms
            << " ms, with one wanted column: " << projectedMs << " ms\n";
  RecordProperty("decode_ms", std::to_string(ms));
}

}  // namespace
}  // namespace quarry::parquet
