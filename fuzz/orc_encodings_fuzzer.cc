// libFuzzer target for ORC's stream decoders. The first input byte picks a
// decoder (integer RLE v1 / v2, signed or not; byte RLE; boolean; decimal;
// timestamp; float); the rest is the stream (split in two for the decoders that
// read two streams). Every decode must end in values or CorruptFile. Where a
// decoder can be read two ways (one large batch, or mixed batches and skips),
// both must agree; a disagreement traps.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/orc/encoding/boolean_decoder.h"
#include "quarry/formats/orc/encoding/byte_rle_decoder.h"
#include "quarry/formats/orc/encoding/decimal_decoder.h"
#include "quarry/formats/orc/encoding/float_decoder.h"
#include "quarry/formats/orc/encoding/integer_decoder.h"
#include "quarry/formats/orc/encoding/timestamp_decoder.h"

namespace {

using namespace quarry::orc;

/// Values decoded per input at most: a few bytes can declare thousands of values.
constexpr size_t kMaxValues = 1 << 14;
constexpr size_t kBatchSizes[] = {1, 7, 64, 300, 3, 1000, 8, 31, 513};

/// Reads a decoder value by value up to the first error, then fresh ones in one
/// batch and in mixed batches and skips, and checks them against the first. `make()` builds a
/// decoder; `read(d, span)` and `skip(d, n)` decode.
template <typename T, typename Make, typename Read, typename Skip>
void readTwoWays(Make&& make, Read&& read, Skip&& skip) {
  std::vector<T> reference;
  try {
    auto decoder = make();
    std::vector<T> one(1);
    while (reference.size() < kMaxValues) {
      read(decoder, std::span(one));
      reference.push_back(one[0]);
    }
  } catch (const quarry::CorruptFile&) {
  }
  if (reference.empty()) return;
  try {
    auto decoder = make();
    std::vector<T> all(reference.size());
    read(decoder, std::span(all));
    if (all != reference) __builtin_trap();
  } catch (const quarry::CorruptFile&) {
    __builtin_trap();
  }
  auto decoder = make();
  std::vector<T> batch(1000);
  size_t pos = 0;
  try {
    for (size_t step = 0; pos < reference.size(); ++step) {
      const size_t n = std::min(kBatchSizes[step % std::size(kBatchSizes)], reference.size() - pos);
      if (step % 3 == 2) {
        skip(decoder, n);
      } else {
        read(decoder, std::span(batch.data(), n));
        if (!std::equal(batch.begin(), batch.begin() + static_cast<long>(n),
                        reference.begin() + static_cast<long>(pos))) {
          __builtin_trap();
        }
      }
      pos += n;
    }
  } catch (const quarry::CorruptFile&) {
    // The second pass only asks for values the first one decoded.
    __builtin_trap();
  }
}

void fuzzIntegers(RleVersion version, bool isSigned, std::span<const uint8_t> stream) {
  readTwoWays<int64_t>([&] { return makeIntegerDecoder(version, stream, isSigned, "fuzz"); },
                       [](auto& d, std::span<int64_t> out) { d->next(out); },
                       [](auto& d, size_t n) { d->skip(n); });
}

void fuzzBytes(std::span<const uint8_t> stream) {
  readTwoWays<uint8_t>([&] { return ByteRleDecoder(stream, "fuzz"); },
                       [](ByteRleDecoder& d, std::span<uint8_t> out) { d.next(out); },
                       [](ByteRleDecoder& d, size_t n) { d.skip(n); });
}

void fuzzBooleans(std::span<const uint8_t> stream) {
  readTwoWays<uint8_t>([&] { return BooleanDecoder(stream, "fuzz"); },
                       [](BooleanDecoder& d, std::span<uint8_t> out) { d.next(out); },
                       [](BooleanDecoder& d, size_t n) { d.skip(n); });
}

/// Splits the stream at a point its first byte gives, for two-stream decoders.
std::pair<std::span<const uint8_t>, std::span<const uint8_t>> split(
    std::span<const uint8_t> stream) {
  if (stream.empty()) return {stream, stream};
  const size_t at = std::min<size_t>(stream[0] * 4u, stream.size() - 1);
  return {stream.subspan(1, at), stream.subspan(1 + at)};
}

void fuzzDecimals(unsigned param, std::span<const uint8_t> stream) {
  // Plain variables: clang 14 cannot capture structured bindings in lambdas.
  const auto streams = split(stream);
  const std::span<const uint8_t> data = streams.first;
  const std::span<const uint8_t> secondary = streams.second;
  const int32_t scale = static_cast<int32_t>(param % 39);
  auto make = [&] {
    return param % 3 == 0
               ? DecimalDecoder::decimal64(data, scale, "fuzz")
               : DecimalDecoder(data, secondary, param % 3 == 1 ? RleVersion::kV1 : RleVersion::kV2,
                                scale, "fuzz");
  };
  readTwoWays<Int128>(
      make, [](DecimalDecoder& d, std::span<Int128> out) { d.next(out); },
      [](DecimalDecoder& d, size_t n) { d.skip(n); });
  try {
    // Every value the decoder produces must render.
    auto decoder = make();
    std::vector<Int128> values(64);
    std::vector<int32_t> scales(64);
    decoder.nextRaw(values, scales);
    for (size_t i = 0; i < values.size(); ++i) (void)decimalToString(values[i], scales[i]);
  } catch (const quarry::CorruptFile&) {
  }
}

struct Timestamp {
  int64_t seconds;
  int64_t nanos;
  bool operator==(const Timestamp&) const = default;
};

void fuzzTimestamps(unsigned param, std::span<const uint8_t> stream) {
  // Plain variables: clang 14 cannot capture structured bindings in lambdas.
  const auto streams = split(stream);
  const std::span<const uint8_t> data = streams.first;
  const std::span<const uint8_t> secondary = streams.second;
  const RleVersion version = param % 2 == 0 ? RleVersion::kV1 : RleVersion::kV2;
  const Timezone& zone = param % 4 < 2 ? Timezone::utc() : Timezone::byName("GMT+8");
  readTwoWays<Timestamp>([&] { return TimestampDecoder(version, data, secondary, zone, "fuzz"); },
                         [](TimestampDecoder& d, std::span<Timestamp> out) {
                           std::vector<int64_t> seconds(out.size());
                           std::vector<int64_t> nanos(out.size());
                           d.next(seconds, nanos);
                           for (size_t i = 0; i < out.size(); ++i) out[i] = {seconds[i], nanos[i]};
                         },
                         [](TimestampDecoder& d, size_t n) { d.skip(n); });
}

void fuzzFloats(std::span<const uint8_t> stream) {
  try {
    FloatDecoder<double> doubles(stream, "fuzz");
    doubles.skip(1);
    std::vector<double> out(doubles.remaining());
    doubles.next(out);
  } catch (const quarry::CorruptFile&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const unsigned kind = data[0] % 9;
  const unsigned param = data[0] / 9;
  const std::span<const uint8_t> stream(data + 1, size - 1);
  switch (kind) {
    case 0:
      fuzzIntegers(RleVersion::kV1, false, stream);
      break;
    case 1:
      fuzzIntegers(RleVersion::kV1, true, stream);
      break;
    case 2:
      fuzzIntegers(RleVersion::kV2, false, stream);
      break;
    case 3:
      fuzzIntegers(RleVersion::kV2, true, stream);
      break;
    case 4:
      fuzzBytes(stream);
      break;
    case 5:
      fuzzBooleans(stream);
      break;
    case 6:
      fuzzDecimals(param, stream);
      break;
    case 7:
      fuzzTimestamps(param, stream);
      break;
    default:
      fuzzFloats(stream);
      break;
  }
  return 0;
}
