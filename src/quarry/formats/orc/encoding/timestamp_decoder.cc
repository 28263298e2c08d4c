#include "quarry/formats/orc/encoding/timestamp_decoder.h"

#include <array>
#include <utility>

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

constexpr int64_t kMaxNanos = 999'999'999;

/// 10^k: z cut zeros (z = 1..7) stand for 10^(z + 1).
constexpr std::array<uint64_t, 9> kPowersOfTen = {1,      10,      100,      1000,     10000,
                                                  100000, 1000000, 10000000, 100000000};

}  // namespace

int64_t decodeNanos(uint64_t encoded) {
  const unsigned zeros = encoded & 7;
  const uint64_t digits = encoded >> 3;
  // z zeros were cut when z > 0, so they stand for z + 1 decimal zeros.
  const uint64_t factor = kPowersOfTen[zeros == 0 ? 0 : zeros + 1];
  if (digits > static_cast<uint64_t>(kMaxNanos) / factor) return -1;
  return static_cast<int64_t>(digits * factor);
}

TimestampDecoder::TimestampDecoder(RleVersion version, std::span<const uint8_t> data,
                                   std::span<const uint8_t> secondary, const Timezone& zone,
                                   std::string context)
    : seconds_(makeIntegerDecoder(version, data, true, context + " (DATA: seconds)")),
      nanos_(makeIntegerDecoder(version, secondary, false, context + " (SECONDARY: nanoseconds)")),
      zone_(zone),
      context_(std::move(context)) {}

void TimestampDecoder::nextInstants(std::span<int64_t> seconds, std::span<int64_t> nanos) {
  if (seconds.size() != nanos.size()) {
    throw InvalidArgument("TimestampDecoder: " + std::to_string(seconds.size()) + " seconds but " +
                          std::to_string(nanos.size()) + " nanoseconds");
  }
  seconds_->next(seconds);
  nanos_->next(nanos);
  const auto epoch = static_cast<uint64_t>(zone_.orcEpoch());
  for (size_t i = 0; i < seconds.size(); ++i) {
    const int64_t nano = decodeNanos(static_cast<uint64_t>(nanos[i]));
    if (nano < 0) {
      throw CorruptFile(context_ + ": timestamp " + std::to_string(i) +
                        " of this batch has nanoseconds past 999999999 (encoded " +
                        std::to_string(static_cast<uint64_t>(nanos[i])) + ")");
    }
    // Wrapping add: a corrupt file's extreme seconds must not be undefined behaviour.
    int64_t instant = static_cast<int64_t>(static_cast<uint64_t>(seconds[i]) + epoch);
    if (instant < 0 && nano > 999'999) {
      instant = static_cast<int64_t>(static_cast<uint64_t>(instant) - 1);
    }
    seconds[i] = instant;
    nanos[i] = nano;
  }
}

void TimestampDecoder::next(std::span<int64_t> seconds, std::span<int64_t> nanos) {
  nextInstants(seconds, nanos);
  for (int64_t& second : seconds) second = zone_.utcToLocal(second);
}

void TimestampDecoder::skip(uint64_t n) {
  seconds_->skip(n);
  nanos_->skip(n);
}

}  // namespace quarry::orc
