#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "quarry/formats/orc/encoding/integer_decoder.h"
#include "quarry/formats/orc/encoding/timezone.h"

/// TIMESTAMP and TIMESTAMP_INSTANT columns. DATA holds signed seconds from
/// 2015-01-01 00:00:00 on the writer's clock (so the UTC instant is DATA plus
/// the zone's orcEpoch()); SECONDARY holds unsigned nanoseconds with their
/// trailing decimal zeros cut: the low 3 bits z count them, and when z != 0 the
/// rest is multiplied by 10^(z+1). 1000 ns is 0x0a (1 << 3 | 2), 100000 ns is
/// 0x0c. Writers computed seconds by truncating milliseconds toward zero, so
/// before 1970 a value with a fractional millisecond (nanos > 999999) is read one
/// second earlier, as the Java and C++ readers do.
namespace quarry::orc {

/// Decodes a SECONDARY value to nanoseconds; returns -1 when it exceeds 999999999.
int64_t decodeNanos(uint64_t encoded);

/// Decodes the DATA and SECONDARY streams of a timestamp column.
class TimestampDecoder {
 public:
  /// `zone` is the writer's time zone (the stripe footer's writerTimezone) for
  /// TIMESTAMP, Timezone::utc() for TIMESTAMP_INSTANT. It must outlive the decoder.
  TimestampDecoder(RleVersion version, std::span<const uint8_t> data,
                   std::span<const uint8_t> secondary, const Timezone& zone, std::string context);

  /// Writes the next values as seconds since 1970-01-01 00:00:00 on the zone's
  /// wall clock (what a TIMESTAMP shows: "2037-01-01 00:00:00.000999") and
  /// nanoseconds 0..999999999. Throws CorruptFile when a stream ends early or a
  /// nanosecond value is out of range.
  void next(std::span<int64_t> seconds, std::span<int64_t> nanos);
  /// Writes the next values as UTC instants (seconds since the Unix epoch) and
  /// nanoseconds.
  void nextInstants(std::span<int64_t> seconds, std::span<int64_t> nanos);
  /// Skips n values.
  void skip(uint64_t n);

 private:
  std::unique_ptr<IntegerDecoder> seconds_;
  std::unique_ptr<IntegerDecoder> nanos_;
  const Timezone& zone_;
  std::string context_;
};

}  // namespace quarry::orc
