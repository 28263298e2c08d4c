#include "quarry/formats/predicate/filter_predicate.h"

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

void checkColumn(const std::string& column, FilterPredicate::Op op) {
  if (column.empty()) {
    throw InvalidArgument("FilterPredicate." + opName(op) + ": the column name is empty");
  }
}

void checkLiteral(const std::string& column, FilterPredicate::Op op,
                  const PredicateLiteral& literal) {
  if (const auto* text = std::get_if<std::string>(&literal); text && !isWellFormedUtf8(*text)) {
    throw InvalidArgument("FilterPredicate." + opName(op) + " on column '" + column +
                          "': the string literal is not well-formed UTF-8; filter such values "
                          "with their bytes (quarry::Bytes)");
  }
}

}  // namespace

std::string opName(FilterPredicate::Op op) {
  using Op = FilterPredicate::Op;
  switch (op) {
    case Op::kEq: return "eq";
    case Op::kNotEq: return "notEq";
    case Op::kLt: return "lt";
    case Op::kLtEq: return "ltEq";
    case Op::kGt: return "gt";
    case Op::kGtEq: return "gtEq";
    case Op::kIn: return "in";
    case Op::kIsNull: return "isNull";
    case Op::kIsNotNull: return "isNotNull";
    case Op::kIntersects: return "intersects";
    case Op::kAnd: return "and";
    case Op::kOr: return "or";
    case Op::kNot: return "not";
  }
  return "?";
}

FilterPredicate FilterPredicate::compare(Op op, std::string column, PredicateLiteral literal) {
  checkColumn(column, op);
  checkLiteral(column, op, literal);
  auto node = std::make_shared<Node>();
  node->op = op;
  node->column = std::move(column);
  node->literals.push_back(std::move(literal));
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::compareLiteral(Op op, std::string column, PredicateLiteral literal) {
  switch (op) {
    case Op::kEq:
    case Op::kNotEq:
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq:
      return compare(op, std::move(column), std::move(literal));
    default:
      throw InvalidArgument("FilterPredicate.compareLiteral on column '" + column + "': " + opName(op) +
                            " is not a comparison");
  }
}

FilterPredicate FilterPredicate::inLiterals(std::string column,
                                            std::vector<PredicateLiteral> values) {
  checkColumn(column, Op::kIn);
  if (values.empty()) {
    throw InvalidArgument("FilterPredicate.in on column '" + column + "': the set is empty");
  }
  for (const auto& v : values) {
    if (literalType(v) == LiteralType::kBool) {
      throw InvalidArgument("FilterPredicate.in on column '" + column +
                            "': there is no set form for bool; use eq, notEq or isNotNull");
    }
    if (v.index() != values.front().index()) {
      throw InvalidArgument("FilterPredicate.in on column '" + column +
                            "': every value must be of one literal type; got " +
                            literalTypeName(literalType(values.front())) + " and " +
                            literalTypeName(literalType(v)));
    }
    checkLiteral(column, Op::kIn, v);
  }
  auto node = std::make_shared<Node>();
  node->op = Op::kIn;
  node->column = std::move(column);
  node->literals = std::move(values);
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::isNull(std::string column) {
  checkColumn(column, Op::kIsNull);
  auto node = std::make_shared<Node>();
  node->op = Op::kIsNull;
  node->column = std::move(column);
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::isNotNull(std::string column) {
  checkColumn(column, Op::kIsNotNull);
  auto node = std::make_shared<Node>();
  node->op = Op::kIsNotNull;
  node->column = std::move(column);
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::intersects(std::string column, double xmin, double ymin,
                                            double xmax, double ymax) {
  checkColumn(column, Op::kIntersects);
  auto node = std::make_shared<Node>();
  node->op = Op::kIntersects;
  node->column = std::move(column);
  node->box = {xmin, ymin, xmax, ymax};
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::combine(Op op, std::vector<FilterPredicate> children) {
  if (children.empty()) {
    throw InvalidArgument("FilterPredicate." + opName(op) + " needs at least one condition");
  }
  auto node = std::make_shared<Node>();
  node->op = op;
  node->children = std::move(children);
  return FilterPredicate(std::move(node));
}

FilterPredicate FilterPredicate::and_(std::vector<FilterPredicate> children) {
  return combine(Op::kAnd, std::move(children));
}

FilterPredicate FilterPredicate::or_(std::vector<FilterPredicate> children) {
  return combine(Op::kOr, std::move(children));
}

FilterPredicate FilterPredicate::not_(FilterPredicate child) {
  std::vector<FilterPredicate> children;
  children.push_back(std::move(child));
  return combine(Op::kNot, std::move(children));
}

std::string FilterPredicate::toString() const {
  std::string out = opName(op()) + "(";
  if (!children().empty()) {
    for (size_t i = 0; i < children().size(); ++i) {
      if (i > 0) out += ", ";
      out += children()[i].toString();
    }
    return out + ")";
  }
  out += column();
  if (op() == Op::kIntersects) {
    for (double v : box()) out += ", " + literalToString(v);
  }
  for (const auto& l : literals()) out += ", " + literalToString(l);
  return out + ")";
}

}  // namespace quarry::parquet
