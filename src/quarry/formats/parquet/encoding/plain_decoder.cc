#include "quarry/formats/parquet/encoding/plain_decoder.h"

#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/bit_unpacking.h"

namespace quarry::parquet {

void PlainDecoder::throwTruncated(const char* type, size_t n, size_t width) const {
  throw CorruptFile(std::string("PLAIN ") + type + " values: " + std::to_string(n) + " values of " +
                    std::to_string(width) + " bytes at offset " + std::to_string(pos_) + " need " +
                    std::to_string(n) + " x " + std::to_string(width) + " bytes, but only " +
                    std::to_string(data_.size() - pos_) + " remain");
}

std::span<const uint8_t> PlainDecoder::decodeFixedLenByteArrays(size_t n, size_t width) {
  if (width != 0 && n > (data_.size() - pos_) / width) {
    throwTruncated("FIXED_LEN_BYTE_ARRAY", n, width);
  }
  const auto values = data_.subspan(pos_, n * width);
  pos_ += n * width;
  return values;
}

void PlainDecoder::decodeBooleans(uint8_t* out, size_t n) {
  const size_t remainingBits = (data_.size() - pos_) * 8 - bitOffset_;
  if (n > remainingBits) {
    throw CorruptFile("PLAIN BOOLEAN values: " + std::to_string(n) + " values at offset " +
                      std::to_string(pos_) + " (bit " + std::to_string(bitOffset_) + ") need " +
                      std::to_string(n) + " bits, but only " + std::to_string(remainingBits) +
                      " remain");
  }
  unpackBits(data_.subspan(pos_), bitOffset_, n, 1, out);
  skipBooleans(n);
}

void PlainDecoder::skipBooleans(size_t n) {
  const size_t remainingBits = (data_.size() - pos_) * 8 - bitOffset_;
  if (n > remainingBits) {
    throw CorruptFile("PLAIN BOOLEAN values: skipping " + std::to_string(n) + " values at offset " +
                      std::to_string(pos_) + " needs " + std::to_string(n) + " bits, but only " +
                      std::to_string(remainingBits) + " remain");
  }
  const size_t bits = bitOffset_ + n;
  pos_ += bits / 8;
  bitOffset_ = bits % 8;
}

template <typename Visit>
void PlainDecoder::walkByteArrays(size_t n, Visit&& visit) {
  size_t pos = pos_;
  for (size_t i = 0; i < n; ++i) {
    if (data_.size() - pos < 4) {
      throw CorruptFile("PLAIN BYTE_ARRAY values: the length of value " + std::to_string(i) +
                        " of " + std::to_string(n) + " at offset " + std::to_string(pos) +
                        " is cut off by the end of the data (" + std::to_string(data_.size()) +
                        " bytes)");
    }
    const uint32_t length =
        static_cast<uint32_t>(data_[pos]) | static_cast<uint32_t>(data_[pos + 1]) << 8 |
        static_cast<uint32_t>(data_[pos + 2]) << 16 | static_cast<uint32_t>(data_[pos + 3]) << 24;
    pos += 4;
    if (length > data_.size() - pos) {
      throw CorruptFile("PLAIN BYTE_ARRAY values: value " + std::to_string(i) + " of " +
                        std::to_string(n) + " at offset " + std::to_string(pos - 4) + " claims " +
                        std::to_string(length) + " bytes, but only " +
                        std::to_string(data_.size() - pos) + " remain");
    }
    visit(i, pos, length);
    pos += length;
  }
  pos_ = pos;
}

void PlainDecoder::decodeByteArrays(std::string_view* out, size_t n) {
  const char* base = reinterpret_cast<const char*>(data_.data());
  walkByteArrays(n, [&](size_t i, size_t pos, uint32_t length) {
    out[i] = std::string_view(base + pos, length);
  });
}

void PlainDecoder::skipByteArrays(size_t n) {
  walkByteArrays(n, [](size_t, size_t, uint32_t) {});
}

}  // namespace quarry::parquet
