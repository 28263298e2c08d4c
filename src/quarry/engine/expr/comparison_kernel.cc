#include <cmath>
#include <stdexcept>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

namespace {

/// Three-way comparison of doubles in the engine's order: NaN above everything
/// and equal to itself; -0.0 equal to 0.0.
inline int compareDoubles(double a, double b) {
  const bool aNan = std::isnan(a);
  const bool bNan = std::isnan(b);
  if (aNan || bNan) return static_cast<int>(aNan) - static_cast<int>(bNan);
  return (a > b) - (a < b);
}

/// Exact three-way comparison of an integer with a double (no rounding of the integer).
inline int compareIntegerDouble(Int128 i, double d) {
  if (std::isnan(d)) return -1;
  if (d >= 1.0e38) return -1;  // beyond every int64/uint64
  if (d <= -1.0e38) return 1;
  const double whole = std::trunc(d);
  const auto t = static_cast<Int128>(whole);
  if (i != t) return i < t ? -1 : 1;
  const double fraction = d - whole;
  return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0);
}

template <typename T>
inline int threeWay(T a, T b) {
  return (a > b) - (a < b);
}

/// Writes op(cmp(l[i], r[i])) for every position; the switch is outside the loop.
template <typename L, typename R, typename Cmp>
void compareLoop(BinaryOp op, std::span<const L> l, std::span<const R> r, uint8_t* out, Cmp cmp) {
  const size_t n = l.size();
  switch (op) {
    case BinaryOp::kEq:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) == 0;
      return;
    case BinaryOp::kNe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) != 0;
      return;
    case BinaryOp::kLt:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) < 0;
      return;
    case BinaryOp::kLe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) <= 0;
      return;
    case BinaryOp::kGt:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) > 0;
      return;
    case BinaryOp::kGe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], r[i]) >= 0;
      return;
    default:
      throw std::logic_error("compareBlocks: not a comparison");
  }
}

/// An integer block's values as Int128.
std::vector<Int128> integersAsInt128(const Block& b) {
  std::vector<Int128> out(b.size());
  switch (b.type().kind) {
    case TypeKind::kInt32: {
      auto v = b.values<int32_t>();
      for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
      break;
    }
    case TypeKind::kInt64: {
      auto v = b.values<int64_t>();
      for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
      break;
    }
    case TypeKind::kUInt64: {
      auto v = b.values<uint64_t>();
      for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
      break;
    }
    case TypeKind::kDecimal: {
      auto v = b.values<Int128>();
      out.assign(v.begin(), v.end());
      break;
    }
    default:
      throw std::logic_error("integersAsInt128: " + b.type().toString());
  }
  return out;
}

/// An exact number's unscaled values at `scale` (>= its own). A value too large
/// for Int128 once scaled saturates: the other side has at most 38 digits at
/// its own scale, so the saturated value still compares right.
std::vector<Int128> exactAtScale(const Block& b, int32_t scale) {
  std::vector<Int128> out = integersAsInt128(b);
  const int by = scale - (b.type().kind == TypeKind::kDecimal ? b.type().scale : 0);
  if (by > 0) {
    constexpr Int128 kMax = ~(static_cast<Int128>(1) << 127);
    for (Int128& v : out) {
      const std::optional<Int128> scaled = scaleUp(v, by);
      v = scaled ? *scaled : (v < 0 ? -kMax : kMax);
    }
  }
  return out;
}

/// A date, timestamp or time block as Int128 nanoseconds (exact, no overflow).
std::vector<Int128> instantNanos(const Block& b) {
  std::vector<Int128> out(b.size());
  if (b.type().kind == TypeKind::kDate) {
    auto v = b.values<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<Int128>(v[i]) * 86'400'000'000'000LL;
    return out;
  }
  const int64_t factor = 1'000'000'000 / unitsPerSecond(b.type().unit);
  auto v = b.values<int64_t>();
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<Int128>(v[i]) * factor;
  return out;
}

/// Writes op(cmp(l[i], c)) for every position.
template <typename T, typename Cmp>
void compareConstantLoop(BinaryOp op, std::span<const T> l, T c, uint8_t* out, Cmp cmp) {
  const size_t n = l.size();
  switch (op) {
    case BinaryOp::kEq:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) == 0;
      return;
    case BinaryOp::kNe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) != 0;
      return;
    case BinaryOp::kLt:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) < 0;
      return;
    case BinaryOp::kLe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) <= 0;
      return;
    case BinaryOp::kGt:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) > 0;
      return;
    case BinaryOp::kGe:
      for (size_t i = 0; i < n; ++i) out[i] = cmp(l[i], c) >= 0;
      return;
    default:
      throw std::logic_error("compareWithConstant: not a comparison");
  }
}

