#include "quarry/formats/parquet/metadata_decoder.h"

#include <string>

// Last: it defines the decoders' field-case macros.
#include "quarry/formats/parquet/thrift_struct_decoding.h"

// The decoders of the structures a reader meets inside a column chunk rather
// than in the footer: page headers, the page index (ColumnIndex, OffsetIndex)
// and Bloom filter headers. The shared policy is in thrift_struct_decoding.h.
namespace quarry::parquet {
namespace detail {
namespace {

void decodeDataPageHeader(Reader& r, DataPageHeader& h) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), h.num_values = r.readI32())
      CASE(2, IS(I32), h.encoding = readEnum<Encoding>(r))
      CASE(3, IS(I32), h.definition_level_encoding = readEnum<Encoding>(r))
      CASE(4, IS(I32), h.repetition_level_encoding = readEnum<Encoding>(r))
      CASE(5, IS(STRUCT), decodeStatistics(r, h.statistics.emplace()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "DataPageHeader.num_values");
  require(r, seen, 2, "DataPageHeader.encoding");
  require(r, seen, 3, "DataPageHeader.definition_level_encoding");
  require(r, seen, 4, "DataPageHeader.repetition_level_encoding");
  r.readStructEnd();
}

void decodeDictionaryPageHeader(Reader& r, DictionaryPageHeader& h) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), h.num_values = r.readI32())
      CASE(2, IS(I32), h.encoding = readEnum<Encoding>(r))
      CASE(3, IS_BOOL, h.is_sorted = f.boolValue())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "DictionaryPageHeader.num_values");
  require(r, seen, 2, "DictionaryPageHeader.encoding");
  r.readStructEnd();
}

void decodeDataPageHeaderV2(Reader& r, DataPageHeaderV2& h) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), h.num_values = r.readI32())
      CASE(2, IS(I32), h.num_nulls = r.readI32())
      CASE(3, IS(I32), h.num_rows = r.readI32())
      CASE(4, IS(I32), h.encoding = readEnum<Encoding>(r))
      CASE(5, IS(I32), h.definition_levels_byte_length = r.readI32())
      CASE(6, IS(I32), h.repetition_levels_byte_length = r.readI32())
      CASE(7, IS_BOOL, h.is_compressed = f.boolValue())
      CASE(8, IS(STRUCT), decodeStatistics(r, h.statistics.emplace()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "DataPageHeaderV2.num_values");
  require(r, seen, 2, "DataPageHeaderV2.num_nulls");
  require(r, seen, 3, "DataPageHeaderV2.num_rows");
  require(r, seen, 4, "DataPageHeaderV2.encoding");
  require(r, seen, 5, "DataPageHeaderV2.definition_levels_byte_length");
  require(r, seen, 6, "DataPageHeaderV2.repetition_levels_byte_length");
  r.readStructEnd();
}

void decodePageLocation(Reader& r, PageLocation& l, uint32_t) {
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I64), l.offset = r.readI64())
      CASE(2, IS(I32), l.compressed_page_size = r.readI32())
      CASE(3, IS(I64), l.first_row_index = r.readI64())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "PageLocation.offset");
  require(r, seen, 2, "PageLocation.compressed_page_size");
  require(r, seen, 3, "PageLocation.first_row_index");
  r.readStructEnd();
}

}  // namespace
}  // namespace detail

using namespace detail;

PageHeader decodePageHeader(std::span<const uint8_t> bytes, uint32_t& headerSize) {
  Reader r(bytes);
  PageHeader h;
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), h.type = readEnum<PageType>(r))
      CASE(2, IS(I32), h.uncompressed_page_size = r.readI32())
      CASE(3, IS(I32), h.compressed_page_size = r.readI32())
      CASE(4, IS(I32), h.crc = r.readI32())
      CASE(5, IS(STRUCT), decodeDataPageHeader(r, h.data_page_header.emplace()))
      case 6:
        h.has_index_page_header = f.type == T::STRUCT;
        r.skip(f.type);
        break;
        CASE(7, IS(STRUCT), decodeDictionaryPageHeader(r, h.dictionary_page_header.emplace()))
        CASE(8, IS(STRUCT), decodeDataPageHeaderV2(r, h.data_page_header_v2.emplace()))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "PageHeader.type");
  require(r, seen, 2, "PageHeader.uncompressed_page_size");
  require(r, seen, 3, "PageHeader.compressed_page_size");
  r.readStructEnd();
  headerSize = static_cast<uint32_t>(r.offset());
  return h;
}

ColumnIndex decodeColumnIndex(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  ColumnIndex c;
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      case 1: {
        uint32_t n = 0;
        if (!expectList(r, f, T::BOOLEAN_TRUE, n)) break;
        c.null_pages.assign(n, false);
        for (uint32_t i = 0; i < n; ++i) c.null_pages[i] = r.readBool();
        seen |= bit(1);
        break;
      }
        LIST_CASE(2, readBinaryList(r, f, c.min_values))
        LIST_CASE(3, readBinaryList(r, f, c.max_values))
        CASE(4, IS(I32), c.boundary_order = readEnum<BoundaryOrder>(r))
        LIST_CASE(5, readI64List(r, f, c.null_counts))
        LIST_CASE(6, readI64List(r, f, c.repetition_level_histograms))
        LIST_CASE(7, readI64List(r, f, c.definition_level_histograms))
        LIST_CASE(8, readI64List(r, f, c.nan_counts))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "ColumnIndex.null_pages");
  require(r, seen, 2, "ColumnIndex.min_values");
  require(r, seen, 3, "ColumnIndex.max_values");
  require(r, seen, 4, "ColumnIndex.boundary_order");
  r.readStructEnd();
  return c;
}

OffsetIndex decodeOffsetIndex(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  OffsetIndex o;
  uint32_t seen = 0;
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      case 1: {
        uint32_t n = 0;
        if (!expectList(r, f, T::STRUCT, n)) break;
        o.page_locations.clear();
        reserveListElements(o.page_locations, n, r);
        for (uint32_t i = 0; i < n; ++i) decodePageLocation(r, appendListElement(o.page_locations, n), i);
        seen |= bit(1);
        break;
      }
        LIST_CASE(2, readI64List(r, f, o.unencoded_byte_array_data_bytes))
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "OffsetIndex.page_locations");
  r.readStructEnd();
  return o;
}

BloomFilterHeader decodeBloomFilterHeader(std::span<const uint8_t> bytes, uint32_t& headerSize) {
  Reader r(bytes);
  BloomFilterHeader h;
  uint32_t seen = 0;
  // Each union's only defined member is 1; anything else is recorded as 0.
  auto member = [&r] { return decodeEmptyMemberUnion(r) == 1 ? int16_t{1} : int16_t{0}; };
  r.readStructBegin();
  FOR_EACH_FIELD(r, f) {
    switch (f.id) {
      CASE(1, IS(I32), h.numBytes = r.readI32())
      CASE(2, IS(STRUCT), h.algorithm = member())
      CASE(3, IS(STRUCT), h.hash = member())
      CASE(4, IS(STRUCT), h.compression = member())
      default:
        r.skip(f.type);
    }
  }
  require(r, seen, 1, "BloomFilterHeader.numBytes");
  require(r, seen, 2, "BloomFilterHeader.algorithm");
  require(r, seen, 3, "BloomFilterHeader.hash");
  require(r, seen, 4, "BloomFilterHeader.compression");
  r.readStructEnd();
  headerSize = static_cast<uint32_t>(r.offset());
  return h;
}

}  // namespace quarry::parquet
