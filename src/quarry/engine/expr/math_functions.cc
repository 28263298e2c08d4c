#include "quarry/engine/expr/math_functions.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {
namespace {

enum class MathOp : uint8_t {
  kPow, kSqrt, kCbrt, kExp, kLog10, kLog, kFloor, kCeil, kSignum, kPi, kE, kTau,
  kSin, kCos, kTan, kAsin, kAcos, kAtan, kAtan2, kSinh, kCosh, kTanh, kGreatest, kLeast,
};

struct MathFunction {
  std::string_view name;
  MathOp op;
  size_t minArgs;
  size_t maxArgs;
  std::string_view usage;  // for hints
};

constexpr size_t kAnyCount = std::numeric_limits<size_t>::max();

constexpr std::array<MathFunction, 24> kMathFunctions = {{
    {"pow", MathOp::kPow, 2, 2, "pow(base, exponent)"},
    {"sqrt", MathOp::kSqrt, 1, 1, "sqrt(number)"},
    {"cbrt", MathOp::kCbrt, 1, 1, "cbrt(number)"},
    {"exp", MathOp::kExp, 1, 1, "exp(number)"},
    {"log10", MathOp::kLog10, 1, 1, "log10(number)"},
    {"log", MathOp::kLog, 1, 2, "log([base, ]number)"},
    {"floor", MathOp::kFloor, 1, 1, "floor(number)"},
    {"ceil", MathOp::kCeil, 1, 1, "ceil(number)"},
    {"signum", MathOp::kSignum, 1, 1, "signum(number)"},
    {"pi", MathOp::kPi, 0, 0, "pi()"},
    {"e", MathOp::kE, 0, 0, "e()"},
    {"tau", MathOp::kTau, 0, 0, "tau()"},
    {"sin", MathOp::kSin, 1, 1, "sin(angle)"},
    {"cos", MathOp::kCos, 1, 1, "cos(angle)"},
    {"tan", MathOp::kTan, 1, 1, "tan(angle)"},
    {"asin", MathOp::kAsin, 1, 1, "asin(number)"},
    {"acos", MathOp::kAcos, 1, 1, "acos(number)"},
    {"atan", MathOp::kAtan, 1, 1, "atan(number)"},
    {"atan2", MathOp::kAtan2, 2, 2, "atan2(y, x)"},
    {"sinh", MathOp::kSinh, 1, 1, "sinh(number)"},
    {"cosh", MathOp::kCosh, 1, 1, "cosh(number)"},
    {"tanh", MathOp::kTanh, 1, 1, "tanh(number)"},
    {"greatest", MathOp::kGreatest, 1, kAnyCount, "greatest(a, b, ...)"},
    {"least", MathOp::kLeast, 1, kAnyCount, "least(a, b, ...)"},
}};

const MathFunction* findMath(const std::string& name) {
  for (const MathFunction& f : kMathFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const MathFunction& mathFunction(const BoundExpr& call) {
  const MathFunction* f = findMath(call.name);
  if (f == nullptr) throw std::logic_error("math_functions: unknown function " + call.name);
  return *f;
}

std::string arityText(const MathFunction& f) {
  if (f.maxArgs == kAnyCount) return "at least " + std::to_string(f.minArgs);
  if (f.minArgs == f.maxArgs) return std::to_string(f.minArgs);
  return std::to_string(f.minArgs) + " to " + std::to_string(f.maxArgs);
}

/// The kinds greatest and least order (comparison_kernel's order).
bool isOrderable(const DataType& t) {
  switch (t.kind) {
    case TypeKind::kNull:
    case TypeKind::kBoolean:
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kDate:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
      return true;
    default:
      return t.isNumeric();
  }
}

DataType bindExtreme(const BoundExpr& call, int line, int column) {
  DataType type = DataType::null();
  for (size_t k = 0; k < call.children.size(); ++k) {
    const BoundExpr& arg = *call.children[k];
    if (!isOrderable(arg.type)) {
      failCall(call,
           "argument " + std::to_string(k + 1) + " (" + arg.toString() + ") has type " + arg.type.toString() +
               ", which has no order",
           "pass numbers, strings, booleans, dates or timestamps", line, column);
    }
    const std::optional<DataType> joined = commonSuperType(type, arg.type);
    if (!joined) {
      failCall(call,
           "argument " + std::to_string(k + 1) + " (" + arg.toString() + ") of type " + arg.type.toString() +
               " does not mix with " + type.toString(),
           "give every argument the same kind of type", line, column);
    }
    type = *joined;
  }
  return type;
}

// ---- evaluation -----------------------------------------------------------------

Block constantBlock(double value, size_t n) {
  return Block::fromValues(DataType::float64(), std::vector<double>(n, value));
}

/// f(x) per position of a double block; null where x is null or !defined(x, f(x)).
template <typename Apply, typename Defined>
Block mapDoubles(const Block& in, Apply apply, Defined defined) {
  const std::span<const double> x = in.values<double>();
  const std::span<const uint8_t> inValid = in.validity();
  const size_t n = x.size();
  std::vector<double> out(n);
  std::vector<uint8_t> valid(n);
  for (size_t i = 0; i < n; ++i) {
    const double r = apply(x[i]);
    const bool ok = (inValid.empty() || inValid[i] != 0) && defined(x[i], r);
    out[i] = ok ? r : 0.0;
    valid[i] = ok;
  }
  return Block::fromValues(DataType::float64(), std::move(out), std::move(valid));
}

/// f(a, b) per position of two double blocks; null where either is null or !defined(a, b, f(a, b)).
template <typename Apply, typename Defined>
Block mapDoublePairs(const Block& left, const Block& right, Apply apply, Defined defined) {
  const std::span<const double> a = left.values<double>();
  const std::span<const double> b = right.values<double>();
  const std::vector<uint8_t> inValid = andValidity(left, right);
  const size_t n = a.size();
  std::vector<double> out(n);
  std::vector<uint8_t> valid(n);
  for (size_t i = 0; i < n; ++i) {
    const double r = apply(a[i], b[i]);
    const bool ok = (inValid.empty() || inValid[i] != 0) && defined(a[i], b[i], r);
    out[i] = ok ? r : 0.0;
    valid[i] = ok;
  }
  return Block::fromValues(DataType::float64(), std::move(out), std::move(valid));
}

constexpr auto kAlways = [](double, double) { return true; };
constexpr auto kFinite = [](double, double r) { return std::isfinite(r); };

Block unaryDouble(MathOp op, const Block& x) {
  switch (op) {
    case MathOp::kSqrt:
      return mapDoubles(x, [](double v) { return std::sqrt(v); },
                        [](double v, double) { return !(v < 0) && v != std::numeric_limits<double>::infinity(); });
    case MathOp::kCbrt:
      return mapDoubles(x, [](double v) { return std::cbrt(v); }, kAlways);
    case MathOp::kExp:
      return mapDoubles(x, [](double v) { return std::exp(v); }, kAlways);
    case MathOp::kLog10:
      return mapDoubles(x, [](double v) { return std::log10(v); }, [](double v, double) { return !(v <= 0); });
    case MathOp::kLog:
      return mapDoubles(x, [](double v) { return std::log(v); }, [](double v, double) { return !(v <= 0); });
    case MathOp::kSignum:
      // Java's Math.signum, which ES|QL calls: a zero (of either sign) and NaN are themselves.
      return mapDoubles(x, [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : v); }, kAlways);
    case MathOp::kSin:
      return mapDoubles(x, [](double v) { return std::sin(v); }, kAlways);
    case MathOp::kCos:
      return mapDoubles(x, [](double v) { return std::cos(v); }, kAlways);
    case MathOp::kTan:
      return mapDoubles(x, [](double v) { return std::tan(v); }, kAlways);
    case MathOp::kAsin:
      return mapDoubles(x, [](double v) { return std::asin(v); },
                        [](double v, double) { return !(std::fabs(v) > 1); });
    case MathOp::kAcos:
      return mapDoubles(x, [](double v) { return std::acos(v); },
                        [](double v, double) { return !(std::fabs(v) > 1); });
    case MathOp::kAtan:
      return mapDoubles(x, [](double v) { return std::atan(v); }, kAlways);
    case MathOp::kSinh:
      return mapDoubles(x, [](double v) { return std::sinh(v); }, kFinite);
    case MathOp::kCosh:
      return mapDoubles(x, [](double v) { return std::cosh(v); }, kFinite);
    case MathOp::kTanh:
      return mapDoubles(x, [](double v) { return std::tanh(v); }, kAlways);
    default:
      throw std::logic_error("unaryDouble: not a one-argument double function");
  }
}

Block binaryDouble(MathOp op, const Block& a, const Block& b) {
  switch (op) {
    case MathOp::kPow:
      return mapDoublePairs(a, b, [](double x, double y) { return std::pow(x, y); },
                            [](double, double, double r) { return std::isfinite(r); });
    case MathOp::kAtan2:
      return mapDoublePairs(a, b, [](double y, double x) { return std::atan2(y, x); },
                            [](double, double, double) { return true; });
    case MathOp::kLog:
      // ES|QL's (and DuckDB's) log10(x) / log10(base), which ln(x) / ln(base) is not bit for bit.
      return mapDoublePairs(a, b, [](double base, double x) { return std::log10(x) / std::log10(base); },
                            [](double base, double x, double) { return !(base <= 0) && base != 1 && !(x <= 0); });
    default:
      throw std::logic_error("binaryDouble: not a two-argument double function");
  }
}

/// floor or ceil of a numeric block into `type` (integers unchanged, decimals to scale 0).
Block roundToInteger(const Block& in, const DataType& type, bool floor) {
  const std::vector<uint8_t> validity(in.validity().begin(), in.validity().end());
  if (in.type().kind == TypeKind::kDouble) {
    const std::span<const double> v = in.values<double>();
    std::vector<double> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = floor ? std::floor(v[i]) : std::ceil(v[i]);
    return Block::fromValues(type, std::move(out), validity);
  }
  if (in.type().kind != TypeKind::kDecimal || in.type().scale == 0) {
    Block out = in;
    return out;
  }
  const Int128 unit = pow10Int128(in.type().scale);
  const std::span<const Int128> v = in.values<Int128>();
  std::vector<Int128> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    // Division truncates toward zero: a negative remainder means floor is one lower,
    // a positive one that ceil is one higher.
    const Int128 q = v[i] / unit;
    const Int128 r = v[i] % unit;
    out[i] = floor ? (r < 0 ? q - 1 : q) : (r > 0 ? q + 1 : q);
  }
  return Block::fromValues(type, std::move(out), validity);
}

/// Engine order for greatest/least: NaN above every double (comparison_kernel's).
template <typename T>
bool greaterThan(T a, T b) {
  if constexpr (std::is_same_v<T, double>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && !std::isnan(b);
  }
  return a > b;
}

/// greatest (or least) of `args`, each converted to `type`; null where any is null.
Block extremeBlock(const CallArgs& args, const DataType& type, bool greatest, size_t n) {
  std::vector<Block> storage(args.size());
  std::vector<const Block*> values;
  std::vector<uint8_t> valid(n, 1);
  bool anyNull = false;
  for (size_t k = 0; k < args.size(); ++k) {
    values.push_back(&castedView(args[k], type, storage[k]));
    const std::span<const uint8_t> v = values.back()->validity();
    if (v.empty()) continue;
    anyNull = true;
    for (size_t i = 0; i < n; ++i) valid[i] &= v[i];
  }
  if (!anyNull) valid.clear();
  if (type.isBytes()) {
    Block out(type);
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      if (!valid.empty() && valid[i] == 0) {
        out.appendNull();
        continue;
      }
      size_t best = 0;
      for (size_t k = 1; k < values.size(); ++k) {
        const std::string_view candidate = values[k]->bytes(i);
        const std::string_view current = values[best]->bytes(i);
        if (greatest ? candidate > current : candidate < current) best = k;
      }
      out.appendBytes(values[best]->bytes(i));
    }
    return out;
  }
  Block result;
  const bool fixed = withFixedStorage(type.kind, [&](auto zero) {
    using T = decltype(zero);
    const std::span<const T> first = values[0]->values<T>();
    std::vector<T> out(first.begin(), first.end());
    for (size_t k = 1; k < values.size(); ++k) {
      const std::span<const T> v = values[k]->values<T>();
      // Strictly better only: of equal values (-0.0 and 0.0 too) the first stays, as DuckDB's.
      if (greatest) {
        for (size_t i = 0; i < n; ++i) out[i] = greaterThan(v[i], out[i]) ? v[i] : out[i];
      } else {
        for (size_t i = 0; i < n; ++i) out[i] = greaterThan(out[i], v[i]) ? v[i] : out[i];
      }
    }
    for (size_t i = 0; i < valid.size(); ++i) {
      if (valid[i] == 0) out[i] = T{};
    }
    result = Block::fromValues(type, std::move(out), valid);
  });
  if (!fixed) throw std::logic_error("greatest/least: unordered type " + type.toString());
  return result;
}

}  // namespace

