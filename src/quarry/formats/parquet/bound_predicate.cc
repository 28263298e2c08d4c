#include "quarry/formats/parquet/bound_predicate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/decimal_literal.h"

namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;
using Op = FilterPredicate::Op;
using Compare = BoundNode::Compare;
using Reader = BoundNode::Reader;

constexpr Int128 kInt64Min = std::numeric_limits<int64_t>::min();
constexpr Int128 kInt64Max = std::numeric_limits<int64_t>::max();
constexpr Int128 kInt32Min = std::numeric_limits<int32_t>::min();
constexpr Int128 kInt32Max = std::numeric_limits<int32_t>::max();
constexpr Int128 kNanosPerDay = Int128{86'400} * 1'000'000'000;
constexpr int64_t kUnixEpochJulianDay = 2'440'588;
// The instants an INT96 can encode: any int32 Julian day plus any int64 nanoseconds.
constexpr Int128 kInt96Min = (kInt32Min - kUnixEpochJulianDay) * kNanosPerDay + kInt64Min;
constexpr Int128 kInt96Max = (kInt32Max - kUnixEpochJulianDay) * kNanosPerDay + kInt64Max;

std::string typeOf(const SchemaNode& n) {
  if (!n.isLeaf()) {
    return n.logicalType.kind == Kind::NONE ? "a group" : "a " + toString(n.logicalType) + " group";
  }
  std::string t = toString(*n.physicalType);
  if (n.physicalType == PhysicalType::FIXED_LEN_BYTE_ARRAY) t += "(" + std::to_string(n.typeLength) + ")";
  if (n.logicalType.kind != Kind::NONE) t += " " + toString(n.logicalType);
  return t;
}

std::string columnRef(const SchemaNode& n) { return "Column '" + n.path + "' (" + typeOf(n) + ")"; }

bool isEquality(Compare c) { return c == Compare::kEq || c == Compare::kNotEq || c == Compare::kIn; }

Compare compareOf(Op op) {
  switch (op) {
    case Op::kEq: return Compare::kEq;
    case Op::kNotEq: return Compare::kNotEq;
    case Op::kLt: return Compare::kLt;
    case Op::kLtEq: return Compare::kLtEq;
    case Op::kGt: return Compare::kGt;
    case Op::kGtEq: return Compare::kGtEq;
    default: return Compare::kIn;
  }
}

std::string compareName(Compare c) {
  switch (c) {
    case Compare::kEq: return "eq";
    case Compare::kNotEq: return "notEq";
    case Compare::kLt: return "lt";
    case Compare::kLtEq: return "ltEq";
    case Compare::kGt: return "gt";
    case Compare::kGtEq: return "gtEq";
    case Compare::kIn: return "in";
  }
  return "?";
}

/// The literal types a leaf takes: its physical type's row plus its annotation's.
std::vector<LiteralType> acceptedLiterals(const SchemaNode& n) {
  std::vector<LiteralType> out;
  const Kind kind = n.logicalType.kind;
  switch (*n.physicalType) {
    case PhysicalType::BOOLEAN: out.push_back(LiteralType::kBool); break;
    case PhysicalType::INT32: out.push_back(LiteralType::kInt32); break;
    case PhysicalType::INT64: out.push_back(LiteralType::kInt64); break;
    case PhysicalType::FLOAT: out.push_back(LiteralType::kFloat); break;
    case PhysicalType::DOUBLE: out.push_back(LiteralType::kDouble); break;
    case PhysicalType::INT96:
      out.push_back(LiteralType::kInstant);
      out.push_back(LiteralType::kBytes);
      break;
    case PhysicalType::BYTE_ARRAY:
      out.push_back(LiteralType::kBytes);
      // The String exception: text columns only, whatever else composes.
      if (kind == Kind::NONE || kind == Kind::STRING || kind == Kind::ENUM || kind == Kind::JSON) {
        out.push_back(LiteralType::kString);
      }
      break;
    case PhysicalType::FIXED_LEN_BYTE_ARRAY: out.push_back(LiteralType::kBytes); break;
  }
  switch (kind) {
    case Kind::DATE: out.push_back(LiteralType::kDate); break;
    case Kind::TIME: out.push_back(LiteralType::kTimeOfDay); break;
    case Kind::TIMESTAMP:
      out.push_back(n.logicalType.isAdjustedToUTC ? LiteralType::kInstant : LiteralType::kLocalDateTime);
      break;
    case Kind::DECIMAL: out.push_back(LiteralType::kDecimal); break;
    case Kind::UUID: out.push_back(LiteralType::kUuid); break;
    case Kind::FLOAT16: out.push_back(LiteralType::kFloat); break;
    case Kind::INTERVAL: out.push_back(LiteralType::kInterval); break;
    default: break;
  }
  return out;
}

std::string typeList(const std::vector<LiteralType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + literalTypeName(types[i]);
  return out;
}

bool definesNoOrder(const SchemaNode& n) {
  const Kind k = n.logicalType.kind;
  return k == Kind::INTERVAL || k == Kind::GEOMETRY || k == Kind::GEOGRAPHY || k == Kind::UNKNOWN;
}

/// The typed literal that orders a column whose bytes do not, or empty when the
/// column orders as its bytes.
std::string orderingLiteral(const SchemaNode& n) {
  const Kind k = n.logicalType.kind;
  if (k == Kind::DECIMAL) return "quarry::Decimal";
  if (k == Kind::FLOAT16) return "float";
  if (n.physicalType == PhysicalType::INT96) return "quarry::Instant";
  if (k == Kind::TIMESTAMP) {
    return n.logicalType.isAdjustedToUTC ? "quarry::Instant" : "quarry::LocalDateTime";
  }
  return "";
}

Int128 floorDiv(Int128 a, Int128 b) {
  Int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t nanosPerUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1'000'000;
    case TimeUnit::MICROS: return 1'000;
    case TimeUnit::NANOS: return 1;
  }
  return 1;
}

