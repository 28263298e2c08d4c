#include "quarry/formats/parquet/thrift_compact_reader.h"

#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {

uint64_t ThriftCompactReader::readVarintSlow() {
  // A 64-bit value takes at most 10 groups of 7 bits; the 10th may only hold
  // the top bit. Anything longer is corrupt, not a value to truncate.
  uint64_t result = 0;
  const uint8_t* p = pos_;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end_) failTruncated("varint");
    uint8_t b = *p++;
    if (shift == 63 && b > 1) fail("varint overflows 64 bits");
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) {
      pos_ = p;
      return result;
    }
  }
  fail("varint longer than 10 bytes");  // unreachable: the 10th byte is checked above
}

ThriftMapHeader ThriftCompactReader::readMapHeader() {
  ThriftMapHeader h;
  uint64_t size = readVarint();
  if (size > INT32_MAX) failUnsigned("map size out of range", size);
  if (size == 0) return h;
  uint8_t types = readRawByte("map key and value types");
  if (size * 2 > remaining()) failUnsigned("map size exceeds remaining bytes", size);
  h.keyType = static_cast<ThriftType>(types >> 4);
  h.valueType = static_cast<ThriftType>(types & 0x0f);
  checkElementType(h.keyType, types);
  checkElementType(h.valueType, types);
  h.size = static_cast<uint32_t>(size);
  return h;
}

void ThriftCompactReader::skip(ThriftType type) {
  switch (type) {
    case ThriftType::BOOLEAN_TRUE:
    case ThriftType::BOOLEAN_FALSE:
      return;  // a bool field's value is its header's type
    case ThriftType::STRUCT:
      skipStruct();
      return;
    case ThriftType::LIST:
    case ThriftType::SET:
      skipListElements(readListHeader());
      return;
    case ThriftType::MAP: {
      ThriftMapHeader h = readMapHeader();
      if (depth_ >= kMaxDepth) failDepth();
      ++depth_;
      for (uint32_t i = 0; i < h.size; ++i) {
        skipElement(h.keyType);
        skipElement(h.valueType);
      }
      --depth_;
      return;
    }
    default:
      skipElement(type);
  }
}

void ThriftCompactReader::skipListElements(const ThriftListHeader& header) {
  if (header.size == 0) return;
  if (depth_ >= kMaxDepth) failDepth();
  // Fixed-width elements are stepped over at once; the header check already
  // proved `size` bytes exist, the wider ones are checked here.
  size_t width = 0;
  switch (header.elementType) {
    case ThriftType::BYTE:
      width = 1;
      break;
    case ThriftType::DOUBLE:
      width = 8;
      break;
    case ThriftType::UUID:
      width = 16;
      break;
    default:
      break;
  }
  if (width != 0) {
    if (header.size > remaining() / width)
      failUnsigned("list elements exceed remaining bytes", header.size);
    pos_ += header.size * width;
    return;
  }
  ++depth_;
  for (uint32_t i = 0; i < header.size; ++i) skipElement(header.elementType);
  --depth_;
}

void ThriftCompactReader::skipElement(ThriftType type) {
  switch (type) {
    case ThriftType::BOOLEAN_TRUE:
    case ThriftType::BOOLEAN_FALSE:
      readBool();  // inside a collection a bool takes one byte
      return;
    case ThriftType::BYTE:
      readRawByte("byte");
      return;
    case ThriftType::I16:
      readI16();
      return;
    case ThriftType::I32:
      readI32();
      return;
    case ThriftType::I64:
      readVarint();
      return;
    case ThriftType::DOUBLE:
      if (remaining() < 8) fail("double truncated");
      pos_ += 8;
      return;
    case ThriftType::UUID:
      if (remaining() < 16) fail("uuid truncated");
      pos_ += 16;
      return;
    case ThriftType::BINARY:
      readBinaryView();
      return;
    case ThriftType::LIST:
    case ThriftType::SET:
    case ThriftType::MAP:
    case ThriftType::STRUCT:
      skip(type);
      return;
    case ThriftType::STOP:
      break;
  }
  failSigned("cannot skip a value of type", static_cast<int64_t>(type));
}

void ThriftCompactReader::skipStruct() {
  readStructBegin();
  for (ThriftFieldHeader f = readFieldHeader(); !f.isStop(); f = readFieldHeader()) skip(f.type);
  readStructEnd();
}

void ThriftCompactReader::fail(std::string_view what) const {
  throw CorruptFile("thrift: " + std::string(what) + " at offset " + std::to_string(offset()) +
                    ", " + std::to_string(remaining()) + " bytes remain");
}

void ThriftCompactReader::failTruncated(const char* what) const {
  fail(std::string(what) + " truncated");
}

void ThriftCompactReader::failDepth() const {
  fail("nesting deeper than " + std::to_string(kMaxDepth));
}

void ThriftCompactReader::failSigned(const char* what, int64_t value) const {
  fail(std::string(what) + " (" + std::to_string(value) + ")");
}

void ThriftCompactReader::failUnsigned(const char* what, uint64_t value) const {
  fail(std::string(what) + " (" + std::to_string(value) + ")");
}

}  // namespace quarry::parquet
