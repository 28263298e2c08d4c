#include "quarry/value_text.h"

#include "quarry/api/engine_types.h"
#include "quarry/cli/block_text.h"
#include "quarry/cli/duckdb_text.h"

namespace quarry {

std::string decimalText(__int128 unscaled, int32_t scale) {
  return cli::decimalText(unscaled, scale);
}

std::string dateText(int32_t daysSinceEpoch) {
  return cli::duckDbDate(Date{daysSinceEpoch});
}

std::string timeText(int64_t value, TimeUnit unit) {
  std::string out;
  cli::appendTimeText(value, api::engineType(DataType{.kind = TypeKind::kTime, .unit = unit}), out);
  return out;
}

std::string timestampText(int64_t value, TimeUnit unit, bool utcAdjusted) {
  std::string out;
  cli::appendTimestampText(
      value,
      api::engineType(
          DataType{.kind = TypeKind::kTimestamp, .unit = unit, .utcAdjusted = utcAdjusted}),
      out);
  return out;
}

}  // namespace quarry
