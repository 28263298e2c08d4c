#include "quarry/engine/expr/conversion_functions.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "quarry/common/values.h"
#include "quarry/engine/expr/civil_calendar.h"
#include "quarry/engine/expr/date_pattern.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/scalar_functions.h"

namespace quarry::engine {
namespace {

enum class Target : uint8_t { kString, kInt32, kInt64, kUInt64, kDouble, kBoolean };

struct Conversion {
  std::string_view name;
  Target target;
  std::string_view what;  // for errors: "an integer"
};

constexpr std::array<Conversion, 6> kConversions = {{
    {"to_string", Target::kString, "a string"},
    {"to_integer", Target::kInt32, "an integer"},
    {"to_long", Target::kInt64, "a long"},
    {"to_unsigned_long", Target::kUInt64, "an unsigned long"},
    {"to_double", Target::kDouble, "a double"},
    {"to_boolean", Target::kBoolean, "a boolean"},
}};

const Conversion* findConversion(const std::string& name) {
  for (const Conversion& c : kConversions) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const Conversion& conversionOf(const BoundExpr& call) {
  const Conversion* c = findConversion(call.name);
  if (c == nullptr) throw std::logic_error("conversion_functions: unknown function " + call.name);
  return *c;
}

DataType targetType(Target target) {
  switch (target) {
    case Target::kString:
      return DataType::string();
    case Target::kInt32:
      return DataType::int32();
    case Target::kInt64:
      return DataType::int64();
    case Target::kUInt64:
      return DataType::uint64();
    case Target::kDouble:
      return DataType::float64();
    case Target::kBoolean:
      break;
  }
  return DataType::boolean();
}

/// Whether `target` converts values of `kind` (ES|QL's table of each function's
/// accepted types, with quarry's decimals, dates, uint64 and uuids added).
bool converts(Target target, TypeKind kind) {
  switch (kind) {
    case TypeKind::kNull:
    case TypeKind::kBoolean:
    case TypeKind::kInt32:
    case TypeKind::kInt64:
    case TypeKind::kUInt64:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
    case TypeKind::kString:
      return true;
    case TypeKind::kDate:
    case TypeKind::kTimestamp:
      return target != Target::kBoolean;
    case TypeKind::kUuid:
      return target == Target::kString;
    default:
      return false;
  }
}

// ---- numbers from text ----------------------------------------------------------

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

/// Java's Integer.parseInt / Long.parseLong: an optional sign and ASCII digits,
/// nothing else (no spaces), within [min, max].
std::optional<int64_t> parseJavaInteger(std::string_view s, int64_t min, int64_t max) {
  size_t i = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) i = 1;
  if (i == s.size()) return std::nullopt;
  Int128 value = 0;
  for (; i < s.size(); ++i) {
    if (!isDigit(s[i])) return std::nullopt;
    value = value * 10 + (s[i] - '0');
    if (value > Int128{max} + 1) return std::nullopt;
  }
  if (negative) value = -value;
  if (value < min || value > max) return std::nullopt;
  return static_cast<int64_t>(value);
}

/// Java's Double.parseDouble for decimal text: surrounding characters up to
/// U+0020 trimmed, a sign, digits with an optional point (at least one digit),
/// an optional exponent and an optional f / d suffix; then ES|QL's rule that the
/// value be finite (NaN and Infinity are refused, as is an overflow). Java's
/// hexadecimal form (0x1p3) is not read.
std::optional<double> parseJavaDouble(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  if (!s.empty() && std::strchr("fFdD", s.back()) != nullptr) s.remove_suffix(1);
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  // strtod rounds correctly, and gives a subnormal or zero on underflow (as Java does).
  const std::string text(s);
  const double value = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

/// Java's new BigDecimal(s).toBigInteger() within uint64: a sign, digits with
/// an optional point, an optional exponent, no spaces; the integer part
/// (truncated toward zero) in [0, 2^64), else nullopt.
std::optional<uint64_t> parseTruncatedUnsigned(std::string_view s) {
  size_t i = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) i = 1;
  std::string digits;
  int64_t point = -1;
  for (; i < s.size() && (isDigit(s[i]) || (s[i] == '.' && point < 0)); ++i) {
    if (s[i] == '.') {
      point = static_cast<int64_t>(digits.size());
    } else {
      digits += s[i];
    }
  }
  if (digits.empty()) return std::nullopt;
  if (point < 0) point = static_cast<int64_t>(digits.size());
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    const std::optional<int64_t> exponent = parseJavaInteger(s.substr(i + 1), INT32_MIN, INT32_MAX);
    if (!exponent) return std::nullopt;
    point += *exponent;
    i = s.size();
  }
  if (i != s.size()) return std::nullopt;
  // The digits before the point: the integer part.
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos || point <= static_cast<int64_t>(first))
    return uint64_t{0};  // |x| < 1
  if (point - static_cast<int64_t>(first) > 20) return std::nullopt;
  Int128 value = 0;
  for (int64_t k = static_cast<int64_t>(first); k < point; ++k) {
    value = value * 10 + (k < static_cast<int64_t>(digits.size()) ? digits[k] - '0' : 0);
  }
  if (value > Int128{std::numeric_limits<uint64_t>::max()}) return std::nullopt;
  if (negative && value != 0) return std::nullopt;
  return static_cast<uint64_t>(value);
}

