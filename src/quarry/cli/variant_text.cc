#include "quarry/cli/variant_text.h"

#include <charconv>
#include <cmath>

#include "quarry/cli/duckdb_text.h"
#include "quarry/cli/json_writer.h"

namespace quarry::cli {
namespace {

using parquet::VariantBasicType;
using parquet::VariantValue;
using P = parquet::VariantPrimitiveType;

std::string timestampText(int64_t units, int64_t unitsPerSecond, int digits) {
  const Instant i = Instant::ofEpochUnits(units, unitsPerSecond);
  return duckDbTimestamp(i.epochSeconds, i.nanos, digits);
}

/// Returns the text of a primitive (or short string) as DuckDB casts it to VARCHAR.
std::string scalarText(const VariantValue& v) {
  switch (v.primitiveType()) {
    case P::kNull: return "NULL";
    case P::kTrue: return "true";
    case P::kFalse: return "false";
    case P::kInt8:
    case P::kInt16:
    case P::kInt32:
    case P::kInt64: return std::to_string(v.getLong());
    case P::kDouble: return duckDbDouble(v.getDouble());
    case P::kFloat: return duckDbFloat(v.getFloat());
    case P::kDecimal4:
    case P::kDecimal8:
    case P::kDecimal16: return v.getDecimal().toString();
    case P::kDate: return duckDbDate(Date{static_cast<int32_t>(v.getLong())});
    case P::kTimestampMicros: return timestampText(v.getLong(), 1'000'000, 6) + "+00";
    case P::kTimestampNtzMicros: return timestampText(v.getLong(), 1'000'000, 6);
    // DuckDB reads these as TIMESTAMP WITH TIME ZONE, in microseconds cut toward zero.
    case P::kTimestampNanos: return timestampText(v.getLong() / 1000, 1'000'000, 6) + "+00";
    case P::kTimestampNtzNanos: return timestampText(v.getLong(), 1'000'000'000, 9);
    case P::kTimeNtzMicros: return duckDbTime(v.getLong() * 1000, 6);
    case P::kBinary: return duckDbBlob(v.getString());
    case P::kString: return std::string(v.getString());
    case P::kUuid: return v.getUuid().toString();
  }
  return "";
}

template <typename T>
void appendJsonNumber(T value, std::string& out) {
  if (std::isnan(value)) {
    out += std::signbit(value) ? "\"-NaN\"" : "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  } else {
    char buffer[64];
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  }
}

}  // namespace

void appendVariantText(const VariantValue& value, std::string& out, bool nested) {
  switch (value.basicType()) {
    case VariantBasicType::kObject:
      out += '{';
      for (uint32_t i = 0; i < value.elementCount(); ++i) {
        if (i > 0) out += ", ";
        appendQuotedInNested(value.fieldName(i), out);
        out += ": ";
        appendVariantText(value.element(i), out, true);
      }
      out += '}';
      return;
    case VariantBasicType::kArray:
      out += '[';
      for (uint32_t i = 0; i < value.elementCount(); ++i) {
        if (i > 0) out += ", ";
        appendVariantText(value.element(i), out, true);
      }
      out += ']';
      return;
    case VariantBasicType::kPrimitive:
    case VariantBasicType::kShortString: break;
  }
  const std::string text = scalarText(value);
  if (nested && !isVariantNull(value) && needsQuotesInNested(text)) {
    appendQuotedInNested(text, out);
  } else {
    out += text;
  }
}

void appendVariantJson(const VariantValue& value, std::string& out, BigNumbers big) {
  switch (value.basicType()) {
    case VariantBasicType::kObject:
      out += '{';
      for (uint32_t i = 0; i < value.elementCount(); ++i) {
        if (i > 0) out += ',';
        appendJsonString(out, value.fieldName(i));
        out += ':';
        appendVariantJson(value.element(i), out, big);
      }
      out += '}';
      return;
    case VariantBasicType::kArray:
      out += '[';
      for (uint32_t i = 0; i < value.elementCount(); ++i) {
        if (i > 0) out += ',';
        appendVariantJson(value.element(i), out, big);
      }
      out += ']';
      return;
    case VariantBasicType::kPrimitive:
    case VariantBasicType::kShortString: break;
  }
  switch (value.primitiveType()) {
    case P::kNull: out += "null"; return;
    case P::kTrue:
    case P::kFalse:
    case P::kInt8:
    case P::kInt16:
    case P::kInt32: out += scalarText(value); return;
    case P::kInt64:
    case P::kDecimal4:
    case P::kDecimal8:
    case P::kDecimal16: appendJsonExactNumber(scalarText(value), big, out); return;
    case P::kDouble: appendJsonNumber(value.getDouble(), out); return;
    case P::kFloat: appendJsonNumber(value.getFloat(), out); return;
    default: appendJsonString(out, scalarText(value)); return;
  }
}

}  // namespace quarry::cli
