#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/orc/encoding/posix_tz_rule.h"

/// Time zones from the system's IANA database (TZif files under $TZDIR, else
/// /usr/share/zoneinfo), for ORC TIMESTAMP columns: their DATA counts seconds
/// from 2015-01-01 00:00:00 on the writer's clock, and their values are the
/// writer's wall-clock times. GCC 12's libstdc++ has no std::chrono::tzdb, so
/// quarry reads TZif (RFC 8536) itself: the 64-bit transition table of version
/// 2+ files, and the POSIX TZ string of the footer for instants past it.
namespace quarry::orc {

/// One zone's offsets from UTC over time.
class Timezone {
 public:
  /// Returns the zone named `name` ("America/Los_Angeles", "UTC"), loading it
  /// once and caching it for the process (thread-safe). Throws Unsupported when
  /// the database has no such zone, IoError when its file is not valid TZif.
  static const Timezone& byName(const std::string& name);
  /// Returns UTC, which needs no database.
  static const Timezone& utc();
  /// Builds a zone from the bytes of a TZif file. Throws IoError naming `name`
  /// when they are not valid TZif.
  static std::unique_ptr<Timezone> fromTzif(std::string name, std::span<const uint8_t> bytes);

  const std::string& name() const { return name_; }

  /// Returns the offset from UTC (seconds east) in effect at `utcSeconds`.
  int64_t utcOffsetAt(int64_t utcSeconds) const;
  /// Converts a UTC instant to seconds since 1970-01-01 00:00:00 on this zone's clock.
  int64_t utcToLocal(int64_t utcSeconds) const;
  /// Converts a wall-clock time to its UTC instant. A time the clock repeats (DST
  /// ends) gives the earlier instant; a time the clock skipped (DST starts) is
  /// read with the offset before the jump, landing that far past it (02:30 on a
  /// spring-forward day in Los Angeles is 03:30 PDT), as java.time does.
  int64_t localToUtc(int64_t localSeconds) const;
  /// Returns the UTC instant of 2015-01-01 00:00:00 on this zone's clock: the
  /// origin of TIMESTAMP DATA streams the zone's writers produce.
  int64_t orcEpoch() const { return orcEpoch_; }

 private:
  Timezone(std::string name, int64_t fixedOffset);

  std::string name_;
  std::vector<int64_t> transitions_;   // UTC instants, ascending
  std::vector<int64_t> offsets_;       // offset in effect from transitions_[i] on
  int64_t initialOffset_ = 0;          // before the first transition
  std::optional<PosixTzRule> future_;  // after the last transition
  int64_t orcEpoch_ = 0;
};

/// Converts `localSeconds` on the clock of zone `tzName` to UTC (see
/// Timezone::localToUtc; throws as Timezone::byName does).
int64_t writerLocalToUtcSeconds(int64_t localSeconds, const std::string& tzName);

}  // namespace quarry::orc
