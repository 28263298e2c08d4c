#include "quarry/formats/parquet/metadata_decoder.h"

#include <string>

// Last: it defines the decoders' field-case macros.
#include "quarry/formats/parquet/thrift_struct_decoding.h"

// The decoders of FileMetaData and everything it holds, one per struct of
// parquet.thrift; the policy they share is in thrift_struct_decoding.h.
namespace quarry::parquet {
namespace detail {

void decodeStatistics(Reader& r, Statistics& s) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(BINARY), s.max.emplace(r.readBinaryView()))
      CASE(2, IS(BINARY), s.min.emplace(r.readBinaryView()))
      CASE(3, IS(I64), s.null_count = r.readI64())
      CASE(4, IS(I64), s.distinct_count = r.readI64())
      CASE(5, IS(BINARY), s.max_value.emplace(r.readBinaryView()))
      CASE(6, IS(BINARY), s.min_value.emplace(r.readBinaryView()))
      CASE(7, IS_BOOL, s.is_max_value_exact = f.boolValue())
      CASE(8, IS_BOOL, s.is_min_value_exact = f.boolValue())
      CASE(9, IS(I64), s.nan_count = r.readI64())
      default:
        r.skip(f.type);
    }
  }
  (void)seen;  // no required fields
  r.readStructEnd();
}

int16_t decodeEmptyMemberUnion(Reader& r) {
  int16_t member = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    if (member == 0 && f.type == T::STRUCT) member = f.id;
    r.skip(f.type);
  }
  r.readStructEnd();
  return member;
}

}  // namespace detail

using namespace detail;

namespace {

void decodeSizeStatistics(Reader& r, SizeStatistics& s) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I64), s.unencoded_byte_array_data_bytes = r.readI64())
      LIST_CASE(2, readI64List(r, f, s.repetition_level_histogram))
      LIST_CASE(3, readI64List(r, f, s.definition_level_histogram))
      default:
        r.skip(f.type);
    }
  }
  (void)seen;  // no required fields
  r.readStructEnd();
}

void decodeBoundingBox(Reader& r, BoundingBox& b) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(DOUBLE), b.xmin = r.readDouble())
      CASE(2, IS(DOUBLE), b.xmax = r.readDouble())
      CASE(3, IS(DOUBLE), b.ymin = r.readDouble())
      CASE(4, IS(DOUBLE), b.ymax = r.readDouble())
      CASE(5, IS(DOUBLE), b.zmin = r.readDouble())
      CASE(6, IS(DOUBLE), b.zmax = r.readDouble())
      CASE(7, IS(DOUBLE), b.mmin = r.readDouble())
      CASE(8, IS(DOUBLE), b.mmax = r.readDouble())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "BoundingBox.xmin");
  require(r, seen, 2, "BoundingBox.xmax");
  require(r, seen, 3, "BoundingBox.ymin");
  require(r, seen, 4, "BoundingBox.ymax");
  r.readStructEnd();
}

void decodeGeospatialStatistics(Reader& r, GeospatialStatistics& g) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(STRUCT), decodeBoundingBox(r, g.bbox.emplace()))
      case 2: {
        uint32_t n = 0;
        if (!expectList(r, f, T::I32, n)) break;
        g.geospatial_types.clear();
        reserveListElements(g.geospatial_types, n, r);
        for (uint32_t i = 0; i < n; ++i) g.geospatial_types.push_back(r.readI32());
        break;
      }
      default:
        r.skip(f.type);
    }
  }
  (void)seen;  // no required fields
  r.readStructEnd();
}

/// Decodes TimeType or TimestampType, which share their layout.
void decodeTimeType(Reader& r, LogicalType& t, const char* isAdjustedName, const char* unitName) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS_BOOL, t.isAdjustedToUTC = f.boolValue())
      case 2:
        if (IS(STRUCT)) {
          int16_t unit = decodeEmptyMemberUnion(r);
          if (unit != 0) {
            t.unit = static_cast<TimeUnit>(unit);
            seen |= bit(2);
          }
        }
        break;
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, isAdjustedName);
  require(r, seen, 2, unitName);
  r.readStructEnd();
}