// ---- numbers from numbers ---------------------------------------------------------

/// Java's Math.round: the nearest integer, halves up (toward positive infinity).
double javaRound(double x) {
  const double down = std::floor(x);
  return x - down >= 0.5 ? down + 1 : down;  // x - floor(x) is exact
}

/// A double rounded (to_integer, to_long) or truncated (to_unsigned_long) into
/// [min, max], or nullopt for NaN and values outside, as ES|QL's range checks.
std::optional<Int128> doubleToInteger(double x, Target target) {
  if (std::isnan(x)) return std::nullopt;
  if (target == Target::kUInt64) {
    // Truncated toward zero into [0, 2^64), as a decimal and a string are.
    if (!(x > -1) || x >= 18446744073709551616.0) return std::nullopt;
    return static_cast<Int128>(static_cast<uint64_t>(std::trunc(x)));
  }
  const double limit = target == Target::kInt32 ? 2147483648.0 : 9223372036854775808.0;
  if (x > limit - (target == Target::kInt32 ? 1 : 0) || x < -limit) return std::nullopt;
  const double r = javaRound(x);
  if (r >= limit) return std::nullopt;
  return static_cast<Int128>(static_cast<int64_t>(r));
}

/// A decimal's exact value, rounded as Math.round rounds or truncated.
Int128 decimalToInteger(Int128 unscaled, int32_t scale, bool truncate) {
  if (scale == 0) return unscaled;
  const Int128 unit = pow10Int128(scale);
  if (truncate) return unscaled / unit;
  Int128 q = unscaled / unit;
  Int128 rem = unscaled - q * unit;
  if (rem < 0) {
    rem += unit;
    --q;
  }
  return rem >= unit - rem ? q + 1 : q;
}

/// Milliseconds since 1970-01-01 of a date or timestamp value (floored, as the
/// instant's millisecond).
int64_t millisOf(const Block& in, size_t i) {
  const DataType& type = in.type();
  if (type.kind == TypeKind::kDate) return int64_t{in.values<int32_t>()[i]} * 86'400'000;
  const int64_t v = in.values<int64_t>()[i];
  const int64_t perMilli = unitsPerSecond(type.unit) / 1000;
  return perMilli == 1 ? v : floorDiv(v, perMilli);
}

Int128 limitLow(Target target) {
  return target == Target::kInt32 ? Int128{INT32_MIN}
                                  : (target == Target::kInt64 ? Int128{INT64_MIN} : 0);
}
Int128 limitHigh(Target target) {
  return target == Target::kInt32   ? Int128{INT32_MAX}
         : target == Target::kInt64 ? Int128{INT64_MAX}
                                    : Int128{std::numeric_limits<uint64_t>::max()};
}

