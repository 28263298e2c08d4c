#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

/// A reader of the Thrift compact protocol, the encoding of every Parquet
/// metadata structure. It is written for Parquet's needs (no generated code, no
/// libthrift): the caller drives it field by field, and anything the caller does
/// not ask for is stepped over with skip().
///
/// The protocol in brief. A struct is a sequence of field headers, each followed
/// by its value, ended by a 0 byte (STOP). A field header is one byte
/// `dddd tttt`: the wire type t in the low nibble and the difference d between
/// this field's id and the previous field's id in the struct; d == 0 means the id
/// follows as a zigzag varint. Bool fields carry their value in the type (1 =
/// true, 2 = false). Integers are zigzag varints, doubles 8 bytes little endian,
/// binaries a varint length then the bytes. A list header is one byte
/// `ssss tttt` (element type t, size s when s < 15; s == 15 means the size
/// follows as a varint). Example: field 1 = i32 -3, then field 4 = true, then STOP
/// is `15 05 31 00` (15: delta 1, type I32; 05: zigzag(-3); 31: delta 3, type
/// BOOLEAN_TRUE).
///
/// Every error throws CorruptFile naming what was wrong, the offset and the bytes
/// left. No length read from the input is trusted before it is checked against
/// the bytes that remain, and nesting is bounded by kMaxDepth.
namespace quarry::parquet {

/// Names the compact protocol's wire types as its specification does.
enum class ThriftType : uint8_t {
  STOP = 0,
  BOOLEAN_TRUE = 1,
  BOOLEAN_FALSE = 2,
  BYTE = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  DOUBLE = 7,
  BINARY = 8,
  LIST = 9,
  SET = 10,
  MAP = 11,
  STRUCT = 12,
  UUID = 13,
};

/// Tells whether a wire type denotes a bool (whose value, in a field header, is
/// the type itself).
inline bool isBool(ThriftType t) {
  return t == ThriftType::BOOLEAN_TRUE || t == ThriftType::BOOLEAN_FALSE;
}

struct ThriftFieldHeader {
  int16_t id = 0;
  ThriftType type = ThriftType::STOP;
  bool isStop() const { return type == ThriftType::STOP; }
  /// Returns the value of a bool field, which its header carries.
  bool boolValue() const { return type == ThriftType::BOOLEAN_TRUE; }
};

struct ThriftListHeader {
  ThriftType elementType = ThriftType::STOP;
  uint32_t size = 0;
};

struct ThriftMapHeader {
  ThriftType keyType = ThriftType::STOP;
  ThriftType valueType = ThriftType::STOP;
  uint32_t size = 0;
};

class ThriftCompactReader {
 public:
  /// Bounds struct and collection nesting, so that hostile input cannot
  /// exhaust the stack. Parquet's deepest structure nests 5 levels.
  static constexpr int kMaxDepth = 64;

  explicit ThriftCompactReader(std::span<const uint8_t> bytes)
      : begin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  /// Returns how many bytes were consumed: after a top-level struct, its size.
  size_t offset() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  /// Returns the current nesting of structs and collections.
  int depth() const { return depth_; }

  /// Enters a struct: field ids restart from 0 until the matching readStructEnd.
  void readStructBegin() {
    if (depth_ >= kMaxDepth) failDepth();
    lastFieldIds_[depth_++] = lastFieldId_;
    lastFieldId_ = 0;
  }

  /// Leaves a struct after its STOP was read; pairs with readStructBegin.
  void readStructEnd() { lastFieldId_ = lastFieldIds_[--depth_]; }

  /// Reads the next field header of the current struct; isStop() at its end.
  ThriftFieldHeader readFieldHeader() {
    uint8_t byte = readRawByte("field header");
    ThriftFieldHeader h;
    uint8_t type = byte & 0x0f;
    if (type == 0) return h;  // STOP
    if (type > static_cast<uint8_t>(ThriftType::UUID)) failSigned("invalid field type", type);
    h.type = static_cast<ThriftType>(type);
    uint8_t delta = byte >> 4;
    if (delta != 0) {
      h.id = static_cast<int16_t>(lastFieldId_ + delta);
    } else {
      h.id = readI16();
    }
    lastFieldId_ = h.id;
    return h;
  }