void decodeLogicalTypeMember(Reader& r, const Field& member, LogicalType& t) {
  using K = LogicalType::Kind;
  uint32_t seen = 0;
  switch (member.id) {
    case 5:
      t.kind = K::DECIMAL;
      r.readStructBegin();
      FOR_EACH_FIELD(r, f) {
        switch (f.id) {
          CASE(1, IS(I32), t.scale = r.readI32())
          CASE(2, IS(I32), t.precision = r.readI32())
          default:
            r.skip(f.type);
        }
      }
      require(r, seen, 1, "DecimalType.scale");
      require(r, seen, 2, "DecimalType.precision");
      r.readStructEnd();
      return;
    case 7:
      t.kind = K::TIME;
      decodeTimeType(r, t, "TimeType.isAdjustedToUTC", "TimeType.unit");
      return;
    case 8:
      t.kind = K::TIMESTAMP;
      decodeTimeType(r, t, "TimestampType.isAdjustedToUTC", "TimestampType.unit");
      return;
    case 10:
      t.kind = K::INTEGER;
      r.readStructBegin();
      FOR_EACH_FIELD(r, f) {
        switch (f.id) {
          CASE(1, IS(BYTE), t.bitWidth = r.readByte())
          CASE(2, IS_BOOL, t.isSigned = f.boolValue())
          default:
            r.skip(f.type);
        }
      }
      require(r, seen, 1, "IntType.bitWidth");
      require(r, seen, 2, "IntType.isSigned");
      r.readStructEnd();
      return;
    case 16:
      t.kind = K::VARIANT;
      r.readStructBegin();
      FOR_EACH_FIELD(r, f) {
        switch (f.id) {
          CASE(1, IS(BYTE), t.specificationVersion = r.readByte())
          default:
            r.skip(f.type);
        }
      }
      r.readStructEnd();
      return;
    case 17:
    case 18:
      t.kind = member.id == 17 ? K::GEOMETRY : K::GEOGRAPHY;
      r.readStructBegin();
      FOR_EACH_FIELD(r, f) {
        switch (f.id) {
          CASE(1, IS(BINARY), t.crs.emplace(r.readBinaryView()))
          case 2:
            // Only GeographyType has field 2, the algorithm.
            if (member.id != 18)
              r.skip(f.type);
            else if (IS(I32))
              t.algorithm = readEnum<EdgeInterpolationAlgorithm>(r);
            break;
          default:
            r.skip(f.type);
        }
      }
      r.readStructEnd();
      return;
    case 1:
    case 2:
    case 3:
    case 4:
    case 6:
    case 11:
    case 12:
    case 13:
    case 14:
    case 15:
    case 19:
      // Members without fields; a newer writer's fields in them are skipped.
      t.kind = static_cast<K>(member.id);
      r.skip(member.type);
      return;
    default:
      t.kind = K::UNKNOWN_MEMBER;
      t.unknownFieldId = member.id;
      r.skip(member.type);
      return;
  }
}

void decodeLogicalType(Reader& r, std::optional<LogicalType>& out) {
  LogicalType t;
  bool hasMember = false;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    // Known members are structs; an unknown member may be anything.
    bool known = (f.id >= 1 && f.id <= 8) || (f.id >= 10 && f.id <= 19);
    if (hasMember || (known && f.type != T::STRUCT)) {
      r.skip(f.type);
      continue;
    }
    hasMember = true;
    decodeLogicalTypeMember(r, f, t);
  }
  r.readStructEnd();
  if (hasMember) out = std::move(t);
}

void decodeSchemaElement(Reader& r, SchemaElement& e, uint32_t) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), e.type = readEnum<PhysicalType>(r))
      CASE(2, IS(I32), e.type_length = r.readI32())
      CASE(3, IS(I32), e.repetition_type = readEnum<FieldRepetitionType>(r))
      CASE(4, IS(BINARY), e.name.assign(r.readBinaryView()))
      CASE(5, IS(I32), e.num_children = r.readI32())
      CASE(6, IS(I32), e.converted_type = readEnum<ConvertedType>(r))
      CASE(7, IS(I32), e.scale = r.readI32())
      CASE(8, IS(I32), e.precision = r.readI32())
      CASE(9, IS(I32), e.field_id = r.readI32())
      CASE(10, IS(STRUCT), decodeLogicalType(r, e.logicalType))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 4, "SchemaElement.name");
  r.readStructEnd();
}

void decodeKeyValue(Reader& r, KeyValue& kv, uint32_t) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(BINARY), kv.key.assign(r.readBinaryView()))
      CASE(2, IS(BINARY), kv.value.emplace(r.readBinaryView()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "KeyValue.key");
  r.readStructEnd();
}

void decodeSortingColumn(Reader& r, SortingColumn& c, uint32_t) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), c.column_idx = r.readI32())
      CASE(2, IS_BOOL, c.descending = f.boolValue())
      CASE(3, IS_BOOL, c.nulls_first = f.boolValue())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "SortingColumn.column_idx");
  require(r, seen, 2, "SortingColumn.descending");
  require(r, seen, 3, "SortingColumn.nulls_first");
  r.readStructEnd();
}

