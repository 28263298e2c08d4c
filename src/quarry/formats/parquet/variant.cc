#include "quarry/formats/parquet/variant.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "quarry/formats/parquet/variant_encoding.h"

namespace quarry::parquet {
namespace {

void appendJsonString(std::string_view text, std::string& out) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
          out += escape;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void appendBase64(std::string_view bytes, std::string& out) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out += '"';
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8 |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kDigits[(v >> shift) & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  out += '"';
}

template <typename T>
void appendJsonNumber(T value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  } else {
    char buffer[64];
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  }
}

void appendTimestamp(int64_t units, int64_t unitsPerSecond, int digits, bool utc, std::string& out) {
  std::string text = Instant::ofEpochUnits(units, unitsPerSecond).toString(digits);
  if (utc) text += "+00:00";
  appendJsonString(text, out);
}

void appendJson(const VariantValue& v, std::string& out) {
  using P = VariantPrimitiveType;
  switch (v.basicType()) {
    case VariantBasicType::kShortString: appendJsonString(v.getString(), out); return;
    case VariantBasicType::kObject:
      out += '{';
      for (uint32_t i = 0; i < v.elementCount(); ++i) {
        if (i > 0) out += ',';
        appendJsonString(v.fieldName(i), out);
        out += ':';
        appendJson(v.element(i), out);
      }
      out += '}';
      return;
    case VariantBasicType::kArray:
      out += '[';
      for (uint32_t i = 0; i < v.elementCount(); ++i) {
        if (i > 0) out += ',';
        appendJson(v.element(i), out);
      }
      out += ']';
      return;
    case VariantBasicType::kPrimitive: break;
  }
  switch (v.primitiveType()) {
    case P::kNull: out += "null"; return;
    case P::kTrue: out += "true"; return;
    case P::kFalse: out += "false"; return;
    case P::kInt8:
    case P::kInt16:
    case P::kInt32:
    case P::kInt64: out += std::to_string(v.getLong()); return;
    case P::kDouble: appendJsonNumber(v.getDouble(), out); return;
    case P::kFloat: appendJsonNumber(v.getFloat(), out); return;
    case P::kDecimal4:
    case P::kDecimal8:
    case P::kDecimal16: out += v.getDecimal().toString(); return;
    case P::kDate: appendJsonString(Date{static_cast<int32_t>(v.getLong())}.toString(), out); return;
    case P::kTimestampMicros: appendTimestamp(v.getLong(), 1'000'000, 6, true, out); return;
    case P::kTimestampNtzMicros: appendTimestamp(v.getLong(), 1'000'000, 6, false, out); return;
    case P::kTimestampNanos: appendTimestamp(v.getLong(), 1'000'000'000, 9, true, out); return;
    case P::kTimestampNtzNanos: appendTimestamp(v.getLong(), 1'000'000'000, 9, false, out); return;
    case P::kTimeNtzMicros:
      appendJsonString(TimeOfDay{v.getLong() * 1000}.toString(6), out);
      return;
    case P::kBinary: appendBase64(v.getString(), out); return;
    case P::kString: appendJsonString(v.getString(), out); return;
    case P::kUuid: appendJsonString(v.getUuid().toString(), out); return;
  }
}

}  // namespace

void Variant::validate() const { VariantValue::parse(VariantMetadata::parse(metadata), value); }

std::string Variant::toJson() const {
  std::string out;
  appendJson(VariantValue::parse(VariantMetadata::parse(metadata), value), out);
  return out;
}

}  // namespace quarry::parquet