bool isMathFunction(const std::string& name) {
  return findMath(name) != nullptr;
}

DataType bindMathFunction(const BoundExpr& call, int line, int column) {
  const MathFunction& f = mathFunction(call);
  const std::vector<BoundExprPtr>& args = call.children;
  if (args.size() < f.minArgs || args.size() > f.maxArgs) {
    failCall(call, "expected " + arityText(f) + " argument" + (f.maxArgs == 1 ? "" : "s") + ", got " +
                   std::to_string(args.size()),
         "call it as " + std::string(f.usage), line, column);
  }
  if (f.op == MathOp::kGreatest || f.op == MathOp::kLeast) return bindExtreme(call, line, column);
  for (size_t k = 0; k < args.size(); ++k) {
    const DataType& t = args[k]->type;
    if (!t.isNumeric() && t.kind != TypeKind::kNull) {
      failCall(call,
           "argument " + std::to_string(k + 1) + " (" + args[k]->toString() + ") must be a number, got " +
               t.toString(),
           "call it as " + std::string(f.usage) + " with a number", line, column);
    }
  }
  if (f.op == MathOp::kFloor || f.op == MathOp::kCeil) {
    const DataType& t = args[0]->type;
    return t.kind == TypeKind::kDecimal ? DataType::decimal(t.precision, 0) : t;
  }
  return DataType::float64();
}

