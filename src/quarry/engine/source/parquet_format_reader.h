#pragma once

#include <optional>
#include <string>

#include "quarry/engine/source/format_reader.h"
#include "quarry/formats/parquet/footer_cache.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/range_cache.h"

/// The FormatReader of Parquet files.
///
/// Types (physical type + logical annotation -> engine type):
///
///   BOOLEAN                                   boolean
///   INT32                                     int32
///   INT32 INT(8|16|32, signed)                int32
///   INT32 INT(8|16, unsigned)                 int32
///   INT32 INT(32, unsigned)                   int64
///   INT32 DATE                                date
///   INT32 TIME(MILLIS)                        time(ms)
///   INT32 DECIMAL(p,s)                        decimal(p,s)
///   INT64                                     int64 (INT(64, signed) too)
///   INT64 INT(64, unsigned)                   uint64
///   INT64 TIME(MICROS|NANOS)                  time(us|ns)
///   INT64 TIMESTAMP(unit, utc)                timestamp(unit, utc or local)
///   INT64 DECIMAL(p,s)                        decimal(p,s)
///   INT96                                     timestamp(ns, utc)
///   FLOAT, DOUBLE                             double
///   BYTE_ARRAY STRING | ENUM | JSON           string
///   BYTE_ARRAY DECIMAL(p,s)                   decimal(p,s)
///   BYTE_ARRAY (anything else)                binary
///   FIXED_LEN_BYTE_ARRAY(16) UUID             uuid
///   FIXED_LEN_BYTE_ARRAY DECIMAL(p,s)         decimal(p,s)
///   FIXED_LEN_BYTE_ARRAY(2) FLOAT16           double
///   FIXED_LEN_BYTE_ARRAY (anything else)      binary
///   UNKNOWN (the null logical type)           null
///
/// A DECIMAL of precision above 38 (beyond Int128) is read as double, as DuckDB
/// reads it: the nearest double to the exact value. Leaves of a struct are columns
/// named by their dotted path ("a.b"). A list of a primitive (a 3-level or legacy
/// 2-level LIST, or an unannotated repeated primitive; parquet_list_column.h) is
/// one column of type list<T>, T the element's type above, named by the list's
/// node ("tags", not "tags.list.element"); a null list, an empty list and a null
/// element stay apart. Other leaves under a repeated field (lists of lists or of
/// structs, maps) are left out of the schema; a file holding them is read
/// without them.
///
/// Footers are decoded once per process and file (uri + size): the footer
/// metadata() read is reused by the read() of the file's splits.
namespace quarry::engine {

class ParquetFormatReader final : public FormatReader {
 public:
  const std::string& name() const override;
  SourceMetadata metadata(const std::string& uri) const override;
  LocalSupplier read(const FileSplit& split, const ReadRequest& request) const override;
  /// One split per row group / stripe of `split`, from the footer.
  std::vector<FileSplit> units(const FileSplit& split) const override;
  /// Cut at every page boundary of the filter's columns and of `columns` with
  /// a page index (parquet::decideSegments). A segment every row of which
  /// matches has, per leaf of `columns` in the file, its page's statistics
  /// where the segment is exactly one page of the column (page-index bounds
  /// count as chunk bounds do: ParquetFileStatistics), else a null count of 0
  /// or of every row where its page (or chunk) has none or only nulls, else
  /// nothing known.
  std::vector<UnitSegment> segments(const FileSplit& unit, const parquet::FilterPredicate& filter,
                                    std::span<const std::string> columns,
                                    ScanMetrics* metrics) const override;
  AggregatePushdownSupport aggregatePushdownSupport() const override {
    return AggregatePushdownSupport::kFromStatistics;
  }

  /// The engine type of `leaf`; nullopt for a leaf under a repeated field.
  static std::optional<DataType> engineType(const parquet::SchemaNode& leaf);
  /// The list type of the list column `node` names (parquet_list_column.h), or
  /// nullopt when `node` names none the engine reads.
  static std::optional<DataType> listType(const parquet::SchemaNode& node);
  /// The engine type of `leaf`'s values, wherever it sits in the schema.
  static std::optional<DataType> primitiveType(const parquet::SchemaNode& leaf);
  /// The columns of `schema` the engine reads, in leaf order.
  static Schema engineSchema(const parquet::FileSchema& schema);
  /// The columns of `schema` left out of engineSchema (maps, lists of nested
  /// types, repeated groups), each once, in leaf order.
  static std::vector<UnreadColumn> unreadColumns(const parquet::FileSchema& schema);

  /// The footer cache (for tests: its hit and miss counts).
  parquet::FooterCache& footerCache() const { return footers_; }
  /// The page indexes segments() read, for the scan of the rows it leaves.
  io::ByteRangeCache& pageIndexBytes() const { return pageIndexBytes_; }

 private:
  mutable parquet::FooterCache footers_{16 << 20};
  mutable io::ByteRangeCache pageIndexBytes_{4 << 20};
};

}  // namespace quarry::engine