void decodePageEncodingStats(Reader& r, PageEncodingStats& s, uint32_t) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), s.page_type = readEnum<PageType>(r))
      CASE(2, IS(I32), s.encoding = readEnum<Encoding>(r))
      CASE(3, IS(I32), s.count = r.readI32())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "PageEncodingStats.page_type");
  require(r, seen, 2, "PageEncodingStats.encoding");
  require(r, seen, 3, "PageEncodingStats.count");
  r.readStructEnd();
}

/// What one column chunk keeps of its optional detail (see FileMetaDataOptions).
struct ChunkWants {
  bool statistics = true;
  bool encodingStats = true;
  bool keyValueMetadata = true;
};

/// The `n` parts of a path_in_schema at `r`: `previous` itself when they equal it
/// (the same column in the row group before), so the chunks of a column share one.
PathInSchema readPathInSchema(Reader& r, uint32_t n, const PathInSchema& previous) {
  std::vector<std::string> parts;
  uint32_t i = 0;
  if (previous != nullptr && previous->size() == n) {
    for (; i < n; ++i) {
      const std::string_view part = r.readBinaryView();
      if (part != (*previous)[i]) {
        parts.assign(previous->begin(), previous->begin() + i);
        parts.emplace_back(part);
        ++i;
        break;
      }
    }
    if (parts.empty() && i == n) return previous;
  } else {
    reserveListElements(parts, n, r);
  }
  for (; i < n; ++i) parts.emplace_back(r.readBinaryView());
  return std::make_shared<const std::vector<std::string>>(std::move(parts));
}

/// Decodes a ColumnMetaData; `previous` is the same column's in the row group
/// before (nullptr in the first), whose path it shares when equal.
void decodeColumnMetaData(Reader& r, ColumnMetaData& m, const ChunkWants& wants,
                          const ColumnMetaData* previous) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), m.type = readEnum<PhysicalType>(r))
      case 2: {
        uint32_t n = 0;
        if (!expectList(r, f, T::I32, n)) break;
        m.encodings.clear();
        reserveListElements(m.encodings, n, r);
        for (uint32_t i = 0; i < n; ++i) m.encodings.push_back(readEnum<Encoding>(r));
        seen |= bit(2);
        break;
      }
      case 3: {
        uint32_t n = 0;
        if (!expectList(r, f, T::BINARY, n)) break;
        m.path_in_schema = readPathInSchema(r, n, previous != nullptr ? previous->path_in_schema : nullptr);
        seen |= bit(3);
        break;
      }
        CASE(4, IS(I32), m.codec = readEnum<CompressionCodec>(r))
        CASE(5, IS(I64), m.num_values = r.readI64())
        CASE(6, IS(I64), m.total_uncompressed_size = r.readI64())
        CASE(7, IS(I64), m.total_compressed_size = r.readI64())
        WANTED_CASE(8, wants.keyValueMetadata, true,
                    readStructList(r, f, m.key_value_metadata, decodeKeyValue))
        CASE(9, IS(I64), m.data_page_offset = r.readI64())
        CASE(10, IS(I64), m.index_page_offset = r.readI64())
        CASE(11, IS(I64), m.dictionary_page_offset = r.readI64())
        WANTED_CASE(12, wants.statistics, IS(STRUCT), decodeStatistics(r, m.statistics.emplace()))
        WANTED_CASE(13, wants.encodingStats, true,
                    readStructList(r, f, m.encoding_stats, decodePageEncodingStats))
        CASE(14, IS(I64), m.bloom_filter_offset = r.readI64())
        CASE(15, IS(I32), m.bloom_filter_length = r.readI32())
        WANTED_CASE(16, wants.statistics, IS(STRUCT),
                    decodeSizeStatistics(r, m.size_statistics.emplace()))
        WANTED_CASE(17, wants.statistics, IS(STRUCT),
                    decodeGeospatialStatistics(r, m.geospatial_statistics.emplace()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "ColumnMetaData.type");
  require(r, seen, 2, "ColumnMetaData.encodings");
  require(r, seen, 3, "ColumnMetaData.path_in_schema");
  require(r, seen, 4, "ColumnMetaData.codec");
  require(r, seen, 5, "ColumnMetaData.num_values");
  require(r, seen, 6, "ColumnMetaData.total_uncompressed_size");
  require(r, seen, 7, "ColumnMetaData.total_compressed_size");
  require(r, seen, 9, "ColumnMetaData.data_page_offset");
  r.readStructEnd();
}

