#include "quarry/cli/block_text.h"

#include <cmath>

#include "quarry/cli/duckdb_text.h"
#include "quarry/common/json_text.h"

namespace quarry::cli {

using engine::Block;
using engine::DataType;
using engine::Int128;
using engine::TimeUnit;
using engine::TypeKind;

namespace {

int fractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return 3;
    case TimeUnit::kMicros:
      return 6;
    case TimeUnit::kNanos:
      return 9;
  }
  return 6;
}

/// Whether DuckDB quotes `text` as an element of a list cast to VARCHAR: when it
/// is empty, reads as NULL, starts or ends with white space, or holds a character
/// of its nested-value syntax. (Numbers never do, so the rule applies to every kind.)
bool needsListQuotes(std::string_view text) {
  if (text.empty()) return true;
  if (text.size() == 4 && (text[0] | 0x20) == 'n' && (text[1] | 0x20) == 'u' &&
      (text[2] | 0x20) == 'l' && (text[3] | 0x20) == 'l') {
    return true;
  }
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  if (space(text.front()) || space(text.back())) return true;
  return text.find_first_of("\"'(),:=[]{}") != std::string_view::npos;
}

/// Appends a list as DuckDB casts it to VARCHAR: "[1, 2, NULL]", "[]",
/// "[a, 'x,y', 'it\'s']" (quoted elements escape ' and \ with a backslash).
void appendListText(const Block& block, size_t i, std::string& out) {
  const Block& elements = block.listElements();
  const auto offsets = block.listOffsets();
  out += '[';
  std::string text;
  for (uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
    if (e > offsets[i]) out += ", ";
    if (elements.isNull(e)) {
      out += "NULL";
      continue;
    }
    text.clear();
    appendBlockText(elements, e, text);
    if (!needsListQuotes(text)) {
      out += text;
      continue;
    }
    out += '\'';
    for (char c : text) {
      if (c == '\'' || c == '\\') out += '\\';
      out += c;
    }
    out += '\'';
  }
  out += ']';
}

void appendUuid(std::string_view bytes, std::string& out) {
  Uuid uuid;
  for (size_t k = 0; k < uuid.bytes.size() && k < bytes.size(); ++k) uuid.bytes[k] = static_cast<uint8_t>(bytes[k]);
  out += uuid.toString();
}

}  // namespace

void appendTimestampText(int64_t value, const DataType& type, std::string& out) {
  const Instant instant = Instant::ofEpochUnits(value, engine::unitsPerSecond(type.unit));
  out += duckDbTimestamp(instant.epochSeconds, instant.nanos, fractionDigits(type.unit));
  if (type.utcAdjusted) out += "+00";
}

void appendTimeText(int64_t value, const DataType& type, std::string& out) {
  const int64_t nanosPerUnit = 1'000'000'000 / engine::unitsPerSecond(type.unit);
  out += duckDbTime(value * nanosPerUnit, fractionDigits(type.unit));
}

std::string decimalText(Int128 unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(unscaled)
                                         : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, scale - digits.size() + 1, '0');
    digits.insert(digits.size() - scale, 1, '.');
  }
  return negative ? "-" + digits : digits;
}

void appendBlockText(const Block& block, size_t i, std::string& out) {
  if (block.isNull(i)) {
    out += "NULL";
    return;
  }
  const DataType& type = block.type();
  switch (type.kind) {
    case TypeKind::kNull:
      out += "NULL";
      return;
    case TypeKind::kBoolean:
      out += block.values<uint8_t>()[i] ? "true" : "false";
      return;
    case TypeKind::kInt32:
      out += std::to_string(block.values<int32_t>()[i]);
      return;
    case TypeKind::kInt64:
      out += std::to_string(block.values<int64_t>()[i]);
      return;
    case TypeKind::kUInt64:
      out += std::to_string(block.values<uint64_t>()[i]);
      return;
    case TypeKind::kDouble:
      out += duckDbDouble(block.values<double>()[i]);
      return;
    case TypeKind::kDecimal:
      out += decimalText(block.values<Int128>()[i], type.scale);
      return;
    case TypeKind::kString:
      out += block.bytes(i);
      return;
    case TypeKind::kBinary:
      out += duckDbBlob(block.bytes(i));
      return;
    case TypeKind::kDate:
      out += duckDbDate(Date{block.values<int32_t>()[i]});
      return;
    case TypeKind::kTime:
      appendTimeText(block.values<int64_t>()[i], type, out);
      return;
    case TypeKind::kTimestamp:
      appendTimestampText(block.values<int64_t>()[i], type, out);
      return;
    case TypeKind::kUuid:
      appendUuid(block.bytes(i), out);
      return;
    case TypeKind::kList:
      appendListText(block, i, out);
      return;
  }
}

void appendBlockJson(const Block& block, size_t i, std::string& out, BigNumbers big) {
  if (block.isNull(i)) {
    out += "null";
    return;
  }
  const DataType& type = block.type();
  switch (type.kind) {
    case TypeKind::kBoolean:
    case TypeKind::kInt32:
      appendBlockText(block, i, out);
      return;
    case TypeKind::kList: {  // a JSON array of the elements' JSON
      const auto offsets = block.listOffsets();
      out += '[';
      for (uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        if (e > offsets[i]) out += ',';
        appendBlockJson(block.listElements(), e, out, big);
      }
      out += ']';
      return;
    }
    case TypeKind::kInt64:
    case TypeKind::kUInt64:
    case TypeKind::kDecimal: {
      std::string text;
      appendBlockText(block, i, text);
      appendJsonExactNumber(text, big, out);
      return;
    }
    case TypeKind::kDouble: {
      const double v = block.values<double>()[i];
      if (std::isfinite(v)) {
        appendBlockText(block, i, out);
      } else {
        out += std::isnan(v) ? (std::signbit(v) ? "\"-NaN\"" : "\"NaN\"") : (v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
      }
      return;
    }
    default: {
      std::string text;
      appendBlockText(block, i, text);
      appendJsonString(out, text);
      return;
    }
  }
}

}  // namespace quarry::cli
