#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "quarry/common/error.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"

/// Arithmetic over blocks. Each side is read through an accessor: a block's
/// values, one constant (a literal converted once, never broadcast), a decimal's
/// unscaled values as int64, or a decimal's values as doubles (so a decimal
/// joins a double without a converted copy). The operator is a template
/// argument: one dispatch per block, then a plain loop.
///
/// Decimals compute in int64 when every unscaled value and result fits (checked
/// per value: a file's values may exceed the declared precision). When one does
/// not, the block is computed again in Int128, the only path that decides
/// overflows (null), so results do not depend on the fast path.
/// Example: decimal(15,2) l_discount in `1 - l_discount` is 100 - unscaled in
/// int64, limit 10^16; 99999999999999999 - 1 would not fit and goes to Int128.
namespace quarry::engine {

namespace {

/// One side of an operation: a block, or a constant standing for every position.
struct Operand {
  const Block* block = nullptr;  // null for a constant
  Scalar constant;               // a constant's value (storage type of `type`, not null)
  DataType type;

  static Operand of(const Block& b) { return Operand{&b, {}, b.type()}; }
  bool isConstant() const { return block == nullptr; }
  bool isNull(size_t i) const { return block != nullptr && block->isNull(i); }
  template <typename T>
  T at(size_t i) const {
    return block ? block->values<T>()[i] : std::get<T>(constant);
  }
};

/// `side` converted to `to` by castBlock's rules; `storage` keeps a converted
/// block. nullopt when a constant does not convert (the caller then takes the
/// general path, which raises the error a broadcast constant raises).
std::optional<Operand> convert(const Operand& side, const DataType& to, Block& storage) {
  if (side.type == to) return side;
  if (!side.isConstant()) return Operand::of(castedView(*side.block, to, storage));
  Block one(side.type);
  one.appendScalar(side.constant);
  try {
    const Block converted = castBlock(one, to);
    return Operand{nullptr, converted.scalarAt(0), to};
  } catch (const InvalidArgument&) {
    return std::nullopt;
  }
}

/// The validity of positions valid on both sides (empty when neither has nulls).
std::vector<uint8_t> validityOf(const Operand& l, const Operand& r) {
  if (l.isConstant() || r.isConstant()) {
    const std::span<const uint8_t> v = (l.isConstant() ? r : l).block->validity();
    return std::vector<uint8_t>(v.begin(), v.end());
  }
  return andValidity(*l.block, *r.block);
}

template <typename T>
struct ValuesAt {
  const T* data;
  T operator[](size_t i) const { return data[i]; }
  bool fits(size_t) const { return true; }
};

template <typename T>
struct ConstantAt {
  T value;
  T operator[](size_t) const { return value; }
  bool fits(size_t) const { return true; }
};

/// A decimal block's unscaled values as int64; fits(i) says whether value i is one.
struct Int64At {
  const Int128* data;
  int64_t operator[](size_t i) const { return static_cast<int64_t>(data[i]); }
  bool fits(size_t i) const {
    return static_cast<Int128>(static_cast<int64_t>(data[i])) == data[i];
  }
};

/// A decimal block's values as the nearest doubles.
struct DecimalAsDoubleAt {
  const Int128* data;
  int32_t scale;
  double operator[](size_t i) const { return decimalToDouble(data[i], scale); }
};

/// Calls f(a, b) with accessors of type T over the two sides (at most one constant).
template <typename T, typename F>
decltype(auto) withAccessors(const Operand& l, const Operand& r, F&& f) {
  if (l.isConstant()) {
    return f(ConstantAt<T>{std::get<T>(l.constant)}, ValuesAt<T>{r.block->values<T>().data()});
  }
  if (r.isConstant()) {
    return f(ValuesAt<T>{l.block->values<T>().data()}, ConstantAt<T>{std::get<T>(r.constant)});
  }
  return f(ValuesAt<T>{l.block->values<T>().data()}, ValuesAt<T>{r.block->values<T>().data()});
}

/// One step of integer arithmetic: writes the result, returns false on overflow,
/// clears `valid` on division by zero.
template <BinaryOp kOp, typename T>
inline bool integerStep(T a, T b, T& out, uint8_t& valid) {
  if constexpr (kOp == BinaryOp::kAdd) {
    return !__builtin_add_overflow(a, b, &out);
  } else if constexpr (kOp == BinaryOp::kSubtract) {
    return !__builtin_sub_overflow(a, b, &out);
  } else if constexpr (kOp == BinaryOp::kMultiply) {
    return !__builtin_mul_overflow(a, b, &out);
  } else {
    if (b == 0) {
      out = 0;
      valid = 0;
      return true;
    }
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) {  // MIN / -1 overflows; MIN % -1 is 0
        if constexpr (kOp == BinaryOp::kModulo) {
          out = 0;
          return true;
        } else {
          return !__builtin_sub_overflow(T{0}, a, &out);
        }
      }
    }
    out = kOp == BinaryOp::kDivide ? a / b : a % b;
    return true;
  }
}

