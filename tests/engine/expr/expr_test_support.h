#pragma once

#include <charconv>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/evaluator.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/parse/query_parser.h"

/// Helpers for expression tests: build a page from per-column values, bind a
/// query expression against it, and render results as short strings.
namespace quarry::engine::testing {

inline Block column(DataType type, const std::vector<Scalar>& values) {
  Block block(type);
  for (const Scalar& v : values) block.appendScalar(v);
  return block;
}

struct Table {
  Schema schema;
  std::vector<Block> blocks;
  void add(std::string name, DataType type, const std::vector<Scalar>& values) {
    schema.push_back(Field{std::move(name), type});
    blocks.push_back(column(type, values));
  }
  Page page() const { return Page(blocks, blocks.empty() ? 0 : blocks[0].size()); }
};

/// Renders one position: NULL, true/false, the shortest double, raw string bytes,
/// a list as [e1, e2] of its elements rendered so.
inline std::string render(const Block& block, size_t i) {
  if (block.isNull(i)) return "NULL";
  if (block.type().isList()) {
    std::string out = "[";
    for (uint64_t e = block.listOffsets()[i]; e < block.listOffsets()[i + 1]; ++e) {
      if (e > block.listOffsets()[i]) out += ", ";
      out += render(block.listElements(), e);
    }
    return out + "]";
  }
  const Scalar value = block.scalarAt(i);
  switch (block.type().kind) {
    case TypeKind::kBoolean:
      return std::get<uint8_t>(value) ? "true" : "false";
    case TypeKind::kDouble: {
      char buffer[64];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(value));
      return std::string(buffer, result.ptr);
    }
    case TypeKind::kDecimal:
      return decimalToString(std::get<Int128>(value), block.type().scale);
    case TypeKind::kString:
    case TypeKind::kBinary:
      return std::get<std::string>(value);
    default:
      return literalToString(value, block.type());
  }
}

inline std::vector<std::string> renderAll(const Block& block) {
  std::vector<std::string> out;
  for (size_t i = 0; i < block.size(); ++i) out.push_back(render(block, i));
  return out;
}

inline BoundExprPtr bindText(const std::string& text, const Schema& schema) {
  return bindExpression(parseExpression(text), schema);
}

/// Evaluates `text` over `table` and renders every position.
inline std::vector<std::string> eval(const std::string& text, const Table& table) {
  const BoundExprPtr bound = bindText(text, table.schema);
  const Page page = table.page();
  const Block result = evaluate(*bound, page);
  EXPECT_EQ(result.size(), page.positionCount());
  EXPECT_EQ(result.type(), bound->type) << text;
  return renderAll(result);
}

/// A table of one row with no columns used: for constant expressions.
inline Table oneRow() {
  Table t;
  t.add("one", DataType::int32(), {int32_t{1}});
  return t;
}

/// Evaluates a constant expression on one row.
inline std::string eval1(const std::string& text) {
  return eval(text, oneRow()).at(0);
}

}  // namespace quarry::engine::testing
