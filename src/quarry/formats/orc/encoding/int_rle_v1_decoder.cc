#include "quarry/formats/orc/encoding/int_rle_v1_decoder.h"

#include <utility>

#include "quarry/formats/orc/encoding/varint.h"

namespace quarry::orc {

IntRleV1Decoder::IntRleV1Decoder(std::span<const uint8_t> stream, bool isSigned,
                                 std::string context)
    : RunDecoder(stream, isSigned, std::move(context)) {}

size_t IntRleV1Decoder::decodeRun(int64_t* dest) {
  const uint8_t header = readByte("RLEv1 header");
  if (header < 0x80) {
    const size_t length = size_t{header} + 3;
    const auto delta = static_cast<int8_t>(readByte("RLEv1 run delta"));
    const uint64_t first = readVarint64(stream_, pos_, context_, "RLEv1 run base");
    // Unsigned arithmetic: a run may wrap like the writer's longs did.
    const uint64_t base = signed_ ? static_cast<uint64_t>(unZigZag(first)) : first;
    const auto step = static_cast<uint64_t>(int64_t{delta});
    for (size_t i = 0; i < length; ++i) dest[i] = static_cast<int64_t>(base + step * i);
    return length;
  }
  const size_t length = 256 - size_t{header};
  for (size_t i = 0; i < length; ++i) {
    const uint64_t value = readVarint64(stream_, pos_, context_, "RLEv1 literal");
    dest[i] = signed_ ? unZigZag(value) : static_cast<int64_t>(value);
  }
  return length;
}

}  // namespace quarry::orc