template <typename T>
bool integerStepAt(BinaryOp op, T a, T b, T& out, uint8_t& valid) {
  switch (op) {
    case BinaryOp::kAdd:
      return integerStep<BinaryOp::kAdd>(a, b, out, valid);
    case BinaryOp::kSubtract:
      return integerStep<BinaryOp::kSubtract>(a, b, out, valid);
    case BinaryOp::kMultiply:
      return integerStep<BinaryOp::kMultiply>(a, b, out, valid);
    case BinaryOp::kDivide:
      return integerStep<BinaryOp::kDivide>(a, b, out, valid);
    case BinaryOp::kModulo:
      return integerStep<BinaryOp::kModulo>(a, b, out, valid);
    default:
      throw std::logic_error("arithmeticBlocks: not arithmetic");
  }
}

/// Computes kOp in T over every position into `out` (of type Out). Returns false
/// when a position overflowed (null ones included: the caller rechecks), a value
/// did not fit its accessor, or (kLimit) |result| >= limit. Division by zero
/// clears `valid` (all ones on entry for / and %).
template <BinaryOp kOp, typename T, bool kLimit, typename Out, typename A, typename B>
bool integerLoop(const A& a, const B& b, T limit, std::span<Out> out, std::span<uint8_t> valid) {
  constexpr bool kDivision = kOp == BinaryOp::kDivide || kOp == BinaryOp::kModulo;
  bool ok = true;
  uint8_t ignored = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    T result{};
    bool step = integerStep<kOp, T>(a[i], b[i], result, kDivision ? valid[i] : ignored);
    step &= a.fits(i) && b.fits(i);
    if constexpr (kLimit) step &= result < limit && result > -limit;
    out[i] = result;
    ok &= step;
  }
  return ok;
}

template <typename T, bool kLimit, typename Out, typename A, typename B>
bool integerLoopFor(BinaryOp op, const A& a, const B& b, T limit, std::span<Out> out,
                    std::span<uint8_t> valid) {
  switch (op) {
    case BinaryOp::kAdd:
      return integerLoop<BinaryOp::kAdd, T, kLimit>(a, b, limit, out, valid);
    case BinaryOp::kSubtract:
      return integerLoop<BinaryOp::kSubtract, T, kLimit>(a, b, limit, out, valid);
    case BinaryOp::kMultiply:
      return integerLoop<BinaryOp::kMultiply, T, kLimit>(a, b, limit, out, valid);
    case BinaryOp::kDivide:
      return integerLoop<BinaryOp::kDivide, T, kLimit>(a, b, limit, out, valid);
    case BinaryOp::kModulo:
      return integerLoop<BinaryOp::kModulo, T, kLimit>(a, b, limit, out, valid);
    default:
      throw std::logic_error("arithmeticBlocks: not arithmetic");
  }
}

/// Null positions hold zero (a Block's invariant).
template <typename T>
Block withNullsZeroed(const DataType& type, std::vector<T> out, std::vector<uint8_t> valid) {
  if (!valid.empty()) {
    for (size_t i = 0; i < out.size(); ++i) {
      if (!valid[i]) out[i] = 0;
    }
  }
  return Block::fromValues(type, std::move(out), std::move(valid));
}

bool isDivision(BinaryOp op) { return op == BinaryOp::kDivide || op == BinaryOp::kModulo; }

