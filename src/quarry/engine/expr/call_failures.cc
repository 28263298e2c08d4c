#include "quarry/engine/expr/call_failures.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <type_traits>
#include <variant>

#include "quarry/engine/expr/conversion_functions.h"
#include "quarry/engine/expr/mv_functions.h"

namespace quarry::engine {

namespace {

constexpr std::array<std::string_view, 17> kFailing = {
    "to_integer", "to_long",     "to_unsigned_long",
    "to_double",  "to_datetime", "date_parse",
    "date_diff",  "to_ip",       "sqrt",
    "log",        "log10",       "asin",
    "acos",       "pow",         "sinh",
    "cosh",       "abs"};

/// "integer overflow", "long overflow", "unsigned_long overflow" (Java's
/// Math.*Exact texts, ES|QL's type names), "decimal(18,2) overflow".
std::string overflowText(const DataType& type) {
  switch (type.kind) {
    case TypeKind::kInt32:
      return "integer overflow";
    case TypeKind::kInt64:
      return "long overflow";
    case TypeKind::kUInt64:
      return "unsigned_long overflow";
    default:
      return type.toString() + " overflow";
  }
}

bool isZero(const Scalar& value) {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, Int128>) {
          return v == T{0};
        } else {
          return false;
        }
      },
      value);
}

std::string_view targetName(const std::string& function) {
  if (function == "to_integer") return "integer";
  if (function == "to_long") return "long";
  if (function == "to_unsigned_long") return "unsigned_long";
  return "double";
}

/// Whether `text` reads as a number at all (so that its failure is its range).
bool readsAsNumber(std::string_view text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return false;
  text = text.substr(first, text.find_last_not_of(' ') + 1 - first);
  if (!text.empty() &&
      (text.back() == 'f' || text.back() == 'F' || text.back() == 'd' || text.back() == 'D')) {
    text.remove_suffix(1);
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return end == text.data() + text.size() && error != std::errc::invalid_argument;
}

std::string conversionFailure(const std::string& function, const Block& in, size_t row) {
  const std::string value = valueText(in, row);
  if (in.type().kind == TypeKind::kString && !readsAsNumber(value)) {
    return "Cannot parse number [" + value + "]";
  }
  return "[" + value + "] out of [" + std::string(targetName(function)) + "] range";
}

std::string mathFailure(const std::string& function, const CallArgs& args, size_t row) {
  const std::string x = valueText(args.back(), row);
  if (function == "sqrt") return "Square root of negative number [" + x + "]";
  if (function == "log10") return "Log of non-positive number [" + x + "]";
  if (function == "log") {
    if (args.size() == 2) {
      const std::string base = valueText(args[0], row);
      return "Log of [" + x + "] in base [" + base + "]: the base must be positive and not 1, " +
             "the number positive";
    }
    return "Log of non-positive number [" + x + "]";
  }
  if (function == "asin" || function == "acos") {
    return function + " of [" + x + "]: the argument must be in [-1, 1]";
  }
  if (function == "pow") {
    return "pow([" + valueText(args[0], row) + "], [" + x + "]) is not a finite double";
  }
  return function + "([" + x + "]) is not a finite double";
}

}  // namespace

bool callCanFail(const std::string& name) {
  return std::find(kFailing.begin(), kFailing.end(), name) != kFailing.end();
}

std::string describeCallFailure(const BoundExpr& call, const CallArgs& args, size_t row) {
  const std::string& name = call.name;
  if (name == "to_integer" || name == "to_long" || name == "to_unsigned_long" ||
      name == "to_double") {
    return conversionFailure(name, args[0], row);
  }
  if (name == "to_datetime" || name == "date_parse") {
    const Block& value = args.back();
    if (value.type().kind != TypeKind::kString) {
      return "[" + valueText(value, row) + "] out of [datetime] range";
    }
    const std::string format = args.size() == 2 ? std::string(args[0].bytes(row))
                                                : std::string("strict_date_optional_time");
    return "failed to parse date field [" + std::string(value.bytes(row)) + "] with format [" +
           format + "]";
  }
  if (name == "date_diff") {
    return "integer overflow: the difference in " + valueText(args[0], row) + " from [" +
           valueText(args[1], row) + "] to [" + valueText(args[2], row) +
           "] is out of [integer] range";
  }
  if (name == "to_ip") {
    if (args[0].type().kind == TypeKind::kString) {
      return "'" + std::string(args[0].bytes(row)) + "' is not an IP string literal.";
    }
    return "[" + valueText(args[0], row) + "] out of [ip] range: an IPv4 address is 0 to " +
           "4294967295";
  }
  if (name == kSingleValueFunction) return "single-value function encountered multi-value";
  if (name == "abs") return overflowText(call.type) + ": abs(" + valueText(args[0], row) + ")";
  if (callCanFail(name)) return mathFailure(name, args, row);
  std::string values;
  for (const Block& arg : args) values += (values.empty() ? "" : ", ") + valueText(arg, row);
  return name + " gave no value for [" + values + "]";
}

std::string describeArithmeticFailure(BinaryOp op, const Block& left, size_t leftRow,
                                      const Block& right, size_t rightRow, const DataType& type) {
  if ((op == BinaryOp::kDivide || op == BinaryOp::kModulo) && isZero(right.scalarAt(rightRow))) {
    return "/ by zero";  // Java's ArithmeticException text, as ES|QL's
  }
  return overflowText(type) + ": " + valueText(left, leftRow) + " " + binaryOpText(op) + " " +
         valueText(right, rightRow);
}

std::string describeNegationFailure(const Block& in, size_t row, const DataType& type) {
  return overflowText(type) + ": -(" + valueText(in, row) + ")";
}

}  // namespace quarry::engine
