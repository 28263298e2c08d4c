#pragma once

#include <optional>
#include <string>

#include "quarry/engine/source/format_reader.h"
#include "quarry/formats/orc/orc_schema.h"

/// The FormatReader of ORC files.
///
/// Types (ORC type -> engine type):
///
///   boolean                               boolean
///   tinyint, smallint, int                int32
///   bigint                                int64
///   float, double                         double
///   decimal(p,s)                          decimal(p,s)
///   decimal of Hive 0.11 (no precision)   double (each value at its own scale)
///   string, char(n), varchar(n)           string (char keeps its padding)
///   binary                                binary
///   date                                  date
///   timestamp                             timestamp(ns, local): the writer's wall clock
///   timestamp with local time zone        timestamp(ns, utc)
///
/// Leaves of a struct are columns named by their dotted path ("a.b"); lists,
/// maps and unions (and everything under them) are left out of the schema. A
/// split reads the stripes whose midpoint lies in its byte range; the filter
/// goes to OrcRowReader (stripe statistics, row index and Bloom filter pruning,
/// then exact row selection).
namespace quarry::engine {

class OrcFormatReader final : public FormatReader {
 public:
  const std::string& name() const override;
  SourceMetadata metadata(const std::string& uri) const override;
  LocalSupplier read(const FileSplit& split, const ReadRequest& request) const override;
  /// One split per row group / stripe of `split`, from the footer.
  std::vector<FileSplit> units(const FileSplit& split) const override;
  AggregatePushdownSupport aggregatePushdownSupport() const override {
    return AggregatePushdownSupport::kFromStatistics;
  }

  /// The engine type of `type`; nullopt for compound types and what lies under
  /// a list, map or union.
  static std::optional<DataType> engineType(const orc::OrcType& type);
  /// The columns of `schema` the engine reads, in column-id order.
  static Schema engineSchema(const orc::OrcSchema& schema);
  /// The columns of `schema` left out of engineSchema: the outermost lists, maps
  /// and unions (with their Hive type strings), in column-id order.
  static std::vector<UnreadColumn> unreadColumns(const orc::OrcSchema& schema);
};

}  // namespace quarry::engine
