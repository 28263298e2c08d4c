#include "quarry/formats/orc/orc_statistics.h"

#include <algorithm>

#include "quarry/formats/orc/orc_tail.h"

namespace quarry::orc {
namespace {

bool isInteger(TypeKind kind) {
  return kind == TypeKind::kByte || kind == TypeKind::kShort || kind == TypeKind::kInt ||
         kind == TypeKind::kLong;
}

bool isString(TypeKind kind) {
  return kind == TypeKind::kString || kind == TypeKind::kVarchar || kind == TypeKind::kChar;
}

Instant instantOf(int64_t millis, int32_t nanosPlusOne) {
  Instant instant = Instant::ofEpochUnits(millis, 1000);
  // The stored nanos are the sub-millisecond part plus one (0 = not written).
  if (nanosPlusOne > 0 && nanosPlusOne <= 1'000'000) instant.nanos += nanosPlusOne - 1;
  return instant;
}

}  // namespace

namespace {

std::vector<OrcColumnStatistics> decodeLevel(
    const google::protobuf::RepeatedPtrField<proto::ColumnStatistics>& stats,
    const OrcSchema& schema, uint64_t rows) {
  std::vector<OrcColumnStatistics> out;
  if (stats.empty() || (rows > 0 && stats.Get(0).numberofvalues() == 0)) return out;
  const auto count = std::min<size_t>(static_cast<size_t>(stats.size()), schema.columnCount());
  for (size_t c = 0; c < count; ++c) {
    out.push_back(decodeColumnStatistics(stats.Get(static_cast<int>(c)),
                                         schema.column(static_cast<uint32_t>(c))));
  }
  return out;
}

}  // namespace

OrcColumnStatistics decodeColumnStatistics(const proto::ColumnStatistics& stats,
                                           const OrcType& type) {
  OrcColumnStatistics out;
  if (stats.has_numberofvalues()) out.valueCount = stats.numberofvalues();
  if (stats.has_hasnull()) out.hasNull = stats.hasnull();
  const TypeKind kind = type.kind;
  if (isInteger(kind) && stats.has_intstatistics()) {
    const auto& s = stats.intstatistics();
    if (s.has_minimum()) out.intMinimum = s.minimum();
    if (s.has_maximum()) out.intMaximum = s.maximum();
    if (s.has_sum()) out.intSum = s.sum();
  } else if ((kind == TypeKind::kFloat || kind == TypeKind::kDouble) &&
             stats.has_doublestatistics()) {
    const auto& s = stats.doublestatistics();
    if (s.has_minimum()) out.doubleMinimum = s.minimum();
    if (s.has_maximum()) out.doubleMaximum = s.maximum();
    if (s.has_sum()) out.doubleSum = s.sum();
  } else if (isString(kind) && stats.has_stringstatistics()) {
    const auto& s = stats.stringstatistics();
    if (s.has_minimum()) {
      out.stringMinimum = s.minimum();
    } else if (s.has_lowerbound()) {
      out.stringMinimum = s.lowerbound();
      out.stringMinimumIsBound = true;
    }
    if (s.has_maximum()) {
      out.stringMaximum = s.maximum();
    } else if (s.has_upperbound()) {
      out.stringMaximum = s.upperbound();
      out.stringMaximumIsBound = true;
    }
    if (s.has_sum()) out.lengthSum = s.sum();
  } else if (kind == TypeKind::kBoolean && stats.has_bucketstatistics() &&
             stats.bucketstatistics().count_size() > 0) {
    out.trueCount = stats.bucketstatistics().count(0);
  } else if (kind == TypeKind::kDecimal && stats.has_decimalstatistics()) {
    const auto& s = stats.decimalstatistics();
    if (s.has_minimum()) out.decimalMinimum = s.minimum();
    if (s.has_maximum()) out.decimalMaximum = s.maximum();
    if (s.has_sum()) out.decimalSum = s.sum();
  } else if (kind == TypeKind::kDate && stats.has_datestatistics()) {
    const auto& s = stats.datestatistics();
    if (s.has_minimum()) out.dateMinimum = Date{s.minimum()};
    if (s.has_maximum()) out.dateMaximum = Date{s.maximum()};
  } else if ((kind == TypeKind::kTimestamp || kind == TypeKind::kTimestampInstant) &&
             stats.has_timestampstatistics()) {
    const auto& s = stats.timestampstatistics();
    if (s.has_minimumutc() || s.has_maximumutc()) {
      if (s.has_minimumutc()) out.timestampMinimum = instantOf(s.minimumutc(), s.minimumnanos());
      if (s.has_maximumutc()) out.timestampMaximum = instantOf(s.maximumutc(), s.maximumnanos());
    } else {
      out.timestampIsUtc = false;
      if (s.has_minimum()) out.timestampMinimum = instantOf(s.minimum(), s.minimumnanos());
      if (s.has_maximum()) out.timestampMaximum = instantOf(s.maximum(), s.maximumnanos());
    }
  } else if (kind == TypeKind::kBinary && stats.has_binarystatistics() &&
             stats.binarystatistics().has_sum()) {
    out.lengthSum = stats.binarystatistics().sum();
  } else if ((kind == TypeKind::kList || kind == TypeKind::kMap) &&
             stats.has_collectionstatistics()) {
    const auto& s = stats.collectionstatistics();
    if (s.has_minchildren()) out.minChildren = s.minchildren();
    if (s.has_maxchildren()) out.maxChildren = s.maxchildren();
    if (s.has_totalchildren()) out.totalChildren = s.totalchildren();
  }
  return out;
}

std::vector<OrcColumnStatistics> fileStatistics(const OrcTail& tail, const OrcSchema& schema) {
  return decodeLevel(tail.footer.statistics(), schema, tail.footer.numberofrows());
}

std::vector<OrcColumnStatistics> stripeStatistics(const OrcTail& tail, const OrcSchema& schema,
                                                  size_t stripe) {
  if (stripe >= static_cast<size_t>(tail.metadata.stripestats_size()) ||
      stripe >= tail.stripeCount()) {
    return {};
  }
  return decodeLevel(tail.metadata.stripestats(static_cast<int>(stripe)).colstats(), schema,
                     tail.footer.stripes(static_cast<int>(stripe)).numberofrows());
}

std::vector<OrcColumnStatistics> rowIndexStatistics(std::span<const uint8_t> rowIndexStream,
                                                    const OrcType& type,
                                                    const std::string& context) {
  proto::RowIndex index;
  parseMessage(index, rowIndexStream, context + " ROW_INDEX");
  std::vector<OrcColumnStatistics> out;
  out.reserve(static_cast<size_t>(index.entry_size()));
  for (const auto& entry : index.entry()) {
    out.push_back(decodeColumnStatistics(entry.statistics(), type));
  }
  return out;
}

}  // namespace quarry::orc
