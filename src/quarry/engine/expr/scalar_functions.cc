#include "quarry/engine/expr/scalar_functions.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "quarry/common/byte_scan.h"
#include "quarry/common/error.h"
#include "quarry/common/values.h"
#include "quarry/engine/expr/conversion_functions.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/ip_functions.h"
#include "quarry/engine/expr/math_functions.h"
#include "quarry/engine/expr/mv_functions.h"
#include "quarry/engine/expr/regex_matcher.h"
#include "quarry/engine/expr/string_functions.h"
#include "quarry/engine/expr/temporal_functions.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

namespace {

// Sized by its initializer, so that a family of functions adds its names alone.
constexpr std::string_view kScalarNames[] = {
    "abs", "round", "length", "to_lower", "to_upper", "substring", "starts_with", "replace", "coalesce",
    // Date and time functions (temporal_functions.h).
    "date_trunc", "date_extract", "bucket", "to_datetime",
    "date_format", "date_parse", "date_diff", "now",
    // Type conversions (conversion_functions.h), which the `::` casts call.
    "to_string", "to_integer", "to_long", "to_unsigned_long", "to_double", "to_boolean",
    // String functions (string_functions.h).
    "concat", "trim", "ltrim", "rtrim", "ends_with", "left", "right", "reverse", "repeat", "locate", "space",
    "bit_length", "byte_length", "split", "md5", "sha1", "sha256",
    // IP functions (ip_functions.h).
    "to_ip", "cidr_match",
    // Multi-value functions (mv_functions.h): lists to one value per row.
    "mv_count", "mv_min", "mv_max", "mv_sum", "mv_avg", "mv_first", "mv_last", "mv_median",
    "mv_concat", "mv_dedupe", "mv_sort", "mv_slice", "mv_append", "mv_zip",
    // Math functions (math_functions.h).
    "pow", "sqrt", "cbrt", "exp", "log10", "log", "floor", "ceil", "signum", "pi", "e", "tau", "sin",
    "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "greatest", "least"};
constexpr std::string_view kAggregateNames[] = {
    // The aggregates STATS takes (plan/aggregate_arguments.h; a test holds the two lists equal).
    "count", "count_distinct", "min", "max", "sum", "avg", "median", "percentile",
    "median_absolute_deviation", "std_dev", "variance", "weighted_avg", "values", "top"};

bool isStringOrNull(const DataType& t) {
  return t.kind == TypeKind::kString || t.kind == TypeKind::kNull;
}
bool isIntegerOrNull(const DataType& t) {
  return isInteger(t) || t.kind == TypeKind::kNull;
}

// ---- strings ------------------------------------------------------------------

/// Maps one code point to its other case by the simple rules named in the header.
uint32_t mapCase(uint32_t cp, bool upper) {
  if (upper) {
    if (cp >= 'a' && cp <= 'z') return cp - 0x20;
    if ((cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) || (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) ||
        (cp >= 0x430 && cp <= 0x44F)) {
      return cp - 0x20;
    }
    if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
  } else {
    if (cp >= 'A' && cp <= 'Z') return cp + 0x20;
    if ((cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) || (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) ||
        (cp >= 0x410 && cp <= 0x42F)) {
      return cp + 0x20;
    }
    if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  }
  return cp;
}

void changeCase(std::string_view in, bool upper, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    const auto b = static_cast<unsigned char>(in[i]);
    if (b < 0x80) {
      out.push_back(static_cast<char>(mapCase(b, upper)));
    } else if ((b & 0xE0) == 0xC0 && i + 1 < in.size()) {
      // Every mapped letter is a two-byte sequence, and maps to one.
      const uint32_t cp = ((b & 0x1Fu) << 6) | (static_cast<unsigned char>(in[i + 1]) & 0x3Fu);
      const uint32_t mapped = mapCase(cp, upper);
      out.push_back(static_cast<char>(0xC0 | (mapped >> 6)));
      out.push_back(static_cast<char>(0x80 | (mapped & 0x3F)));
      ++i;
    } else {
      out.push_back(static_cast<char>(b));
    }
  }
}

std::string_view substring(std::string_view s, int64_t offset, std::optional<int64_t> length) {
  const int64_t count = characterCount(s);
  // 0-based start: `offset` 1 is the first character, 0 just before it, -1 the last.
  const int64_t start = offset > 0 ? offset - 1 : (offset == 0 ? -1 : count + offset);
  const int64_t end = length ? (*length > count - start ? count : start + *length) : count;
  const int64_t from = std::clamp<int64_t>(start, 0, count);
  const int64_t to = std::clamp<int64_t>(end, 0, count);
  if (to <= from) return {};
  const size_t fromByte = byteOffsetOf(s, from);
  const size_t toByte = fromByte + byteOffsetOf(s.substr(fromByte), to - from);
  return s.substr(fromByte, toByte - fromByte);
}

// ---- numbers ------------------------------------------------------------------

int64_t roundDigits(const BoundExpr& call) {
  if (call.children.size() < 2) return 0;
  const Scalar& digits = call.children[1]->literal;
  if (const auto* v = std::get_if<int32_t>(&digits)) return *v;
  return std::get<int64_t>(digits);
}

/// LENGTH over a block: characters, not bytes. The bytes before the first one that is not ASCII
/// are one character each, so a value that ends before it is its byte length (ClickBench's
/// URLs: most pages are ASCII to the end); a dictionary's entries are counted once each when
/// there are no more of them than rows.
Block lengthBlock(const Block& strings, const DataType& type) {
  const size_t n = strings.size();
  std::vector<int64_t> out(n);
  if (strings.isDictionary() && strings.dictionary()->size() <= n) {
    const ByteDictionary& dictionary = *strings.dictionary();
    std::vector<int64_t> lengths(dictionary.size());
    for (size_t k = 0; k < lengths.size(); ++k) lengths[k] = characterCount(dictionary.at(k));
    const std::span<const uint32_t> ids = strings.dictionaryIds();
    for (size_t i = 0; i < n; ++i) out[i] = strings.isNull(i) ? 0 : lengths[ids[i]];
  } else if (n > 0) {
    const char* data = strings.byteData();
    const std::span<const uint64_t> offsets = strings.byteOffsets();
    const uint64_t asciiEnd = offsets[0] + findFirstNonAscii(std::string_view(
                                               data + offsets[0], offsets[n] - offsets[0]));
    for (size_t i = 0; i < n; ++i) {
      const uint64_t begin = offsets[i];
      const uint64_t end = offsets[i + 1];
      out[i] = end <= asciiEnd ? static_cast<int64_t>(end - begin)
                               : characterCount(std::string_view(data + begin, end - begin));
    }
  }
  return Block::fromValues(
      type, std::move(out),
      std::vector<uint8_t>(strings.validity().begin(), strings.validity().end()));
}

Block absBlock(const Block& in, const DataType& type) {
  if (type.kind == TypeKind::kUInt64) return in;
  if (type.kind == TypeKind::kDouble) {
    std::span<const double> v = in.values<double>();
    std::vector<double> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = std::fabs(v[i]);
    return Block::fromValues(type, std::move(out),
                             std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
  }
  // abs(x) = x < 0 ? -x : x, through negation for its overflow check.
  const Block negated = negateBlock(in, type);
  Block out(type);
  out.reserve(in.size());
  const Block zero = Block::fromValues(DataType::int32(), std::vector<int32_t>(in.size()));
  const Block negative = compareBlocks(BinaryOp::kLt, in, zero);
  for (size_t i = 0; i < in.size(); ++i) {
    out.appendFrom(!negative.isNull(i) && negative.values<uint8_t>()[i] ? negated : in, i);
  }
  return out;
}

Block roundBlock(const BoundExpr& call, const Block& in) {
  const DataType& type = call.type;
  const int64_t digits = roundDigits(call);
  const size_t n = in.size();
  const std::vector<uint8_t> validity(in.validity().begin(), in.validity().end());
  switch (type.kind) {
    case TypeKind::kDouble: {
      std::span<const double> v = in.values<double>();
      std::vector<double> out(n);
      const double modifier = std::pow(10.0, static_cast<double>(digits < 0 ? -digits : digits));
      for (size_t i = 0; i < n; ++i) {
        const double r = digits >= 0 ? std::round(v[i] * modifier) / modifier
                                     : std::round(v[i] / modifier) * modifier;
        out[i] = std::isfinite(r) ? r : v[i];
      }
      return Block::fromValues(type, std::move(out), validity);
    }
    case TypeKind::kDecimal: {
      const int32_t fromScale = in.type().scale;
      std::span<const Int128> v = in.values<Int128>();
      std::vector<Int128> out(n);
      const Int128 limit = pow10Int128(type.precision);
      for (size_t i = 0; i < n; ++i) {
        Int128 r = scaleDownRounded(v[i], fromScale - type.scale);
        if (digits < 0)
          r = scaleDownRounded(r, static_cast<int>(-digits)) *
              pow10Int128(static_cast<int>(-digits));
        if (r >= limit || r <= -limit) {
          throw InvalidArgument("Overflow in round of " + in.type().toString() + " (" +
                                decimalToString(v[i], fromScale) + ", " + std::to_string(digits) +
                                ")");
        }
        out[i] = r;
      }
      return Block::fromValues(type, std::move(out), validity);
    }
    default:
      break;
  }
  // Integers: only negative digits change them.
  if (digits >= 0) return in;
  const Block wide = castBlock(in, DataType::decimal(38, 0));
  std::span<const Int128> v = wide.values<Int128>();
  Block out(type);
  out.reserve(n);
  const int by = static_cast<int>(std::min<int64_t>(-digits, 38));
  const Int128 max = type.kind == TypeKind::kInt32   ? Int128{INT32_MAX}
                     : type.kind == TypeKind::kInt64 ? Int128{INT64_MAX}
                                                     : Int128{UINT64_MAX};
  const Int128 min = type.kind == TypeKind::kInt32   ? Int128{INT32_MIN}
                     : type.kind == TypeKind::kInt64 ? Int128{INT64_MIN}
                                                     : Int128{0};
  for (size_t i = 0; i < n; ++i) {
    if (in.isNull(i)) {
      out.appendNull();
      continue;
    }
    const Int128 r = scaleDownRounded(v[i], by) * pow10Int128(by);
    if (r > max || r < min) {
      throw InvalidArgument("Overflow in round of " + type.toString() + " (" +
                            int128ToString(v[i]) + ", " + std::to_string(digits) + ")");
    }
    if (type.kind == TypeKind::kInt32) {
      out.append(static_cast<int32_t>(r));
    } else if (type.kind == TypeKind::kInt64) {
      out.append(static_cast<int64_t>(r));
    } else {
      out.append(static_cast<uint64_t>(r));
    }
  }
  return out;
}

}  // namespace

void failCall(const BoundExpr& call, const std::string& message, const std::string& hint, int line,
              int column) {
  throw QueryError(call.name + ": " + message, line, column, hint);
}

std::span<const std::string_view> scalarFunctionNames() {
  return kScalarNames;
}
std::span<const std::string_view> aggregateFunctionNames() {
  return kAggregateNames;
}

DataType bindScalarFunction(BoundExpr& call, int line, int column) {
  const std::string& name = call.name;
  if (isMvFunction(name)) return bindMvFunction(call, line, column);
  if (isTemporalFunction(name)) return bindTemporalFunction(call, line, column);
  if (isConversionFunction(name)) return bindConversionFunction(call, line, column);
  if (isMathFunction(name)) return bindMathFunction(call, line, column);
  if (isStringFunction(name)) return bindStringFunction(call, line, column);
  if (isIpFunction(name)) return bindIpFunction(call, line, column);
  const std::vector<BoundExprPtr>& args = call.children;
  const auto arity = [&](size_t min, size_t max, const char* usage) {
    if (args.size() < min || args.size() > max) {
      failCall(call,
           "expected " +
               (min == max ? std::to_string(min)
                           : std::to_string(min) + " to " + std::to_string(max)) +
               " arguments, got " + std::to_string(args.size()),
           std::string("call it as ") + usage, line, column);
    }
  };
  const auto argType = [&](size_t k) { return args[k]->type; };
  const auto expect = [&](size_t k, bool ok, const std::string& what) {
    if (!ok) {
      failCall(call,
           "argument " + std::to_string(k + 1) + " must be " + what + ", got " +
               argType(k).toString(),
           "pass " + what, line, column);
    }
  };
  if (name == "abs") {
    arity(1, 1, "abs(number)");
    expect(0, argType(0).isNumeric() || argType(0).kind == TypeKind::kNull, "a number");
    return argType(0);
  }
  if (name == "round") {
    arity(1, 2, "round(number[, digits])");
    expect(0, argType(0).isNumeric() || argType(0).kind == TypeKind::kNull, "a number");
    if (args.size() == 2) {
      const BoundExpr& d = *args[1];
      if (d.kind != BoundExpr::Kind::kLiteral ||
          (d.type.kind != TypeKind::kInt32 && d.type.kind != TypeKind::kInt64)) {
        failCall(call, "digits must be an integer literal", "write round(x, 2)", line, column);
      }
    }
    const DataType t = argType(0);
    if (t.kind == TypeKind::kDecimal) {
      const int64_t digits = roundDigits(call);
      if (digits >= t.scale) return t;
      return DataType::decimal(t.precision, static_cast<int32_t>(std::max<int64_t>(digits, 0)));
    }
    return t;
  }
  if (name == "length" || name == "to_lower" || name == "to_upper") {
    arity(1, 1, (name + "(string)").c_str());
    expect(0, isStringOrNull(argType(0)), "a string");
    return name == "length" ? DataType::int64() : DataType::string();
  }
  if (name == "substring") {
    arity(2, 3, "substring(string, start[, length])");
    expect(0, isStringOrNull(argType(0)), "a string");
    for (size_t k = 1; k < args.size(); ++k) expect(k, isIntegerOrNull(argType(k)), "an integer");
    return DataType::string();
  }
  if (name == "starts_with") {
    arity(2, 2, "starts_with(string, prefix)");
    expect(0, isStringOrNull(argType(0)), "a string");
    expect(1, isStringOrNull(argType(1)), "a string");
    return DataType::boolean();
  }
  if (name == "replace") {
    arity(3, 3, "replace(string, regex, replacement)");
    expect(0, isStringOrNull(argType(0)), "a string");
    for (size_t k = 1; k < 3; ++k) {
      const BoundExpr& arg = *args[k];
      if (arg.kind != BoundExpr::Kind::kLiteral || arg.type.kind != TypeKind::kString) {
        failCall(call, std::string(k == 1 ? "the regular expression" : "the replacement") + " must be a string literal",
             "write replace(s, \"[0-9]+\", \"#\")", line, column);
      }
    }
    try {
      call.regexReplacer = std::make_shared<const RegexReplacer>(std::get<std::string>(args[1]->literal),
                                                                 std::get<std::string>(args[2]->literal));
    } catch (const InvalidArgument& e) {
      failCall(call, e.what(), "RE2's syntax (docs/ARCHITECTURE.md, \"Departures from ES|QL\"); $1 for group 1",
           line, column);
    }
    return DataType::string();
  }
  if (name == "coalesce") {
    if (args.empty()) arity(1, 1000, "coalesce(a, b, ...)");
    DataType type = argType(0);
    for (size_t k = 1; k < args.size(); ++k) {
      const std::optional<DataType> joined = commonSuperType(type, argType(k));
      if (!joined) {
        failCall(call,
             "arguments of types " + type.toString() + " and " + argType(k).toString() +
                 " do not mix",
             "give every argument the same kind of type", line, column);
      }
      type = *joined;
    }
    return type;
  }
  throw std::logic_error("bindScalarFunction: unknown function " + name);
}

/// $sum_offset (scalar_functions.h): SUM(e +/- c) per group from SUM(e), COUNT(e),
/// MIN(e) and MAX(e) of an int32 e.
Block sumOffsetBlock(const BoundExpr& call, const CallArgs& args) {
  const Block& sums = args[0];
  const std::span<const int64_t> counts = args[1].values<int64_t>();
  const std::span<const int32_t> mins = args[2].values<int32_t>();
  const std::span<const int32_t> maxs = args[3].values<int32_t>();
  const int64_t c = std::get<int32_t>(call.children[4]->literal);
  const std::string& item = std::get<std::string>(call.children[5]->literal);
  const bool subtract = call.negated;
  const int64_t delta = subtract ? -c : c;
  Block out(DataType::int64());
  out.reserve(counts.size());
  for (size_t g = 0; g < counts.size(); ++g) {
    if (counts[g] == 0) {
      out.appendNull();
      continue;
    }
    // e + c fits in int32 on every row exactly when it does on the least and the greatest e.
    for (const int64_t e : {int64_t{mins[g]}, int64_t{maxs[g]}}) {
      const int64_t v = e + delta;
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        // Evaluated per row, e + c would be null there (with a warning) and left out
        // of the sum; SUM(e) + c * COUNT(e) cannot leave it out.
        throw InvalidArgument(
            std::string("Overflow in ") + (subtract ? "subtraction" : "addition") + " of int32 (" +
            std::to_string(e) + (subtract ? " - " : " + ") + std::to_string(c) + ") in [" + item +
            "]: a row's value overflows integer; convert the column " +
            "first, e.g. SUM(TO_LONG(x) " + (subtract ? "- " : "+ ") + std::to_string(c) + ")");
      }
    }
    const Int128 total = Int128{sums.values<int64_t>()[g]} + Int128{delta} * counts[g];
    if (total < std::numeric_limits<int64_t>::min() || total > std::numeric_limits<int64_t>::max()) {
      throw InvalidArgument("Overflow in SUM (" + item + "): the sum does not fit in int64");
    }
    out.append<int64_t>(static_cast<int64_t>(total));
  }
  return out;
}

