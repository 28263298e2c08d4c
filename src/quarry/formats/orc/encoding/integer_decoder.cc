#include "quarry/formats/orc/encoding/integer_decoder.h"

#include <algorithm>
#include <utility>

#include "quarry/common/error.h"
#include "quarry/formats/orc/encoding/int_rle_v1_decoder.h"
#include "quarry/formats/orc/encoding/int_rle_v2_decoder.h"

namespace quarry::orc {

std::unique_ptr<IntegerDecoder> makeIntegerDecoder(RleVersion version,
                                                   std::span<const uint8_t> stream, bool isSigned,
                                                   std::string context) {
  if (version == RleVersion::kV1) {
    return std::make_unique<IntRleV1Decoder>(stream, isSigned, std::move(context));
  }
  return std::make_unique<IntRleV2Decoder>(stream, isSigned, std::move(context));
}

RunDecoder::RunDecoder(std::span<const uint8_t> stream, bool isSigned, std::string context)
    : stream_(stream), signed_(isSigned), context_(std::move(context)) {}

void RunDecoder::fail(const std::string& what, size_t offset) const {
  throw CorruptFile(context_ + ": " + what + " at offset " + std::to_string(offset));
}

uint8_t RunDecoder::readByte(const char* what) {
  if (pos_ >= stream_.size()) {
    fail(std::string(what) + " is cut off by the end of the stream (" +
             std::to_string(stream_.size()) + " bytes)",
         pos_);
  }
  return stream_[pos_++];
}

void RunDecoder::require(uint64_t n, const char* what, size_t runStart) const {
  if (n > stream_.size() - pos_) {
    fail(std::string(what) + " of the run starting at offset " + std::to_string(runStart) +
             " needs " + std::to_string(n) + " bytes, but the stream has " +
             std::to_string(stream_.size() - pos_) + " left",
         pos_);
  }
}

void RunDecoder::refill(uint64_t wanted) {
  if (pos_ >= stream_.size()) {
    fail("the stream ends with " + std::to_string(wanted) + " more values wanted", pos_);
  }
  bufferSize_ = decodeRun(buffer_.data());
  bufferPos_ = 0;
}

void RunDecoder::next(std::span<int64_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (bufferPos_ < bufferSize_) {
      const size_t n = std::min(out.size() - done, bufferSize_ - bufferPos_);
      std::copy_n(buffer_.data() + bufferPos_, n, out.data() + done);
      bufferPos_ += n;
      done += n;
    } else if (out.size() - done >= kMaxRunValues && pos_ < stream_.size()) {
      done += decodeRun(out.data() + done);
    } else {
      refill(out.size() - done);
    }
  }
}

void RunDecoder::skip(uint64_t n) {
  while (n > 0) {
    if (bufferPos_ == bufferSize_) refill(n);
    const uint64_t take = std::min<uint64_t>(n, bufferSize_ - bufferPos_);
    bufferPos_ += take;
    n -= take;
  }
}

}  // namespace quarry::orc
