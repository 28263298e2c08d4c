#include "quarry/formats/orc/encoding/decimal_decoder.h"

#include <algorithm>
#include <array>
#include <utility>

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

constexpr std::array<Int128, kMaxDecimalPrecision + 1> makePowersOfTen() {
  std::array<Int128, kMaxDecimalPrecision + 1> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}

constexpr auto kPowersOfTen = makePowersOfTen();
/// 10^38 - 1, the largest unscaled value of 38 digits.
constexpr Int128 kMaxUnscaled = kPowersOfTen[kMaxDecimalPrecision] - 1;

constexpr size_t kChunk = 256;

}  // namespace

bool rescaleDecimal(Int128 unscaled, int32_t from, int32_t to, Int128& out) {
  if (from < 0 || to < 0 || from > kMaxDecimalPrecision || to > kMaxDecimalPrecision) {
    return false;
  }
  if (to >= from) {
    const Int128 factor = kPowersOfTen[static_cast<size_t>(to - from)];
    const Int128 limit = kMaxUnscaled / factor;
    if (unscaled > limit || unscaled < -limit) return false;
    out = unscaled * factor;
    return true;
  }
  const Int128 quotient = unscaled / kPowersOfTen[static_cast<size_t>(from - to)];
  if (quotient > kMaxUnscaled || quotient < -kMaxUnscaled) return false;
  out = quotient;
  return true;
}

std::string decimalToString(Int128 unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  // The magnitude as unsigned, so -2^127 has one too.
  UInt128 magnitude =
      negative ? ~static_cast<UInt128>(unscaled) + 1 : static_cast<UInt128>(unscaled);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale < 0) {
    std::reverse(digits.begin(), digits.end());
    if (digits != "0") digits.append(static_cast<size_t>(-scale), '0');
    return negative ? "-" + digits : digits;
  }
  const auto fraction = static_cast<size_t>(scale);
  if (digits.size() <= fraction) digits.append(fraction + 1 - digits.size(), '0');
  std::reverse(digits.begin(), digits.end());
  if (fraction > 0) digits.insert(digits.size() - fraction, 1, '.');
  return negative ? "-" + digits : digits;
}

DecimalDecoder::DecimalDecoder(std::span<const uint8_t> data, int32_t columnScale,
                               std::string context)
    : data_(data), columnScale_(columnScale), context_(std::move(context)) {
  if (columnScale < 0 || columnScale > kMaxDecimalPrecision) {
    throw CorruptFile(context_ +
                      ": decimal column scale is outside 0..38: " + std::to_string(columnScale));
  }
}

DecimalDecoder::DecimalDecoder(std::span<const uint8_t> data, std::span<const uint8_t> secondary,
                               RleVersion version, int32_t columnScale, std::string context)
    : DecimalDecoder(data, columnScale, std::move(context)) {
  scales_ = makeIntegerDecoder(version, secondary, true, context_ + " (SECONDARY: scales)");
}

DecimalDecoder DecimalDecoder::decimal64(std::span<const uint8_t> data, int32_t columnScale,
                                         std::string context) {
  DecimalDecoder decoder({}, columnScale, std::move(context));
  decoder.values64_ = makeIntegerDecoder(RleVersion::kV2, data, true, decoder.context_);
  return decoder;
}

void DecimalDecoder::nextRaw(std::span<Int128> unscaled, std::span<int32_t> scales) {
  if (unscaled.size() != scales.size()) {
    throw InvalidArgument("DecimalDecoder::nextRaw: " + std::to_string(unscaled.size()) +
                          " values but " + std::to_string(scales.size()) + " scales");
  }
  std::array<int64_t, kChunk> buffer;
  for (size_t done = 0; done < unscaled.size();) {
    const size_t n = std::min(kChunk, unscaled.size() - done);
    if (values64_) {
      values64_->next(std::span(buffer.data(), n));
      std::copy_n(buffer.data(), n, unscaled.data() + done);
      std::fill_n(scales.data() + done, n, columnScale_);
    } else {
      scales_->next(std::span(buffer.data(), n));
      for (size_t i = 0; i < n; ++i) {
        if (buffer[i] < 0 || buffer[i] > kMaxDecimalPrecision) {
          throw CorruptFile(
              context_ + ": decimal value " + std::to_string(done + i) +
              " of this batch has a scale outside 0..38: " + std::to_string(buffer[i]));
        }
        scales[done + i] = static_cast<int32_t>(buffer[i]);
        unscaled[done + i] = readSignedVarint128(data_, pos_, context_);
      }
    }
    done += n;
  }
}

void DecimalDecoder::next(std::span<Int128> out) {
  std::array<int32_t, kChunk> scales;
  for (size_t done = 0; done < out.size();) {
    const size_t n = std::min(kChunk, out.size() - done);
    const std::span<Int128> values = out.subspan(done, n);
    nextRaw(values, std::span(scales.data(), n));
    for (size_t i = 0; i < n; ++i) {
      if (scales[i] == columnScale_) continue;
      if (!rescaleDecimal(values[i], scales[i], columnScale_, values[i])) {
        throw CorruptFile(context_ + ": decimal " + decimalToString(values[i], scales[i]) +
                          " does not fit 38 digits at the column's scale " +
                          std::to_string(columnScale_));
      }
    }
    done += n;
  }
}

void DecimalDecoder::skip(uint64_t n) {
  if (values64_) return values64_->skip(n);
  scales_->skip(n);
  for (uint64_t i = 0; i < n; ++i) {
    // Varints need no decoding to skip: find the byte without the high bit.
    while (pos_ < data_.size() && (data_[pos_] & 0x80) != 0) ++pos_;
    if (pos_ >= data_.size()) {
      throw CorruptFile(context_ + ": DATA stream ends at offset " + std::to_string(pos_) +
                        " while skipping " + std::to_string(n - i) + " more decimals");
    }
    ++pos_;
  }
}

}  // namespace quarry::orc