std::string unitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return "milliseconds";
    case TimeUnit::MICROS: return "microseconds";
    case TimeUnit::NANOS: return "nanoseconds";
  }
  return "?";
}

/// An exact literal in the column's integer units: floor and ceiling (equal when exact).
struct Snapped {
  Int128 floor = 0;
  Int128 ceil = 0;
  bool exact() const { return floor == ceil; }
};

Snapped divide(Int128 value, Int128 divisor) {
  const Int128 f = floorDiv(value, divisor);
  return {f, f * divisor == value ? f : f + 1};
}

bool halfRepresents(float f) {
  if (std::isnan(f)) return true;
  uint32_t want;
  std::memcpy(&want, &f, 4);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float v = Float16{static_cast<uint16_t>(bits)}.toFloat();
    uint32_t got;
    std::memcpy(&got, &v, 4);
    if (got == want) return true;
  }
  return false;
}

std::string bytesOf(const Interval& v) {
  std::string out(12, '\0');
  std::memcpy(out.data(), &v.months, 4);
  std::memcpy(out.data() + 4, &v.days, 4);
  std::memcpy(out.data() + 8, &v.millis, 4);
  return out;
}

class Binder {
 public:
  explicit Binder(const FileSchema& schema) : schema_(schema) {}

  BoundNode bind(const FilterPredicate& p, bool underNot) {
    BoundNode out;
    switch (p.op()) {
      case Op::kAnd:
      case Op::kOr:
      case Op::kNot:
        out.kind = p.op() == Op::kAnd ? BoundNode::Kind::kAnd
                   : p.op() == Op::kOr ? BoundNode::Kind::kOr
                                       : BoundNode::Kind::kNot;
        for (const auto& child : p.children()) {
          out.children.push_back(bind(child, underNot || p.op() == Op::kNot));
        }
        return out;
      case Op::kIsNull:
      case Op::kIsNotNull: {
        const SchemaNode& node = resolve(p);
        out.kind = p.op() == Op::kIsNull ? BoundNode::Kind::kIsNull : BoundNode::Kind::kIsNotNull;
        out.node = &node;
        const SchemaNode* leaf = &node;
        while (!leaf->isLeaf()) {
          if (leaf->children.empty()) {
            throw InvalidArgument("Column '" + node.path + "' is a group without columns");
          }
          leaf = leaf->children.front().get();
        }
        leaves_.insert(leaf);
        return out;
      }
      case Op::kIntersects: {
        const SchemaNode& node = resolve(p);
        const Kind k = node.logicalType.kind;
        if (k != Kind::GEOMETRY && k != Kind::GEOGRAPHY) {
          throw InvalidArgument(columnRef(node) + ": intersects takes a GEOMETRY or GEOGRAPHY column");
        }
        if (underNot) {
          throw InvalidArgument(columnRef(node) +
                                ": not(intersects) is refused; intersects keeps whole row groups "
                                "by bounding-box overlap, so its negation has no row-exact meaning");
        }
        out.kind = BoundNode::Kind::kIntersects;
        out.node = &node;
        out.box = p.box();
        out.geography = k == Kind::GEOGRAPHY;
        return out;
      }
      default: break;
    }
    const SchemaNode& node = resolve(p);
    const Compare compare = compareOf(p.op());
    if (!node.isLeaf()) {
      throw InvalidArgument(columnRef(node) + ": " + compareName(compare) +
                            " takes leaf columns only; a group takes isNull and isNotNull");
    }
    if (underVariant(node)) {
      throw InvalidArgument(columnRef(node) + " holds an encoded VARIANT; it takes isNull and "
                            "isNotNull only, not " + compareName(compare));
    }
    out.kind = BoundNode::Kind::kCompare;
    out.node = &node;
    out.compare = compare;
    for (const auto& literal : p.literals()) addLiteral(node, compare, literal, out);
    leaves_.insert(&node);  // a constant still needs the column's nulls
    return out;
  }

