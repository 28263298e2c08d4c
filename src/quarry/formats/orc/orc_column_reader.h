#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quarry/common/memory_budget.h"
#include "quarry/formats/orc/encoding/varint.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/stripe_reader.h"

/// Decodes the columns of one stripe into typed vectors, a column at a time and
/// in bulk: each stream goes through its decoder once for all of the stripe's
/// values, with no call per value.
///
/// Nulls: a column's PRESENT stream (when written) has one bit per slot, and the
/// data streams hold values for the present slots only. A column has one slot
/// per present value of its parent: the root has one per row, a struct's
/// children one per present struct, a list's element one per element of the
/// present lists, a union's variant one per value carrying its tag. Values are
/// therefore stored densely, valueIndex() maps a slot to its value.
namespace quarry::orc {

/// The decoded values of one column of one stripe.
struct ColumnVector {
  const OrcType* type = nullptr;
  /// Slots in this column (see above).
  uint64_t size = 0;
  /// One 0/1 per slot; empty when every slot holds a value.
  std::vector<uint8_t> present;
  /// Values held (slots that are not null).
  uint64_t valueCount = 0;
  /// What the column's vectors are charged against the query's memory limit
  /// (common/memory_budget.h): a presence byte and a value per slot, up front.
  MemoryCharge memory;

  /// boolean (0/1), tinyint, smallint, int, bigint, date (days since 1970),
  /// decimal with precision <= 18 (unscaled, at the type's scale), timestamps
  /// (UTC seconds since 1970, converted from the writer's time zone for
  /// kTimestamp), union tags.
  std::vector<int64_t> longs;
  /// float and double.
  std::vector<double> doubles;
  /// Decimals above 18 digits and of Hive 0.11 files (unscaled).
  std::vector<Int128> wideDecimals;
  /// Per-value scales of Hive 0.11 decimals (precision 0); empty otherwise.
  std::vector<int32_t> decimalScales;
  /// Timestamp nanoseconds within the second (0 .. 999'999'999).
  std::vector<int32_t> nanos;
  /// string/char/varchar/binary: value i is bytes[offsets[i], offsets[i+1]);
  /// list/map: value i's entries are children slots [offsets[i], offsets[i+1]).
  std::vector<uint64_t> offsets;
  std::string bytes;
  /// union: value i is slot unionSlots[i] of variant longs[i].
  std::vector<uint64_t> unionSlots;
  /// The writer's time zone of the stripe ("" = UTC), for kTimestamp.
  std::string writerTimezone;
  /// Children in type order (struct fields, list element, map key and value,
  /// union variants); null for an unprojected struct field.
  std::vector<std::unique_ptr<ColumnVector>> children;

  bool isNull(uint64_t slot) const { return !present.empty() && present[slot] == 0; }
  /// Returns the value index of a non-null slot (built lazily for columns with nulls).
  uint64_t valueIndex(uint64_t slot) const;
  /// Returns timestamp value `i` as seconds since 1970 on the writer's wall clock
  /// (what a kTimestamp shows); UTC for kTimestampInstant.
  int64_t wallClockSeconds(uint64_t i) const;

 private:
  mutable std::vector<uint64_t> valueIndex_;
};

/// Decodes the stripe's column `type` (and its projected descendants) for
/// `slots` slots. `projected` flags the column ids to decode (a struct field not
/// flagged gets a null child). Throws CorruptFile naming the file, stripe,
/// column and stream when a stream is missing, too short or inconsistent.
std::unique_ptr<ColumnVector> decodeColumn(const OrcType& type, uint64_t slots,
                                           const StripeFooter& footer, const StripeStreams& streams,
                                           const std::vector<bool>& projected,
                                           const std::string& context);

}  // namespace quarry::orc
