#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/formats/orc/encoding/varint.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// A FilterPredicate (the public predicate tree of query-controls.txt) bound to
/// an ORC file's schema. Binding happens at reader creation: it resolves each
/// column by name or dotted path through structs, checks the literal against
/// the column's ORC type and turns it into a key in the column's comparison
/// domain, so that row filtering (orc_row_filter.h) and pruning
/// (orc_pruning.h) compare plain integers or byte strings:
///
///   ORC type                       literal types taken         key of a value
///   boolean                        bool                        0 / 1
///   tinyint..bigint                int32_t, int64_t            the value
///   float / double                 float / double              total-order key
///   string, varchar                std::string, Bytes          the stored bytes
///   char(n)                        std::string, Bytes          the stored bytes
///   binary                         Bytes                       the stored bytes
///   decimal(p, s)                  Decimal                     unscaled at scale s
///   date                           Date                        days since 1970
///   timestamp                      LocalDateTime               wall-clock nanos
///   timestamp with local time zone Instant                     UTC nanos
///
/// Floats order as Double.compare (all NaNs equal, above everything; -0.0 below
/// +0.0). A char(n) value is stored padded with spaces to n characters and is
/// compared as stored: a String literal shorter than n characters is padded the
/// same way before it is compared (eq("c", "ab") on char(4) matches "ab  "); a
/// Bytes literal is compared as given. A Decimal literal is rescaled to the
/// column's scale; an ordered literal carrying more digits is snapped, an
/// equality literal the column cannot hold (more digits than the scale, more
/// than the precision, an integer outside the ORC type's range) throws.
namespace quarry::orc {

using parquet::FilterPredicate;

struct OrcBoundNode {
  enum class Kind { kCompare, kIsNull, kIsNotNull, kConstant, kAnd, kOr, kNot };
  /// How a compared column's values are read into keys.
  enum class Domain { kInteger, kFloat, kBytes, kTimestamp };
  enum class Compare { kEq, kNotEq, kLt, kLtEq, kGt, kGtEq, kIn };

  Kind kind = Kind::kConstant;
  /// The column of a leaf predicate.
  const OrcType* column = nullptr;
  Domain domain = Domain::kInteger;
  Compare compare = Compare::kEq;
  /// kConstant: the outcome for every row where the column is not null (null
  /// rows stay unknown).
  bool constant = false;
  /// Literal keys: one for a comparison, the set's for in.
  std::vector<Int128> keys;
  std::vector<std::string> byteKeys;
  std::vector<OrcBoundNode> children;
};

class OrcBoundPredicate {
 public:
  /// Binds `predicate` to `schema`. Throws InvalidArgument naming the column, its
  /// ORC type and the literal for: an unknown column, a column under a list,
  /// map or union, a comparison on a compound column, a literal type the column
  /// does not take, and an equality literal the column cannot hold. Ordered
  /// operators take every leaf type (false < true; bytes unsigned). Refuses
  /// (InvalidArgument) comparisons on decimals of Hive 0.11 files (no precision),
  /// whose values carry their own scale.
  static OrcBoundPredicate bind(const FilterPredicate& predicate, const OrcSchema& schema);

  const OrcBoundNode& root() const { return root_; }
  /// Flags (by column id) of the columns evaluation reads, with their ancestors.
  const std::vector<bool>& columns() const { return columns_; }

 private:
  OrcBoundNode root_;
  std::vector<bool> columns_;
};

/// Returns the total-order key of a double (Double.compare's order: NaNs equal
/// and above everything, -0.0 below +0.0) as a signed integer.
int64_t orcTotalOrderKey(double value);

}  // namespace quarry::orc