/// Integer arithmetic in T over sides already of type T (Int128: decimals at the
/// operation's scales, `limit` = 10^precision of the result). A position that
/// overflows is null, as one divided by zero is (ES|QL: "treating result as
/// null"; the evaluator reports it as a warning, call_failures.h).
template <typename T>
Block integerArithmetic(BinaryOp op, const Operand& l, const Operand& r, const DataType& type,
                        Int128 limit, size_t n) {
  std::vector<T> out(n);
  std::vector<uint8_t> valid = validityOf(l, r);
  if (isDivision(op) && valid.empty()) valid.assign(n, 1);
  const bool limited = std::is_same_v<T, Int128> && limit != 0;
  const bool ok = withAccessors<T>(l, r, [&](const auto& a, const auto& b) {
    if constexpr (std::is_same_v<T, Int128>) {
      if (limited) return integerLoopFor<T, true, T>(op, a, b, limit, out, valid);
    }
    return integerLoopFor<T, false, T>(op, a, b, T{}, out, valid);
  });
  if (!ok) {
    if (valid.empty()) valid.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      if (l.isNull(i) || r.isNull(i)) continue;
      T result{};
      uint8_t v = 1;
      bool step = integerStepAt<T>(op, l.at<T>(i), r.at<T>(i), result, v);
      if constexpr (std::is_same_v<T, Int128>) {
        if (limited) step &= result < limit && result > -limit;
      }
      if (!step) valid[i] = 0;
    }
  }
  return withNullsZeroed(type, std::move(out), std::move(valid));
}

/// Decimal arithmetic in int64 over Int128 sides at the operation's scales;
/// nullopt when a value or a result leaves int64 or reaches 10^precision.
std::optional<Block> decimalArithmeticInt64(BinaryOp op, const Operand& l, const Operand& r,
                                            const DataType& type, size_t n) {
  const auto narrow = [](const Operand& side) -> std::optional<int64_t> {
    const Int128 v = std::get<Int128>(side.constant);
    if (static_cast<Int128>(static_cast<int64_t>(v)) != v) return std::nullopt;
    return static_cast<int64_t>(v);
  };
  std::vector<Int128> out(n);
  std::vector<uint8_t> valid = validityOf(l, r);
  if (isDivision(op) && valid.empty()) valid.assign(n, 1);
  // Beyond 18 digits no int64 result reaches the limit: int64 overflow is the check.
  const int64_t limit = type.precision <= 18 ? static_cast<int64_t>(pow10Int128(type.precision))
                                             : std::numeric_limits<int64_t>::max();
  const auto run = [&](const auto& a, const auto& b) {
    return integerLoopFor<int64_t, true, Int128>(op, a, b, limit, std::span<Int128>(out), valid);
  };
  bool ok = false;
  if (l.isConstant()) {
    const std::optional<int64_t> c = narrow(l);
    if (!c) return std::nullopt;
    ok = run(ConstantAt<int64_t>{*c}, Int64At{r.block->values<Int128>().data()});
  } else if (r.isConstant()) {
    const std::optional<int64_t> c = narrow(r);
    if (!c) return std::nullopt;
    ok = run(Int64At{l.block->values<Int128>().data()}, ConstantAt<int64_t>{*c});
  } else {
    ok = run(Int64At{l.block->values<Int128>().data()}, Int64At{r.block->values<Int128>().data()});
  }
  if (!ok) {
    // Null positions hold zero and cannot fail, except by the constant: recheck
    // the valid ones before giving up the fast path.
    if (valid.empty()) return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
      if (l.isNull(i) || r.isNull(i)) continue;
      const Int128 a = l.at<Int128>(i);
      const Int128 b = r.at<Int128>(i);
      int64_t result = 0;
      uint8_t v = 1;
      if (static_cast<Int128>(static_cast<int64_t>(a)) != a ||
          static_cast<Int128>(static_cast<int64_t>(b)) != b ||
          !integerStepAt<int64_t>(op, static_cast<int64_t>(a), static_cast<int64_t>(b), result,
                                  v) ||
          result >= limit || result <= -limit) {
        return std::nullopt;
      }
    }
  }
  return withNullsZeroed(type, std::move(out), std::move(valid));
}

