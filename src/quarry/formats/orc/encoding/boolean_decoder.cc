#include "quarry/formats/orc/encoding/boolean_decoder.h"

#include <algorithm>
#include <utility>

namespace quarry::orc {

BooleanDecoder::BooleanDecoder(std::span<const uint8_t> stream, std::string context)
    : bytes_(stream, std::move(context)) {}

void BooleanDecoder::next(std::span<uint8_t> out) {
  size_t done = 0;
  // Bits left over in the byte the previous call started.
  for (; done < out.size() && bitsLeft_ > 0; ++done) {
    out[done] = current_ >> 7;
    current_ = static_cast<uint8_t>(current_ << 1);
    --bitsLeft_;
  }
  // Whole bytes, a scratch buffer at a time.
  while (out.size() - done >= 8) {
    const size_t byteCount = std::min((out.size() - done) / 8, scratch_.size());
    bytes_.next(std::span(scratch_.data(), byteCount));
    for (size_t b = 0; b < byteCount; ++b) {
      const uint8_t byte = scratch_[b];
      uint8_t* dest = out.data() + done + b * 8;
      for (unsigned k = 0; k < 8; ++k) dest[k] = (byte >> (7 - k)) & 1;
    }
    done += byteCount * 8;
  }
  if (done < out.size()) {
    bytes_.next(std::span(&current_, 1));
    bitsLeft_ = 8;
    for (; done < out.size(); ++done) {
      out[done] = current_ >> 7;
      current_ = static_cast<uint8_t>(current_ << 1);
      --bitsLeft_;
    }
  }
}

void BooleanDecoder::skip(uint64_t n) {
  const uint64_t fromCurrent = std::min<uint64_t>(n, bitsLeft_);
  current_ = static_cast<uint8_t>(current_ << fromCurrent);
  bitsLeft_ -= static_cast<unsigned>(fromCurrent);
  n -= fromCurrent;
  if (n == 0) return;
  bytes_.skip(n / 8);
  if (n % 8 != 0) {
    bytes_.next(std::span(&current_, 1));
    current_ = static_cast<uint8_t>(current_ << (n % 8));
    bitsLeft_ = 8 - static_cast<unsigned>(n % 8);
  }
}

}  // namespace quarry::orc