/// Whether every value of `from` converts to `to` without loss (castBlock may
/// still refuse one that does not fit a decimal's precision).
bool widensExactly(const DataType& from, const DataType& to) {
  if (from == to) return true;
  switch (to.kind) {
    case TypeKind::kInt64:
      return from.kind == TypeKind::kInt32;
    case TypeKind::kDecimal:
      return isIntegerKind(from.kind) ||
             (from.kind == TypeKind::kDecimal && from.scale <= to.scale);
    case TypeKind::kDouble:
      // Integers are checked value by value; a decimal compares with a double as a double anyway.
      return from.kind == TypeKind::kInt32 || from.kind == TypeKind::kInt64 ||
             from.kind == TypeKind::kDecimal;
    case TypeKind::kTimestamp:
      return from.kind == TypeKind::kDate ||
             (from.kind == TypeKind::kTimestamp && from.utcAdjusted == to.utcAdjusted &&
              unitsPerSecond(from.unit) <= unitsPerSecond(to.unit));
    default:
      return false;
  }
}

bool isInstant(TypeKind k) {
  return k == TypeKind::kDate || k == TypeKind::kTimestamp || k == TypeKind::kTime;
}

}  // namespace

std::vector<uint8_t> andValidity(const Block& a, const Block& b) {
  if (!a.hasNulls() && !b.hasNulls()) return {};
  const size_t n = a.size();
  std::vector<uint8_t> out(n, 1);
  if (a.hasNulls()) {
    auto v = a.validity();
    for (size_t i = 0; i < n; ++i) out[i] &= v[i];
  }
  if (b.hasNulls()) {
    auto v = b.validity();
    for (size_t i = 0; i < n; ++i) out[i] &= v[i];
  }
  return out;
}

Block booleanBlock(std::vector<uint8_t> values, std::vector<uint8_t> validity) {
  if (!validity.empty()) {
    for (size_t i = 0; i < values.size(); ++i) values[i] &= validity[i];
  }
  return Block::fromValues(DataType::boolean(), std::move(values), std::move(validity));
}

Block compareBlocks(BinaryOp op, const Block& left, const Block& right) {
  const size_t n = left.size();
  const TypeKind lk = left.type().kind;
  const TypeKind rk = right.type().kind;
  if (lk == TypeKind::kNull || rk == TypeKind::kNull) return Block::nulls(DataType::boolean(), n);
  std::vector<uint8_t> out(n);
  const auto span = [](const std::vector<Int128>& v) { return std::span<const Int128>(v); };

  if (lk == TypeKind::kDouble || rk == TypeKind::kDouble) {
    const bool lInt = isIntegerKind(lk);
    const bool rInt = isIntegerKind(rk);
    if (lInt || rInt) {
      // Exact: an int64 past 2^53 is not rounded to the double it is compared with.
      const std::vector<Int128> ints = integersAsInt128(lInt ? left : right);
      const std::span<const double> doubles = (lInt ? right : left).values<double>();
      if (lInt) {
        compareLoop(op, span(ints), doubles, out.data(), compareIntegerDouble);
      } else {
        compareLoop(op, doubles, span(ints), out.data(),
                    [](double d, Int128 i) { return -compareIntegerDouble(i, d); });
      }
    } else {
      Block ls;
      Block rs;
      const Block& l = castedView(left, DataType::float64(), ls);
      const Block& r = castedView(right, DataType::float64(), rs);
      compareLoop(op, l.values<double>(), r.values<double>(), out.data(), compareDoubles);
    }
  } else if (left.type().isNumeric() && right.type().isNumeric()) {
    const bool narrow = (lk == TypeKind::kInt32 || lk == TypeKind::kInt64) &&
                        (rk == TypeKind::kInt32 || rk == TypeKind::kInt64);
    if (lk == TypeKind::kInt32 && rk == TypeKind::kInt32) {
      compareLoop(op, left.values<int32_t>(), right.values<int32_t>(), out.data(),
                  threeWay<int32_t>);
    } else if (lk == TypeKind::kDecimal && rk == TypeKind::kDecimal &&
               left.type().scale == right.type().scale) {
      compareLoop(op, left.values<Int128>(), right.values<Int128>(), out.data(), threeWay<Int128>);
    } else if (narrow) {
      Block ls;
      Block rs;
      const Block& l = castedView(left, DataType::int64(), ls);
      const Block& r = castedView(right, DataType::int64(), rs);
      compareLoop(op, l.values<int64_t>(), r.values<int64_t>(), out.data(), threeWay<int64_t>);
    } else if (lk == TypeKind::kUInt64 && rk == TypeKind::kUInt64) {
      compareLoop(op, left.values<uint64_t>(), right.values<uint64_t>(), out.data(),
                  threeWay<uint64_t>);
    } else {
      const int32_t scale = std::max(lk == TypeKind::kDecimal ? left.type().scale : 0,
                                     rk == TypeKind::kDecimal ? right.type().scale : 0);
      const std::vector<Int128> l = exactAtScale(left, scale);
      const std::vector<Int128> r = exactAtScale(right, scale);
      compareLoop(op, span(l), span(r), out.data(), threeWay<Int128>);
    }
  } else if (lk == TypeKind::kBoolean && rk == TypeKind::kBoolean) {
    compareLoop(op, left.values<uint8_t>(), right.values<uint8_t>(), out.data(), threeWay<uint8_t>);
  } else if (lk == TypeKind::kDate && rk == TypeKind::kDate) {
    compareLoop(op, left.values<int32_t>(), right.values<int32_t>(), out.data(), threeWay<int32_t>);
  } else if (lk != TypeKind::kDate && lk == rk && isInstant(lk) &&
             left.type().unit == right.type().unit) {
    compareLoop(op, left.values<int64_t>(), right.values<int64_t>(), out.data(), threeWay<int64_t>);
  } else if (isInstant(lk) && isInstant(rk)) {
    const std::vector<Int128> l = instantNanos(left);
    const std::vector<Int128> r = instantNanos(right);
    compareLoop(op, span(l), span(r), out.data(), threeWay<Int128>);
  } else if (left.type().isBytes() && right.type().isBytes()) {
    std::vector<std::string_view> l(n);
    std::vector<std::string_view> r(n);
    for (size_t i = 0; i < n; ++i) {
      l[i] = left.bytes(i);
      r[i] = right.bytes(i);
    }
    // char_traits<char>::compare orders bytes as unsigned char.
    compareLoop(op, std::span<const std::string_view>(l), std::span<const std::string_view>(r),
                out.data(), [](std::string_view a, std::string_view b) { return a.compare(b); });
  } else {
    throw std::logic_error("compareBlocks: " + left.type().toString() + " with " +
                           right.type().toString());
  }
  return booleanBlock(std::move(out), andValidity(left, right));
}

}  // namespace quarry::engine