Block evaluateMathFunction(const BoundExpr& call, const CallArgs& args, size_t n) {
  const MathFunction& f = mathFunction(call);
  switch (f.op) {
    case MathOp::kPi:
      return constantBlock(std::numbers::pi, n);
    case MathOp::kE:
      return constantBlock(std::numbers::e, n);
    case MathOp::kTau:
      return constantBlock(2 * std::numbers::pi, n);
    default:
      break;
  }
  if (call.type.kind == TypeKind::kNull) return Block::nulls(call.type, n);
  switch (f.op) {
    case MathOp::kGreatest:
    case MathOp::kLeast:
      return extremeBlock(args, call.type, f.op == MathOp::kGreatest, n);
    case MathOp::kFloor:
    case MathOp::kCeil: {
      if (args[0].type().kind == TypeKind::kNull) return Block::nulls(call.type, n);
      return roundToInteger(args[0], call.type, f.op == MathOp::kFloor);
    }
    default:
      break;
  }
  Block storage0;
  Block storage1;
  const Block& a = castedView(args[0], DataType::float64(), storage0);
  if (args.size() == 1) return unaryDouble(f.op, a);
  const Block& b = castedView(args[1], DataType::float64(), storage1);
  return binaryDouble(f.op, a, b);
}

}  // namespace quarry::engine