  std::vector<const SchemaNode*> leaves() const {
    std::vector<const SchemaNode*> out(leaves_.begin(), leaves_.end());
    std::sort(out.begin(), out.end(),
              [](const SchemaNode* a, const SchemaNode* b) { return a->leafIndex < b->leafIndex; });
    return out;
  }

 private:
  const SchemaNode& resolve(const FilterPredicate& p) {
    const SchemaNode* node = nullptr;
    try {
      node = schema_.find(p.column());
    } catch (const InvalidArgument&) {
      throw InvalidArgument("Column '" + p.column() +
                            "' is ambiguous: it is the path of more than one field");
    }
    if (node == nullptr || node->isRoot()) throw InvalidArgument("Column not found: " + p.column());
    for (const SchemaNode* n = node; !n->isRoot(); n = n->parent) {
      if (n->repetition == FieldRepetitionType::REPEATED) {
        throw InvalidArgument("Column '" + p.column() + "' is at or below the repeated field '" +
                              n->path + "'; a filter takes columns with one value per row");
      }
    }
    return *node;
  }

  static bool underVariant(const SchemaNode& node) {
    for (const SchemaNode* n = &node; n != nullptr; n = n->parent) {
      if (n->logicalType.kind == Kind::VARIANT) return true;
    }
    return false;
  }

  [[noreturn]] static void cannotHold(const SchemaNode& node, const std::string& bound,
                                      const PredicateLiteral& literal) {
    throw InvalidArgument("Column '" + node.path + "' holds " + bound + "; the equality literal " +
                          literalToString(literal) + " is not a value it can hold");
  }

  /// Sets an integer-domain key: equality needs the exact value within
  /// [carrierMin, carrierMax]; an ordered operator snaps to the column's units and
  /// becomes a constant past the int64 keys.
  static void addSnapped(BoundNode& out, const Snapped& s, Int128 carrierMin, Int128 carrierMax,
                         const SchemaNode& node, const std::string& bound,
                         const PredicateLiteral& literal) {
    out.reader = node.physicalType == PhysicalType::INT32 ? Reader::kInt32 : Reader::kInt64;
    if (isEquality(out.compare)) {
      if (!s.exact() || s.floor < carrierMin || s.floor > carrierMax) cannotHold(node, bound, literal);
      out.signedKeys.push_back(static_cast<int64_t>(s.floor));
      return;
    }
    // v < x <=> v < ceil(x); v <= x <=> v <= floor(x); v > x <=> v > floor(x); v >= x <=> v >= ceil(x)
    const bool lower = out.compare == Compare::kLt || out.compare == Compare::kLtEq;
    const Int128 key = (out.compare == Compare::kLt || out.compare == Compare::kGtEq) ? s.ceil : s.floor;
    if (key > kInt64Max || key < kInt64Min) {
      out.kind = BoundNode::Kind::kConstant;
      out.constant = (key > kInt64Max) == lower;
      return;
    }
    out.signedKeys.push_back(static_cast<int64_t>(key));
  }