/// Whether the unscaled values of `type` at `scale` (>= its own) have at most 18
/// digits by declaration, so the int64 path is worth trying.
bool declaredWithin18Digits(const Operand& side, int32_t scale) {
  if (side.isConstant()) return true;  // decimalArithmeticInt64 checks the value itself
  const DataType d = asDecimal(side.type);
  return d.precision + (scale - d.scale) <= 18;
}

template <BinaryOp kOp, typename A, typename B>
void doubleLoop(const A& a, const B& b, std::span<double> out, std::span<uint8_t> valid) {
  for (size_t i = 0; i < out.size(); ++i) {
    if constexpr (kOp == BinaryOp::kAdd) {
      out[i] = a[i] + b[i];
    } else if constexpr (kOp == BinaryOp::kSubtract) {
      out[i] = a[i] - b[i];
    } else if constexpr (kOp == BinaryOp::kMultiply) {
      out[i] = a[i] * b[i];
    } else {
      const double divisor = b[i];
      if (divisor == 0) {
        valid[i] = 0;  // x / 0 and x % 0 are null
        out[i] = 0;
      } else {
        out[i] = kOp == BinaryOp::kDivide ? a[i] / divisor : std::fmod(a[i], divisor);
      }
    }
  }
}

/// Calls f(accessor) for one side of a double operation.
template <typename F>
decltype(auto) withDoubleAccessor(const Operand& side, F&& f) {
  if (side.isConstant()) return f(ConstantAt<double>{std::get<double>(side.constant)});
  if (side.type.kind == TypeKind::kDecimal) {
    return f(DecimalAsDoubleAt{side.block->values<Int128>().data(), side.type.scale});
  }
  return f(ValuesAt<double>{side.block->values<double>().data()});
}

std::optional<Block> doubleArithmetic(BinaryOp op, const Operand& left, const Operand& right,
                                      const DataType& type, size_t n) {
  // A decimal block is read through decimalToDouble in the loop; integers are converted.
  const auto side = [&](const Operand& s, Block& storage) -> std::optional<Operand> {
    if (!s.isConstant() && s.type.kind == TypeKind::kDecimal) return s;
    return convert(s, type, storage);
  };
  Block ls;
  Block rs;
  const std::optional<Operand> l = side(left, ls);
  const std::optional<Operand> r = side(right, rs);
  if (!l || !r) return std::nullopt;
  std::vector<double> out(n);
  std::vector<uint8_t> valid = validityOf(*l, *r);
  if (isDivision(op) && valid.empty()) valid.assign(n, 1);
  withDoubleAccessor(*l, [&](const auto& a) {
    withDoubleAccessor(*r, [&](const auto& b) {
      switch (op) {
        case BinaryOp::kAdd:
          return doubleLoop<BinaryOp::kAdd>(a, b, out, valid);
        case BinaryOp::kSubtract:
          return doubleLoop<BinaryOp::kSubtract>(a, b, out, valid);
        case BinaryOp::kMultiply:
          return doubleLoop<BinaryOp::kMultiply>(a, b, out, valid);
        case BinaryOp::kDivide:
          return doubleLoop<BinaryOp::kDivide>(a, b, out, valid);
        case BinaryOp::kModulo:
          return doubleLoop<BinaryOp::kModulo>(a, b, out, valid);
        default:
          throw std::logic_error("arithmeticBlocks: not arithmetic");
      }
    });
  });
  return withNullsZeroed(type, std::move(out), std::move(valid));
}