/// Value `i` of `in` (not null) as an integer of `target`, or nullopt.
std::optional<Int128> integerAt(const Block& in, size_t i, Target target) {
  const DataType& type = in.type();
  std::optional<Int128> v;
  switch (type.kind) {
    case TypeKind::kBoolean:
      v = in.values<uint8_t>()[i] != 0 ? 1 : 0;
      break;
    case TypeKind::kInt32:
      v = in.values<int32_t>()[i];
      break;
    case TypeKind::kInt64:
      v = in.values<int64_t>()[i];
      break;
    case TypeKind::kUInt64:
      v = in.values<uint64_t>()[i];
      break;
    case TypeKind::kDouble:
      v = doubleToInteger(in.values<double>()[i], target);
      break;
    case TypeKind::kDecimal:
      v = decimalToInteger(in.values<Int128>()[i], type.scale, target == Target::kUInt64);
      break;
    case TypeKind::kString: {
      const std::string_view s = in.bytes(i);
      if (target == Target::kUInt64) {
        v = parseTruncatedUnsigned(s);
        break;
      }
      if (const std::optional<int64_t> exact = parseJavaInteger(
              s, static_cast<int64_t>(limitLow(target)), static_cast<int64_t>(limitHigh(target)))) {
        v = *exact;
      } else if (const std::optional<double> d = parseJavaDouble(s)) {
        v = doubleToInteger(*d, target);
      }
      break;
    }
    default:
      v = millisOf(in, i);
      break;
  }
  if (v && (*v < limitLow(target) || *v > limitHigh(target))) return std::nullopt;
  return v;
}

std::optional<double> doubleAt(const Block& in, size_t i) {
  const DataType& type = in.type();
  switch (type.kind) {
    case TypeKind::kBoolean:
      return in.values<uint8_t>()[i] != 0 ? 1.0 : 0.0;
    case TypeKind::kInt32:
      return in.values<int32_t>()[i];
    case TypeKind::kInt64:
      return static_cast<double>(in.values<int64_t>()[i]);
    case TypeKind::kUInt64:
      return static_cast<double>(in.values<uint64_t>()[i]);
    case TypeKind::kDouble:
      return in.values<double>()[i];
    case TypeKind::kDecimal:
      return decimalToDouble(in.values<Int128>()[i], type.scale);
    case TypeKind::kString:
      return parseJavaDouble(in.bytes(i));
    default:
      return static_cast<double>(millisOf(in, i));
  }
}

bool booleanAt(const Block& in, size_t i) {
  switch (in.type().kind) {
    case TypeKind::kBoolean:
      return in.values<uint8_t>()[i] != 0;
    case TypeKind::kInt32:
      return in.values<int32_t>()[i] != 0;
    case TypeKind::kInt64:
      return in.values<int64_t>()[i] != 0;
    case TypeKind::kUInt64:
      return in.values<uint64_t>()[i] != 0;
    case TypeKind::kDouble:
      return in.values<double>()[i] != 0;  // NaN != 0
    case TypeKind::kDecimal:
      return in.values<Int128>()[i] != 0;
    default: {
      // Java's Boolean.parseBoolean: "true" ignoring case, nothing else.
      const std::string_view s = in.bytes(i);
      constexpr std::string_view kTrue = "true";
      return s.size() == kTrue.size() &&
             std::equal(s.begin(), s.end(), kTrue.begin(), [](char a, char b) {
               return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
             });
    }
  }
}

std::string textAt(const Block& in, size_t i) {
  const DataType& type = in.type();
  switch (type.kind) {
    case TypeKind::kBoolean:
      return in.values<uint8_t>()[i] != 0 ? "true" : "false";
    case TypeKind::kInt32:
      return std::to_string(in.values<int32_t>()[i]);
    case TypeKind::kInt64:
      return std::to_string(in.values<int64_t>()[i]);
    case TypeKind::kUInt64:
      return std::to_string(in.values<uint64_t>()[i]);
    case TypeKind::kDouble:
      return javaDoubleText(in.values<double>()[i]);
    case TypeKind::kDecimal:
      return decimalToString(in.values<Int128>()[i], type.scale);
    case TypeKind::kDate:
      return isoDatetimeText(DayAndNanos{in.values<int32_t>()[i], 0}, false, true);
    case TypeKind::kTimestamp:
      return isoDatetimeText(splitInstant(in.values<int64_t>()[i], unitsPerSecond(type.unit)),
                             type.unit != TimeUnit::kMillis, type.utcAdjusted);
    case TypeKind::kUuid: {
      Uuid uuid;
      std::memcpy(uuid.bytes.data(), in.bytes(i).data(), uuid.bytes.size());
      return uuid.toString();
    }
    default:
      return std::string(in.bytes(i));
  }
}

