#include <string>

#include "quarry/common/error.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

namespace {

std::vector<uint8_t> copyValidity(const Block& in) {
  return std::vector<uint8_t>(in.validity().begin(), in.validity().end());
}

/// Maps each value through `f` (f(0) must be 0, so that null positions stay zero).
template <typename From, typename To, typename F>
Block mapValues(const Block& in, const DataType& to, F f) {
  const std::span<const From> src = in.values<From>();
  std::vector<To> out(src.size());
  for (size_t i = 0; i < src.size(); ++i) out[i] = f(src[i]);
  return Block::fromValues(to, std::move(out), copyValidity(in));
}

/// Maps through `f`, which returns false when a value does not fit; then throws
/// naming the first such value.
template <typename From, typename To, typename F>
Block mapValuesChecked(const Block& in, const DataType& to, F f) {
  const std::span<const From> src = in.values<From>();
  std::vector<To> out(src.size());
  bool ok = true;
  for (size_t i = 0; i < src.size(); ++i) ok &= f(src[i], out[i]);
  if (!ok) {
    for (size_t i = 0; i < src.size(); ++i) {
      To ignored{};
      if (!in.isNull(i) && !f(src[i], ignored)) {
        throw InvalidArgument("Overflow converting " + literalToString(in.scalarAt(i), in.type()) +
                              " to " + to.toString());
      }
    }
  }
  return Block::fromValues(to, std::move(out), copyValidity(in));
}

Block toDouble(const Block& in, const DataType& to) {
  switch (in.type().kind) {
    case TypeKind::kInt32:
      return mapValues<int32_t, double>(in, to, [](int32_t v) { return static_cast<double>(v); });
    case TypeKind::kInt64:
      return mapValues<int64_t, double>(in, to, [](int64_t v) { return static_cast<double>(v); });
    case TypeKind::kUInt64:
      return mapValues<uint64_t, double>(in, to, [](uint64_t v) { return static_cast<double>(v); });
    case TypeKind::kDecimal: {
      const int32_t scale = in.type().scale;
      return mapValues<Int128, double>(in, to,
                                       [scale](Int128 v) { return decimalToDouble(v, scale); });
    }
    default:
      break;
  }
  throw std::logic_error("castBlock: " + in.type().toString() + " to double");
}

template <typename From>
Block integerToDecimal(const Block& in, const DataType& to) {
  const Int128 limit = pow10Int128(to.precision);
  const Int128 factor = pow10Int128(to.scale);
  return mapValuesChecked<From, Int128>(in, to, [limit, factor](From v, Int128& out) {
    out = static_cast<Int128>(v) * factor;  // |v| < 2^64, factor <= 10^38 / ... checked below
    return out < limit && out > -limit;
  });
}

Block toDecimal(const Block& in, const DataType& to) {
  switch (in.type().kind) {
    case TypeKind::kInt32:
      if (to.scale > 28) break;
      return integerToDecimal<int32_t>(in, to);
    case TypeKind::kInt64:
      if (to.scale > 18) break;
      return integerToDecimal<int64_t>(in, to);
    case TypeKind::kUInt64:
      if (to.scale > 18) break;
      return integerToDecimal<uint64_t>(in, to);
    case TypeKind::kDecimal: {
      const Int128 limit = pow10Int128(to.precision);
      const int by = to.scale - in.type().scale;
      if (by >= 0) {
        return mapValuesChecked<Int128, Int128>(in, to, [limit, by](Int128 v, Int128& out) {
          const std::optional<Int128> scaled = scaleUp(v, by);
          out = scaled.value_or(0);
          return scaled.has_value() && out < limit && out > -limit;
        });
      }
      return mapValuesChecked<Int128, Int128>(in, to, [limit, by](Int128 v, Int128& out) {
        out = scaleDownRounded(v, -by);
        return out < limit && out > -limit;
      });
    }
    default:
      break;
  }
  // An integer at a scale too large for the cheap path: go through decimal(38,0).
  if (isIntegerKind(in.type().kind)) return toDecimal(castBlock(in, DataType::decimal(38, 0)), to);
  throw std::logic_error("castBlock: " + in.type().toString() + " to " + to.toString());
}

Block toInstant(const Block& in, const DataType& to) {
  const int64_t perSecond = unitsPerSecond(to.unit);
  if (in.type().kind == TypeKind::kDate) {
    const int64_t perDay = perSecond * 86'400;
    return mapValuesChecked<int32_t, int64_t>(in, to, [perDay](int32_t days, int64_t& out) {
      return !__builtin_mul_overflow(static_cast<int64_t>(days), perDay, &out);
    });
  }
  const int64_t from = unitsPerSecond(in.type().unit);
  if (perSecond >= from) {
    const int64_t factor = perSecond / from;
    return mapValuesChecked<int64_t, int64_t>(in, to, [factor](int64_t v, int64_t& out) {
      return !__builtin_mul_overflow(v, factor, &out);
    });
  }
  const int64_t divisor = from / perSecond;
  return mapValues<int64_t, int64_t>(in, to, [divisor](int64_t v) {
    const int64_t q = v / divisor;
    return (v % divisor < 0) ? q - 1 : q;  // floor: an instant's containing unit
  });
}

}  // namespace

bool isIntegerKind(TypeKind kind) {
  return kind == TypeKind::kInt32 || kind == TypeKind::kInt64 || kind == TypeKind::kUInt64;
}

const Block& castedView(const Block& in, const DataType& to, Block& storage) {
  if (in.type() == to) return in;
  storage = castBlock(in, to);
  return storage;
}

Block castBlock(const Block& in, const DataType& to) {
  if (in.type() == to) return in;
  if (in.type().kind == TypeKind::kNull) return Block::nulls(to, in.size());
  switch (to.kind) {
    case TypeKind::kDouble:
      return toDouble(in, to);
    case TypeKind::kInt64:
      if (in.type().kind == TypeKind::kInt32) {
        return mapValues<int32_t, int64_t>(in, to,
                                           [](int32_t v) { return static_cast<int64_t>(v); });
      }
      break;
    case TypeKind::kDecimal:
      return toDecimal(in, to);
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      if (in.type().kind == TypeKind::kDate || in.type().kind == to.kind) return toInstant(in, to);
      break;
    case TypeKind::kString:
    case TypeKind::kBinary:
      if (in.type().kind == TypeKind::kString || in.type().kind == TypeKind::kBinary) {
        Block out(to);
        out.reserve(in.size());
        for (size_t i = 0; i < in.size(); ++i) {
          if (in.isNull(i)) {
            out.appendNull();
          } else {
            out.appendBytes(in.bytes(i));
          }
        }
        return out;
      }
      break;
    default:
      break;
  }
  throw std::logic_error("castBlock: no conversion from " + in.type().toString() + " to " +
                         to.toString());
}

}  // namespace quarry::engine
