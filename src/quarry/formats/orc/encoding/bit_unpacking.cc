#include "quarry/formats/orc/encoding/bit_unpacking.h"

#include <bit>
#include <cstring>

static_assert(std::endian::native == std::endian::little, "byte swaps assume a little-endian host");

namespace quarry::orc {
namespace {

/// Loads big-endian words with one load and a byte swap each.
template <typename Word>
void unpackWords(const uint8_t* in, size_t count, uint64_t* out) {
  for (size_t i = 0; i < count; ++i) {
    Word word;
    std::memcpy(&word, in + i * sizeof(Word), sizeof(Word));
    if constexpr (sizeof(Word) == 2) {
      out[i] = __builtin_bswap16(word);
    } else if constexpr (sizeof(Word) == 4) {
      out[i] = __builtin_bswap32(word);
    } else {
      out[i] = __builtin_bswap64(word);
    }
  }
}

template <unsigned kBytes>
void unpackWholeBytes(const uint8_t* in, size_t count, uint64_t* out) {
  for (size_t i = 0; i < count; ++i) {
    uint64_t value = 0;
    for (unsigned b = 0; b < kBytes; ++b) value = (value << 8) | in[b];
    out[i] = value;
    in += kBytes;
  }
}

/// Reads widths that are not whole bytes through a bit accumulator. `acc` holds
/// `accBits` unread bits in its low end; widths up to 56 always fit beside the
/// next byte, wider ones are read as two halves.
class BitReader {
 public:
  explicit BitReader(const uint8_t* in) : in_(in) {}

  uint64_t read(unsigned width) {
    while (accBits_ < width) {
      acc_ = (acc_ << 8) | *in_++;
      accBits_ += 8;
    }
    accBits_ -= width;
    return (acc_ >> accBits_) & ((uint64_t{1} << width) - 1);
  }

 private:
  const uint8_t* in_;
  uint64_t acc_ = 0;
  unsigned accBits_ = 0;
};

void unpackNarrow(const uint8_t* in, unsigned width, size_t count, uint64_t* out) {
  // One byte holds 8 / width values for widths dividing 8: extract them in a
  // fixed inner loop the compiler unrolls.
  if (width == 1 || width == 2 || width == 4) {
    const unsigned perByte = 8 / width;
    const uint64_t mask = (uint64_t{1} << width) - 1;
    size_t i = 0;
    for (; i + perByte <= count; i += perByte) {
      const uint8_t byte = *in++;
      for (unsigned k = 0; k < perByte; ++k) {
        out[i + k] = (byte >> (8 - width * (k + 1))) & mask;
      }
    }
    for (unsigned k = 0; i < count; ++i, ++k) out[i] = (*in >> (8 - width * (k + 1))) & mask;
    return;
  }
  if (width <= 56) {
    // A value of up to 56 bits starting anywhere in a byte lies within the 8
    // bytes from that byte: one load, one swap, two shifts, while 8 bytes remain.
    const uint64_t total = packedBytes(width, count);
    size_t i = 0;
    for (; i < count; ++i) {
      const uint64_t bit = uint64_t{i} * width;
      if (bit / 8 + 8 > total) break;
      uint64_t word;
      std::memcpy(&word, in + bit / 8, sizeof(word));
      out[i] = (__builtin_bswap64(word) << (bit % 8)) >> (64 - width);
    }
    const uint64_t bit = uint64_t{i} * width;
    BitReader reader(in + bit / 8);
    if (bit % 8 != 0) reader.read(static_cast<unsigned>(bit % 8));
    for (; i < count; ++i) out[i] = reader.read(width);
  } else {
    BitReader reader(in);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t high = reader.read(width - 32);
      out[i] = (high << 32) | reader.read(32);
    }
  }
}

}  // namespace

void unpackBigEndian(const uint8_t* in, unsigned width, size_t count, uint64_t* out) {
  switch (width) {
    case 8:
      return unpackWholeBytes<1>(in, count, out);
    case 16:
      return unpackWords<uint16_t>(in, count, out);
    case 24:
      return unpackWholeBytes<3>(in, count, out);
    case 32:
      return unpackWords<uint32_t>(in, count, out);
    case 40:
      return unpackWholeBytes<5>(in, count, out);
    case 48:
      return unpackWholeBytes<6>(in, count, out);
    case 56:
      return unpackWholeBytes<7>(in, count, out);
    case 64:
      return unpackWords<uint64_t>(in, count, out);
    default:
      return unpackNarrow(in, width, count, out);
  }
}

}  // namespace quarry::orc
