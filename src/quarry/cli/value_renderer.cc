#include "quarry/cli/value_renderer.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "quarry/cli/duckdb_text.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/variant_text.h"
#include "quarry/common/error.h"
#include "quarry/common/huge_pages.h"
#include "quarry/common/utf8.h"

namespace quarry::cli {

namespace {

using parquet::FieldValue;
using parquet::LogicalType;
using parquet::PhysicalType;
using parquet::SchemaNode;
using parquet::TimeUnit;
using Kind = LogicalType::Kind;

int fractionDigits(TimeUnit unit) {
  return unit == TimeUnit::NANOS ? 9 : 6;
}

ValueRenderer::Scalar integerScalar(const LogicalType& type) {
  using S = ValueRenderer::Scalar;
  switch (type.bitWidth) {
    case 8:
      return type.isSigned ? S::kInt8 : S::kUInt8;
    case 16:
      return type.isSigned ? S::kInt16 : S::kUInt16;
    case 32:
      return type.isSigned ? S::kInt32 : S::kUInt32;
    default:
      return type.isSigned ? S::kInt64 : S::kUInt64;
  }
}

/// Appends a float or double as a JSON number with the shortest round-trip
/// digits; the values JSON has no number for become strings (see the header).
template <typename T, typename Bits>
void appendJsonFloating(T value, Bits canonicalNaN, std::string& out) {
  if (std::isnan(value)) {
    const auto bits = std::bit_cast<Bits>(value);
    constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
    if ((bits & ~kSign) == canonicalNaN) {
      out += (bits & kSign) != 0 ? "\"-NaN\"" : "\"NaN\"";
    } else {
      char hex[32];
      std::snprintf(hex, sizeof hex, "\"NaN(0x%0*llx)\"", static_cast<int>(sizeof(Bits) * 2),
                    static_cast<unsigned long long>(bits));
      out += hex;
    }
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "\"-Infinity\"" : "\"Infinity\"";
    return;
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

/// Returns an INT32 or INT64 value as stored (an INT32 sign-extended); the
/// caller narrows it to the width and signedness of its annotation, as DuckDB does.
int64_t storedInteger(const FieldValue& value) {
  return value.node().physicalType == PhysicalType::INT32 ? int64_t{value.getInt()}
                                                          : value.getLong();
}

/// Returns true for a VARIANT group read as one value (not a repeated field's list).
bool isVariant(const FieldValue& value, bool isStructField) {
  const SchemaNode& node = value.node();
  return !node.isLeaf() && node.logicalType.kind == Kind::VARIANT &&
         !(isStructField && node.repetition == parquet::FieldRepetitionType::REPEATED);
}

/// Renders a non-null VARIANT group, reassembled, as text (nested or not) or JSON.
void appendVariant(const FieldValue& value, std::string& out, bool json, bool nested,
                   BigNumbers big = BigNumbers::kNumbers) {
  const parquet::Variant variant = value.getVariant();
  const auto metadata = parquet::VariantMetadata::parse(variant.metadata);
  const auto v = parquet::VariantValue::parse(metadata, variant.value);
  if (json) {
    appendVariantJson(v, out, big);
  } else {
    appendVariantText(v, out, nested);
  }
}

void appendQuoted(const std::string& text, std::string& out) {
  out += '"';
  appendBulk(out, text);
  out += '"';
}

}  // namespace

bool ValueRenderer::isSqlNull(const FieldValue& value) const {
  if (value.isNull()) return true;
  if (!isVariant(value, false)) return false;
  const parquet::Variant variant = value.getVariant();
  const auto metadata = parquet::VariantMetadata::parse(variant.metadata);
  return isVariantNull(parquet::VariantValue::parse(metadata, variant.value));
}

ValueRenderer::Scalar ValueRenderer::scalarOf(const SchemaNode& node) {
  const LogicalType& t = node.logicalType;
  const Kind kind = node.annotationDropped ? Kind::NONE : t.kind;
  if (kind == Kind::UNKNOWN) return Scalar::kNull;
  switch (node.physicalType.value_or(PhysicalType::BYTE_ARRAY)) {
    case PhysicalType::BOOLEAN:
      return Scalar::kBoolean;
    case PhysicalType::INT32:
      switch (kind) {
        case Kind::INTEGER:
          return integerScalar(t);
        case Kind::DATE:
          return Scalar::kDate;
        case Kind::DECIMAL:
          return Scalar::kDecimal;
        case Kind::TIME:
          return Scalar::kTime;
        default:
          return Scalar::kInt32;
      }
    case PhysicalType::INT64:
      switch (kind) {
        case Kind::INTEGER:
          return integerScalar(t);
        case Kind::DECIMAL:
          return Scalar::kDecimal;
        case Kind::TIME:
          return Scalar::kTime;
        case Kind::TIMESTAMP:
          return Scalar::kTimestamp;
        default:
          return Scalar::kInt64;
      }
    case PhysicalType::INT96:
      return Scalar::kInt96;
    case PhysicalType::FLOAT:
      return Scalar::kFloat;
    case PhysicalType::DOUBLE:
      return Scalar::kDouble;
    case PhysicalType::BYTE_ARRAY:
      switch (kind) {
        case Kind::STRING:
        case Kind::ENUM:
        case Kind::JSON:
          return Scalar::kString;
        case Kind::DECIMAL:
          return Scalar::kDecimal;
        case Kind::GEOMETRY:
        case Kind::GEOGRAPHY:
          return Scalar::kGeometry;
        default:
          return Scalar::kBlob;
      }
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
      switch (kind) {
        case Kind::DECIMAL:
          return Scalar::kDecimal;
        case Kind::UUID:
          return node.typeLength == 16 ? Scalar::kUuid : Scalar::kBlob;
        case Kind::INTERVAL:
          return node.typeLength == 12 ? Scalar::kInterval : Scalar::kBlob;
        case Kind::FLOAT16:
          return node.typeLength == 2 ? Scalar::kFloat : Scalar::kBlob;
        default:
          return Scalar::kBlob;
      }
  }
  return Scalar::kBlob;
}

ValueRenderer::Shape ValueRenderer::shapeOf(const FieldValue& value, bool isStructField) {
  const SchemaNode& node = value.node();
  if (isStructField && node.repetition == parquet::FieldRepetitionType::REPEATED) {
    return Shape::kList;
  }
  if (node.isLeaf()) return Shape::kScalar;
  if (node.mapKey != nullptr) return Shape::kMap;
  if (node.listElement != nullptr) return Shape::kList;
  return Shape::kStruct;
}

bool ValueRenderer::showsUtcOffset(const SchemaNode& node) const {
  if (!node.logicalType.isAdjustedToUTC) return false;
  const auto index = static_cast<size_t>(node.elementIndex);
  return index < metadata_.schema.size() && metadata_.schema[index].logicalType.has_value();
}

std::string ValueRenderer::scalarText(const FieldValue& value) const {
  const SchemaNode& node = value.node();
  switch (scalarOf(node)) {
    case Scalar::kNull:
      return "NULL";
    case Scalar::kBoolean:
      return value.getBoolean() ? "true" : "false";
    case Scalar::kInt8:
      return std::to_string(static_cast<int8_t>(storedInteger(value)));
    case Scalar::kInt16:
      return std::to_string(static_cast<int16_t>(storedInteger(value)));
    case Scalar::kInt32:
      return std::to_string(static_cast<int32_t>(storedInteger(value)));
    case Scalar::kInt64:
      return std::to_string(storedInteger(value));
    case Scalar::kUInt8:
      return std::to_string(static_cast<uint8_t>(storedInteger(value)));
    case Scalar::kUInt16:
      return std::to_string(static_cast<uint16_t>(storedInteger(value)));
    case Scalar::kUInt32:
      return std::to_string(static_cast<uint32_t>(storedInteger(value)));
    case Scalar::kUInt64:
      return std::to_string(static_cast<uint64_t>(storedInteger(value)));
    case Scalar::kFloat:
      return duckDbFloat(value.getFloat());
    case Scalar::kDouble:
      return duckDbDouble(value.getDouble());
    case Scalar::kDecimal:
      return value.getDecimal().toString();
    case Scalar::kDate:
      return duckDbDate(value.getDate());
    case Scalar::kTime: {
      std::string text =
          duckDbTime(value.getTime().nanosOfDay, fractionDigits(node.logicalType.unit));
      return showsUtcOffset(node) ? text + "+00" : text;
    }
    case Scalar::kTimestamp: {
      const int digits = fractionDigits(node.logicalType.unit);
      if (node.logicalType.isAdjustedToUTC) {
        const Instant instant = value.getTimestamp();
        std::string text = duckDbTimestamp(instant.epochSeconds, instant.nanos, digits);
        return showsUtcOffset(node) ? text + "+00" : text;
      }
      const LocalDateTime local = value.getLocalDateTime();
      return duckDbTimestamp(local.epochSeconds, local.nanos, digits);
    }
    case Scalar::kInt96: {
      const Instant instant = value.getTimestamp();
      return duckDbTimestamp(instant.epochSeconds, instant.nanos, 9);
    }
    case Scalar::kInterval:
      return duckDbInterval(value.getInterval());
    case Scalar::kUuid:
      return value.getUuid().toString();
    case Scalar::kString:
      return value.getString();
    case Scalar::kBlob:
      return duckDbBlob(value.rawBytes());
    case Scalar::kGeometry:
      try {
        return duckDbGeometry(value.rawBytes());
      } catch (const CorruptFile& e) {
        throw CorruptFile("column " + node.path + ": " + e.what());
      }
  }
  return "";
}

std::string_view ValueRenderer::scalarView(const FieldValue& value, std::string& storage) const {
  if (scalarOf(value.node()) == Scalar::kString) {
    // A value can be a gigabyte long: well-formed text is used where it lies.
    const std::string_view bytes = value.rawBytes();
    if (isValidUtf8(bytes)) return bytes;
  }
  storage = scalarText(value);
  return storage;
}

void ValueRenderer::appendText(const FieldValue& value, std::string& out,
                               bool isStructField) const {
  const Shape shape = shapeOf(value, isStructField);
  const bool repeatedField =
      isStructField && value.node().repetition == parquet::FieldRepetitionType::REPEATED;
  if (!repeatedField && value.isNull()) {
    out += "NULL";
    return;
  }
  if (isVariant(value, isStructField)) {
    appendVariant(value, out, false, false);
    return;
  }
  switch (shape) {
    case Shape::kScalar: {
      std::string storage;
      appendBulk(out, scalarView(value, storage));
      return;
    }
    case Shape::kList: {
      const parquet::PqList list = value.getList();
      out += '[';
      for (size_t i = 0; i < list.size(); ++i) {
        if (i > 0) out += ", ";
        appendNestedText(list.get(i), out, false);
      }
      out += ']';
      return;
    }
    case Shape::kStruct: {
      const parquet::PqStruct fields = value.getStruct();
      // DuckDB takes a struct whose first field has no name for an unnamed one,
      // a row(...) (as its UNION's tag field makes it), and prints only values.
      const bool unnamed = fields.getFieldCount() > 0 && fields.getFieldName(0).empty();
      out += unnamed ? '(' : '{';
      for (size_t i = 0; i < fields.getFieldCount(); ++i) {
        if (i > 0) out += ", ";
        if (!unnamed) {
          appendQuotedInNested(fields.getFieldName(i), out);
          out += ": ";
        }
        appendNestedText(fields.field(i), out, true);
      }
      out += unnamed ? ')' : '}';
      return;
    }
    case Shape::kMap: {
      const parquet::PqMap map = value.getMap();
      // A MAP without a value field reads as the list of its keys (as
      // parquet-testing's map_no_value.md documents).
      out += map.hasValues() ? '{' : '[';
      for (size_t i = 0; i < map.size(); ++i) {
        if (i > 0) out += ", ";
        appendNestedText(map.key(i), out, false);
        if (map.hasValues()) {
          out += '=';
          appendNestedText(map.value(i), out, false);
        }
      }
      out += map.hasValues() ? '}' : ']';
      return;
    }
  }
}

void ValueRenderer::appendNestedText(const FieldValue& value, std::string& out,
                                     bool isStructField) const {
  if (isVariant(value, isStructField) && !value.isNull()) {
    appendVariant(value, out, false, true);
    return;
  }
  if (shapeOf(value, isStructField) != Shape::kScalar || value.isNull()) {
    appendText(value, out, isStructField);
    return;
  }
  std::string storage;
  const std::string_view text = scalarView(value, storage);
  if (needsQuotesInNested(text)) {
    appendQuotedInNested(text, out);
  } else {
    appendBulk(out, text);
  }
}

void ValueRenderer::appendScalarJson(const FieldValue& value, std::string& out) const {
  const Scalar scalar = scalarOf(value.node());
  switch (scalar) {
    case Scalar::kNull:
      out += "null";
      return;
    case Scalar::kBoolean:
    case Scalar::kInt8:
    case Scalar::kInt16:
    case Scalar::kInt32:
    case Scalar::kUInt8:
    case Scalar::kUInt16:
    case Scalar::kUInt32:
      appendBulk(out, scalarText(value));
      return;
    case Scalar::kFloat:
      appendJsonFloating(value.getFloat(), uint32_t{0x7fc00000}, out);
      return;
    case Scalar::kDouble:
      appendJsonFloating(value.getDouble(), uint64_t{0x7ff8000000000000}, out);
      return;
    case Scalar::kInterval: {
      const Interval interval = value.getInterval();
      out += "{\"months\":" + std::to_string(interval.months) +
             ",\"days\":" + std::to_string(interval.days) +
             ",\"micros\":" + std::to_string(int64_t{interval.millis} * 1000) + "}";
      return;
    }
    case Scalar::kInt64:
    case Scalar::kUInt64:
    case Scalar::kDecimal:
      appendJsonExactNumber(scalarText(value), bigNumbers_, out);
      return;
    case Scalar::kDate:
    case Scalar::kTime:
    case Scalar::kTimestamp:
    case Scalar::kInt96:
    case Scalar::kUuid:
      appendQuoted(scalarText(value), out);
      return;
    case Scalar::kString:
    case Scalar::kBlob: {
      std::string storage;
      appendJsonString(out, scalarView(value, storage));
      return;
    }
    case Scalar::kGeometry:
      // DuckDB's node API gives a GEOMETRY's JSON as its WKB bytes, in BLOB text.
      appendJsonString(out, duckDbBlob(value.rawBytes()));
      return;
  }
}

void ValueRenderer::appendJson(const FieldValue& value, std::string& out,
                               bool isStructField) const {
  const Shape shape = shapeOf(value, isStructField);
  const bool repeatedField =
      isStructField && value.node().repetition == parquet::FieldRepetitionType::REPEATED;
  if (!repeatedField && value.isNull()) {
    out += "null";
    return;
  }
  if (isVariant(value, isStructField)) {
    appendVariant(value, out, true, false, bigNumbers_);
    return;
  }
  switch (shape) {
    case Shape::kScalar:
      appendScalarJson(value, out);
      return;
    case Shape::kList: {
      const parquet::PqList list = value.getList();
      out += '[';
      for (size_t i = 0; i < list.size(); ++i) {
        if (i > 0) out += ',';
        appendJson(list.get(i), out, false);
      }
      out += ']';
      return;
    }
    case Shape::kStruct: {
      const parquet::PqStruct fields = value.getStruct();
      out += '{';
      for (size_t i = 0; i < fields.getFieldCount(); ++i) {
        if (i > 0) out += ',';
        appendJsonString(out, fields.getFieldName(i));
        out += ':';
        appendJson(fields.field(i), out, true);
      }
      out += '}';
      return;
    }
    case Shape::kMap: {
      const parquet::PqMap map = value.getMap();
      out += '[';
      for (size_t i = 0; i < map.size(); ++i) {
        if (i > 0) out += ',';
        if (!map.hasValues()) {  // the list of its keys, as in the text form
          appendJson(map.key(i), out, false);
          continue;
        }
        out += "{\"key\":";
        appendJson(map.key(i), out, false);
        out += ",\"value\":";
        appendJson(map.value(i), out, false);
        out += '}';
      }
      out += ']';
      return;
    }
  }
}

}  // namespace quarry::cli
