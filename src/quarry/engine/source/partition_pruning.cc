#include "quarry/engine/source/partition_pruning.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>

#include "quarry/engine/expr/evaluator.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/source/format_reader.h"
#include "quarry/io/glob.h"

namespace quarry::engine {

void collectConjuncts(const Expr& condition, std::vector<Expr>& out) {
  if (condition.is<BinaryExpr>() && condition.as<BinaryExpr>().op == BinaryOp::kAnd) {
    const BinaryExpr& both = condition.as<BinaryExpr>();
    collectConjuncts(*both.left, out);
    collectConjuncts(*both.right, out);
    return;
  }
  out.push_back(condition);
}

std::vector<bool> keepByPath(std::span<const Expr> conjuncts, std::span<const std::string> uris,
                             const HivePartitions& partitions,
                             const std::function<std::optional<std::vector<uint64_t>>()>& sizes) {
  const size_t n = uris.size();
  std::vector<bool> keep(n, true);
  if (conjuncts.empty() || n == 0) return keep;
  // One row per file: its partition values, its path and, once asked for, its size.
  Schema schema = partitions.columns;
  std::vector<Block> blocks;
  for (size_t c = 0; c < partitions.columns.size(); ++c) {
    Block block(partitions.columns[c].type);
    block.reserve(n);
    for (size_t f = 0; f < n; ++f) block.appendScalar(partitions.values[f][c]);
    blocks.push_back(std::move(block));
  }
  schema.push_back(Field{kFilePathColumn, DataType::string()});
  Block paths(DataType::string());
  paths.reserve(n);
  for (const std::string& uri : uris) paths.appendBytes(uri);
  blocks.push_back(std::move(paths));
  bool sizesAsked = false;
  for (const Expr& conjunct : conjuncts) {
    BoundExprPtr bound;
    try {
      bound = bindExpression(conjunct, schema);
    } catch (const UnknownColumnError& e) {
      if (e.columnName() != kFileSizeColumn || sizesAsked) continue;
      sizesAsked = true;
      std::optional<std::vector<uint64_t>> known = sizes();
      if (!known || known->size() != n) continue;
      schema.push_back(Field{kFileSizeColumn, DataType::int64()});
      Block block(DataType::int64());
      block.reserve(n);
      for (uint64_t size : *known) block.append<int64_t>(static_cast<int64_t>(size));
      blocks.push_back(std::move(block));
      try {
        bound = bindExpression(conjunct, schema);
      } catch (const QueryError&) {
        continue;
      }
    } catch (const QueryError&) {
      continue;  // the planner reports it with the whole schema at hand
    }
    if (bound->type.kind != TypeKind::kBoolean) continue;
    Block result;
    try {
      Warnings failures;
      result = evaluate(*bound, Page(blocks, n), failures);
      // A row that failed (an overflow, a division by zero) is null, which would
      // prune its file: left to the scan, which warns where it applies.
      if (!failures.empty()) continue;
    } catch (const std::exception&) {
      continue;  // left to the scan, which raises it where it applies
    }
    const std::span<const uint8_t> values = result.values<uint8_t>();
    for (size_t f = 0; f < n; ++f) {
      if (result.isNull(f) || values[f] == 0) keep[f] = false;
    }
  }
  return keep;
}

namespace {

/// The text `literal` is written as in a `key=value` folder, when not in doubt
/// (see narrowByPartitionEqualities); nullopt otherwise.
std::optional<std::string> pathForm(const Expr& literal) {
  bool negative = false;
  const Expr* at = &literal;
  if (at->is<UnaryExpr>() && at->as<UnaryExpr>().op == UnaryOp::kNegate) {
    negative = true;
    at = &*at->as<UnaryExpr>().operand;
  }
  if (!at->is<Literal>()) return std::nullopt;
  const Literal& value = at->as<Literal>();
  if (const IntegerLiteral* integer = std::get_if<IntegerLiteral>(&value)) {
    const uint64_t limit =
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
    if (integer->value > limit) return std::nullopt;
    if (integer->value == 0) return "0";
    return (negative ? "-" : "") + std::to_string(integer->value);
  }
  const StringLiteral* string = std::get_if<StringLiteral>(&value);
  if (negative || string == nullptr || string->value.empty()) return std::nullopt;
  const std::string& text = string->value;
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
  });
  if (!plain || text == "__HIVE_DEFAULT_PARTITION__") return std::nullopt;
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "null") return std::nullopt;
  if (!(autocastHiveType(std::span(&text, 1)) == DataType::string())) return std::nullopt;
  return text;
}

/// Whether `e` is a reference to the column `key`.
bool isColumn(const Expr& e, const std::string& key) {
  return e.is<ColumnRef>() && e.as<ColumnRef>().name.parts == std::vector<std::string>{key};
}

/// The path form of the value a conjunct `key == v` or `key IN (v)` gives `key`.
std::optional<std::string> equalityOn(const std::string& key, std::span<const Expr> conjuncts) {
  for (const Expr& conjunct : conjuncts) {
    if (conjunct.is<BinaryExpr>() && conjunct.as<BinaryExpr>().op == BinaryOp::kEq) {
      const BinaryExpr& eq = conjunct.as<BinaryExpr>();
      const Expr* value = isColumn(*eq.left, key)    ? &*eq.right
                          : isColumn(*eq.right, key) ? &*eq.left
                                                     : nullptr;
      if (value == nullptr) continue;
      if (std::optional<std::string> form = pathForm(*value)) return form;
    } else if (conjunct.is<InExpr>()) {
      const InExpr& in = conjunct.as<InExpr>();
      if (in.negated || in.list.size() != 1 || !isColumn(*in.operand, key)) continue;
      if (std::optional<std::string> form = pathForm(in.list.front())) return form;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string narrowByPartitionEqualities(const std::string& pattern, std::span<const Expr> conjuncts,
                                        std::span<const HiveType> hiveTypes) {
  constexpr std::string_view kScheme = "s3://";
  if (conjuncts.empty() || !std::string_view(pattern).starts_with(kScheme)) return pattern;
  const size_t keyStart = pattern.find('/', kScheme.size());
  if (keyStart == std::string::npos) return pattern;
  // The key's folders and file name.
  std::vector<std::string> segments;
  for (size_t at = keyStart + 1;;) {
    const size_t end = pattern.find('/', at);
    segments.push_back(pattern.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  size_t first = 0;
  while (first < segments.size() && !io::hasGlob(segments[first])) ++first;
  bool narrowed = false;
  // Folders only (the last segment is the file name), from the first with a wildcard.
  for (size_t i = first; i + 1 < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const size_t equals = segment.find('=');
    if (equals == 0 || equals == std::string::npos || segment.substr(equals) != "=*") break;
    const std::string key = segment.substr(0, equals);
    if (io::hasGlob(key)) break;
    // A key met on an earlier folder keeps that folder's value (hivePathSegments).
    if (std::any_of(segments.begin(), segments.begin() + static_cast<std::ptrdiff_t>(i),
                    [&](const std::string& s) { return s.starts_with(key + "="); })) {
      break;
    }
    if (std::any_of(hiveTypes.begin(), hiveTypes.end(),
                    [&](const HiveType& t) { return t.column == key; }))
      break;
    const std::optional<std::string> value = equalityOn(key, conjuncts);
    if (!value) break;
    segments[i] = key + "=" + *value;
    narrowed = true;
  }
  if (!narrowed) return pattern;
  std::string out = pattern.substr(0, keyStart);
  for (const std::string& segment : segments) out += "/" + segment;
  return out;
}

}  // namespace quarry::engine
