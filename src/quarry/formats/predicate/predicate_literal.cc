#include "quarry/formats/predicate/predicate_literal.h"

#include "quarry/common/utf8.h"

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

bool isWellFormedUtf8(const std::string& text) { return isValidUtf8(text); }

}  // namespace quarry::parquet