/// Converts each non-null position through `convert` (which returns nullopt for
/// a value that gives null) into a block of `type`.
template <typename T, typename Convert>
Block convertEach(const Block& in, const DataType& type, size_t n, Convert convert) {
  std::vector<T> out(n);
  std::vector<uint8_t> valid(n, 1);
  for (size_t i = 0; i < n; ++i) {
    if (in.isNull(i)) {
      valid[i] = 0;
      continue;
    }
    const std::optional<T> v = convert(i);
    if (v) {
      out[i] = *v;
    } else {
      valid[i] = 0;
    }
  }
  return Block::fromValues(type, std::move(out), std::move(valid));
}

}  // namespace

bool isConversionFunction(const std::string& name) {
  return findConversion(name) != nullptr;
}

DataType bindConversionFunction(const BoundExpr& call, int line, int column) {
  const Conversion& c = conversionOf(call);
  if (call.children.size() != 1) {
    failCall(call, "expected 1 argument, got " + std::to_string(call.children.size()),
             "call it as " + std::string(c.name) + "(value)", line, column);
  }
  const BoundExpr& arg = *call.children[0];
  if (!converts(c.target, arg.type.kind)) {
    failCall(call,
             "cannot convert " + arg.toString() + " of type " + arg.type.toString() + " to " +
                 std::string(c.what),
             c.target == Target::kString
                 ? "pass a number, a boolean, a string, a date, a timestamp or a uuid"
                 : (c.target == Target::kBoolean
                        ? "pass a number, a boolean or a string"
                        : "pass a number, a boolean, a string, a date or a timestamp"),
             line, column);
  }
  return targetType(c.target);
}

Block evaluateConversionFunction(const BoundExpr& call, const CallArgs& args, size_t n) {
  const Conversion& c = conversionOf(call);
  const Block& in = args[0];
  const DataType& type = call.type;
  if (in.type().kind == TypeKind::kNull) return Block::nulls(type, n);
  switch (c.target) {
    case Target::kString: {
      if (in.type().kind == TypeKind::kString) return in;
      Block out(type);
      out.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        if (in.isNull(i)) {
          out.appendNull();
        } else {
          out.appendBytes(textAt(in, i));
        }
      }
      return out;
    }
    case Target::kInt32:
      if (in.type().kind == TypeKind::kInt32) return in;
      return convertEach<int32_t>(in, type, n, [&](size_t i) -> std::optional<int32_t> {
        const std::optional<Int128> v = integerAt(in, i, c.target);
        if (!v) return std::nullopt;
        return static_cast<int32_t>(*v);
      });
    case Target::kInt64:
      if (in.type().kind == TypeKind::kInt64) return in;
      return convertEach<int64_t>(in, type, n, [&](size_t i) -> std::optional<int64_t> {
        const std::optional<Int128> v = integerAt(in, i, c.target);
        if (!v) return std::nullopt;
        return static_cast<int64_t>(*v);
      });
    case Target::kUInt64:
      if (in.type().kind == TypeKind::kUInt64) return in;
      return convertEach<uint64_t>(in, type, n, [&](size_t i) -> std::optional<uint64_t> {
        const std::optional<Int128> v = integerAt(in, i, c.target);
        if (!v) return std::nullopt;
        return static_cast<uint64_t>(*v);
      });
    case Target::kDouble:
      if (in.type().kind == TypeKind::kDouble) return in;
      return convertEach<double>(in, type, n, [&](size_t i) { return doubleAt(in, i); });
    case Target::kBoolean:
      if (in.type().kind == TypeKind::kBoolean) return in;
      return convertEach<uint8_t>(
          in, type, n, [&](size_t i) { return std::optional<uint8_t>(booleanAt(in, i) ? 1 : 0); });
  }
  throw std::logic_error("conversion_functions: unknown target");
}

std::string valueText(const Block& in, size_t i) {
  return textAt(in, i);
}

std::string javaDoubleText(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  // The shortest digits that read back as `value`, and the decimal exponent.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                    std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  const size_t e = text.find('e');
  std::string digits;
  for (const char ch : text.substr(0, e)) {
    if (ch != '.') digits += ch;
  }
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(),
                  exponent);
  std::string out = value < 0 ? "-" : "";
  if (exponent >= -3 && exponent < 7) {
    // Plain notation, at least one digit after the point (Java: 1.0E-3 <= |x| < 1.0E7).
    if (exponent < 0) {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else {
      const size_t whole = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= whole) {
        out += digits + std::string(whole - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, whole) + "." + digits.substr(whole);
      }
    }
    return out;
  }
  out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
         std::to_string(exponent);
  return out;
}

}  // namespace quarry::engine