namespace quarry::engine {

BinaryOp flipComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLt:
      return BinaryOp::kGt;
    case BinaryOp::kLe:
      return BinaryOp::kGe;
    case BinaryOp::kGt:
      return BinaryOp::kLt;
    case BinaryOp::kGe:
      return BinaryOp::kLe;
    default:
      return op;
  }
}

std::optional<Block> compareWithConstant(BinaryOp op, const Block& column, const Scalar& value,
                                         const DataType& valueType) {
  const size_t n = column.size();
  if (std::holds_alternative<std::monostate>(value) || column.type().kind == TypeKind::kNull) {
    return Block::nulls(DataType::boolean(), n);
  }
  const DataType& to = column.type();
  if (!widensExactly(valueType, to)) return std::nullopt;
  Block one(valueType);
  one.appendScalar(value);
  Block converted;
  try {
    converted = castBlock(one, to);
  } catch (const InvalidArgument&) {
    return std::nullopt;  // does not fit the column's type: the general path compares exactly
  }
  std::vector<uint8_t> out(n);
  switch (to.kind) {
    case TypeKind::kBoolean:
      compareConstantLoop(op, column.values<uint8_t>(), converted.values<uint8_t>()[0], out.data(),
                          threeWay<uint8_t>);
      break;
    case TypeKind::kInt32:
    case TypeKind::kDate:
      compareConstantLoop(op, column.values<int32_t>(), converted.values<int32_t>()[0], out.data(),
                          threeWay<int32_t>);
      break;
    case TypeKind::kInt64:
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      compareConstantLoop(op, column.values<int64_t>(), converted.values<int64_t>()[0], out.data(),
                          threeWay<int64_t>);
      break;
    case TypeKind::kUInt64:
      compareConstantLoop(op, column.values<uint64_t>(), converted.values<uint64_t>()[0],
                          out.data(), threeWay<uint64_t>);
      break;
    case TypeKind::kDecimal:
      compareConstantLoop(op, column.values<Int128>(), converted.values<Int128>()[0], out.data(),
                          threeWay<Int128>);
      break;
    case TypeKind::kDouble: {
      const double c = converted.values<double>()[0];
      if (isIntegerKind(valueType.kind) && compareIntegerDouble(integersAsInt128(one)[0], c) != 0) {
        return std::nullopt;  // the integer is not exactly a double
      }
      compareConstantLoop(op, column.values<double>(), c, out.data(), compareDoubles);
      break;
    }
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kUuid: {
      const std::string& c = std::get<std::string>(value);
      const std::string_view cv(c);
      for (size_t i = 0; i < n; ++i) {
        const int r = column.bytes(i).compare(cv);
        switch (op) {
          case BinaryOp::kEq:
            out[i] = r == 0;
            break;
          case BinaryOp::kNe:
            out[i] = r != 0;
            break;
          case BinaryOp::kLt:
            out[i] = r < 0;
            break;
          case BinaryOp::kLe:
            out[i] = r <= 0;
            break;
          case BinaryOp::kGt:
            out[i] = r > 0;
            break;
          default:
            out[i] = r >= 0;
            break;
        }
      }
      break;
    }
    default:
      return std::nullopt;
  }
  return booleanBlock(std::move(out),
                      std::vector<uint8_t>(column.validity().begin(), column.validity().end()));
}

}  // namespace quarry::engine
