#include "quarry/cli/statistic_value.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <vector>

#include "quarry/cli/temporal_format.h"
#include "quarry/common/utf8.h"

namespace quarry::cli {

using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::PhysicalType;
using parquet::TimeUnit;

namespace {

using Kind = LogicalType::Kind;

/// Longest binary DECIMAL rendered in digits; past it the bytes cannot come from
/// any sensible precision and are shown as hex instead.
constexpr size_t kMaxDecimalBytes = 128;
/// Largest scale spelled out with a decimal point; a larger one is written as
/// an exponent so that a corrupt scale cannot ask for megabytes of zeros.
constexpr int32_t kMaxSpelledScale = 1000;

template <typename T>
T readLittleEndian(std::string_view bytes, size_t offset = 0) {
  uint64_t bits = 0;
  for (size_t i = sizeof(T); i-- > 0;) {
    bits = (bits << 8) | static_cast<uint8_t>(bytes[offset + i]);
  }
  return static_cast<T>(bits);
}

RenderedValue hexValue(std::string_view bytes) {
  return {RenderedValue::Kind::kHex, "0x" + toHex(bytes)};
}

template <typename T>
std::string integerText(T v) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

/// Formats a floating-point value so that it reads as one: NaN and the
/// infinities by name, and integral values with a ".0" (so -0.0 keeps its sign
/// visibly).
template <typename F>
RenderedValue floatValue(F v) {
  if (std::isnan(v)) {
    // Every NaN reads as NaN; its sign and payload are in the hex.
    return {RenderedValue::Kind::kOther, "NaN"};
  }
  if (std::isinf(v)) {
    return {RenderedValue::Kind::kOther, v > 0 ? "Infinity" : "-Infinity"};
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) {
    text += ".0";
  }
  return {RenderedValue::Kind::kNumber, std::move(text)};
}

float halfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  const uint32_t exponent = (half >> 10) & 0x1F;
  const uint32_t mantissa = half & 0x3FF;
  if (exponent == 0x1F) {
    // Infinity, or NaN keeping its payload.
    return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// Places the decimal point `scale` digits from the right of `digits` (the
/// magnitude of the unscaled value).
std::string applyScale(std::string digits, bool negative, int32_t scale) {
  if (scale < 0 || scale > kMaxSpelledScale) {
    digits += "e" + integerText(-static_cast<int64_t>(scale));
  } else if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, scale + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - scale, 1, '.');
  }
  return negative ? "-" + digits : digits;
}

RenderedValue decimalFromInteger(int64_t unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  // Negating in unsigned arithmetic keeps INT64_MIN representable.
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(unscaled) : unscaled;
  return {RenderedValue::Kind::kOther, applyScale(integerText(magnitude), negative, scale)};
}

/// Renders a big-endian two's-complement unscaled value of any length.
RenderedValue decimalFromBytes(std::string_view bytes, int32_t scale) {
  if (bytes.empty() || bytes.size() > kMaxDecimalBytes) {
    return hexValue(bytes);
  }
  std::vector<uint8_t> magnitude(bytes.begin(), bytes.end());
  const bool negative = (magnitude[0] & 0x80) != 0;
  if (negative) {
    // Two's complement: invert and add one.
    for (auto& b : magnitude) {
      b = static_cast<uint8_t>(~b);
    }
    for (size_t i = magnitude.size(); i-- > 0;) {
      if (++magnitude[i] != 0) {
        break;
      }
    }
  }
  std::string digits;
  size_t first = 0;  // index of the first non-zero byte of the quotient
  while (true) {
    while (first < magnitude.size() && magnitude[first] == 0) {
      ++first;
    }
    if (first == magnitude.size()) {
      break;
    }
    uint32_t remainder = 0;
    for (size_t i = first; i < magnitude.size(); ++i) {
      const uint32_t current = (remainder << 8) | magnitude[i];
      magnitude[i] = static_cast<uint8_t>(current / 10);
      remainder = current % 10;
    }
    digits += static_cast<char>('0' + remainder);
  }
  if (digits.empty()) {
    digits = "0";
  }
  std::reverse(digits.begin(), digits.end());
  return {RenderedValue::Kind::kOther, applyScale(std::move(digits), negative, scale)};
}

RenderedValue timeValue(int64_t units, TimeUnit unit) {
  if (units < 0 || units >= unitsPerDay(unit)) {
    return {RenderedValue::Kind::kNumber, integerText(units)};
  }
  return {RenderedValue::Kind::kOther, formatTimeOfDay(units, unit)};
}

/// Resolves the annotation that decides a bound's rendering: the LogicalType
/// when there is one, else the one its ConvertedType implies.
LogicalType effectiveLogicalType(const ValueType& type) {
  if (type.logical.kind != Kind::NONE || !type.converted.has_value()) {
    return type.logical;
  }
  LogicalType logical;
  const auto integer = [&](int8_t width, bool isSigned) {
    logical.kind = Kind::INTEGER;
    logical.bitWidth = width;
    logical.isSigned = isSigned;
  };
  const auto temporal = [&](Kind kind, TimeUnit unit) {
    logical.kind = kind;
    logical.unit = unit;
    logical.isAdjustedToUTC = true;
  };
  switch (*type.converted) {
    case ConvertedType::UTF8:
      logical.kind = Kind::STRING;
      break;
    case ConvertedType::ENUM:
      logical.kind = Kind::ENUM;
      break;
    case ConvertedType::JSON:
      logical.kind = Kind::JSON;
      break;
    case ConvertedType::BSON:
      logical.kind = Kind::BSON;
      break;
    case ConvertedType::DATE:
      logical.kind = Kind::DATE;
      break;
    case ConvertedType::TIME_MILLIS:
      temporal(Kind::TIME, TimeUnit::MILLIS);
      break;
    case ConvertedType::TIME_MICROS:
      temporal(Kind::TIME, TimeUnit::MICROS);
      break;
    case ConvertedType::TIMESTAMP_MILLIS:
      temporal(Kind::TIMESTAMP, TimeUnit::MILLIS);
      break;
    case ConvertedType::TIMESTAMP_MICROS:
      temporal(Kind::TIMESTAMP, TimeUnit::MICROS);
      break;
    case ConvertedType::UINT_8:
      integer(8, false);
      break;
    case ConvertedType::UINT_16:
      integer(16, false);
      break;
    case ConvertedType::UINT_32:
      integer(32, false);
      break;
    case ConvertedType::UINT_64:
      integer(64, false);
      break;
    case ConvertedType::INT_8:
      integer(8, true);
      break;
    case ConvertedType::INT_16:
      integer(16, true);
      break;
    case ConvertedType::INT_32:
      integer(32, true);
      break;
    case ConvertedType::INT_64:
      integer(64, true);
      break;
    default:
      // DECIMAL without a resolved LogicalType has no scale to go by; the rest
      // (MAP, LIST, INTERVAL) are not value annotations.
      break;
  }
  return logical;
}

RenderedValue renderInt32(int32_t v, const LogicalType& logical) {
  switch (logical.kind) {
    case Kind::INTEGER:
      if (!logical.isSigned) {
        return {RenderedValue::Kind::kNumber, integerText(static_cast<uint32_t>(v))};
      }
      break;
    case Kind::DECIMAL:
      return decimalFromInteger(v, logical.scale);
    case Kind::DATE:
      return {RenderedValue::Kind::kOther, formatDate(v)};
    case Kind::TIME:
      return timeValue(v, logical.unit);
    default:
      break;
  }
  return {RenderedValue::Kind::kNumber, integerText(v)};
}

RenderedValue renderInt64(int64_t v, const LogicalType& logical) {
  switch (logical.kind) {
    case Kind::INTEGER:
      if (!logical.isSigned) {
        return {RenderedValue::Kind::kNumber, integerText(static_cast<uint64_t>(v))};
      }
      break;
    case Kind::DECIMAL:
      return decimalFromInteger(v, logical.scale);
    case Kind::TIME:
      return timeValue(v, logical.unit);
    case Kind::TIMESTAMP: {
      std::string text = formatTimestamp(v, logical.unit);
      if (logical.isAdjustedToUTC) {
        text += 'Z';
      }
      return {RenderedValue::Kind::kOther, std::move(text)};
    }
    default:
      break;
  }
  return {RenderedValue::Kind::kNumber, integerText(v)};
}

/// INT96 bounds are legacy Impala/Spark timestamps: nanoseconds of the day,
/// then the Julian day number.
RenderedValue renderInt96(std::string_view bytes) {
  constexpr int64_t kJulianDayOfEpoch = 2'440'588;
  const auto nanosOfDay = readLittleEndian<int64_t>(bytes, 0);
  const auto julianDay = readLittleEndian<int32_t>(bytes, 8);
  if (nanosOfDay < 0 || nanosOfDay >= unitsPerDay(TimeUnit::NANOS)) {
    return hexValue(bytes);
  }
  return {RenderedValue::Kind::kOther,
          formatDate(static_cast<int64_t>(julianDay) - kJulianDayOfEpoch) + "T" +
              formatTimeOfDay(nanosOfDay, TimeUnit::NANOS)};
}

bool hasControlCharacters(std::string_view bytes) {
  for (char c : bytes) {
    const auto byte = static_cast<uint8_t>(c);
    if (byte < 0x20 || byte == 0x7F) {
      return true;
    }
  }
  return false;
}

RenderedValue renderBinary(std::string_view bytes, const ValueType& type,
                           const LogicalType& logical) {
  switch (logical.kind) {
    case Kind::STRING:
    case Kind::ENUM:
    case Kind::JSON:
      if (isValidUtf8(bytes)) {
        return {RenderedValue::Kind::kString, std::string(bytes)};
      }
      return hexValue(bytes);
    case Kind::DECIMAL:
      return decimalFromBytes(bytes, logical.scale);
    case Kind::FLOAT16:
      if (bytes.size() == 2) {
        return floatValue(halfToFloat(readLittleEndian<uint16_t>(bytes)));
      }
      return hexValue(bytes);
    case Kind::UUID:
      if (bytes.size() == 16) {
        const std::string hex = toHex(bytes);
        return {RenderedValue::Kind::kOther, hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" +
                                                 hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
                                                 hex.substr(20)};
      }
      return hexValue(bytes);
    case Kind::NONE:
      break;
    default:
      // BSON, GEOMETRY, GEOGRAPHY, VARIANT and annotations this release does
      // not know: bytes with no text form.
      return hexValue(bytes);
  }
  if (type.converted == ConvertedType::INTERVAL && bytes.size() == 12) {
    return {RenderedValue::Kind::kOther,
            "months=" + integerText(readLittleEndian<uint32_t>(bytes, 0)) +
                " days=" + integerText(readLittleEndian<uint32_t>(bytes, 4)) +
                " millis=" + integerText(readLittleEndian<uint32_t>(bytes, 8))};
  }
  if (type.converted.has_value()) {
    return hexValue(bytes);
  }
  // Unannotated binary often holds text (older writers did not mark strings);
  // show it as text only when nothing in it suggests otherwise.
  if (isValidUtf8(bytes) && !hasControlCharacters(bytes)) {
    return {RenderedValue::Kind::kString, std::string(bytes)};
  }
  return hexValue(bytes);
}

/// Escapes one code point's worth of a string for a terminal.
void appendEscaped(std::string& out, std::string_view sequence) {
  const auto byte = static_cast<uint8_t>(sequence[0]);
  if (sequence.size() == 1 && (byte < 0x20 || byte == 0x7F)) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
  } else if (sequence == "\"" || sequence == "\\") {
    out += '\\';
    out += sequence;
  } else {
    out += sequence;
  }
}

}  // namespace

