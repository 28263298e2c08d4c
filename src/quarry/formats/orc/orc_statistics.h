#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/common/values.h"
#include "quarry/formats/orc/orc_proto.pb.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_tail.h"

/// ORC's ColumnStatistics, kept at three levels: the file (Footer.statistics),
/// each stripe (Metadata.stripeStats) and each row group of a stripe (the
/// RowIndexEntry of the ROW_INDEX stream), one entry per column id. Decoded to
/// typed values:
///   - numberOfValues counts the non-null values; hasNull says whether a null was
///     seen (files before ORC-1.2 do not write it: then it is unknown);
///   - strings longer than the writer's limit (1024 bytes) have no minimum /
///     maximum but a lowerBound / upperBound: a truncated prefix below every value
///     and a bound above every value (ORC-203);
///   - timestamps: minimumUtc / maximumUtc (ORC-135) in UTC milliseconds plus the
///     sub-millisecond nanos (stored + 1); older files only have minimum / maximum
///     in the writer's local time.
namespace quarry::orc {

/// The typed statistics of one column at one level.
struct OrcColumnStatistics {
  /// Unset when the writer did not say (files written without statistics).
  std::optional<uint64_t> valueCount;
  /// Unset when the writer did not say.
  std::optional<bool> hasNull;

  std::optional<int64_t> intMinimum, intMaximum, intSum;
  std::optional<double> doubleMinimum, doubleMaximum, doubleSum;
  /// Exact minimum / maximum, or bounds when the *IsBound flag says so.
  std::optional<std::string> stringMinimum, stringMaximum;
  bool stringMinimumIsBound = false;
  bool stringMaximumIsBound = false;
  /// Total length of strings (string statistics) or of binary values.
  std::optional<int64_t> lengthSum;
  /// Booleans: the number of true values.
  std::optional<uint64_t> trueCount;
  /// Decimals as the writer spelled them ("-1000.5").
  std::optional<std::string> decimalMinimum, decimalMaximum, decimalSum;
  std::optional<Date> dateMinimum, dateMaximum;
  /// Timestamps: UTC when timestampIsUtc, else the writer's local wall clock.
  std::optional<Instant> timestampMinimum, timestampMaximum;
  bool timestampIsUtc = true;
  /// Lists and maps: children per value.
  std::optional<uint64_t> minChildren, maxChildren, totalChildren;
};

/// Decodes one protobuf ColumnStatistics of a column of type `type`. Statistics
/// of a kind that does not fit the type are ignored (a corrupt writer must not
/// make a string bound appear on an integer column).
OrcColumnStatistics decodeColumnStatistics(const proto::ColumnStatistics& stats,
                                           const OrcType& type);

/// Returns the file-level statistics of every column. Empty when absent, and
/// when unusable: Java writers that built no row index wrote statistics with
/// every count 0, recognised by a root count of 0 for a level that has rows.
std::vector<OrcColumnStatistics> fileStatistics(const OrcTail& tail, const OrcSchema& schema);

/// Returns stripe `stripe`'s statistics of every column; empty when the file has
/// none for it or they are unusable (see fileStatistics).
std::vector<OrcColumnStatistics> stripeStatistics(const OrcTail& tail, const OrcSchema& schema,
                                                  size_t stripe);

/// Returns the row-group statistics of `type`'s column from its ROW_INDEX
/// stream (decompressed); throws CorruptFile naming `context` when it does not parse.
std::vector<OrcColumnStatistics> rowIndexStatistics(std::span<const uint8_t> rowIndexStream,
                                                    const OrcType& type,
                                                    const std::string& context);

}  // namespace quarry::orc
