#include "quarry/formats/parquet/encoding/delta_length_byte_array_decoder.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {

DeltaLengthByteArrayDecoder::DeltaLengthByteArrayDecoder(std::span<const uint8_t> data,
                                                         size_t start)
    : data_(data), lengths_(data, start), bytesPos_(lengths_.endOffset()) {}

template <typename Visit>
size_t DeltaLengthByteArrayDecoder::walk(size_t n, Visit&& visit) {
  int32_t lengths[256];
  size_t done = 0;
  while (done < n) {
    const size_t got = lengths_.getBatch(lengths, std::min<size_t>(n - done, std::size(lengths)));
    if (got == 0) break;
    for (size_t i = 0; i < got; ++i) {
      const int32_t length = lengths[i];
      const uint64_t index = lengths_.valueCount() - lengths_.remaining() - got + i;
      if (length < 0 || static_cast<uint32_t>(length) > data_.size() - bytesPos_) {
        throw CorruptFile("DELTA_LENGTH_BYTE_ARRAY data: value " + std::to_string(index) +
                          " at offset " + std::to_string(bytesPos_) + " has length " +
                          std::to_string(length) + ", but " +
                          std::to_string(data_.size() - bytesPos_) + " bytes remain");
      }
      visit(done + i, bytesPos_, static_cast<size_t>(length));
      bytesPos_ += static_cast<size_t>(length);
    }
    done += got;
  }
  return done;
}

size_t DeltaLengthByteArrayDecoder::getBatch(std::string_view* out, size_t n) {
  const char* base = reinterpret_cast<const char*>(data_.data());
  return walk(n, [&](size_t i, size_t pos, size_t length) {
    out[i] = std::string_view(base + pos, length);
  });
}

size_t DeltaLengthByteArrayDecoder::skip(size_t n) {
  return walk(n, [](size_t, size_t, size_t) {});
}

}  // namespace quarry::parquet
