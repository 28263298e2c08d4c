#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/common/heap_optional.h"
#include "quarry/formats/codec/compression_codec.h"

/// The Parquet footer and page-header structures, field for field as
/// parquet-format's parquet.thrift defines them. Binary fields are held in
/// std::string (bytes, not necessarily UTF-8). Optional thrift fields are
/// std::optional so that "absent" and "zero" stay distinct: a missing null_count
/// is not a null_count of 0 (HeapOptional for the large ones few files carry).
namespace quarry::parquet {

enum class PhysicalType : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2 };

enum class Encoding : int32_t {
  PLAIN = 0,
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
  ALP = 10,
};

enum class PageType : int32_t { DATA_PAGE = 0, INDEX_PAGE = 1, DICTIONARY_PAGE = 2, DATA_PAGE_V2 = 3 };

enum class BoundaryOrder : int32_t { UNORDERED = 0, ASCENDING = 1, DESCENDING = 2 };

enum class EdgeInterpolationAlgorithm : int32_t {
  SPHERICAL = 0,
  VINCENTY = 1,
  THOMAS = 2,
  ANDOYER = 3,
  KARNEY = 4,
};

/// Enum values are kept as read, including values this release does not know
/// (a newer writer's encoding or codec); these return the spec's name or
/// "UNKNOWN(<n>)".
std::string toString(PhysicalType v);
std::string toString(ConvertedType v);
std::string toString(FieldRepetitionType v);
std::string toString(Encoding v);
std::string toString(PageType v);
std::string toString(BoundaryOrder v);
std::string toString(EdgeInterpolationAlgorithm v);

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
};

struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::vector<int32_t> geospatial_types;
};

/// Statistics exactly as the file carries them. `max`/`min` are the deprecated
/// signed-order fields; `max_value`/`min_value` supersede them.
struct Statistics {
  std::optional<std::string> max;
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
};

enum class TimeUnit : int32_t { MILLIS = 1, MICROS = 2, NANOS = 3 };
std::string toString(TimeUnit v);

/// The LogicalType union. `kind` names the member that is set; NONE when the
/// schema element has no logicalType field. A union member this release does
/// not know is kept as UNKNOWN_MEMBER with its field id, so the column is read
/// as its physical type and its statistics' order is treated as unknown.
struct LogicalType {
  enum class Kind : int32_t {
    NONE = 0,
    STRING = 1,
    MAP = 2,
    LIST = 3,
    ENUM = 4,
    DECIMAL = 5,
    DATE = 6,
    TIME = 7,
    TIMESTAMP = 8,
    INTEGER = 10,
    UNKNOWN = 11,  // the spec's name for the NULL logical type
    JSON = 12,
    BSON = 13,
    UUID = 14,
    FLOAT16 = 15,
    VARIANT = 16,
    GEOMETRY = 17,
    GEOGRAPHY = 18,
    FILE = 19,
    UNKNOWN_MEMBER = 1000,
    INTERVAL = 1001,  // the legacy ConvertedType INTERVAL, which has no LogicalType member
  };
  Kind kind = Kind::NONE;
  int16_t unknownFieldId = 0;  // set for UNKNOWN_MEMBER
  // DECIMAL
  int32_t scale = 0;
  int32_t precision = 0;
  // TIME, TIMESTAMP
  bool isAdjustedToUTC = false;
  TimeUnit unit = TimeUnit::MILLIS;
  // INTEGER
  int8_t bitWidth = 0;
  bool isSigned = true;
  // VARIANT
  std::optional<int8_t> specificationVersion;
  // GEOMETRY, GEOGRAPHY
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;  // GEOGRAPHY only
};
/// Renders a logical type the way the spec writes it, e.g. "TIMESTAMP(MICROS,true)",
/// "DECIMAL(9,2)", "INTEGER(8,false)".
std::string toString(const LogicalType& v);

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logicalType;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
};

struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
};

/// A column chunk's path_in_schema: shared by the chunks of one column in every row
/// group of a footer (decoded once, not once per chunk), immutable.
using PathInSchema = std::shared_ptr<const std::vector<std::string>>;

struct ColumnMetaData {
  PhysicalType type = PhysicalType::BOOLEAN;
  std::vector<Encoding> encodings;
  PathInSchema path_in_schema;  // never null once decoded (a required field)
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  // Few writers record these: kept on the heap, a pointer wide when absent.
  HeapOptional<SizeStatistics> size_statistics;
  HeapOptional<GeospatialStatistics> geospatial_statistics;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  bool has_crypto_metadata = false;  // ColumnCryptoMetaData present: the chunk is encrypted
  bool has_encrypted_column_metadata = false;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

/// The ColumnOrder union. UNKNOWN keeps a member this release does not
/// recognize: the spec then directs readers to ignore min/max.
enum class ColumnOrder : int32_t {
  TYPE_ORDER = 1,
  IEEE_754_TOTAL_ORDER = 2,
  INT96_TIMESTAMP_ORDER = 3,
  UNKNOWN = 1000,
};
std::string toString(ColumnOrder v);

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  bool has_encryption_algorithm = false;  // a plaintext footer of an encrypted file
  std::optional<std::string> footer_signing_key_metadata;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // the spec's default when absent
  std::optional<Statistics> statistics;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  bool has_index_page_header = false;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  std::optional<std::vector<int64_t>> null_counts;
  std::vector<int64_t> repetition_level_histograms;
  std::vector<int64_t> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
};

/// The header of a split-block Bloom filter. Each union is recorded as the
/// member that was set (1 = BLOCK / XXHASH / UNCOMPRESSED, the only members the
/// spec defines); 0 means absent or unknown.
struct BloomFilterHeader {
  int32_t numBytes = 0;
  int16_t algorithm = 0;
  int16_t hash = 0;
  int16_t compression = 0;
};

}  // namespace quarry::parquet
