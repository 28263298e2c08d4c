#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "quarry/engine/source/format_reader.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/io/storage.h"

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
///
/// A file's tail is read once per reader and file (uri + size + version): the
/// tail metadata() reads is reused by units() and by the read() of the file's
/// splits, which reopen a remote file with the size and version it learnt
/// (no request to open, none for the tail).
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

  /// The tail and schema of `object`: read on the first call for its uri, size
  /// and version, then shared (at most kMaxCachedFiles files are kept); read each
  /// time for an object without a version.
  std::shared_ptr<const orc::OrcFileMeta> fileMeta(io::StorageObject& object) const;
  static constexpr size_t kMaxCachedFiles = 4096;

 private:
  mutable std::mutex metaMutex_;
  mutable std::unordered_map<std::string, std::shared_ptr<const orc::OrcFileMeta>> metas_;
};

}  // namespace quarry::engine