/// Applies `op` to two sides (at most one constant) with result `type`; nullopt
/// when a constant does not convert to the operation's type.
std::optional<Block> arithmetic(BinaryOp op, const Operand& left, const Operand& right,
                                const DataType& type, size_t n) {
  if (type.kind == TypeKind::kNull || left.type.kind == TypeKind::kNull ||
      right.type.kind == TypeKind::kNull) {
    return Block::nulls(type, n);
  }
  Block ls;
  Block rs;
  const auto same = [&](auto tag) -> std::optional<Block> {
    using T = decltype(tag);
    const std::optional<Operand> l = convert(left, type, ls);
    if (!l) return std::nullopt;
    const std::optional<Operand> r = convert(right, type, rs);
    if (!r) return std::nullopt;
    return integerArithmetic<T>(op, *l, *r, type, 0, n);
  };
  switch (type.kind) {
    case TypeKind::kDouble:
      return doubleArithmetic(op, left, right, type, n);
    case TypeKind::kInt32:
      return same(int32_t{});
    case TypeKind::kInt64:
      return same(int64_t{});
    case TypeKind::kUInt64:
      return same(uint64_t{});
    case TypeKind::kDecimal: {
      std::optional<Operand> l;
      std::optional<Operand> r;
      bool narrow = false;
      if (op == BinaryOp::kMultiply) {
        // Unscaled product at scale s1 + s2: no rescaling needed.
        l = convert(left, asDecimal(left.type), ls);
        if (!l) return std::nullopt;
        r = convert(right, asDecimal(right.type), rs);
        narrow = declaredWithin18Digits(left, asDecimal(left.type).scale) &&
                 declaredWithin18Digits(right, asDecimal(right.type).scale);
      } else {
        // + - % (and / of two integers joined as decimal(38,0)) at the result's scale.
        // The values are read as unscaled integers, so only the scale has to match.
        const auto atScale = [&](const Operand& s, Block& storage) -> std::optional<Operand> {
          if (s.type.kind == TypeKind::kDecimal && s.type.scale == type.scale) return s;
          return convert(s, DataType::decimal(38, type.scale), storage);
        };
        l = atScale(left, ls);
        if (!l) return std::nullopt;
        r = atScale(right, rs);
        narrow = declaredWithin18Digits(left, type.scale) &&
                 declaredWithin18Digits(right, type.scale);
      }
      if (!r) return std::nullopt;
      if (narrow) {
        if (std::optional<Block> out = decimalArithmeticInt64(op, *l, *r, type, n)) return out;
      }
      return integerArithmetic<Int128>(op, *l, *r, type, pow10Int128(type.precision), n);
    }
    default:
      break;
  }
  throw std::logic_error("arithmeticBlocks: result type " + type.toString());
}

}  // namespace

Block arithmeticBlocks(BinaryOp op, const Block& left, const Block& right, const DataType& type) {
  // Without a constant side every conversion is of a block, which throws rather than fails.
  return *arithmetic(op, Operand::of(left), Operand::of(right), type, left.size());
}

std::optional<Block> arithmeticWithConstant(BinaryOp op, const Block& column, const Scalar& value,
                                            const DataType& valueType, bool constantOnLeft,
                                            const DataType& resultType) {
  if (std::holds_alternative<std::monostate>(value) || column.size() == 0 ||
      !valueType.isNumeric() || !column.type().isNumeric()) {
    return std::nullopt;
  }
  const Operand constant{nullptr, value, valueType};
  const Operand block = Operand::of(column);
  return constantOnLeft ? arithmetic(op, constant, block, resultType, column.size())
                        : arithmetic(op, block, constant, resultType, column.size());
}

Block negateBlock(const Block& in, const DataType& type) {
  if (type.kind == TypeKind::kNull || in.type().kind == TypeKind::kNull)
    return Block::nulls(type, in.size());
  if (type.kind == TypeKind::kDouble) {
    std::span<const double> v = in.values<double>();
    std::vector<double> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = -v[i];
    if (in.hasNulls()) {
      for (size_t i = 0; i < v.size(); ++i) out[i] = in.validity()[i] ? out[i] : 0.0;
    }
    return Block::fromValues(type, std::move(out),
                             std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
  }
  // 0 - x with the subtraction's overflow check (-(-2147483648) is null).
  const auto [zero, zeroType] = [&]() -> std::pair<Scalar, DataType> {
    switch (type.kind) {
      case TypeKind::kInt32:
        return {int32_t{0}, type};
      case TypeKind::kInt64:
        return {int64_t{0}, type};
      default:
        return {Int128{0}, DataType::decimal(1, 0)};
    }
  }();
  return *arithmetic(BinaryOp::kSubtract, Operand{nullptr, zero, zeroType}, Operand::of(in), type,
                     in.size());
}

}  // namespace quarry::engine
