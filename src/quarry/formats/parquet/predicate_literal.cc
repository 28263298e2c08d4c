#include "quarry/formats/parquet/predicate_literal.h"

#include <cstdio>

namespace quarry::parquet {
namespace {

std::string hex(const uint8_t* data, size_t size) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    if (i > 0) out += ' ';
    out += kHex[data[i] >> 4];
    out += kHex[data[i] & 15];
  }
  return out;
}

std::string number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

}  // namespace

std::string literalTypeName(LiteralType type) {
  switch (type) {
    case LiteralType::kBool: return "bool";
    case LiteralType::kInt32: return "int32_t";
    case LiteralType::kInt64: return "int64_t";
    case LiteralType::kFloat: return "float";
    case LiteralType::kDouble: return "double";
    case LiteralType::kString: return "std::string";
    case LiteralType::kBytes: return "quarry::Bytes";
    case LiteralType::kDate: return "quarry::Date";
    case LiteralType::kTimeOfDay: return "quarry::TimeOfDay";
    case LiteralType::kInstant: return "quarry::Instant";
    case LiteralType::kLocalDateTime: return "quarry::LocalDateTime";
    case LiteralType::kDecimal: return "quarry::Decimal";
    case LiteralType::kUuid: return "quarry::Uuid";
    case LiteralType::kInterval: return "quarry::Interval";
  }
  return "?";
}

std::string literalToString(const PredicateLiteral& literal) {
  struct Visitor {
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(int32_t v) const { return std::to_string(v); }
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(float v) const { return number(v); }
    std::string operator()(double v) const { return number(v); }
    std::string operator()(const std::string& v) const { return "'" + v + "'"; }
    std::string operator()(const Bytes& v) const { return "[" + hex(v.data(), v.size()) + "]"; }
    std::string operator()(const Date& v) const { return v.toString(); }
    std::string operator()(const TimeOfDay& v) const {
      if (v.nanosOfDay < 0 || v.nanosOfDay >= 86'400'000'000'000) {
        return std::to_string(v.nanosOfDay) + " ns since midnight";
      }
      return v.toString(9);
    }
    std::string operator()(const Instant& v) const {
      std::string s = v.toString(9);
      const size_t space = s.find(' ');
      if (space != std::string::npos) s[space] = 'T';
      return s + "Z";
    }
    std::string operator()(const LocalDateTime& v) const {
      std::string s = Instant{v.epochSeconds, v.nanos}.toString(9);
      const size_t space = s.find(' ');
      if (space != std::string::npos) s[space] = 'T';
      return s;
    }
    std::string operator()(const Decimal& v) const { return v.toString(); }
    std::string operator()(const Uuid& v) const { return v.toString(); }
    std::string operator()(const Interval& v) const {
      return "Interval(" + std::to_string(v.months) + ", " + std::to_string(v.days) + ", " +
             std::to_string(v.millis) + ")";
    }
  };
  return std::visit(Visitor{}, literal);
}

bool isWellFormedUtf8(const std::string& text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // U+D800..U+DFFF are surrogates, not characters
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      const uint8_t b = p[i + k];
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return false;
    }
    i += len;
  }
  return true;
}

}  // namespace quarry::parquet