  /// Reads a bool that stands alone (a list element), stored as one byte.
  bool readBool() {
    uint8_t b = readRawByte("bool");
    if (b == 1) return true;
    if (b != 0 && b != 2) failSigned("invalid bool byte", b);
    return false;
  }

  int8_t readByte() { return static_cast<int8_t>(readRawByte("byte")); }

  int16_t readI16() {
    int64_t v = zigzag(readVarint());
    if (v < INT16_MIN || v > INT16_MAX) failSigned("i16 out of range", v);
    return static_cast<int16_t>(v);
  }

  int32_t readI32() {
    uint64_t raw = readVarint();
    if (raw > UINT32_MAX) failUnsigned("i32 varint out of range", raw);
    return static_cast<int32_t>(zigzag(raw));
  }

  int64_t readI64() { return zigzag(readVarint()); }

  double readDouble() {
    if (remaining() < 8) fail("double truncated");
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(pos_[i]) << (8 * i);
    pos_ += 8;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }

  /// Returns a view of a binary value's bytes; valid as long as the input.
  std::string_view readBinaryView() {
    uint64_t length = readVarint();
    if (length > remaining()) failUnsigned("binary length exceeds remaining bytes", length);
    std::string_view v(reinterpret_cast<const char*>(pos_), static_cast<size_t>(length));
    pos_ += length;
    return v;
  }

  std::string readBinary() { return std::string(readBinaryView()); }
  std::string readString() { return std::string(readBinaryView()); }

  /// Reads a list (or set) header. The size is checked against the remaining
  /// bytes, each element taking at least one, so a caller may reserve() it.
  ThriftListHeader readListHeader() {
    uint8_t byte = readRawByte("list header");
    ThriftListHeader h;
    h.elementType = static_cast<ThriftType>(byte & 0x0f);
    uint32_t size = byte >> 4;
    if (size == 15) {
      uint64_t longSize = readVarint();
      if (longSize > INT32_MAX) failUnsigned("list size out of range", longSize);
      size = static_cast<uint32_t>(longSize);
    }
    if (size > remaining()) failUnsigned("list size exceeds remaining bytes", size);
    if (size != 0) checkElementType(h.elementType, byte);
    h.size = size;
    return h;
  }

  /// Reads a map header; its size is checked like a list's (two bytes an entry).
  ThriftMapHeader readMapHeader();

  /// Steps over the value of a field whose header gave `type`, at any nesting,
  /// without materializing it. A bool field has no bytes to skip.
  void skip(ThriftType type);

  /// Steps over the elements of a list whose header was read already.
  void skipListElements(const ThriftListHeader& header);

  /// Throws CorruptFile: "thrift: <what> at offset <n>, <m> bytes remain".
  [[noreturn]] void fail(std::string_view what) const;

 private:
  uint8_t readRawByte(const char* what) {
    if (pos_ == end_) [[unlikely]]
      failTruncated(what);
    return *pos_++;
  }

  uint64_t readVarint() {
    if (pos_ != end_ && *pos_ < 0x80) [[likely]]
      return *pos_++;
    return readVarintSlow();
  }

  static int64_t zigzag(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }

  void checkElementType(ThriftType type, uint8_t headerByte) const {
    auto t = static_cast<uint8_t>(type);
    if (t == 0 || t > static_cast<uint8_t>(ThriftType::UUID))
      failSigned("invalid element type", headerByte);
  }

  uint64_t readVarintSlow();
  void skipElement(ThriftType type);
  void skipStruct();
  [[noreturn]] void failTruncated(const char* what) const;
  [[noreturn]] void failDepth() const;
  [[noreturn]] void failSigned(const char* what, int64_t value) const;
  [[noreturn]] void failUnsigned(const char* what, uint64_t value) const;

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  int depth_ = 0;
  int16_t lastFieldId_ = 0;
  int16_t lastFieldIds_[kMaxDepth] = {};
};

}  // namespace quarry::parquet