ValueType ValueType::ofLeaf(const parquet::SchemaNode& leaf) {
  ValueType type;
  type.physical = leaf.physicalType.value_or(PhysicalType::BYTE_ARRAY);
  type.typeLength = leaf.typeLength;
  if (!leaf.annotationDropped) {
    type.logical = leaf.logicalType;
    type.converted = leaf.convertedType;
  }
  return type;
}

std::string toHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto byte = static_cast<uint8_t>(c);
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
  }
  return out;
}

RenderedValue renderValue(std::string_view bytes, const ValueType& type) {
  const LogicalType logical = effectiveLogicalType(type);
  switch (type.physical) {
    case PhysicalType::BOOLEAN:
      if (bytes.size() == 1 && static_cast<uint8_t>(bytes[0]) <= 1) {
        return {RenderedValue::Kind::kOther, bytes[0] ? "true" : "false"};
      }
      return hexValue(bytes);
    case PhysicalType::INT32:
      if (bytes.size() == 4) {
        return renderInt32(readLittleEndian<int32_t>(bytes), logical);
      }
      return hexValue(bytes);
    case PhysicalType::INT64:
      if (bytes.size() == 8) {
        return renderInt64(readLittleEndian<int64_t>(bytes), logical);
      }
      return hexValue(bytes);
    case PhysicalType::INT96:
      if (bytes.size() == 12) {
        return renderInt96(bytes);
      }
      return hexValue(bytes);
    case PhysicalType::FLOAT:
      if (bytes.size() == 4) {
        return floatValue(std::bit_cast<float>(readLittleEndian<uint32_t>(bytes)));
      }
      return hexValue(bytes);
    case PhysicalType::DOUBLE:
      if (bytes.size() == 8) {
        return floatValue(std::bit_cast<double>(readLittleEndian<uint64_t>(bytes)));
      }
      return hexValue(bytes);
    case PhysicalType::BYTE_ARRAY:
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
      return renderBinary(bytes, type, logical);
  }
  return hexValue(bytes);
}

std::string formatForText(const RenderedValue& value, size_t maxWidth) {
  const std::string_view text = value.text;
  std::string out;
  if (value.kind == RenderedValue::Kind::kString) {
    out += '"';
    size_t pos = 0;
    size_t width = 0;
    while (pos < text.size()) {
      if (width >= maxWidth) {
        out += "\"... (" + integerText(text.size()) + " bytes)";
        return out;
      }
      const size_t length = std::max<size_t>(1, utf8SequenceLength(text, pos));
      appendEscaped(out, text.substr(pos, length));
      pos += length;
      ++width;
    }
    out += '"';
    return out;
  }
  if (text.size() <= maxWidth + 2) {
    return value.text;
  }
  out = value.text.substr(0, maxWidth);
  if (value.kind == RenderedValue::Kind::kHex) {
    out += "... (" + integerText((text.size() - 2) / 2) + " bytes)";
  } else {
    out += "... (" + integerText(text.size()) + " chars)";
  }
  return out;
}

}  // namespace quarry::cli