Block evaluateCall(const BoundExpr& call, const CallArgs& args, size_t n) {
  const std::string& name = call.name;
  const DataType& type = call.type;
  if (isMvFunction(name)) return evaluateMvFunction(call, args, n);
  if (isMathFunction(name)) return evaluateMathFunction(call, args, n);
  if (isStringFunction(name)) return evaluateStringFunction(call, args, n);
  if (isIpFunction(name)) return evaluateIpFunction(call, args, n);
  if (isConversionFunction(name)) return evaluateConversionFunction(call, args, n);
  if (name == "$sum_offset") return sumOffsetBlock(call, args);
  if (name == kSingleValueFunction) return singleValues(args[0]);
  if (type.kind == TypeKind::kNull) return Block::nulls(type, n);
  if (name == "coalesce") {
    std::vector<Block> cast;
    cast.reserve(args.size());
    for (const Block& a : args) cast.push_back(castBlock(a, type));
    Block out(type);
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      size_t k = 0;
      while (k + 1 < cast.size() && cast[k].isNull(i)) ++k;
      out.appendFrom(cast[k], i);
    }
    return out;
  }
  for (const Block& a : args) {
    if (a.type().kind == TypeKind::kNull) return Block::nulls(type, n);
  }
  if (isTemporalFunction(name)) return evaluateTemporalFunction(call, args, n);
  if (name == "abs") return absBlock(args[0], type);
  if (name == "round") return roundBlock(call, args[0]);
  if (name == "length") return lengthBlock(args[0], type);
  if (name == "starts_with") {
    std::vector<uint8_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = args[0].bytes(i).starts_with(args[1].bytes(i));
    return booleanBlock(std::move(out), andValidity(args[0], args[1]));
  }
  // String results.
  Block out(type);
  out.reserve(n);
  std::string scratch;
  for (size_t i = 0; i < n; ++i) {
    if (anyNull(args, i)) {
      out.appendNull();
      continue;
    }
    const std::string_view s = args[0].bytes(i);
    if (name == "to_lower" || name == "to_upper") {
      changeCase(s, name == "to_upper", scratch);
      out.appendBytes(scratch);
    } else if (name == "replace") {
      call.regexReplacer->replace(s, scratch);
      out.appendBytes(scratch);
    } else {  // substring
      std::optional<int64_t> length;
      if (args.size() == 3) {
        length = integerAt(args[2], i);
        if (*length < 0) {
          throw InvalidArgument("substring: negative length " + std::to_string(*length));
        }
      }
      out.appendBytes(substring(s, integerAt(args[1], i), length));
    }
  }
  return out;
}

}  // namespace quarry::engine
