#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "quarry/formats/orc/encoding/integer_decoder.h"

/// Integer run length encoding version 1 (Hive 0.11). A header byte 0x00..0x7f
/// starts a run of header + 3 values: a signed delta byte, then the first value as
/// a varint, each next value adding the delta. A header 0x80..0xff starts
/// -(int8)header literal varints. 100 sevens: [0x61, 0x00, 0x07]; 100 down to 1:
/// [0x61, 0xff, 0x64]; [2, 3, 6, 7, 11]: [0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b].
namespace quarry::orc {

/// Decodes an RLEv1 integer stream (signed values zigzag encoded).
class IntRleV1Decoder final : public RunDecoder {
 public:
  IntRleV1Decoder(std::span<const uint8_t> stream, bool isSigned, std::string context);

 private:
  size_t decodeRun(int64_t* dest) override;
};

}  // namespace quarry::orc