  void addLiteral(const SchemaNode& node, Compare compare, const PredicateLiteral& literal,
                  BoundNode& out) {
    const LiteralType type = literalType(literal);
    const auto accepted = acceptedLiterals(node);
    if (std::find(accepted.begin(), accepted.end(), type) == accepted.end()) {
      std::string why;
      if (type == LiteralType::kString) why = "getString does not read it; ";
      throw InvalidArgument(columnRef(node) + " does not take a " + literalTypeName(type) +
                            " literal (" + literalToString(literal) + "); " + why + "it takes " +
                            typeList(accepted));
    }
    const bool ordered = !isEquality(compare);
    if (ordered && definesNoOrder(node)) {
      throw InvalidArgument(columnRef(node) + " defines no order; " + compareName(compare) +
                            " is refused (literal " + literalToString(literal) + ")");
    }
    const Kind kind = node.logicalType.kind;
    const PhysicalType physical = *node.physicalType;
    switch (type) {
      case LiteralType::kBool:
        out.reader = Reader::kBoolean;
        out.signedKeys.push_back(std::get<bool>(literal) ? 1 : 0);
        return;
      case LiteralType::kInt32:
      case LiteralType::kInt64: {
        const int64_t v = type == LiteralType::kInt32 ? std::get<int32_t>(literal)
                                                      : std::get<int64_t>(literal);
        if (kind == Kind::INTEGER && !node.logicalType.isSigned) {
          // The literal is the stored bit pattern; the order is the unsigned magnitude.
          out.reader = physical == PhysicalType::INT32 ? Reader::kUInt32 : Reader::kUInt64;
          out.unsignedKeys.push_back(physical == PhysicalType::INT32
                                         ? static_cast<uint64_t>(static_cast<uint32_t>(v))
                                         : static_cast<uint64_t>(v));
        } else {
          out.reader = physical == PhysicalType::INT32 ? Reader::kInt32 : Reader::kInt64;
          out.signedKeys.push_back(v);
        }
        return;
      }
      case LiteralType::kFloat:
      case LiteralType::kDouble: {
        const double v = type == LiteralType::kFloat ? std::get<float>(literal) : std::get<double>(literal);
        if (kind == Kind::FLOAT16) {
          if (isEquality(compare) && !halfRepresents(std::get<float>(literal))) {
            cannotHold(node, "IEEE half-precision values", literal);
          }
          out.reader = Reader::kFloat16;
        } else {
          out.reader = type == LiteralType::kFloat ? Reader::kFloat : Reader::kDouble;
        }
        out.signedKeys.push_back(totalOrderKey(v));
        return;
      }
      case LiteralType::kString:
        out.reader = Reader::kBytes;
        out.byteKeys.push_back(std::get<std::string>(literal));
        return;
      case LiteralType::kBytes: {
        const Bytes& b = std::get<Bytes>(literal);
        const std::string typed = orderingLiteral(node);
        if (ordered && !typed.empty()) {
          throw InvalidArgument(columnRef(node) + " does not order as its bytes; " +
                                compareName(compare) + " takes a " + typed + " literal, not " +
                                literalToString(literal));
        }
        size_t width = 0;
        if (physical == PhysicalType::FIXED_LEN_BYTE_ARRAY) width = static_cast<size_t>(node.typeLength);
        if (physical == PhysicalType::INT96) width = 12;
        // A byte string of another width sits exactly in a byte-string order, so
        // only equality (and the value-ordered columns) need the width.
        if (width != 0 && b.size() != width && (isEquality(compare) || !typed.empty())) {
          throw InvalidArgument(columnRef(node) + " holds values of exactly " + std::to_string(width) +
                                " bytes; the byte literal " + literalToString(literal) + " has " +
                                std::to_string(b.size()));
        }
        out.reader = Reader::kBytes;
        out.byteKeys.emplace_back(b.begin(), b.end());
        return;
      }
      case LiteralType::kDate:
        out.reader = Reader::kInt32;
        out.signedKeys.push_back(std::get<Date>(literal).daysSinceEpoch);
        return;
      case LiteralType::kTimeOfDay: {
        const TimeUnit unit = node.logicalType.unit;
        const bool int32 = physical == PhysicalType::INT32;
        const Snapped s = divide(std::get<TimeOfDay>(literal).nanosOfDay, nanosPerUnit(unit));
        addSnapped(out, s, int32 ? kInt32Min : kInt64Min, int32 ? kInt32Max : kInt64Max, node,
                   "a whole number of " + unitName(unit) + " within the " +
                       (int32 ? "INT32" : "INT64") + " range",
                   literal);
        return;
      }
      case LiteralType::kInstant:
      case LiteralType::kLocalDateTime: {
        const Int128 nanos =
            type == LiteralType::kInstant
                ? Int128{std::get<Instant>(literal).epochSeconds} * 1'000'000'000 +
                      std::get<Instant>(literal).nanos
                : Int128{std::get<LocalDateTime>(literal).epochSeconds} * 1'000'000'000 +
                      std::get<LocalDateTime>(literal).nanos;
        if (physical == PhysicalType::INT96 || physical == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
          if (isEquality(compare) && (nanos < kInt96Min || nanos > kInt96Max)) {
            cannotHold(node, "the instants a Julian day (int32) and nanoseconds of the day (int64) encode",
                       literal);
          }
          out.reader = physical == PhysicalType::INT96 ? Reader::kInt96Nanos : Reader::kFixed12Nanos;
          out.nanoKeys.push_back(nanos);
          return;
        }
        const TimeUnit unit = node.logicalType.unit;
        addSnapped(out, divide(nanos, nanosPerUnit(unit)), kInt64Min, kInt64Max, node,
                   "a whole number of " + unitName(unit) + " within the INT64 range", literal);
        return;
      }
      case LiteralType::kDecimal: {
        const int32_t scale = node.logicalType.scale;
        const ScaledDecimal d = rescale(std::get<Decimal>(literal), scale, columnRef(node));
        const std::string places = "numbers with at most " + std::to_string(scale) + " decimal places";
        if (physical == PhysicalType::INT32 || physical == PhysicalType::INT64) {
          const bool int32 = physical == PhysicalType::INT32;
          const Snapped s{toSaturatedInt128(d.floorNegative, d.floorDigits), toSaturatedInt128(d.ceilNegative, d.ceilDigits)};
          addSnapped(out, s, int32 ? kInt32Min : kInt64Min, int32 ? kInt32Max : kInt64Max, node,
                     places + " whose unscaled value is within the " + (int32 ? "INT32" : "INT64") +
                         " range",
                     literal);
          return;
        }
        out.reader = Reader::kDecimalBytes;
        if (isEquality(compare)) {
          const std::string bytes = toTwosComplement(d.floorNegative, d.floorDigits);
          const bool fixed = physical == PhysicalType::FIXED_LEN_BYTE_ARRAY;
          if (!d.exact || (fixed && bytes.size() > static_cast<size_t>(node.typeLength))) {
            cannotHold(node,
                       places + (fixed ? " whose unscaled value fits in " +
                                             std::to_string(node.typeLength) + " bytes"
                                       : ""),
                       literal);
          }
          out.byteKeys.push_back(bytes);
          return;
        }
        // Exact comparison of any-length two's complement keeps "past the width"
        // answers right: such a literal is above or below every stored value.
        const bool useCeil = compare == Compare::kLt || compare == Compare::kGtEq;
        out.byteKeys.push_back(useCeil ? toTwosComplement(d.ceilNegative, d.ceilDigits)
                                       : toTwosComplement(d.floorNegative, d.floorDigits));
        return;
      }
      case LiteralType::kUuid: {
        const Uuid& u = std::get<Uuid>(literal);
        out.reader = Reader::kBytes;
        out.byteKeys.emplace_back(u.bytes.begin(), u.bytes.end());
        return;
      }
      case LiteralType::kInterval:
        out.reader = Reader::kBytes;
        out.byteKeys.push_back(bytesOf(std::get<Interval>(literal)));
        return;
    }
  }

