#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

#include <algorithm>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/bit_unpacking.h"
#include "quarry/formats/parquet/encoding/leb128.h"

namespace quarry::parquet {
namespace {

/// Encodings.md bounds every run to [1, 2^31 - 1] values.
constexpr uint64_t kMaxRunLength = (uint64_t{1} << 31) - 1;

std::string at(size_t offset) {
  return " at offset " + std::to_string(offset);
}

}  // namespace

RleBitPackedDecoder::RleBitPackedDecoder(std::span<const uint8_t> data, unsigned bitWidth)
    : RleBitPackedDecoder(data, 0, bitWidth) {}

RleBitPackedDecoder::RleBitPackedDecoder(std::span<const uint8_t> data, size_t start,
                                         unsigned bitWidth)
    : data_(data), bitWidth_(bitWidth), pos_(start) {
  if (bitWidth > kMaxBitWidth) {
    throw InvalidArgument("RLE/bit-packed data: bit width " + std::to_string(bitWidth) +
                          " is more than " + std::to_string(kMaxBitWidth));
  }
}

RleBitPackedDecoder RleBitPackedDecoder::withLengthPrefix(std::span<const uint8_t> data,
                                                          unsigned bitWidth) {
  if (data.size() < 4) {
    throw CorruptFile("RLE/bit-packed data: the 4-byte length prefix at offset 0 is cut off (" +
                      std::to_string(data.size()) + " bytes)");
  }
  const uint32_t length = static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 |
                          static_cast<uint32_t>(data[2]) << 16 |
                          static_cast<uint32_t>(data[3]) << 24;
  if (length > data.size() - 4) {
    throw CorruptFile("RLE/bit-packed data: the length prefix at offset 0 claims " +
                      std::to_string(length) + " bytes, but only " +
                      std::to_string(data.size() - 4) + " follow it");
  }
  return RleBitPackedDecoder(data.first(4 + size_t{length}), 4, bitWidth);
}

RleBitPackedDecoder RleBitPackedDecoder::forDictionaryIndices(std::span<const uint8_t> data) {
  if (data.empty()) return RleBitPackedDecoder(data, 0, 0);
  if (data[0] > kMaxBitWidth) {
    throw CorruptFile("dictionary indices: bit width " + std::to_string(data[0]) + at(0) +
                      " is more than " + std::to_string(kMaxBitWidth));
  }
  return RleBitPackedDecoder(data, 1, data[0]);
}

bool RleBitPackedDecoder::nextRun() {
  if (pos_ >= data_.size()) return false;
  runOffset_ = pos_;
  const uint64_t header = readUleb128(data_, pos_, "RLE/bit-packed run header");
  const uint64_t count = header >> 1;
  rle_ = (header & 1) == 0;
  // Checked before multiplying: a bit-packed header can claim 2^63 groups.
  if (count == 0 || count > (rle_ ? kMaxRunLength : kMaxRunLength / 8)) {
    throw CorruptFile(std::string("RLE/bit-packed data: ") + (rle_ ? "RLE" : "bit-packed") +
                      " run" + at(runOffset_) + " has length " + std::to_string(count) +
                      (rle_ ? "" : " groups of 8") + ", outside [1, 2^31 - 1] values");
  }
  const uint64_t values = rle_ ? count : count * 8;
  runRemaining_ = values;
  const size_t available = data_.size() - pos_;
  if (rle_) {
    const size_t valueBytes = (bitWidth_ + 7) / 8;
    if (available < valueBytes) {
      throw CorruptFile("RLE/bit-packed data: RLE run" + at(runOffset_) + " needs a " +
                        std::to_string(valueBytes) + "-byte value, but the data ends" +
                        at(data_.size()));
    }
    uint32_t value = 0;
    for (size_t i = 0; i < valueBytes; ++i) {
      value |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    }
    pos_ += valueBytes;
    if (bitWidth_ < 32 && (value >> bitWidth_) != 0) {
      throw CorruptFile("RLE/bit-packed data: RLE run" + at(runOffset_) + " repeats " +
                        std::to_string(value) + ", which is wider than the bit width " +
                        std::to_string(bitWidth_));
    }
    rleValue_ = value;
  } else {
    packed_ = data_.subspan(pos_);
    packedNext_ = 0;
    packedClaimed_ = values;
    const size_t bytes = count * bitWidth_;
    if (bytes <= available) {
      packedPresent_ = values;
      pos_ += bytes;
    } else {
      // Cut short: the values whose bits are all present may still be read.
      packedPresent_ = available * 8 / bitWidth_;
      pos_ = data_.size();
    }
  }
  return true;
}

void RleBitPackedDecoder::throwPackedBitsMissing(size_t wanted) const {
  throw CorruptFile("RLE/bit-packed data: bit-packed run" + at(runOffset_) + " claims " +
                    std::to_string(packedClaimed_) + " values of " + std::to_string(bitWidth_) +
                    " bits, but the data ends" + at(data_.size()) + " after " +
                    std::to_string(packedPresent_) + " of them; " + std::to_string(wanted) +
                    " are needed");
}

template <typename Out>
size_t RleBitPackedDecoder::decode(Out* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (runRemaining_ == 0 && !nextRun()) break;
    const size_t count = std::min(n - done, runRemaining_);
    if (rle_) {
      std::fill_n(out + done, count, static_cast<Out>(rleValue_));
    } else {
      if (count > packedPresent_ - packedNext_) throwPackedBitsMissing(packedNext_ + count);
      unpackBits(packed_, packedNext_, count, bitWidth_, out + done);
      packedNext_ += count;
    }
    runRemaining_ -= count;
    done += count;
  }
  return done;
}

size_t RleBitPackedDecoder::getBatch(uint32_t* out, size_t n) {
  return decode(out, n);
}

size_t RleBitPackedDecoder::getBatch(int16_t* out, size_t n) {
  if (bitWidth_ > 16) {
    throw InvalidArgument("RLE/bit-packed data: levels are at most 16 bits wide, not " +
                          std::to_string(bitWidth_));
  }
  // int16_t and uint16_t may alias each other; the values fit 15 bits for any
  // level a schema can declare, and callers check them against the maximum level.
  return decode(reinterpret_cast<uint16_t*>(out), n);
}

size_t RleBitPackedDecoder::getBatch(uint8_t* out, size_t n) {
  if (bitWidth_ > 8) {
    throw InvalidArgument("RLE/bit-packed data: byte output needs a bit width of at most 8, not " +
                          std::to_string(bitWidth_));
  }
  return decode(out, n);
}

size_t RleBitPackedDecoder::skip(size_t n) {
  size_t done = 0;
  while (done < n) {
    if (runRemaining_ == 0 && !nextRun()) break;
    const size_t count = std::min(n - done, runRemaining_);
    if (!rle_) {
      if (count > packedPresent_ - packedNext_) throwPackedBitsMissing(packedNext_ + count);
      packedNext_ += count;
    }
    runRemaining_ -= count;
    done += count;
  }
  return done;
}

}  // namespace quarry::parquet
