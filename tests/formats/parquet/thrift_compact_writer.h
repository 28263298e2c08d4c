#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

#include "quarry/formats/parquet/thrift_compact_reader.h"

/// A Thrift compact-protocol writer for tests only: just enough to state test
/// inputs byte for byte. quarry itself never writes Thrift.
namespace quarry::testing {

class CompactWriter {
 public:
  using T = parquet::ThriftType;

  std::vector<uint8_t> bytes;
  /// Makes every struct written with structBody() also carry fields of every
  /// wire type under ids no spec defines (901..912), nested ones included.
  bool withUnknownFields = false;

  std::span<const uint8_t> span() const { return {bytes.data(), bytes.size()}; }

  void byte(uint8_t b) { bytes.push_back(b); }
  void varint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) byte(static_cast<uint8_t>(v) | 0x80);
    byte(static_cast<uint8_t>(v));
  }
  void zigzag(int64_t v) {
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void doubleValue(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    for (int i = 0; i < 8; ++i) byte(static_cast<uint8_t>(bits >> (8 * i)));
  }
  void binary(std::string_view s) {
    varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }

  /// Writes a field header: the short form when the id delta is 1..15.
  void field(int16_t id, T type) {
    int delta = id - last_;
    if (delta > 0 && delta <= 15) {
      byte(static_cast<uint8_t>(delta << 4 | static_cast<int>(type)));
    } else {
      byte(static_cast<uint8_t>(type));
      zigzag(id);
    }
    last_ = id;
  }
  void listHeader(T element, size_t size) {
    if (size < 15) {
      byte(static_cast<uint8_t>(size << 4 | static_cast<int>(element)));
    } else {
      byte(static_cast<uint8_t>(0xf0 | static_cast<int>(element)));
      varint(size);
    }
  }
  void structBegin() {
    stack_.push_back(last_);
    last_ = 0;
  }
  void structEnd() {
    byte(0);
    last_ = stack_.back();
    stack_.pop_back();
  }

  void i32(int16_t id, int64_t v) { field(id, T::I32), zigzag(v); }
  void i64(int16_t id, int64_t v) { field(id, T::I64), zigzag(v); }
  void i16(int16_t id, int64_t v) { field(id, T::I16), zigzag(v); }
  void i8(int16_t id, int8_t v) { field(id, T::BYTE), byte(static_cast<uint8_t>(v)); }
  void boolean(int16_t id, bool v) { field(id, v ? T::BOOLEAN_TRUE : T::BOOLEAN_FALSE); }
  void bin(int16_t id, std::string_view s) { field(id, T::BINARY), binary(s); }
  void dbl(int16_t id, double d) { field(id, T::DOUBLE), doubleValue(d); }

  /// Writes a struct whose fields `body` writes, then STOP.
  void structBody(const std::function<void()>& body) {
    structBegin();
    body();
    if (withUnknownFields) unknownFields();
    structEnd();
  }
  void structField(int16_t id, const std::function<void()>& body) {
    field(id, T::STRUCT);
    structBody(body);
  }
  template <class C, class Each>
  void list(int16_t id, T element, const C& items, Each each) {
    field(id, T::LIST);
    listHeader(element, items.size());
    for (const auto& x : items) each(x);
  }
  void i64List(int16_t id, const std::vector<int64_t>& v) {
    list(id, T::I64, v, [this](int64_t x) { zigzag(x); });
  }

 private:
  void unknownFields() {
    bool saved = withUnknownFields;
    withUnknownFields = false;
    boolean(901, true);
    i8(902, -1);
    i16(903, -300);
    i32(904, -70000);
    i64(905, INT64_MIN);
    dbl(906, 0.5);
    bin(907, "future");
    field(908, T::LIST), listHeader(T::BOOLEAN_FALSE, 2), byte(1), byte(2);
    field(909, T::SET), listHeader(T::BINARY, 1), binary("s");
    field(910, T::MAP), varint(1), byte(0x5c), zigzag(1), structBody([this] { i32(1, 5); });
    structField(911, [this] {
      field(1, T::LIST), listHeader(T::LIST, 1), listHeader(T::DOUBLE, 1), doubleValue(1);
      list(2, T::STRUCT, std::vector<int>{1, 2}, [this](int v) { structBody([&] { i64(3, v); }); });
    });
    field(912, T::UUID);
    for (int i = 0; i < 16; ++i) byte(static_cast<uint8_t>(i));
    withUnknownFields = saved;
  }

  int16_t last_ = 0;
  std::vector<int16_t> stack_;
};

}  // namespace quarry::testing
