#pragma once

#include <array>
#include <concepts>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "quarry/formats/predicate/predicate_literal.h"

/// FilterPredicate (query-controls.txt, "Supported filter predicates"): an
/// immutable predicate tree over a file's columns, checked in two steps. Building
/// checks what needs no file (an empty set, ill-formed UTF-8, an empty name, and
/// / or with no child); binding to a file's schema at reader creation checks the
/// rest (bound_predicate.h).
///
/// C++ names: `and`, `or` and `not` are reserved words in C++, so the
/// combinators are and_, or_ and not_. A FilterPredicate cannot be null (it has
/// no default state), so the spec's "null child" cannot occur; the stand-in for a
/// null column name is the empty name, which throws InvalidArgument.
namespace quarry::parquet {

/// The C++ literal types a factory takes (a string literal is a std::string).
template <typename T>
concept LiteralValue =
    std::same_as<T, bool> || std::same_as<T, int32_t> || std::same_as<T, int64_t> ||
    std::same_as<T, float> || std::same_as<T, double> || std::same_as<T, std::string> ||
    std::same_as<T, Bytes> || std::same_as<T, Date> || std::same_as<T, TimeOfDay> ||
    std::same_as<T, Instant> || std::same_as<T, LocalDateTime> || std::same_as<T, Decimal> ||
    std::same_as<T, Uuid> || std::same_as<T, Interval>;

class FilterPredicate {
 public:
  enum class Op { kEq, kNotEq, kLt, kLtEq, kGt, kGtEq, kIn, kIsNull, kIsNotNull, kIntersects,
                  kAnd, kOr, kNot };

  /// Returns a predicate matching the rows whose `column` equals `literal`.
  template <LiteralValue T>
  static FilterPredicate eq(std::string column, T literal) {
    return compare(Op::kEq, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate eq(std::string column, const char* text) {
    return eq(std::move(column), std::string(text));
  }
  /// Returns a predicate matching the non-null rows whose `column` differs from `literal`.
  template <LiteralValue T>
  static FilterPredicate notEq(std::string column, T literal) {
    return compare(Op::kNotEq, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate notEq(std::string column, const char* text) {
    return notEq(std::move(column), std::string(text));
  }
  template <LiteralValue T>
  static FilterPredicate lt(std::string column, T literal) {
    return compare(Op::kLt, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate lt(std::string column, const char* text) {
    return lt(std::move(column), std::string(text));
  }
  template <LiteralValue T>
  static FilterPredicate ltEq(std::string column, T literal) {
    return compare(Op::kLtEq, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate ltEq(std::string column, const char* text) {
    return ltEq(std::move(column), std::string(text));
  }
  template <LiteralValue T>
  static FilterPredicate gt(std::string column, T literal) {
    return compare(Op::kGt, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate gt(std::string column, const char* text) {
    return gt(std::move(column), std::string(text));
  }
  template <LiteralValue T>
  static FilterPredicate gtEq(std::string column, T literal) {
    return compare(Op::kGtEq, std::move(column), PredicateLiteral(std::move(literal)));
  }
  static FilterPredicate gtEq(std::string column, const char* text) {
    return gtEq(std::move(column), std::string(text));
  }

  /// Returns a predicate matching the rows whose `column` equals one of `values`.
  /// There is no bool form (eq, notEq and isNotNull express every set of two values).
  /// Throws InvalidArgument when `values` is empty.
  template <LiteralValue T>
    requires(!std::same_as<T, bool>)
  static FilterPredicate in(std::string column, std::vector<T> values) {
    std::vector<PredicateLiteral> literals;
    literals.reserve(values.size());
    for (auto& v : values) literals.emplace_back(std::move(v));
    return inLiterals(std::move(column), std::move(literals));
  }
  template <LiteralValue T, std::same_as<T>... Rest>
    requires(!std::same_as<T, bool>)
  static FilterPredicate in(std::string column, T first, Rest... rest) {
    return in(std::move(column), std::vector<T>{std::move(first), std::move(rest)...});
  }
  template <std::same_as<const char*>... Rest>
  static FilterPredicate in(std::string column, const char* first, Rest... rest) {
    return in(std::move(column), std::vector<std::string>{first, rest...});
  }
  /// The untyped comparison form: `op` is one of kEq .. kGtEq (others throw
  /// InvalidArgument); for callers holding a literal as a PredicateLiteral.
  static FilterPredicate compareLiteral(Op op, std::string column, PredicateLiteral literal);
  /// The untyped set form: every value must be of one literal type, not bool.
  static FilterPredicate inLiterals(std::string column, std::vector<PredicateLiteral> values);

  static FilterPredicate isNull(std::string column);
  static FilterPredicate isNotNull(std::string column);
  /// Returns a predicate keeping the row groups of a GEOMETRY or GEOGRAPHY column
  /// whose bounding box overlaps [xmin, xmax] x [ymin, ymax].
  static FilterPredicate intersects(std::string column, double xmin, double ymin, double xmax,
                                    double ymax);

  /// Returns the conjunction of `children`; throws InvalidArgument when there is none.
  static FilterPredicate and_(std::vector<FilterPredicate> children);
  template <std::same_as<FilterPredicate>... More>
  static FilterPredicate and_(FilterPredicate first, More... more) {
    return and_(std::vector<FilterPredicate>{std::move(first), std::move(more)...});
  }
  /// Returns the disjunction of `children`; throws InvalidArgument when there is none.
  static FilterPredicate or_(std::vector<FilterPredicate> children);
  template <std::same_as<FilterPredicate>... More>
  static FilterPredicate or_(FilterPredicate first, More... more) {
    return or_(std::vector<FilterPredicate>{std::move(first), std::move(more)...});
  }
  /// Returns the negation of `child` (three-valued: a null comparison stays unknown).
  static FilterPredicate not_(FilterPredicate child);

  Op op() const { return node_->op; }
  /// The column name or dotted path (empty on and / or / not).
  const std::string& column() const { return node_->column; }
  /// The literal of a comparison, or every value of a set.
  const std::vector<PredicateLiteral>& literals() const { return node_->literals; }
  /// intersects only: xmin, ymin, xmax, ymax.
  const std::array<double, 4>& box() const { return node_->box; }
  const std::vector<FilterPredicate>& children() const { return node_->children; }

  /// Renders the predicate, e.g. "and(eq(a, 1), not(isNull(b)))".
  std::string toString() const;

 private:
  struct Node {
    Op op;
    std::string column;
    std::vector<PredicateLiteral> literals;
    std::array<double, 4> box{};
    std::vector<FilterPredicate> children;
  };

  explicit FilterPredicate(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  static FilterPredicate compare(Op op, std::string column, PredicateLiteral literal);
  static FilterPredicate combine(Op op, std::vector<FilterPredicate> children);

  std::shared_ptr<const Node> node_;
};

/// Names an operator as the factories spell it ("ltEq", "and", ...).
std::string opName(FilterPredicate::Op op);

}  // namespace quarry::parquet
