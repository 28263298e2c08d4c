#include "quarry/formats/orc/encoding/byte_rle_decoder.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "quarry/common/error.h"

namespace quarry::orc {

ByteRleDecoder::ByteRleDecoder(std::span<const uint8_t> stream, std::string context)
    : stream_(stream), context_(std::move(context)) {}

void ByteRleDecoder::readHeader(uint64_t wanted) {
  if (pos_ >= stream_.size()) {
    throw CorruptFile(context_ + ": byte RLE stream ends at offset " + std::to_string(pos_) +
                      " with " + std::to_string(wanted) + " more values wanted");
  }
  const size_t headerAt = pos_;
  const uint8_t control = stream_[pos_++];
  if (control < 0x80) {
    if (pos_ >= stream_.size()) {
      throw CorruptFile(context_ + ": byte RLE run at offset " + std::to_string(headerAt) +
                        " has no value byte");
    }
    repeat_ = true;
    remaining_ = size_t{control} + 3;
    value_ = stream_[pos_++];
    return;
  }
  repeat_ = false;
  remaining_ = 256 - size_t{control};
  // Checked once here, so next() and skip() copy literals without bounds checks.
  if (remaining_ > stream_.size() - pos_) {
    throw CorruptFile(context_ + ": byte RLE literal group at offset " + std::to_string(headerAt) +
                      " needs " + std::to_string(remaining_) + " bytes, but the stream has " +
                      std::to_string(stream_.size() - pos_) + " left");
  }
}

void ByteRleDecoder::next(std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (remaining_ == 0) readHeader(out.size() - done);
    const size_t n = std::min(out.size() - done, remaining_);
    if (repeat_) {
      std::memset(out.data() + done, value_, n);
    } else {
      std::memcpy(out.data() + done, stream_.data() + pos_, n);
      pos_ += n;
    }
    remaining_ -= n;
    done += n;
  }
}

void ByteRleDecoder::skip(uint64_t n) {
  while (n > 0) {
    if (remaining_ == 0) readHeader(n);
    const size_t take = static_cast<size_t>(std::min<uint64_t>(n, remaining_));
    if (!repeat_) pos_ += take;
    remaining_ -= take;
    n -= take;
  }
}

}  // namespace quarry::orc
