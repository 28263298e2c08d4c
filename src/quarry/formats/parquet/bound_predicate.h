#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "quarry/formats/parquet/decimal_literal.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// A FilterPredicate bound to one file's schema (query-controls.txt, "Predicate
/// literals by column type", "Binary columns", "Literals the column cannot
/// hold"). Binding happens at reader creation and is where every rule that needs
/// the column's type is checked; it turns each literal into a key in the
/// column's comparison domain, so evaluation (row_filter.h) compares plain
/// integers or byte strings:
///
///   column                                   stored value read as    literal key
///   BOOLEAN, signed INT32/INT64 (DATE, TIME,  int64                   int64, snapped to
///     TIMESTAMP, DECIMAL on integers)                                  the unit / scale
///   unsigned INT(32/64, false)                uint64 (bit pattern)    uint64
///   FLOAT, DOUBLE, FLOAT16 with a float       int64 total-order key   same transform
///   INT96, TIMESTAMP over FLBA(12)            int128 nanoseconds      int128
///   DECIMAL over binary with a Decimal        two's-complement bytes  same, any length
///   every byte[] / String / UUID / INTERVAL   bytes, unsigned         bytes
///
/// A TIMESTAMP over FIXED_LEN_BYTE_ARRAY(12) is read in INT96's layout (nanoseconds
/// of the day, then the Julian day, little endian): the spec names no other 12-byte
/// timestamp encoding, and the print path does not read such columns yet.
///
/// An ordered literal the column cannot hold is snapped (lt 1.255 on scale 2
/// becomes lt 126); one past the carrier's range becomes a constant for non-null
/// rows. Equality with such a literal throws InvalidArgument.
namespace quarry::parquet {

struct BoundNode {
  enum class Kind {
    kCompare,
    kIsNull,
    kIsNotNull,
    /// A comparison decided for every non-null row (`constant`); null rows stay unknown.
    kConstant,
    kIntersects,
    kAnd,
    kOr,
    kNot,
  };
  /// How a compared column's stored values are read into keys.
  enum class Reader {
    kBoolean,
    kInt32,
    kUInt32,
    kInt64,
    kUInt64,
    kFloat,
    kDouble,
    kFloat16,
    kInt96Nanos,
    kFixed12Nanos,
    kBytes,
    kDecimalBytes,
  };
  enum class Compare { kEq, kNotEq, kLt, kLtEq, kGt, kGtEq, kIn };

  Kind kind = Kind::kConstant;
  /// The column (leaf or group) of a leaf predicate.
  const SchemaNode* node = nullptr;
  Reader reader = Reader::kInt64;
  Compare compare = Compare::kEq;
  bool constant = false;
  /// Literal keys, in the reader's domain (one for a comparison, several for in).
  std::vector<int64_t> signedKeys;
  std::vector<uint64_t> unsignedKeys;
  std::vector<Int128> nanoKeys;
  std::vector<std::string> byteKeys;
  /// intersects: xmin, ymin, xmax, ymax; geography wraps at the antimeridian.
  std::array<double, 4> box{};
  bool geography = false;
  std::vector<BoundNode> children;
};

class BoundPredicate {
 public:
  /// Binds `predicate` to `schema`. Throws InvalidArgument naming the column, what
  /// bounds it and the literal for: an unknown or ambiguous column, a name below a
  /// repeated path, a comparison on a group or a VARIANT, a literal type the column
  /// does not take, an ordered operator on an unordered type, a byte literal of the
  /// wrong width, and an equality literal the column cannot hold.
  static BoundPredicate bind(const FilterPredicate& predicate, const FileSchema& schema);

  const BoundNode& root() const { return root_; }
  /// The leaves evaluation reads, in schema order (one leaf under each group a null
  /// test names).
  const std::vector<const SchemaNode*>& leaves() const { return leaves_; }

 private:
  BoundNode root_;
  std::vector<const SchemaNode*> leaves_;
};

/// Returns the total-order key of a double: NaNs equal and above everything,
/// -0.0 below +0.0 (Double.compare's order), as a signed 64-bit integer.
int64_t totalOrderKey(double value);

/// Compares two big-endian two's-complement integers of any byte lengths
/// (an empty one is zero); returns <0, 0 or >0.
int compareTwosComplement(std::string_view a, std::string_view b);

}  // namespace quarry::parquet