void decodeColumnChunk(Reader& r, ColumnChunk& c, const ChunkWants& wants, const ColumnMetaData* previous) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(BINARY), c.file_path.emplace(r.readBinaryView()))
      CASE(2, IS(I64), c.file_offset = r.readI64())
      CASE(3, IS(STRUCT), decodeColumnMetaData(r, c.meta_data.emplace(), wants, previous))
      CASE(4, IS(I64), c.offset_index_offset = r.readI64())
      CASE(5, IS(I32), c.offset_index_length = r.readI32())
      CASE(6, IS(I64), c.column_index_offset = r.readI64())
      CASE(7, IS(I32), c.column_index_length = r.readI32())
      case 8:
        c.has_crypto_metadata = f.type == T::STRUCT;
        r.skip(f.type);
        break;
      case 9:
        c.has_encrypted_column_metadata = f.type == T::BINARY;
        r.skip(f.type);
        break;
      default:
        r.skip(f.type);
    }
  }
  // file_offset is deprecated and has a default in the spec; writers that
  // leave it out are tolerated.
  (void)seen;
  r.readStructEnd();
}

/// Decodes a RowGroup; `previous` is the one before it (nullptr for the first).
void decodeRowGroup(Reader& r, RowGroup& g, const FileMetaDataOptions& options, const RowGroup* previous) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      case 1: {
        uint32_t n = 0;
        if (!expectList(r, f, T::STRUCT, n)) break;
        g.columns.clear();
        reserveListElements(g.columns, n, r);
        const auto& want = options.wantColumn;
        for (uint32_t i = 0; i < n; ++i) {
          bool wanted = i >= want.size() || want[i];
          ChunkWants wants{wanted && options.statistics, wanted,
                           wanted && options.keyValueMetadata};
          const ColumnMetaData* before = previous != nullptr && i < previous->columns.size() &&
                                                 previous->columns[i].meta_data
                                             ? &*previous->columns[i].meta_data
                                             : nullptr;
          decodeColumnChunk(r, appendListElement(g.columns, n), wants, before);
        }
        seen |= bit(1);
        break;
      }
        CASE(2, IS(I64), g.total_byte_size = r.readI64())
        CASE(3, IS(I64), g.num_rows = r.readI64())
        LIST_CASE(4, readStructList(r, f, g.sorting_columns, decodeSortingColumn))
        CASE(5, IS(I64), g.file_offset = r.readI64())
        CASE(6, IS(I64), g.total_compressed_size = r.readI64())
        CASE(7, IS(I16), g.ordinal = r.readI16())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "RowGroup.columns");
  require(r, seen, 2, "RowGroup.total_byte_size");
  require(r, seen, 3, "RowGroup.num_rows");
  r.readStructEnd();
}

void decodeColumnOrder(Reader& r, ColumnOrder& o, uint32_t) {
  int16_t member = decodeEmptyMemberUnion(r);
  o = member >= 1 && member <= 3 ? static_cast<ColumnOrder>(member) : ColumnOrder::UNKNOWN;
}

}  // namespace

FileMetaData decodeFileMetaData(std::span<const uint8_t> bytes,
                                const FileMetaDataOptions& options) {
  Reader r(bytes);
  FileMetaData m;
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), m.version = r.readI32())
      LIST_CASE(2, readStructList(r, f, m.schema, decodeSchemaElement))
      CASE(3, IS(I64), m.num_rows = r.readI64())
      case 4: {
        uint32_t n = 0;
        if (!expectList(r, f, T::STRUCT, n)) break;
        m.row_groups.clear();
        reserveListElements(m.row_groups, n, r);
        for (uint32_t i = 0; i < n; ++i) {
          RowGroup& group = appendListElement(m.row_groups, n);  // may move the ones before
          decodeRowGroup(r, group, options, i > 0 ? &m.row_groups[i - 1] : nullptr);
        }
        seen |= bit(4);
        break;
      }
        WANTED_CASE(5, options.keyValueMetadata, true,
                    readStructList(r, f, m.key_value_metadata, decodeKeyValue))
        CASE(6, IS(BINARY), m.created_by.emplace(r.readBinaryView()))
        LIST_CASE(7, readStructList(r, f, m.column_orders, decodeColumnOrder))
      case 8:
        m.has_encryption_algorithm = f.type == T::STRUCT;
        r.skip(f.type);
        break;
        CASE(9, IS(BINARY), m.footer_signing_key_metadata.emplace(r.readBinaryView()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "FileMetaData.version");
  require(r, seen, 2, "FileMetaData.schema");
  require(r, seen, 3, "FileMetaData.num_rows");
  require(r, seen, 4, "FileMetaData.row_groups");
  r.readStructEnd();
  return m;
}

}  // namespace quarry::parquet