  const FileSchema& schema_;
  std::set<const SchemaNode*> leaves_;
};

}  // namespace

int64_t totalOrderKey(double value) {
  if (std::isnan(value)) return std::numeric_limits<int64_t>::max();
  int64_t bits;
  std::memcpy(&bits, &value, 8);
  // Negative values order backwards as bit patterns: flip all but the sign bit.
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

int compareTwosComplement(std::string_view a, std::string_view b) {
  const auto* pa = reinterpret_cast<const uint8_t*>(a.data());
  const auto* pb = reinterpret_cast<const uint8_t*>(b.data());
  const bool negA = !a.empty() && (pa[0] & 0x80);
  const bool negB = !b.empty() && (pb[0] & 0x80);
  if (negA != negB) return negA ? -1 : 1;
  const uint8_t fillA = negA ? 0xFF : 0x00;
  const uint8_t fillB = negB ? 0xFF : 0x00;
  const size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    // Sign-extend the shorter one on the left.
    const uint8_t x = i + a.size() < n ? fillA : pa[i + a.size() - n];
    const uint8_t y = i + b.size() < n ? fillB : pb[i + b.size() - n];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

BoundPredicate BoundPredicate::bind(const FilterPredicate& predicate, const FileSchema& schema) {
  Binder binder(schema);
  BoundPredicate out;
  out.root_ = binder.bind(predicate, false);
  out.leaves_ = binder.leaves();
  return out;
}

}  // namespace quarry::parquet
